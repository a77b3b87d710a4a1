import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel

/// The mutable-content pipeline, with a loopback server started by the test and the virtual
/// clock of the session.
@Suite("Service extensions", .serialized, .hangGuard)
struct ServiceExtensionTests {
  static let png = TestImages.png(width: 4, height: 2) { x, y in y == 0 ? (255, 0, 0) : (0, 0, 255) }

  private func session(timeout: TimeInterval = 30, mediaDir: String? = nil) throws -> (Session, () -> [String]) {
    let session = try Fixtures.session(size: (80, 30)) {
      $0.serviceTimeout = timeout
      $0.mediaDirectory = mediaDir
    }
    let box = TraceBox()
    session.traceOutput = { box.append($0.printed.text) }
    return (session, { box.lines })
  }

  private func payload(_ json: String, in dir: URL) throws -> Payload {
    let file = dir.appendingPathComponent("payload.json")
    try Data(json.utf8).write(to: file)
    return try Payload.load(file.path)
  }

  private func delivered(_ session: Session) -> UNNotification? {
    session.state.store.delivered("req-1")
  }

  /// Settles the session until `req-1` is shown: a download takes real time, however long the
  /// machine makes it (a quiet extension is waited for only a grace per settle).
  private func settleUntilDelivered(_ session: Session) {
    Eventually.wait(between: session.settleServiceExtensions) { delivered(session) != nil }
  }

