import Foundation
import UNTermCore
import UserNotifications

/// The service extension for users without Swift code: it reads a media URL from the payload's
/// `attachment-url`, `image-url` or `media-url` (in that order) and attaches the file.
///
/// Relative paths resolve against the payload's folder; they and `file:` URLs must stay inside
/// the media folder after resolving `..` and links. `http(s)` URLs are downloaded with
/// `URLSession`, with the remaining budget as the timeout. Whatever goes wrong, the
/// notification is shown without the attachment, and the trace says why.
package final class BuiltInServiceExtension: UNNotificationServiceExtension, @unchecked Sendable {
  private let payloadDirectory: URL
  private let mediaDirectory: URL
  /// The option that names another media folder, for the message when a file lies outside.
  private let mediaDirectoryOption: String
  private let budget: TimeInterval
  private let trace: @Sendable (TraceLine) -> Void
  private let downloads: URL
  private let state = ExpiryState()

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
        trace("\(id): attached \(attachment.format.displayName) (\(attachment.byteCount) bytes) from \(key)")
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
      state.set(
        task: download(url, request: request, key: key) { file, hint in
          if let file { box.attach(file, hint) } else { box.fallback() }
        })
    case .file(let fileURL):
      attach(fileURL)
    case .unsupported:
      trace("\(id): \(key) \(OneLine.quote(value)) is neither a path, a file: URL nor an http(s) URL; shown without it")
      contentHandler(content)
    }
  }

  /// At expiry, the download is cancelled and the notification shown without the attachment.
  override package func serviceExtensionTimeWillExpire() {
    let (task, fallback) = state.take()
    task?.cancel()
    if let fallback {
      trace("download cancelled at expiry; showing the notification without the attachment")
      fallback()
    }
  }

  private func download(
    _ url: URL, request: UNNotificationRequest, key: String, completion: @escaping @Sendable (URL?, String?) -> Void
  ) -> URLSessionTask {
    let id = request.identifier
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = max(0.1, budget)
    configuration.timeoutIntervalForResource = max(0.1, budget)
    let session = URLSession(configuration: configuration)
    trace(
      "\(id): downloading \(OneLine.quote(url.absoluteString, limit: 60)) (timeout \(ServicePipeline.format(budget)))")
    let started = Date()
    let directory = downloads
    let trace = self.trace
    let task = session.dataTask(with: url) { data, response, error in
      defer { session.finishTasksAndInvalidate() }
      if let error {
        trace("\(id): download failed — \(error.localizedDescription); shown without it")
        completion(nil, nil)
        return
      }
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      guard (200..<300).contains(status), let data else {
        trace("\(id): download failed — HTTP \(status); shown without it")
        completion(nil, nil)
        return
      }
      guard data.count <= UNAttachmentKind.movie.maximumByteCount else {
        trace("\(id): download is \(data.count) bytes, over every attachment limit; shown without it")
        completion(nil, nil)
        return
      }
      trace(
        TraceLine(
          "\(id): downloaded \(data.count) bytes",
          timing: "in \(ServicePipeline.format(Date().timeIntervalSince(started)))"))
      do {
        try FileManager.default.createDirectory(
          at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let name = url.lastPathComponent.isEmpty ? "download" : url.lastPathComponent
        let file = directory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try data.write(to: file)
        completion(file, Self.typeHint(mime: (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")))
      } catch {
        trace("\(id): could not store the download — \(error.localizedDescription)")
        completion(nil, nil)
      }
    }
    task.resume()
    return task
  }

  private static func typeHint(mime: String?) -> String? {
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

/// Carries the attach and fall-back steps into URLSession's completion handler.
private struct HandlerBox: @unchecked Sendable {
  let attach: (URL, String?) -> Void
  let fallback: () -> Void
}

/// What expiry needs from a running download, shared between the extension's threads.
private final class ExpiryState: @unchecked Sendable {
  private let lock = NSLock()
  private var task: URLSessionTask?
  private var fallback: (() -> Void)?

  func set(task newTask: URLSessionTask) {
    lock.lock()
    task = newTask
    lock.unlock()
  }

  func set(fallback newFallback: @escaping () -> Void) {
    lock.lock()
    fallback = newFallback
    lock.unlock()
  }

  func take() -> (URLSessionTask?, (() -> Void)?) {
    lock.lock()
    defer { lock.unlock() }
    return (task, fallback)
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
