import Foundation
import UNTermInput
import UNTermMedia
import UserNotificationsModel

/// The service extension for users without Swift code: it reads a media URL from the payload's
/// `attachment-url`, `image-url` or `media-url` (in that order) and attaches the file.
///
/// Relative paths resolve against the payload's folder; they and `file:` URLs must stay inside
/// the media folder after resolving `..` and links. `http(s)` URLs are downloaded by
/// `MediaDownload` (libcurl, loaded only then) straight into a file of the media cache, refused
/// once past the size limit for their type, and cut off when the budget ends. Whatever goes
/// wrong, the notification is shown without the attachment, and the trace says why.
package final class BuiltInServiceExtension: UNNotificationServiceExtension, @unchecked Sendable {
  private let payloadDirectory: URL
  private let mediaDirectory: URL
  /// The option that names another media folder, for the message when a file lies outside.
  private let mediaDirectoryOption: String
  private let budget: TimeInterval
  private let trace: @Sendable (TraceLine) -> Void
  private let downloads: URL
  private let state = ExpiryState()
  /// When the extension was made: the budget runs from here.
  private let started = Date()

  package init(
    payloadDirectory: URL, mediaDirectory: URL?, mediaDirectoryOption: String = "--media-dir", budget: TimeInterval,
    trace: @escaping @Sendable (TraceLine) -> Void
  ) {
    self.payloadDirectory = payloadDirectory
    self.mediaDirectory = mediaDirectory ?? payloadDirectory
    self.mediaDirectoryOption = mediaDirectoryOption
    self.budget = budget
    self.trace = trace
    downloads = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-media-\(getpid())")
    super.init()
  }

  override package func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let id = request.identifier
    // Whoever finishes first — the download, an error, or expiry — calls the handler, once.
    let once = OnceHandler(contentHandler)
    let contentHandler: (UNNotificationContent) -> Void = { once.call($0) }
    guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
      contentHandler(request.content)
      return
    }
    guard
      let (key, value) = PayloadAnalyzer.attachmentURLKeys.lazy
        .compactMap({ key in (content.userInfo[key] as? String).map { (key, $0) } })
        .first(where: { !$0.1.isEmpty })
    else {
      trace("\(id): no attachment-url, image-url or media-url; nothing to attach")
      contentHandler(content)
      return
    }
    func attach(_ url: URL, hint: String? = nil) {
      do {
        let options = hint.map { [UNNotificationAttachmentOptionsTypeHintKey: $0] }
        let downloaded = url.path.hasPrefix(downloads.path)
        let checker = UNAttachmentChecker(
          confinedTo: downloaded ? downloads : mediaDirectory, widenedBy: downloaded ? nil : mediaDirectoryOption)
        let attachment = try UNNotificationAttachment(identifier: "media", url: url, options: options, checker: checker)
        content.attachments = [attachment]
        let mismatch = attachment.contentMismatch.map { " — \($0)" } ?? ""
        trace("\(id): attached \(attachment.format.displayName) (\(attachment.byteCount) bytes) from \(key)\(mismatch)")
      } catch let error as UNError {
        trace("\(id): attachment rejected — \(error.description); shown without it")
      } catch {
        trace("\(id): attachment rejected — \(error); shown without it")
      }
      contentHandler(content)
    }
    switch MediaLocation(value, relativeTo: payloadDirectory) {
    case .remote(let url):
      let box = HandlerBox(attach: { attach($0, hint: $1) }, fallback: { contentHandler(content) })
      let original = request.content
      state.set(fallback: { contentHandler(original) })
      download(url, request: request, key: key) { file, hint in
        if let file { box.attach(file, hint) } else { box.fallback() }
      }
    case .file(let fileURL):
      attach(fileURL)
    case .unsupported:
      trace("\(id): \(key) \(OneLine.quote(value)) is neither a path, a file: URL nor an http(s) URL; shown without it")
      contentHandler(content)
    }
  }

  /// At expiry, the download is cancelled and the notification shown without the attachment.
  /// Whichever stops the download first — its own timeout or this call — it is the same event
  /// for the user, and the trace says it in the same words.
  override package func serviceExtensionTimeWillExpire() {
    let (download, fallback, id) = state.take()
    download?.cancel()
    if let fallback {
      trace("\(id): download stopped — the \(ServicePipeline.format(budget)) budget ran out; shown without it")
      fallback()
    }
  }

  /// Downloads on a thread of its own, within what is left of the budget.
  private func download(
    _ url: URL, request: UNNotificationRequest, key: String, completion: @escaping @Sendable (URL?, String?) -> Void
  ) {
    let id = request.identifier
    let remaining = max(0.001, budget - Date().timeIntervalSince(started))
    let download: MediaDownload
    do {
      download = try MediaDownload()
    } catch {
      trace("\(id): download failed — \(error.description); shown without it")
      completion(nil, nil)
      return
    }
    state.set(download: download, for: id)
    trace(
      "\(id): downloading \(OneLine.quote(url.absoluteString, limit: 60)) (timeout \(ServicePipeline.format(remaining)))"
    )
    let directory = downloads
    let trace = self.trace
    let budget = self.budget
    let thread = Thread {
      let began = Date()
      switch download.run(url, into: directory, timeout: remaining) {
      case .downloaded(let file, let bytes, let hint):
        trace(
          TraceLine(
            "\(id): downloaded \(bytes) bytes", timing: "in \(ServicePipeline.format(Date().timeIntervalSince(began)))")
        )
        completion(file, hint)
      case .refused(let reason):
        trace("\(id): download refused — \(OneLine.flatten(reason)); shown without it")
        completion(nil, nil)
      case .timedOut(let bytes):
        trace(
          "\(id): download stopped — the \(ServicePipeline.format(budget)) budget ran out; shown without it (\(bytes) bytes had arrived)"
        )
        completion(nil, nil)
      case .cancelled:
        completion(nil, nil)
      }
    }
    thread.name = "unterm.download"
    thread.start()
  }
}

/// Carries the attach and fall-back steps to the download's thread.
private struct HandlerBox: @unchecked Sendable {
  let attach: (URL, String?) -> Void
  let fallback: () -> Void
}

/// What expiry needs from a running download, shared between the extension's threads.
private final class ExpiryState: @unchecked Sendable {
  private let lock = NSLock()
  private var download: MediaDownload?
  private var fallback: (() -> Void)?
  /// The request the download is for.
  private var id = ""

  func set(download newDownload: MediaDownload, for request: String) {
    lock.lock()
    download = newDownload
    id = request
    lock.unlock()
  }

  func set(fallback newFallback: @escaping () -> Void) {
    lock.lock()
    fallback = newFallback
    lock.unlock()
  }

  func take() -> (MediaDownload?, (() -> Void)?, String) {
    lock.lock()
    defer { lock.unlock() }
    return (download, fallback, id)
  }
}

/// Calls a content handler at most once, from whichever thread gets there first.
private final class OnceHandler: @unchecked Sendable {
  private let lock = NSLock()
  private var handler: ((UNNotificationContent) -> Void)?

  init(_ handler: @escaping (UNNotificationContent) -> Void) { self.handler = handler }

  func call(_ content: UNNotificationContent) {
    lock.lock()
    let h = handler
    handler = nil
    lock.unlock()
    h?(content.copy() as? UNNotificationContent ?? content)
  }
}
