import Foundation

/// Option key: a UTI string saying what type the file is.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
/// Option key: a Boolean `NSNumber`; `true` hides the thumbnail.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailHiddenKey =
  "UNNotificationAttachmentOptionsThumbnailHiddenKey"
/// Option key: a dictionary for a normalized rectangle (0…1) used to clip the thumbnail.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey =
  "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
/// Option key: the frame number or time (seconds) used for the thumbnail.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailTimeKey =
  "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// A local audio, image or video file shown with a notification.
///
/// As on iOS the initializer checks that the URL is a local file, that its type is supported
/// and that its size is within the limit for that type; unlike iOS, UNTerm leaves the file
/// where it is instead of moving it into a data store. The type comes from the type hint
/// (`UNNotificationAttachmentOptionsTypeHintKey`) or else the file name's extension, as iOS
/// types it; the bytes decide nothing. Content that does not match its type is still
/// attached: `contentMismatch` says why, and an image then shows as unreadable.
open class UNNotificationAttachment: NSObject, NSCopying, @unchecked Sendable {
  /// The attachment's identifier; generated when an empty one was given.
  public let identifier: String
  /// The file's URL.
  public let url: URL
  /// The file's type as a UTI, such as `public.png`.
  public let type: String

  /// The file's type: from the type hint, else from the file name's extension.
  package let format: UNAttachmentFormat
  /// What the file's first bytes show it holds, when they match a supported format.
  package let contentFormat: UNAttachmentFormat?
  /// Why the content does not match `format` (the diagnostic `--trace` and lint give), or
  /// `nil` when it does. An image attachment with a mismatch shows as unreadable.
  package let contentMismatch: String?
  /// The file's size in bytes when it was attached.
  package let byteCount: Int
  /// Whether the thumbnail is hidden.
  package let isThumbnailHidden: Bool
  /// The normalized clipping rectangle for the thumbnail, when one was given.
  package let thumbnailClip: (x: Double, y: Double, width: Double, height: Double)?

  private static let counter = AttachmentCounter()

  /// Creates an attachment for a local file.
  ///
  /// - Throws: `UNError` with `attachmentInvalidURL` for a non-file URL or a missing file,
  ///   `attachmentUnrecognizedType` when neither the type hint nor the file name's extension
  ///   names a supported type, and `attachmentInvalidFileSize` when the file is empty or over
  ///   its type's limit.
  public convenience init(
    identifier: String, url: URL, options: [AnyHashable: Any]? = nil
  ) throws {
    try self.init(identifier: identifier, url: url, options: options, checker: .standard)
  }

  package init(
    identifier: String, url: URL, options: [AnyHashable: Any]?, checker: UNAttachmentChecker
  ) throws {
    let hint = options?[UNNotificationAttachmentOptionsTypeHintKey] as? String
    let checked = try checker.check(url: url, typeHint: hint)
    self.identifier = identifier.isEmpty ? Self.counter.next() : identifier
    self.url = url
    self.format = checked.format
    self.contentFormat = checked.contentFormat
    self.contentMismatch = checked.mislabel
    self.type = checked.format.uti
    self.byteCount = checked.byteCount
    self.isThumbnailHidden =
      (options?[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool) ?? false
    self.thumbnailClip = Self.clip(
      options?[UNNotificationAttachmentOptionsThumbnailClippingRectKey])
    super.init()
  }

  private static func clip(_ value: Any?) -> (x: Double, y: Double, width: Double, height: Double)? {
    guard let dict = value as? [AnyHashable: Any] else { return nil }
    func number(_ key: String) -> Double? {
      (dict[key] as? Double) ?? (dict[key] as? Int).map(Double.init)
    }
    guard let x = number("X"), let y = number("Y"), let w = number("Width"),
      let h = number("Height"), w > 0, h > 0
    else { return nil }
    return (x, y, w, h)
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override var description: String {
    "<UNNotificationAttachment: identifier: \(identifier), url: \(url.path), type: \(type)>"
  }
}

/// Hands out generated attachment identifiers.
private final class AttachmentCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func next() -> String {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return "attachment-\(value)"
  }
}

/// The media kinds iOS accepts as attachments, each with its size limit.
public enum UNAttachmentKind: String, Sendable, Hashable {
  case image, audio, movie

  /// The largest file iOS accepts for this kind, in bytes (decimal megabytes).
  public var maximumByteCount: Int {
    switch self {
    case .image: return 10_000_000
    case .audio: return 5_000_000
    case .movie: return 50_000_000
    }
  }
}

/// A file format recognized from its content.
public enum UNAttachmentFormat: String, Sendable, Hashable, CaseIterable {
  case png, jpeg, gif, mp3, wav, aiff, m4a, mpeg, mpeg2Video, mp4, avi