  @Test func attachesARelativeFileAndRunsOnlyForMutableContentWithAlertText() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.png).write(to: dir.appendingPathComponent("pic.png"))
    let (session, trace) = try session()
    try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"image-url":"pic.png"}"#, in: dir))
    session.settleServiceExtensions()
    #expect(delivered(session)?.request.content.attachments.first?.type == "public.png")
    #expect(trace().contains { $0.contains("attached PNG") })
    // Without mutable-content, or without alert text, nothing runs.
    try session.push(try payload(#"{"aps":{"alert":"hi"},"image-url":"pic.png"}"#, in: dir))
    #expect(session.state.store.delivered("req-2")?.request.content.attachments.isEmpty == true)
    try session.push(try payload(#"{"aps":{"badge":2,"mutable-content":1},"image-url":"pic.png"}"#, in: dir))
    #expect(!session.pipeline.isBusy)
    #expect(session.state.store.badge == 2)
  }

  @Test func downloadsOverHTTP() throws {
    let server = try LoopbackHTTPServer(routes: ["/pic": .init(contentType: "image/png", body: Self.png)])
    defer { server.stop() }
    let dir = try Fixtures.temporaryDirectory()
    let (session, trace) = try session()
    try session.push(
      try payload(#"{"aps":{"alert":"hi","mutable-content":1},"media-url":"\#(server.url("/pic"))"}"#, in: dir))
    settleUntilDelivered(session)
    #expect(delivered(session)?.request.content.attachments.first?.format == .png)
    #expect(trace().contains { $0.contains("downloaded \(Self.png.count) bytes") })
  }

  /// The server never answers while the test runs: only the budget on the session's clock can
  /// end the download, so the original showing proves the clock decided, however slow the
  /// machine.
  @Test func aSlowServerHitsTheBudgetAndTheOriginalIsShownOnTime() throws {
    let server = try LoopbackHTTPServer(routes: ["/slow": .init(contentType: "image/png", body: Self.png, stalls: true)]
    )
    defer { server.stop() }
    let dir = try Fixtures.temporaryDirectory()
    let (session, trace) = try session(timeout: 5)
    try session.push(
      try payload(#"{"aps":{"alert":"original","mutable-content":1},"image-url":"\#(server.url("/slow"))"}"#, in: dir))
    session.settleServiceExtensions()
    #expect(delivered(session) == nil)
    session.advance(to: session.state.now.addingTimeInterval(4.9))
    #expect(delivered(session) == nil)
    session.advance(to: session.state.now.addingTimeInterval(0.6))
    let shown = try #require(delivered(session))
    #expect(shown.request.content.body == "original")
    #expect(shown.request.content.attachments.isEmpty)
    #expect(trace().contains { $0.contains("budget ran out; serviceExtensionTimeWillExpire()") })
    #expect(trace().contains { $0.contains("req-1: download stopped — the 5.0 s budget ran out; shown without it") })
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

  /// Pushes a payload whose image-url is on the server and lets the extension finish the way
  /// `render` does: at most the budget in real time. Returns the seconds it took (printed, and
  /// checked only against bounds a busy machine cannot reach: what stopped a download is read
  /// from the trace).
  private func pushRemote(_ session: Session, _ url: String, budget: TimeInterval, in dir: URL) throws -> TimeInterval {
    let start = Date()
    try session.push(try payload(#"{"aps":{"alert":"original","mutable-content":1},"image-url":"\#(url)"}"#, in: dir))
    session.finishServiceExtensions(within: budget)
    return Date().timeIntervalSince(start)
  }

  @Test func anEndlessDownloadIsStoppedAtTheImageLimitAndTheNotificationShownWithoutIt() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/endless": .init(contentType: "image/png", body: Self.pngSignature, stream: .endless, declaredLength: .none)
    ])
    let dir = try Fixtures.temporaryDirectory()
    // A budget no busy machine runs out of first: the limit must be what stops it.
    let (session, trace) = try session(timeout: 300)
    let seconds = try pushRemote(session, server.url("/endless"), budget: 300, in: dir)
    print("an endless download stopped at the image limit after \(seconds) s")
    let shown = try #require(delivered(session))
    #expect(shown.request.content.body == "original" && shown.request.content.attachments.isEmpty)
    #expect(
      trace().contains {
        $0.contains("req-1: download refused — stopped after ")
          && $0.contains("bytes: the body passes the 10000000-byte limit for images; shown without it")
      }, "\(trace())")
  }

  @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeTheBody() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/huge": .init(
        contentType: "image/jpeg", body: [0xFF, 0xD8, 0xFF], stream: .endless, declaredLength: .claim(200_000_000))
    ])
    let dir = try Fixtures.temporaryDirectory()
    let (session, trace) = try session(timeout: 300)
    let seconds = try pushRemote(session, server.url("/huge"), budget: 300, in: dir)
    print("a declared length over the limit was refused after \(seconds) s")
    // Refused on the header: the body was never taken to the limit.
    #expect(server.bytesSent("/huge") < 10_000_000, "\(server.bytesSent("/huge")) bytes sent")
    #expect(delivered(session)?.request.content.attachments.isEmpty == true)
    #expect(
      trace().contains(
        "req-1: download refused — the server says 200000000 bytes; images may be at most 10000000 bytes; shown without it"
      ), "\(trace())")
  }

  @Test func aSlowDripIsCutOffWhenTheBudgetEnds() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/drip": .init(
        contentType: "image/png", body: Self.pngSignature, stream: .drip(interval: 0.1), declaredLength: .none)
    ])
    let dir = try Fixtures.temporaryDirectory()
    let (session, trace) = try session(timeout: 2)
    let seconds = try pushRemote(session, server.url("/drip"), budget: 2, in: dir)
    // The budget is a hard deadline: never before it, and the drip (a minute long) is cut off,
    // however late a busy machine gets there.
    #expect(seconds >= 1.9 && seconds < 30, "\(seconds) s")
    let shown = try #require(delivered(session))
    #expect(shown.request.content.body == "original" && shown.request.content.attachments.isEmpty)
    // The download's own timeout or the expiry stops it, whichever comes first on a busy
    // machine: the same event, said the same way.
    #expect(
      trace().contains { $0.contains("req-1: download stopped — the 2.0 s budget ran out; shown without it") },
      "\(trace())")
  }

  @Test(arguments: ["../outside.png", "/etc/hostname", "link.png"])
  func filesOutsideTheMediaFolderAreRefused(_ path: String) throws {
    let root = try Fixtures.temporaryDirectory()
    let media = root.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    try Data(Self.png).write(to: root.appendingPathComponent("outside.png"))
    try FileManager.default.createSymbolicLink(
      atPath: media.appendingPathComponent("link.png").path,
      withDestinationPath: root.appendingPathComponent("outside.png").path)
    let (session, trace) = try session()
    try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"\#(path)"}"#, in: media))
    session.settleServiceExtensions()
    #expect(delivered(session)?.request.content.attachments.isEmpty == true)
    #expect(trace().contains { $0.contains("rejected") })
  }

  /// Issue 17.3: a file is typed by its name; one whose name names no type is refused, and one
  /// over its type's limit too. A file whose bytes do not match its name is attached.
  @Test func untypedAndOversizedFilesAreRefused() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.png).write(to: dir.appendingPathComponent("picture.data"))
    try Data(Self.png + [UInt8](repeating: 0, count: 10_000_001)).write(to: dir.appendingPathComponent("huge.png"))
    for (name, reason) in [("picture.data", "names no supported type"), ("huge.png", "at most 10000000 bytes")] {
      let (session, trace) = try session()
      try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"\#(name)"}"#, in: dir))
      session.settleServiceExtensions()
      #expect(delivered(session)?.request.content.attachments.isEmpty == true)
      #expect(trace().contains { $0.contains(reason) }, "\(trace())")
    }
  }

  @Test func aFileWhoseBytesDoNotMatchItsNameIsAttached() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data("not an image at all".utf8).write(to: dir.appendingPathComponent("fake.png"))
    let (session, trace) = try session()
    try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"fake.png"}"#, in: dir))
    session.settleServiceExtensions()
    #expect(delivered(session)?.request.content.attachments.first?.type == "public.png")
    #expect(
      trace().contains {
        $0.contains("attached PNG (19 bytes) from attachment-url — the file name says PNG but the content is not PNG")
      }, "\(trace())")
  }

  @Test func theVirtualClockDrivesTheBudget() throws {
    let (session, _) = try session()
    NeverCalls.expired = 0
    session.serviceExtension = { NeverCalls() }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session)
    session.advance(to: session.state.now.addingTimeInterval(29))
    #expect(delivered(session) == nil)
    #expect(NeverCalls.expired == 0)
    session.advance(to: session.state.now.addingTimeInterval(2))
    #expect(NeverCalls.expired == 1)
    #expect(delivered(session)?.request.content.body == "original")
  }

  @Test func bestAttemptAtExpiryIsShown() throws {
    let (session, _) = try session()
    session.serviceExtension = { BestAttemptAtExpiry() }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session)
    session.advance(to: session.state.now.addingTimeInterval(31))
    #expect(delivered(session)?.request.content.body == "original [best attempt]")
  }

  // MARK: - Real time never decides what a run shows

  /// An extension's own work (here 1.5 s inside `didReceive`, as copying a big local file on a
  /// busy machine takes) is waited for, past the grace a quiet extension gets.
  @Test func anExtensionStillWorkingIsWaitedForPastTheGrace() throws {
    let (session, _) = try session()
    session.serviceExtension = { SlowWork(seconds: Session.settleGrace + 0.5) }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session)
    session.settleServiceExtensions()
    #expect(delivered(session)?.request.content.body == "original [worked]")
  }

  /// The built-in extension attaches a local file inside `didReceive`, so it is always waited for.
  @Test func theBuiltInExtensionAttachesALocalFileBeforeDidReceiveReturns() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.png).write(to: dir.appendingPathComponent("pic.png"))
    let request = try payload(#"{"aps":{"alert":"hi","mutable-content":1},"image-url":"pic.png"}"#, in: dir)
      .request(identifier: "local")
    let service = BuiltInServiceExtension(payloadDirectory: dir, mediaDirectory: nil, budget: 30, trace: { _ in })
    let box = ContentBox()
    service.didReceive(request) { box.set($0) }
    #expect(box.get()?.attachments.first?.format == .png)
  }

  /// `serviceExtensionTimeWillExpire()` that takes longer than the expiry grace twice over still
  /// gets its best attempt shown on a virtual clock.
  @Test func aSlowExpiryHandlerStillHandsOverItsBestAttempt() throws {
    let (session, _) = try session()
    session.serviceExtension = { SlowBestAttempt(seconds: ServicePipeline.expiryGrace * 2 + 0.2) }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session)
    session.advance(to: session.state.now.addingTimeInterval(31))
    #expect(delivered(session)?.request.content.body == "original [best attempt]")
  }

  /// The handler's trace line is written before its delivery is queued; a settle that saw the
  /// handler called returns only once the delivery is queued too (a render once showed a card
  /// without its activity lines, or no card, on a loaded machine). The trace is held here
  /// until the settle has returned, or two seconds.
  @Test func aSettleReturnsOnlyOnceTheResultIsQueued() throws {
    let (session, _) = try session()
    let gate = Gate()
    session.traceOutput = { line in
      if line.text.hasSuffix("content handler called") { gate.wait(upTo: 2) }
    }
    session.serviceExtension = { UNNotificationServiceExtension() }
    try Fixtures.push(#"{"aps":{"alert":"echoed","mutable-content":1}}"#, into: session)
    session.settleServiceExtensions()
    let shown = delivered(session)
    gate.open()
    #expect(shown?.request.content.body == "echoed")
  }

  /// An extension that asks the center what is delivered while it works gets the answer: the
  /// session answers while it waits for the extension (it used to give up after a second and
  /// answer with an empty list).
  @Test func anExtensionAskingTheCenterIsAnsweredWhileTheSessionWaits() throws {
    let (session, _) = try session()
    try Fixtures.push(#"{"aps":{"alert":"already there"}}"#, into: session, as: "first")
    let center = UncheckedCenterBox(center: session.center)
    session.serviceExtension = { AsksTheCenter(center: center) }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session, as: "second")
    session.settleServiceExtensions()
    #expect(session.state.store.delivered("second")?.request.content.body == "original [1 delivered]")
  }

  @Test func contentWithoutAlertTextIsIgnored() throws {
    let (session, trace) = try session()
    session.serviceExtension = { StripsText() }
    try Fixtures.push(#"{"aps":{"alert":"original","mutable-content":1}}"#, into: session)
    session.settleServiceExtensions()
    #expect(delivered(session)?.request.content.body == "original")
    #expect(trace().contains { $0.contains("without alert text") })
  }

  @Test func scriptsWaitForTheVirtualBudget() throws {
    let server = try LoopbackHTTPServer(routes: ["/slow": .init(contentType: "image/png", body: Self.png, stalls: true)]
    )
    defer { server.stop() }
    let dir = try Fixtures.temporaryDirectory()
    try Data(
      #"{"aps":{"alert":{"title":"Original title"},"mutable-content":1},"image-url":"\#(server.url("/slow"))"}"#.utf8
    )
    .write(to: dir.appendingPathComponent("slow.json"))
    let script = try SessionScript.parse(
      """
      push slow.json
      expect screen not "Original title"
      wait 31s
      center
      expect screen "Original title"
      """, file: dir.appendingPathComponent("s.session").path)
    let result = ScriptRunner(script: script, options: RunOptions()).run()
    #expect(result.passed, "\(result.report ?? "")")
  }
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

final class NeverCalls: UNNotificationServiceExtension, @unchecked Sendable {
  nonisolated(unsafe) static var expired = 0
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {}
  override func serviceExtensionTimeWillExpire() { Self.expired += 1 }
}

final class BestAttemptAtExpiry: UNNotificationServiceExtension, @unchecked Sendable {
  var handler: ((UNNotificationContent) -> Void)?
  var best: UNMutableNotificationContent?
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    handler = contentHandler
    best = request.content.mutableCopy() as? UNMutableNotificationContent
    best?.body += " [best attempt]"
  }
  override func serviceExtensionTimeWillExpire() {
    if let handler, let best { handler(best) }
  }
}

/// Works for `seconds` inside `didReceive`, then hands back the content with " [worked]".
final class SlowWork: UNNotificationServiceExtension, @unchecked Sendable {
  let seconds: TimeInterval
  init(seconds: TimeInterval) { self.seconds = seconds }
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    Thread.sleep(forTimeInterval: seconds)
    let content = request.content.mutableCopy() as? UNMutableNotificationContent
    content?.body += " [worked]"
    contentHandler(content ?? request.content)
  }
}

