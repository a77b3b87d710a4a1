import UNTermMedia
import UNTermRender
import UserNotificationsModel

/// The image decoder sessions use: libpng and libjpeg-turbo behind UNTermMedia's limits.
package enum MediaSupport {
  /// A fresh image provider (decodes are cached per provider).
  package static func images() -> (any ImageProvider)? { MediaImages() }
}

extension MediaImages: AttachmentValidating {
  /// Why an image attachment cannot be drawn (corrupt, truncated, too large to decode); audio
  /// and movies are not decoded, so they are never dropped for it.
  package func problem(with attachment: UNNotificationAttachment) -> String? {
    guard attachment.format.kind == .image else { return nil }
    let reference = ImageReference(attachment: attachment, path: nil, label: attachment.url.lastPathComponent)
    guard art(of: reference, columns: 8, rows: 4) == nil else { return nil }
    return problem(for: reference).map { TerminalText.sanitize($0, multiline: false) } ?? "the image cannot be decoded"
  }
}

extension MediaImages: MediaDurationProviding {
  package func duration(of attachment: UNNotificationAttachment) -> Double? {
    guard attachment.format.kind != .image else { return nil }
    return MediaProbe.duration(of: attachment.url)
  }
}
