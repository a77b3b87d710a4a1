import Foundation
import Testing
import UNTermTestSupport

@testable import ActivityKit
@testable import UNTermHeadless
@testable import UNTermState

/// Live Activity pushes through the session: no notification, the activity on screen.
@Suite("Live Activities on screen")
struct LiveActivityTests {
  /// A push with `aps` as given, timestamped `seconds` after the fixtures' clock.
  private func aps(_ fields: String, at seconds: Int = 0) -> String {
    #"{"aps":{"timestamp":\#(Int(Fixtures.now.timeIntervalSince1970) + seconds),\#(fields)}}"#
  }

  private var start: String {
    aps(
      #""event":"start","attributes-type":"ScoreAttributes","attributes":{"match":"BRA–ARG"},"content-state":{"score":"0–0","minute":1},"alert":{"title":"Kick-off","body":"Brazil v Argentina"}"#
    )
  }

  @Test("a start lights the screen with the expanded island, then the compact island; locked, the Lock Screen view")
  func iPhonePresentations() throws {
    let session = try Fixtures.session(size: (48, 12))
    defer { session.detach() }
    try Fixtures.push(start, into: session)
    #expect(session.state.store.deliveredCount == 0, "a Live Activity push is not a notification")
    expectScreen(
      session.frame().grid,
      [
        " ╭───────────────────────────────────────────╮",
        " │ App · Live Activity                       │",
        " │ Kick-off · Brazil v Argentina             │",
        " │ score 0–0                                 │",
        " ╰───────────────────────────────────────────╯",
        "",
        "",
        "",
        "",
        "               No notifications",
        "",
        " iPhone · Unlocked │ c list  L lock  ? keys",
      ])
    // The interactive session wakes when the alert's time is up, to draw the compact island.
    #expect(session.nextDeadline == Fixtures.now.addingTimeInterval(CenterState.activityAlertTime))
    session.advance(to: Fixtures.now.addingTimeInterval(CenterState.activityAlertTime + 1))
    #expect(session.frame().grid.lines.first == "                 ( App ● 0–0 )")
    #expect(session.nextDeadline == Fixtures.now.addingTimeInterval(8 * 3600), "then it ends after 8 hours")
    // Touch and hold the island: expanded until Esc.
    session.send(.key(.character(" ")))
    #expect(
      session.frame().grid.lines.prefix(2) == [
        " ╭───────────────────────────────────────────╮", " │ App · Live Activity                       │",
      ])
    session.advance(to: Fixtures.now.addingTimeInterval(60))
    #expect(session.frame().grid.lines[1] == " │ App · Live Activity                       │")
    session.send(.key(.escape))
    #expect(session.frame().grid.lines.first == "                 ( App ● 0–0 )")
    session.send(.command(.lock))
    expectScreen(
      session.frame().grid,
      [
        " Locked · 20:01",
        " ╭───────────────────────────────────────────╮",
        " │ App · Live Activity                       │",
        " │ Kick-off · Brazil v Argentina             │",
        " ╰───────────────────────────────────────────╯",
        "",
        "",
        "               No notifications",
        "",
        "",
        "",
        " iPhone · Locked │ L unlock  ? keys",
      ])
  }

  @Test(
    "an iPad has no Dynamic Island: an alert shows the Lock Screen view as a banner, and then nothing on the home screen"
  )
  func iPad() throws {
    let session = try Fixtures.session(device: .ipad, size: (60, 12))
    defer { session.detach() }
    try Fixtures.push(start, into: session)
    #expect(session.frame().grid.lines.contains { $0.contains("Kick-off · Brazil v Argentina") })
    session.advance(to: Fixtures.now.addingTimeInterval(CenterState.activityAlertTime + 1))
    #expect(!session.frame().grid.lines.contains { $0.contains("●") || $0.contains("Live Activity") })
  }

  @Test(
    "what a device ignores is said: a start without an alert, an old timestamp, an update after the end, no activity")
  func ignoredPushes() throws {
    let session = try Fixtures.session(size: (100, 24))
    defer { session.detach() }
    let said = { session.state.notices.last?.text ?? "" }
    try Fixtures.push(aps(#""event":"update","content-state":{"score":"1–0"}"#), into: session)
    #expect(said() == "Live Activity update ignored: there is no activity to update: a start push begins one")
    try Fixtures.push(
      aps(#""event":"start","attributes-type":"ScoreAttributes","attributes":{"match":"X"},"content-state":{}"#),
      into: session)
    #expect(
      said() == "Live Activity start ignored: a start without aps.alert is accepted by APNs and dropped by the device")
    try Fixtures.push(start, into: session, as: "match")
    try Fixtures.push(aps(#""event":"update","content-state":{"score":"1–0","minute":30}"#, at: 60), into: session)
    #expect(said() == "Live Activity match updated")
    try Fixtures.push(aps(#""event":"update","content-state":{"score":"9–9","minute":20}"#, at: 30), into: session)
    #expect(said().hasPrefix("Live Activity update ignored: the update's timestamp is older than match's newest ("))
    #expect(
      ActivityPresentation(session.state.activities.record("match")!, in: session.state).lines.contains("score 1–0"))
    try Fixtures.push(aps(#""event":"end","content-state":{"score":"2–1","minute":90}"#, at: 90), into: session)
    #expect(said() == "Live Activity match ended. It leaves the Lock Screen at 00:00.")
    try Fixtures.push(aps(#""event":"update","content-state":{"score":"3–1"}"#, at: 120), into: session)
    #expect(said() == "Live Activity update ignored: match has ended: updates to it are ignored")
    #expect(session.state.store.deliveredCount == 0)
  }

  @Test("the clock moves an activity through stale, ended after 8 hours, dismissed 4 hours later")
  func clock() throws {
    let session = try Fixtures.session(size: (48, 12))
    defer { session.detach() }
    let staleAt = Int(Fixtures.now.timeIntervalSince1970) + 600
    try Fixtures.push(
      aps(
        #""event":"start","attributes-type":"T","attributes":{},"content-state":{"n":1},"stale-date":\#(staleAt),"alert":"Go""#
      ), into: session, as: "a")
    func state(after seconds: TimeInterval) -> ActivityState? {
      session.advance(to: Fixtures.now.addingTimeInterval(seconds))
      return session.state.activities.record("a")?.activityState(at: session.state.now)
    }
    #expect(state(after: 599) == .active)
    #expect(state(after: 600) == .stale)
    #expect(state(after: 8 * 3600) == .ended)
    #expect(state(after: 12 * 3600) == .dismissed)
    #expect(session.frame().grid.lines.first?.contains("●") == false)
  }
}
