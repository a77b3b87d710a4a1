import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel

/// What the service extension suites share: a session that keeps its trace, payload files,
/// the delivered `req-1`, and the images the extensions attach.
protocol ServiceExtensionTesting {}

extension ServiceExtensionTesting {
  static var png: [UInt8] { ServiceExtensionImages.png }
  static var pngSignature: [UInt8] { ServiceExtensionImages.pngSignature }

  func session(timeout: TimeInterval = 30, mediaDir: String? = nil) throws -> (Session, () -> [String]) {
    let session = try Fixtures.session(size: (80, 30)) {
      $0.serviceTimeout = timeout
      $0.mediaDirectory = mediaDir
    }
    let box = TraceBox()
    session.traceOutput = { box.append($0.printed.text) }
    return (session, { box.lines })
  }

  func payload(_ json: String, in dir: URL) throws -> Payload {
    let file = dir.appendingPathComponent("payload.json")
    try Data(json.utf8).write(to: file)
    return try Payload.load(file.path)
  }

  func delivered(_ session: Session) -> UNNotification? {
    session.state.store.delivered("req-1")
  }

  /// Settles the session until `req-1` is shown: a download takes real time, however long the
  /// machine makes it (a quiet extension is waited for only a grace per settle).
  func settleUntilDelivered(_ session: Session) {
    Eventually.wait(between: session.settleServiceExtensions) { delivered(session) != nil }
  }

  /// Pushes a payload whose image-url is on the server and lets the extension finish the way
  /// `render` does: at most the budget in real time. Returns the seconds it took (printed, and
  /// checked only against bounds a busy machine cannot reach: what stopped a download is read
  /// from the trace).
  func pushRemote(_ session: Session, _ url: String, budget: TimeInterval, in dir: URL) throws -> TimeInterval {
    let start = Date()
    try session.push(try payload(#"{"aps":{"alert":"original","mutable-content":1},"image-url":"\#(url)"}"#, in: dir))
    session.finishServiceExtensions(within: budget)
    return Date().timeIntervalSince(start)
  }
}

/// A small picture to attach, and the first bytes of a PNG (what an endless download sends).
enum ServiceExtensionImages {
  static let png = TestImages.png(width: 4, height: 2) { x, y in y == 0 ? (255, 0, 0) : (0, 0, 255) }
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
}

private final class TraceBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  func append(_ line: String) {
    lock.lock()
    stored.append(line)
    lock.unlock()
  }
  var lines: [String] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
