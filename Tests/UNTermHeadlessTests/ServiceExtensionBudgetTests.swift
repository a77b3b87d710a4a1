import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel

extension ServiceExtensionTests {
  /// An extension's budget runs on the session's clock, and real time never decides what a run
  /// shows.
  @Suite("The budget and the clock")
  struct Budget: ServiceExtensionTesting {
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
      let server = try LoopbackHTTPServer(routes: [
        "/slow": .init(contentType: "image/png", body: Self.png, stalls: true)
      ]
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
