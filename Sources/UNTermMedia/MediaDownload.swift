import CMediaFetch
import Foundation
import UserNotificationsModel

/// One `http(s)` download streamed into a file of the media cache, through libcurl loaded on
/// first use (`CMediaFetch`): nothing of the networking stack is loaded before an attachment
/// needs it.
///
/// The body goes to disk as it arrives. It is refused as soon as its type is known to be one
/// UNTerm cannot attach, or its size passes the limit for its type (iOS's: 10 MB for images,
/// 5 MB for audio, 50 MB for movies; the type comes from the first bytes, before them from the
/// Content-Type, else the largest limit applies) — or the Content-Length says it will. It stops
/// at its deadline, and within 50 ms of `cancel()`. A refused or stopped download leaves no file.
package final class MediaDownload: @unchecked Sendable {
  /// How a download ended.
  package enum Outcome: Equatable, Sendable {
    /// The body is in `file`; `typeHint` is the UTI its Content-Type names, if any.
    case downloaded(file: URL, bytes: Int, typeHint: String?)
    /// It was refused or stopped; `reason` is one clause for a trace line ("HTTP 404", "…").
    case refused(reason: String)
    /// The deadline passed after `bytes` bytes.
    case timedOut(bytes: Int)
    /// `cancel()` stopped it.
    case cancelled
  }

  private let transfer: OpaquePointer

  /// The largest piece of body held in memory at once by the last `run` (for tests).
  package private(set) var largestChunk = 0

  package init() throws(MediaError) {
    guard let transfer = mfetch_create() else { throw MediaError(.outOfMemory, "no memory for a download") }
    self.transfer = transfer
  }

  deinit { mfetch_destroy(transfer) }

  /// Stops the download from any thread (also before it starts).
  package func cancel() { mfetch_cancel(transfer) }

  /// Downloads `url` into a new file of `directory` (created 0700 if missing) named after the
  /// URL's last path component, taking at most `timeout` seconds.
  package func run(_ url: URL, into directory: URL, timeout: TimeInterval) -> Outcome {
    let file: URL
    let fd: Int32
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let name = url.lastPathComponent.isEmpty || url.lastPathComponent == "/" ? "download" : url.lastPathComponent
      file = directory.appendingPathComponent("\(UUID().uuidString)-\(name)")
      fd = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard fd >= 0 else {
        return .refused(reason: "the media cache cannot be written (\(String(cString: strerror(errno))))")
      }
    } catch {
      return .refused(reason: "the media cache cannot be created (\(error.localizedDescription))")
    }
    let judge = Judge()
    let context = Unmanaged.passRetained(judge)
    defer { context.release() }
    var result = mfetch_result()
    let millis = UInt32(max(1, min(Double(UInt32.max), (timeout * 1000).rounded(.up))))
    url.absoluteString.withCString { text in
      var request = mfetch_request(
        url: text, fd: fd, timeout_ms: millis,
        judge: { context, response in
          guard let context, let response else { return -1 }
          return Unmanaged<Judge>.fromOpaque(context).takeUnretainedValue().judge(response.pointee)
        }, judge_context: context.toOpaque())
      _ = mfetch_run(transfer, &request, &result)
    }
    close(fd)
    largestChunk = result.largest_chunk
    let bytes = Int(result.bytes)
    let outcome: Outcome
    switch Int32(result.outcome) {
    case Int32(MFETCH_OK):
      let type = withUnsafeBytes(of: result.content_type) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      return .downloaded(file: file, bytes: bytes, typeHint: Self.typeHint(mime: type))
    case Int32(MFETCH_REFUSED):
      outcome = .refused(reason: judge.refusal ?? "refused")
    case Int32(MFETCH_TOO_LARGE):
      outcome = .refused(reason: "stopped after \(bytes) bytes: \(judge.limitText ?? "over the limit")")
    case Int32(MFETCH_TIMEOUT):
      outcome = .timedOut(bytes: bytes)
    case Int32(MFETCH_CANCELLED):
      outcome = .cancelled
    default:
      outcome = .refused(
        reason: withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
    unlink(file.path)
    return outcome
  }

  /// The UTI a Content-Type names, for the attachment's type hint.
  package static func typeHint(mime: String?) -> String? {
    switch mime?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() {
    case "image/png": return "public.png"
    case "image/jpeg", "image/jpg": return "public.jpeg"
    case "image/gif": return "com.compuserve.gif"
    case "audio/mpeg": return "public.mp3"
    case "audio/wav", "audio/x-wav": return "com.microsoft.waveform-audio"
    case "audio/mp4", "audio/x-m4a": return "public.mpeg-4-audio"
    case "video/mp4": return "public.mpeg-4"
    default: return nil
    }
  }
}

/// Decides, from what the response shows so far, how many body bytes may come.
private final class Judge {
  /// Why the download was refused, for the trace.
  var refusal: String?
  /// The limit in force, in words ("the body passes the 10000000-byte limit for images").
  var limitText: String?

  /// The largest limit of any attachment kind.
  static let largest: UNAttachmentKind = .movie

  func judge(_ response: mfetch_response) -> Int64 {
    guard (200..<300).contains(response.status) else {
      refusal = "HTTP \(response.status)"
      return -1
    }
    let contentType = response.content_type.map { String(cString: $0) }
    var kind = MediaDownload.typeHint(mime: contentType).flatMap(UNAttachmentFormat.init(uti:))?.kind
    if response.head_length > 0 || response.complete != 0 {
      let head = response.head.map { Array(UnsafeBufferPointer(start: $0, count: response.head_length)) } ?? []
      guard let format = UNAttachmentFormat(sniffing: head) else {
        refusal = "the content is not a supported image, audio or movie format"
        return -1
      }
      kind = format.kind
    }
    let limit = (kind ?? Self.largest).maximumByteCount
    let what = kind.map { $0 == .audio ? "audio" : "\($0.rawValue)s" } ?? "any attachment"
    limitText = "the body passes the \(limit)-byte limit for \(what)"
    if response.content_length > Int64(limit) {
      refusal = "the server says \(response.content_length) bytes; \(what) may be at most \(limit) bytes"
      return -1
    }
    return Int64(limit)
  }
}
