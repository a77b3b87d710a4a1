import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UNTermShell
@testable import UserNotificationsModel

/// An app's center reaches only its own notifications (issue 17.4; Apple: "all of your app's
/// delivered notifications"): the default app's center lists and removes its own, whichever
/// thread calls it and whether a session runs or not. The tester's views — `unterm center`
/// and the script's `remove` and `clear` — reach every app's.
@Suite("An app's center sees only its own", .hangGuard)
struct AppCenterTests {
  private static let mine = #"{"aps":{"alert":{"title":"Inbox","body":"New mail"}}}"#
  private static let theirs =
    #"{"aps":{"alert":{"title":"Hello","body":"From them"}},"Simulator Target Bundle":"com.t.other"}"#

  /// A session of `com.t.mine` with its push ("mine"), another app's ("theirs") and a local
  /// request of its own ("local"), in that order.
  private func twoApps() throws -> Session {
    let session = try Fixtures.session(categories: false) { $0.bundle = "com.t.mine" }
    try Fixtures.push(Self.mine, into: session, as: "mine")
    try Fixtures.push(Self.theirs, into: session, as: "theirs")
    let content = UNMutableNotificationContent()
    content.title = "Reminder"
    session.center.add(UNNotificationRequest(identifier: "local", content: content, trigger: nil))
    session.drain()
    return session
  }

  private func listed(_ session: Session) -> [String] {
    session.state.store.deliveredNewestFirst.map(\.request.identifier)
  }

  /// Calls the center on another thread, as app code does, while this thread serves the
  /// session (the center asks the session's thread for its store).
  private func onAnotherThread(_ session: Session, _ body: @escaping @Sendable (UNUserNotificationCenter) -> Void) {
    let done = Locked<Bool>()
    let box = UncheckedCenterBox(center: session.center)
    Thread {
      body(box.center)
      done.set(true)
    }.start()
    #expect(Eventually.wait(between: { session.drain() }, { done.get() == true }))
    session.drain()
  }

  @Test func theCenterListsOnlyTheAppsOwnOnAnyThread() throws {
    let session = try twoApps()
    defer { session.detach() }
    // On the session's thread.
    let here = Locked<[String]>()
    session.center.getDeliveredNotifications { here.set($0.map(\.request.identifier)) }
    #expect(here.get() == ["local", "mine"])
    // On another.
    let there = Locked<[String]>()
    onAnotherThread(session) { center in
      center.getDeliveredNotifications { there.set($0.map(\.request.identifier)) }
    }
    #expect(there.get() == ["local", "mine"])
    #expect(listed(session) == ["local", "theirs", "mine"])
  }

  @Test func removingReachesOnlyTheAppsOwnOnAnyThread() throws {
    let session = try twoApps()
    defer { session.detach() }
    session.center.removeDeliveredNotifications(withIdentifiers: ["theirs", "nope"])
    session.drain()
    #expect(listed(session) == ["local", "theirs", "mine"])
    onAnotherThread(session) { $0.removeDeliveredNotifications(withIdentifiers: ["theirs", "mine"]) }
    #expect(listed(session) == ["local", "theirs"])
    onAnotherThread(session) { $0.removeAllDeliveredNotifications() }
    #expect(listed(session) == ["theirs"])
    session.send(.command(.openCenter))
    let screen = Array(session.frame().grid.lines.prefix(7))
    #expect(
      screen == [
        " Notification Center                            Responses",
        "                                                 none yet",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ Other                                 now ┃  Activity",
        " ┃ Hello                                     ┃",
        " ┃ From them                                 ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
      ], "\(screen.joined(separator: "\n"))")
  }

  /// Without a session the center keeps the store (the one the session handed back), and
  /// still answers for its app alone.
  @Test func withoutASessionTheCenterStillAnswersForItsAppAlone() async throws {
    let session = try twoApps()
    let center = session.center
    session.detach()
    #expect(await center.deliveredNotifications().map(\.request.identifier) == ["local", "mine"])
    center.removeAllDeliveredNotifications()
    #expect(await center.deliveredNotifications().isEmpty)
    // The other app's notification is still in the store a new session adopts.
    var configuration = SessionConfiguration()
    configuration.bundle = "com.t.mine"
    let next = try SessionFactory.make(configuration, now: Fixtures.now, center: center)
    defer { next.detach() }
    #expect(listed(next) == ["theirs"])
  }

  // MARK: - The tester's views reach every app

  @Test func theScriptsRemoveAndClearReachEveryApp() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.mine.utf8).write(to: dir.appendingPathComponent("mine.json"))
    try Data(Self.theirs.utf8).write(to: dir.appendingPathComponent("theirs.json"))
    let text = """
      push mine.json as m1
      push theirs.json as t1
      push theirs.json as t2
      remove t1
      center
      expect screen not "t1"
      expect screen "From them"
      clear
      expect screen not "From them"
      expect screen not "New mail"
      """
    let script = try SessionScript.parse(text, file: dir.appendingPathComponent("t.session").path)
    let result = ScriptRunner(script: script, options: RunOptions()).run()
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func untermCenterRemovesAndClearsEveryApp() throws {
    let session = try twoApps()
    defer { session.detach() }
    #expect(CenterCommands.carryOut(.remove("theirs"), in: session) == "OK removed")
    #expect(listed(session) == ["local", "mine"])
    try Fixtures.push(Self.theirs, into: session, as: "theirs")
    #expect(CenterCommands.carryOut(.clear, in: session) == "OK 3")
    #expect(listed(session).isEmpty)
  }
}

/// A value set on one thread and read on another.
private final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?

  func set(_ newValue: Value) {
    lock.lock()
    value = newValue
    lock.unlock()
  }

  func get() -> Value? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
