import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UserNotificationsModel

@Suite("Session behaviour", .serialized, .hangGuard)
struct SessionBehaviourTests {
  /// The trigger was timed on the wall clock when the app added it; the real time that passed
  /// before the session started (`elapsed` at most) counts, however long a busy machine takes.
  @Test func requestsAddedBeforeTheSessionStartsFireOnItsClock() throws {
    let center = UNUserNotificationCenter.makeForSession()
    let content = UNMutableNotificationContent()
    content.title = "Later"
    let before = Date()
    center.add(
      UNNotificationRequest(
        identifier: "later", content: content,
        trigger: UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)), withCompletionHandler: nil)
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    let elapsed = Date().timeIntervalSince(before)
    defer { session.detach() }
    session.advance(to: Fixtures.now.addingTimeInterval(600 - elapsed - 1))
    #expect(session.state.store.delivered("later") == nil)
    session.advance(to: Fixtures.now.addingTimeInterval(600))
    #expect(session.state.store.delivered("later") != nil)
  }

  @Test func foregroundPresentationGoesThroughWillPresent() throws {
    let center = UNUserNotificationCenter.makeForSession()
    let delegate = SilentDelegate()
    center.delegate = delegate
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(#"{"aps":{"alert":"in the foreground","badge":2}}"#, into: session)
    #expect(delegate.asked == 1)
    #expect(session.state.banner == nil)
    #expect(session.state.store.deliveredCount == 0)
    #expect(session.state.store.badge == 2)  // [.badge] only
  }

  /// The default `willPresent` answers from a task; the test waits for that answer (asynchronously,
  /// so the task gets a thread however busy the test run is) before checking what it did.
  @Test func aDelegateThatDoesNotImplementWillPresentShowsNothing() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    let delegate = BareDelegate()
    center.delegate = delegate
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    session.send(.command(.setAppState(.foreground)))
    var presented: [UNNotification] = []
    session.onDelivery = { presented.append($0) }
    try Fixtures.push(#"{"aps":{"alert":"hidden"}}"#, into: session)
    #expect(presented.count == 1)
    // Answered: the center waits for no willPresent (the answer may already have been drained).
    #expect(
      await Eventually.waitYielding { center.delegateCalls.waiting.isEmpty }, "the default willPresent never answered")
    session.drain()
    #expect(session.state.banner == nil)
    #expect(session.state.store.deliveredCount == 0)
  }

  @Test func theAppCallsTheCenterWhileTheSessionRuns() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    try Fixtures.push(#"{"aps":{"alert":"one"}}"#, into: session, as: "one")
    // From another thread, as app code would.
    let done = DispatchSemaphore(value: 0)
    let box = UncheckedCenter(center: center)
    Thread {
      box.center.removeDeliveredNotifications(withIdentifiers: ["one"])
      box.center.setNotificationCategories([UNNotificationCategory(identifier: "c", actions: [], intentIdentifiers: [])]
      )
      done.signal()
    }.start()
    #expect(done.wait(timeout: .now() + Eventually.limit) == .success)
    session.drain()
    #expect(session.state.store.deliveredCount == 0)
    #expect(session.state.store.category("c") != nil)
  }

  @Test func expandedViewListsAtMostTenActionsInOrder() throws {
    let session = try Fixtures.session(size: (80, 30))
    let actions = (1...12).map { UNNotificationAction(identifier: "a\($0)", title: "Action \($0)") }
    session.send(
      .center(.setCategories([UNNotificationCategory(identifier: "many", actions: actions, intentIdentifiers: [])])))
    try Fixtures.push(#"{"aps":{"alert":"pick","category":"many"}}"#, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("1  Action 1"))
    #expect(text.contains("0  Action 10"))
    #expect(!text.contains("Action 11"))
    session.send(.key(.character("0")))
    var got: [String] = []
    session.onResponse = { r, _ in got.append(r.actionIdentifier) }
    try Fixtures.push(#"{"aps":{"alert":"pick","category":"many"}}"#, into: session)
    session.send(.command(.longPress))
    #expect(session.send(.command(.chooseAction("a11"))).failure != nil)
    session.send(.key(.character("0")))
    #expect(got == ["a10"])
  }

  @Test func anEmptyReplyIsStillATextInputResponse() throws {
    let session = try Fixtures.session()
    var got: UNNotificationResponse?
    session.onResponse = { r, _ in got = r }
    try Fixtures.push(#"{"aps":{"alert":"hi","category":"message"}}"#, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.send))
    let response = try #require(got as? UNTextInputNotificationResponse)
    #expect(response.actionIdentifier == "reply")
    #expect(response.userText == "")
  }

  @Test func appNameOptionNamesItsAppOnly() throws {
    let bundled = try Fixtures.session(size: (80, 12))
    try bundled.push(try Payload.load(Fixtures.sample("security-alert.apns")))
    #expect(bundled.frame().grid.text.contains("Bank · Time Sensitive"))
    let named = try Fixtures.session(size: (80, 12)) { $0.appNames["com.example.Bank"] = "Acme Bank" }
    try named.push(try Payload.load(Fixtures.sample("security-alert.apns")))
    #expect(named.frame().grid.text.contains("Acme Bank · Time Sensitive"))
    // A bare --app-name names the default app, not the bank.
    let bare = try Fixtures.session(size: (80, 12)) { $0.appName = "Chat" }
    try bare.push(try Payload.load(Fixtures.sample("security-alert.apns")))
    #expect(bare.frame().grid.text.contains("Bank · Time Sensitive"))
    #expect(!bare.frame().grid.text.contains("Chat"))
  }
}

private struct UncheckedCenter: @unchecked Sendable {
  let center: UNUserNotificationCenter
}

private final class SilentDelegate: NSObject, UNUserNotificationCenterDelegate {
  var asked = 0
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
  ) {
    asked += 1
    completionHandler([.badge])
  }
}

private final class BareDelegate: NSObject, UNUserNotificationCenterDelegate {}