/// Takes `seconds` in `serviceExtensionTimeWillExpire()` before handing over its best attempt.
final class SlowBestAttempt: UNNotificationServiceExtension, @unchecked Sendable {
  let seconds: TimeInterval
  var handler: ((UNNotificationContent) -> Void)?
  var best: UNMutableNotificationContent?
  init(seconds: TimeInterval) { self.seconds = seconds }
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    handler = contentHandler
    best = request.content.mutableCopy() as? UNMutableNotificationContent
    best?.body += " [best attempt]"
  }
  override func serviceExtensionTimeWillExpire() {
    Thread.sleep(forTimeInterval: seconds)
    if let handler, let best { handler(best) }
  }
}

/// Asks the center how many notifications are delivered, and says so in the body.
final class AsksTheCenter: UNNotificationServiceExtension, @unchecked Sendable {
  let center: UncheckedCenterBox
  init(center: UncheckedCenterBox) { self.center = center }
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let content = request.content.mutableCopy() as? UNMutableNotificationContent
    let box = ContentHandlerBox(handler: contentHandler)
    center.center.getDeliveredNotifications { delivered in
      content?.body += " [\(delivered.count) delivered]"
      box.handler(content ?? request.content)
    }
  }
}

struct UncheckedCenterBox: @unchecked Sendable {
  let center: UNUserNotificationCenter
}