  /// The format's kind.
  public var kind: UNAttachmentKind {
    switch self {
    case .png, .jpeg, .gif: return .image
    case .mp3, .wav, .aiff, .m4a: return .audio
    case .mpeg, .mpeg2Video, .mp4, .avi: return .movie
    }
  }

  /// The format's uniform type identifier.
  public var uti: String {
    switch self {
    case .png: return "public.png"
    case .jpeg: return "public.jpeg"
    case .gif: return "com.compuserve.gif"
    case .mp3: return "public.mp3"
    case .wav: return "com.microsoft.waveform-audio"
    case .aiff: return "public.aiff-audio"
    case .m4a: return "public.mpeg-4-audio"
    case .mpeg: return "public.mpeg"
    case .mpeg2Video: return "public.mpeg-2-video"
    case .mp4: return "public.mpeg-4"
    case .avi: return "public.avi"
    }
  }

  /// A short name for people: `PNG`, `JPEG`, `MP3`…
  public var displayName: String {
    switch self {
    case .png: return "PNG"
    case .jpeg: return "JPEG"
    case .gif: return "GIF"
    case .mp3: return "MP3"
    case .wav: return "WAV"
    case .aiff: return "AIFF"
    case .m4a: return "MPEG-4 audio"
    case .mpeg: return "MPEG"
    case .mpeg2Video: return "MPEG-2 video"
    case .mp4: return "MPEG-4"
    case .avi: return "AVI"
    }
  }

  /// The format a UTI names, including the older aliases apps pass as type hints.
  public init?(uti: String) {
    let aliases: [String: UNAttachmentFormat] = [
      "public.jpg": .jpeg, "public.mpeg-4-audio": .m4a, "com.apple.m4a-audio": .m4a,
      "public.aifc-audio": .aiff, "public.aiff": .aiff, "com.microsoft.waveform-audio": .wav,
      "public.mpeg-4": .mp4, "com.apple.quicktime-movie": .mp4, "public.avi": .avi,
      "com.microsoft.avi": .avi,
    ]
    if let format = Self.allCases.first(where: { $0.uti == uti }) ?? aliases[uti] {
      self = format
    } else {
      return nil
    }
  }

  /// The format a file-name extension suggests.
  public init?(pathExtension: String) {
    switch pathExtension.lowercased() {
    case "png": self = .png
    case "jpg", "jpeg", "jpe": self = .jpeg
    case "gif": self = .gif
    case "mp3": self = .mp3
    case "wav", "wave": self = .wav
    case "aif", "aiff", "aifc": self = .aiff
    case "m4a": self = .m4a
    case "mpg", "mpeg": self = .mpeg
    case "m2v": self = .mpeg2Video
    case "mp4", "m4v", "mov": self = .mp4
    case "avi": self = .avi
    default: return nil
    }
  }

