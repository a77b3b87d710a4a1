import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermScript
@testable import UserNotificationsModel

/// Every app has its own app-icon badge (reference §8.3): a payload's badge is its own app's,
/// `setBadgeCount` is the calling app's (the session's own), `expect badge` reads the badge of
/// the app the script last pushed to, and the foreground rule (§4.2) holds for the one app that
/// can be in the foreground.
@Suite("Badges per app", .hangGuard)
struct BadgePerAppTests {
  /// The session's own app's notification (no app named), badge 5.
  private static let mine = #"{"aps":{"alert":{"title":"Inbox","body":"New mail"},"badge":5}}"#
  /// Another app's, badge 9.
  private static let other =
    #"{"aps":{"alert":{"title":"Other","body":"Hello"},"badge":9},"Simulator Target Bundle":"com.other"}"#

  /// Runs a script in a folder holding `b5.json` (`mine`) and `ob.json` (`other`).
  private func run(_ text: String) throws -> ScriptResult {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.mine.utf8).write(to: dir.appendingPathComponent("b5.json"))
    try Data(Self.other.utf8).write(to: dir.appendingPathComponent("ob.json"))
    let script = try SessionScript.parse(text, file: dir.appendingPathComponent("t.session").path)
    return ScriptRunner(script: script, options: RunOptions()).run()
  }

  // MARK: - The QA report

  /// QA: another app's push of badge 9 set the app's badge to 9 on the status bar too.
  @Test func anotherAppsPushLeavesTheAppsBadge() throws {
    let result = try run(
      """
      push b5.json
      push ob.json
      expect screen "iPhone · Unlocked · badge 5 · Other badge 9 │"
      push b5.json as again
      expect badge 5
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  /// A script written to the contract pushes a payload that names its app (as every sample
  /// does) and checks "the app badge": that app's, not the session's own app's 0.
  @Test func expectBadgeChecksTheAppLastPushedTo() throws {
    let result = try run(
      """
      expect badge 0
      push ob.json
      expect badge 9
      push b5.json
      expect badge 5
      push ob.json as other-again
      expect badge 9
      expect screen "iPhone · Unlocked · badge 5 · Other badge 9 │"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func aFailedExpectBadgeNamesTheAppsWhenOthersHaveBadges() throws {
    let both = try #require(try run("push b5.json\npush ob.json\nexpect badge 5").failure)
    #expect(
      both.summary.text.hasSuffix(
        "t.session:3:1: expected badge 5, actual badge 9 for com.other (com.example.app has 5)"),
      "\(both.summary.text)")
    // Before any push, the session's own app's; the message says whose the 9 is.
    let theirs = try #require(try run("push ob.json\nexpect badge 9\npush b5.json as x\nexpect badge 9").failure)
    #expect(
      theirs.summary.text.hasSuffix(
        "t.session:4:1: expected badge 9, actual badge 5 for com.example.app (com.other has 9)"),
      "\(theirs.summary.text)")
    // Only the app's own badge: the number, as before.
    let mine = try #require(try run("push b5.json\nexpect badge 9").failure)
    #expect(mine.summary.text.hasSuffix("t.session:2:1: expected badge 9, actual badge 5"), "\(mine.summary.text)")
  }

  // MARK: - A payload's badge is its app's

  @Test func aPayloadsBadgeIsItsOwnAppsAbsentLeavesItZeroClearsIt() throws {
    let session = try Fixtures.session(categories: false)
    defer { session.detach() }
    try Fixtures.push(Self.mine, into: session)
    try Fixtures.push(Self.other, into: session)
    // The app comes from `unterm push --bundle`, the target bundle or apns-topic, as for the list.
    try Fixtures.push(#"{"aps":{"alert":"x","badge":2}}"#, into: session, bundle: "com.pushed")
    try Fixtures.push(#"{"aps":{"alert":"x","badge":4},"apns-headers":{"apns-topic":"com.topic"}}"#, into: session)
    // A badge-only push shows nothing, and still sets its app's badge.
    try Fixtures.push(#"{"aps":{"badge":7},"Simulator Target Bundle":"com.silent"}"#, into: session)
    #expect(
      session.state.store.badges == [
        "com.example.app": 5, "com.other": 9, "com.pushed": 2, "com.topic": 4, "com.silent": 7,
      ])
    // No badge key leaves that app's badge; 0 clears it and no other.
    try Fixtures.push(#"{"aps":{"alert":"No badge"},"Simulator Target Bundle":"com.other"}"#, into: session)
    #expect(session.state.store.badge(of: "com.other") == 9)
    try Fixtures.push(#"{"aps":{"alert":"Read","badge":0},"Simulator Target Bundle":"com.other"}"#, into: session)
    #expect(session.state.store.badge(of: "com.other") == 0)
    #expect(session.state.store.badge == 5)
  }

  // MARK: - The foreground rule

  /// The app in the foreground takes its badge only if `willPresent` answers `.badge`; another
  /// app is in the background, so its badge applies whatever the app in front answers.
  @Test(arguments: [false, true])
  func inTheForegroundOnlyTheDefaultAppsBadgeWaitsForWillPresent(answersBadge: Bool) throws {
    let session = try Fixtures.session(categories: false) {
      $0.foregroundOptions = answersBadge ? [.banner, .list, .badge] : [.banner, .list]
    }
    defer { session.detach() }
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(Self.mine, into: session)
    try Fixtures.push(Self.other, into: session)
    #expect(session.state.store.badge(of: "com.example.app") == (answersBadge ? 5 : 0))
    #expect(session.state.store.badge(of: "com.other") == 9)
    // Back in the background, the app's next badge applies without asking.
    session.send(.command(.setAppState(.background)))
    try Fixtures.push(#"{"aps":{"alert":"Later","badge":6}}"#, into: session)
    #expect(session.state.store.badges == ["com.example.app": 6, "com.other": 9])
  }

  // MARK: - The app's own calls

  @Test func setBadgeCountSetsTheSessionsOwnAppsBadge() throws {
    let session = try Fixtures.session(categories: false) { $0.bundle = "com.t.mine" }
    defer { session.detach() }
    try Fixtures.push(Self.other, into: session)
    session.center.setBadgeCount(4)
    session.drain()
    #expect(session.state.store.badges == ["com.t.mine": 4, "com.other": 9])
    #expect(session.center.badgeCount == 4, "the app reads its own badge")
    // A local notification is the app's own too.
    let content = UNMutableNotificationContent()
    content.title = "Reminder"
    content.badge = 2
    session.center.add(UNNotificationRequest(identifier: "local", content: content, trigger: nil))
    session.drain()
    #expect(session.state.store.badges == ["com.t.mine": 2, "com.other": 9])
    session.center.setBadgeCount(0)
    session.drain()
    #expect(session.state.store.badges == ["com.other": 9])
  }

  /// The badge the app set before the session started is the session's own app's, whatever
  /// bundle identifier the session gives it.
  @Test func theBadgeSetBeforeTheSessionIsTheAppsOwn() throws {
    let center = UNUserNotificationCenter.makeForSession()
    center.setBadgeCount(6)
    #expect(center.badgeCount == 6)
    var configuration = SessionConfiguration()
    configuration.bundle = "com.t.mine"
    let session = try SessionFactory.make(configuration, now: Fixtures.now, center: center)
    defer { session.detach() }
    #expect(session.state.store.badges == ["com.t.mine": 6])
  }
}