private struct ContentHandlerBox: @unchecked Sendable {
  let handler: (UNNotificationContent) -> Void
}

/// Content handed to a handler, read by the test.
private final class ContentBox: @unchecked Sendable {
  private let lock = NSLock()
  private var content: UNNotificationContent?
  func set(_ value: UNNotificationContent) {
    lock.lock()
    content = value
    lock.unlock()
  }
  func get() -> UNNotificationContent? {
    lock.lock()
    defer { lock.unlock() }
    return content
  }
}

/// Holds a thread until the test opens it (or a time limit passes).
private final class Gate: @unchecked Sendable {
  private let condition = NSCondition()
  private var isOpen = false
  func wait(upTo seconds: TimeInterval) {
    let limit = Date().addingTimeInterval(seconds)
    condition.lock()
    while !isOpen && condition.wait(until: limit) {}
    condition.unlock()
  }
  func open() {
    condition.lock()
    isOpen = true
    condition.broadcast()
    condition.unlock()
  }
}

final class StripsText: UNNotificationServiceExtension, @unchecked Sendable {
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    contentHandler(UNMutableNotificationContent())
  }
}

@Suite("Audio attachments", .hangGuard)
struct AudioAttachmentTests {
  @Test func playerLineShowsTheDurationAndTogglesPlayback() throws {
    let session = try Fixtures.session(size: (80, 20))
    try session.push(try Payload.load(Fixtures.sample("voice-memo.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    #expect(session.frame().grid.text.contains("▶ Play 0:00 / 0:03 · WAV · voice-memo.wav"))
    session.send(.key(.character("p")))
    #expect(session.frame().grid.text.contains("❚❚ Pause 0:00 / 0:03 · WAV"))
  }

  /// The player counts the time played on the session's clock and stops at the clip's length,
  /// as the system's player does; a pause keeps the place and a play after the end starts over.
  @Test func playerShowsTheTimePlayedAndStopsAtTheEnd() throws {
    let session = try Fixtures.session(size: (80, 20))
    try session.push(try Payload.load(Fixtures.sample("voice-memo.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    func player() -> String {
      guard let line = session.frame().grid.lines.first(where: { $0.contains(" · WAV · ") }),
        let from = line.firstIndex(where: { $0 == "▶" || $0 == "❚" }), let to = line.range(of: " · WAV")
      else { return "no player line" }
      return String(line[from..<to.lowerBound])
    }
    let start = session.state.now
    session.send(.key(.character("p")))
    // The clock ticks each second while it plays, so the interactive session redraws.
    #expect(session.nextDeadline == start.addingTimeInterval(1))
    session.advance(to: start.addingTimeInterval(1.5))
    #expect(player() == "❚❚ Pause 0:01 / 0:03")
    session.send(.key(.character("p")))
    #expect(session.nextDeadline == nil)
    session.advance(to: start.addingTimeInterval(60))
    #expect(player() == "▶ Play 0:01 / 0:03")
    session.send(.key(.character("p")))
    session.advance(to: start.addingTimeInterval(61))
    #expect(player() == "❚❚ Pause 0:02 / 0:03")
    // It stops at the end by itself and does not count on.
    session.advance(to: start.addingTimeInterval(120))
    #expect(player() == "▶ Play 0:03 / 0:03")
    #expect(session.state.expanded?.isMediaPlaying == false)
    session.send(.key(.character("p")))
    #expect(player() == "❚❚ Pause 0:00 / 0:03")
  }
}
