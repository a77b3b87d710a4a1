import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermScript
@testable import UNTermState
@testable import UserNotificationsModel
@testable import UserNotificationsUI

/// Defects a code review found, each pinned by a test.
@Suite("Review regressions", .serialized, .hangGuard)
struct ReviewRegressionTests {
  private func run(_ text: String) throws -> ScriptResult {
    let dir = try Fixtures.temporaryDirectory()
    let script = try SessionScript.parse(
      text.replacingOccurrences(of: "$S", with: Fixtures.samples.path),
      file: dir.appendingPathComponent("t.session").path)
    return ScriptRunner(script: script, options: RunOptions()).run()
  }

  @Test func lockKeyInTheExpandedViewAsksThePasscode() throws {
    let result = try run(
      """
      categories com.example.Bank=$S/categories.json
      passcode 2468
      lock
      push $S/security-alert.apns
      longpress
      key L
      expect screen "Enter Passcode"
      expect screen not "Unlocked"
      key esc
      expect screen "Locked"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func upNeverSticksAfterTheTopOfAStackIsRemoved() throws {
    var store = NotificationStore()
    func n(_ id: String, _ thread: String) -> UNNotification {
      let c = UNMutableNotificationContent()
      c.title = id
      c.threadIdentifier = thread
      return UNNotification(
        request: UNNotificationRequest(identifier: id, content: c, trigger: nil), date: Fixtures.now)
    }
    store.deliver(n("a1", "a"))
    store.deliver(n("a2", "a"))
    store.deliver(n("b1", "b"))
    store.removeDelivered(["a2"])
    let a = try #require(store.groupKey(ofDelivered: "a1"))
    #expect(store.group(before: a) != a)
    #expect(store.group(before: a).flatMap { store.leading(of: $0) }?.request.identifier == "b1")
  }

  /// Whichever run of a pushed-again identifier answers last (each order is made to happen,
  /// not left to how the machine schedules them), both are shown in push order and the second
  /// push is what stays.
  @Test(arguments: ["first", "second"])
  func aRepushedIdentifierIsDeliveredAfterTheFirstRunFinishes(answeringLast last: String) throws {
    let session = try Fixtures.session()
    let order = AnswerOrder()
    session.serviceExtension = { DelayedEcho(order: order, last: last) }
    var shown: [String] = []
    session.onDelivery = { shown.append($0.request.content.body) }
    try Fixtures.push(#"{"aps":{"alert":"first","mutable-content":1}}"#, into: session, as: "same")
    try Fixtures.push(#"{"aps":{"alert":"second","mutable-content":1}}"#, into: session, as: "same")
    #expect(Eventually.wait(between: session.settleServiceExtensions) { !session.pipeline.isBusy })
    #expect(order.answered.last == last, "\(order.answered)")
    #expect(order.answered.count == 2, "\(order.answered)")
    #expect(shown == ["first", "second"])
    #expect(session.state.store.delivered("same")?.request.content.body == "second")
  }

  @Test func anExtensionAnswerArrivingAfterTheViewClosedStillCounts() throws {
    let session = try Fixtures.session(size: (80, 30))
    let release = Release()
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(categories: ["chat"], initialContentSizeRatio: 0.5),
        make: { SlowForwarder(answer: release) }))
    var got: [String] = []
    session.onResponse = { r, _ in got.append(r.actionIdentifier) }
    try Fixtures.push(#"{"aps":{"alert":"hi","category":"chat"}}"#, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("mute")))
    session.send(.key(.escape))
    #expect(session.state.expandedOrReturning == nil, "the view is closed before the answer")
    #expect(got.isEmpty)
    // Only now does the extension answer, on another thread, whenever the machine gets to it.
    release.open()
    #expect(Eventually.wait(between: session.drain) { !got.isEmpty })
    #expect(got == ["mute"])
    #expect(session.state.store.delivered("req-1") == nil)
  }

  @Test func thePasscodePromptKeepsTheProgramExtension() throws {
    let session = try Fixtures.session(size: (80, 30)) { $0.previews = .always }
    SecureExtension.seen = []
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(categories: ["security-alert"], initialContentSizeRatio: 0.5),
        make: { SecureExtension() }))
    var got: [String] = []
    session.onResponse = { r, _ in got.append(r.actionIdentifier) }
    session.send(.command(.lock))
    try session.push(try Payload.load(Fixtures.sample("security-alert.apns")))
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("approve")))
    #expect(session.state.passcodePrompt != nil)
    session.send(.key(.enter))
    #expect(SecureExtension.seen == ["approve"])
    #expect(got == ["approve"])
  }

  @Test func aNotificationRemovedBehindThePasscodePromptGetsNoResponse() throws {
    // Previews shown on the lock screen: the expanded view opens, its action asks.
    let session = try Fixtures.session { $0.previews = .always }
    var got: [String] = []
    session.onResponse = { r, _ in got.append(r.actionIdentifier) }
    session.send(.command(.lock))
    try session.push(try Payload.load(Fixtures.sample("security-alert.apns")))
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("approve")))
    // The sample is the Bank's, not the session's app: removed as `unterm center remove` does.
    session.send(.center(.removeDelivered(["req-1"], .everyApp)))
    #expect(session.state.overlay == nil)
    session.send(.command(.unlock(nil)))
    #expect(got.isEmpty)
  }

  /// The same for a tap and a long-press waiting for the passcode on the lock screen.
  @Test func aNotificationRemovedBehindATapsPasscodePromptClosesIt() throws {
    for command in [Command.tap, .longPress] {
      let session = try Fixtures.session()
      var got: [String] = []
      session.onResponse = { r, _ in got.append(r.actionIdentifier) }
      session.send(.command(.lock))
      try session.push(try Payload.load(Fixtures.sample("security-alert.apns")))
      session.send(.command(command))
      #expect(session.state.passcodePrompt != nil)
      session.send(.center(.removeDelivered(["req-1"], .everyApp)))
      #expect(session.state.overlay == nil, "\(command)")
      session.send(.command(.unlock(nil)))
      #expect(got.isEmpty && session.state.expanded == nil)
    }
  }

  @Test func pageUpComesBackAfterPagingPastTheEnd() throws {
    let session = try Fixtures.session(size: (60, 14))
    try session.push(try Payload.load(Fixtures.sample("long-body.json")))
    session.send(.command(.longPress))
    let top = session.frame().grid.text
    for _ in 0..<6 { session.send(.key(.pageDown)) }
    let bottom = session.frame().grid.text
    #expect(bottom != top)
    session.send(.key(.pageUp))
    #expect(session.frame().grid.text != bottom)
  }

  @Test func shortScreensKeepTheActionsInsideTheCard() throws {
    for height in [8, 9, 10, 12] {
      let session = try Fixtures.session(size: (60, height))
      try Fixtures.push(#"{"aps":{"alert":"x","category":"meeting-invite"}}"#, into: session)
      session.send(.command(.longPress))
      let lines = session.frame().grid.lines
      let bottom = try #require(lines.lastIndex { $0.contains("╰") })
      #expect(!lines[bottom].contains("Dismiss"))
      #expect(lines[..<bottom].contains { $0.contains("│") })
    }
  }

  @Test func aClusterTooWideToDrawShowsAsAReplacementCharacter() {
    let crafted = String(repeating: "\u{1100}", count: 30)
    #expect(TerminalText.sanitize("Hi " + crafted) == "Hi \u{FFFD}")
    #expect(!TextLayout.wrap("a " + crafted, width: 10).contains(""))
  }

  @Test func jsonPathsQuoteKeysThatLookLikePaths() {
    #expect(JSONPath([.key("a.b"), .index(0)]).description == #"["a.b"][0]"#)
    #expect(JSONPath([.key(""), .key("a")]).description == #"[""].a"#)
    do {
      _ = try JSONParser.parse(Array(#"{"aps":{"alert":"abc\ud800"}}"#.utf8))
      Issue.record("expected an error")
    } catch {
      #expect(error.position.column == 21)
    }
  }
}

/// Answers at once, except for the run whose body is `last`: that one answers only after the
/// other has, so it finishes last on any machine.
final class DelayedEcho: UNNotificationServiceExtension, @unchecked Sendable {
  let order: AnswerOrder
  let last: String
  init(order: AnswerOrder, last: String) {
    self.order = order
    self.last = last
  }

  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let content = request.content
    let box = HandlerCarrier(handler: contentHandler)
    let order = self.order
    let last = self.last
    DispatchQueue.global().async {
      if content.body == last { order.waitForAnyOther(than: last) }
      order.answer(content.body)
      box.handler(content)
    }
  }
}

/// The order in which `DelayedEcho` runs answered.
final class AnswerOrder: @unchecked Sendable {
  private let condition = NSCondition()
  private var stored: [String] = []

  func answer(_ body: String) {
    condition.lock()
    stored.append(body)
    condition.broadcast()
    condition.unlock()
  }

  /// Waits (bounded, so a broken run cannot hang the test) until a run other than `body` has
  /// answered.
  func waitForAnyOther(than body: String) {
    let limit = Date().addingTimeInterval(Eventually.limit)
    condition.lock()
    while !stored.contains(where: { $0 != body }) && condition.wait(until: limit) {}
    condition.unlock()
  }

  var answered: [String] {
    condition.lock()
    defer { condition.unlock() }
    return stored
  }
}

private struct HandlerCarrier: @unchecked Sendable {
  let handler: (UNNotificationContent) -> Void
}

/// Answers an action from another thread once the test opens `answer`.
final class SlowForwarder: UNNotificationContentViewController, UNNotificationContentExtension {
  let answer: Release
  init(answer: Release) {
    self.answer = answer
    super.init()
  }
  func didReceive(_ notification: UNNotification) { view.elements = [.label("slow")] }
  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    let box = CompletionCarrier(completion: completion)
    let answer = self.answer
    DispatchQueue.global().async {
      answer.wait()
      box.completion(.dismissAndForwardAction)
    }
  }
}

/// Holds a thread until the test opens it (bounded, so a broken run cannot hang the test).
final class Release: @unchecked Sendable {
  private let condition = NSCondition()
  private var isOpen = false
  func wait() {
    let limit = Date().addingTimeInterval(Eventually.limit)
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

private struct CompletionCarrier: @unchecked Sendable {
  let completion: (UNNotificationContentExtensionResponseOption) -> Void
}

final class SecureExtension: UNNotificationContentViewController, UNNotificationContentExtension {
  nonisolated(unsafe) static var seen: [String] = []
  func didReceive(_ notification: UNNotification) { view.elements = [.label("secure")] }
  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    Self.seen.append(response.actionIdentifier)
    completion(.dismissAndForwardAction)
  }
}