  /// The format the first bytes of a file show, or `nil` when they match none.
  public init?(sniffing bytes: [UInt8]) {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
    }
    func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if starts([0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if ascii("GIF87a") || ascii("GIF89a") {
      self = .gif
    } else if ascii("RIFF") && ascii("WAVE", at: 8) {
      self = .wav
    } else if ascii("RIFF") && ascii("AVI ", at: 8) {
      self = .avi
    } else if ascii("FORM") && (ascii("AIFF", at: 8) || ascii("AIFC", at: 8)) {
      self = .aiff
    } else if ascii("ftyp", at: 4) {
      let brand = bytes.count >= 12 ? String(decoding: bytes[8..<12], as: UTF8.self) : ""
      self = ["M4A ", "M4B ", "M4P "].contains(brand) ? .m4a : .mp4
    } else if starts([0x00, 0x00, 0x01, 0xBA]) {
      self = .mpeg
    } else if starts([0x00, 0x00, 0x01, 0xB3]) {
      self = .mpeg2Video
    } else if ascii("ID3") || (bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) {
      self = .mp3
    } else {
      return nil
    }
  }
}

/// The checks iOS makes when an attachment is created: a local file, a supported type named
/// by the type hint or the file name's extension, and a size within that type's limit. The
/// first bytes are read too, but only to say when the content does not match the type.
package struct UNAttachmentChecker: Sendable {
  /// The folder attachments must stay inside, after resolving `..` and symbolic links.
  package var confinedTo: URL?
  /// The option that widens the folder (`--media-dir`), named when a file lies outside it.
  package var widenedBy: String?

  package static let standard = UNAttachmentChecker(confinedTo: nil)

  package init(confinedTo: URL?, widenedBy: String? = nil) {
    self.confinedTo = confinedTo
    self.widenedBy = widenedBy
  }

  /// What a successful check found.
  package struct Result: Sendable {
    /// The type, as iOS takes it: from the type hint, else from the file name.
    package var format: UNAttachmentFormat
    package var byteCount: Int
    /// What the first bytes show, when they match a supported format.
    package var contentFormat: UNAttachmentFormat?
    /// Why the content does not match the type, when it does not.
    package var mislabel: String?
  }

  /// The file name extensions iOS recognizes, for messages.
  private static let knownExtensions = ".png, .jpg, .gif, .mp3, .wav, .aiff, .m4a, .mpg, .mp4, .mov or .avi"

  package func check(url: URL, typeHint: String?) throws(UNError) -> Result {
    guard url.isFileURL else {
      throw UNError(
        .attachmentInvalidURL,
        "\(url.absoluteString): an attachment must be a local file URL; download remote media first"
      )
    }
    let path = url.standardizedFileURL.resolvingSymlinksInPath().path
    if let root = confinedTo {
      let rootPath = root.standardizedFileURL.resolvingSymlinksInPath().path
      let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
      guard path.hasPrefix(prefix) else {
        let reason =
          widenedBy.map { "; allow it with \($0) (.. and links are resolved first)" }
          ?? " (after resolving .. and links)"
        throw UNError(.attachmentInvalidURL, "\(url.path): outside the media folder \(rootPath)\(reason)")
      }
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else {
      throw UNError(.attachmentInvalidURL, "\(url.path): no such file")
    }
    // The type, as iOS takes it: the hint when one is given, else the name's extension.
    let format: UNAttachmentFormat
    let source: String
    if let typeHint {
      guard let hinted = UNAttachmentFormat(uti: typeHint) else {
        throw UNError(
          .attachmentUnrecognizedType, "\(url.path): the type hint \"\(typeHint)\" is not a supported attachment type")
      }
      format = hinted
      source = "the type hint"
    } else {
      guard let named = UNAttachmentFormat(pathExtension: url.pathExtension) else {
        let name = url.pathExtension.isEmpty ? "has no extension" : "ends in \".\(url.pathExtension)\""
        throw UNError(
          .attachmentUnrecognizedType,
          "\(url.path): the file name \(name), which names no supported type; name it \(Self.knownExtensions), or give UNNotificationAttachmentOptionsTypeHintKey"
        )
      }
      format = named
      source = "the file name"
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw UNError(.attachmentInvalidURL, "\(url.path): the file cannot be read")
    }
    defer { try? handle.close() }
    // The opened file's own size (one fstat): FileManager's attributes would also look up the
    // owner's and group's names and cast each value from Any, about 1.4 million instructions.
    var status = stat()
    let size = fstat(handle.fileDescriptor, &status) == 0 ? Int(status.st_size) : 0
    let head = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
    guard size > 0, !head.isEmpty else {
      throw UNError(.attachmentInvalidFileSize, "\(url.path): the file is empty")
    }
    guard size <= format.kind.maximumByteCount else {
      throw UNError(
        .attachmentInvalidFileSize,
        "\(url.path): this \(format.displayName) file is \(size) bytes; iOS accepts at most \(format.kind.maximumByteCount) bytes for \(format.kind == .audio ? "audio" : "\(format.kind.rawValue)s")"
      )
    }
    // The bytes are a diagnostic only: iOS attaches the file as the type says.
    let content = UNAttachmentFormat(sniffing: head)
    var mislabel: String?
    if let content, !content.isCompatible(with: format) {
      mislabel = "\(source) says \(format.displayName) but the content is \(content.displayName)"
    } else if content == nil {
      mislabel =
        "\(source) says \(format.displayName) but the content is not \(format.displayName) (its first bytes match no supported format)"
    }
    return Result(format: format, byteCount: size, contentFormat: content, mislabel: mislabel)
  }
}

extension UNAttachmentFormat {
  /// Whether content of this format is what a file typed `declared` should hold: the same
  /// format, or one the same container carries (MPEG-4 audio in an `.mp4`, MPEG-2 in an `.mpg`).
  package func isCompatible(with declared: UNAttachmentFormat) -> Bool {
    if self == declared { return true }
    let families: [Set<UNAttachmentFormat>] = [[.mp4, .m4a], [.mpeg, .mpeg2Video]]
    return families.contains { $0.contains(self) && $0.contains(declared) }
  }
}
