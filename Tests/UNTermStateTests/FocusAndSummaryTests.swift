import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState
@testable import UserNotificationsModel

/// Focus and Scheduled Summary in the state machine (issue 13.3): which notifications arrive
/// silently, which are held, and the summary's order.
@Suite("Focus and Scheduled Summary")
struct FocusAndSummaryTests {
  /// 2025-11-29T20:00:00Z.
  private let t0 = Fixtures.now

  private func state(_ configure: (inout CenterSettings) -> Void = { _ in }) -> CenterState {
    var s = CenterState(now: t0)
    var settings = CenterSettings()
    configure(&settings)
    _ = s.handle(.configure(settings))
    return s
  }

  private func notification(
    _ id: String, level: UNNotificationInterruptionLevel = .active, relevance: Double = 0, bundle: String? = nil,
    at date: Date? = nil
  ) -> UNNotification {
    let content = UNMutableNotificationContent()
    content.title = "Title \(id)"
    content.body = "Body \(id)"
    content.interruptionLevel = level
    content.relevanceScore = relevance
    content.threadIdentifier = "thread-\(id)"
    let request = UNNotificationRequest(
      identifier: id, content: content, trigger: nil, remote: UNRemotePayloadInfo(bundleIdentifier: bundle))
    return UNNotification(request: request, date: date ?? t0)
  }

  private func deliver(_ n: UNNotification, into s: inout CenterState) {
    _ = s.handle(.deliver(n, presentation: CenterState.backgroundPresentation(for: n.request.content)))
  }

  // MARK: - Focus

  @Test func underFocusPassiveAndActiveArriveSilentlyTimeSensitiveAndCriticalBreakThrough() {
    var s = state { $0.focus = .doNotDisturb }
    for (id, level) in [("p", .passive), ("a", .active), ("t", .timeSensitive), ("c", .critical)]
      as [(String, UNNotificationInterruptionLevel)]
    {
      deliver(notification(id, level: level), into: &s)
      // Every one is in the list.
      #expect(s.store.delivered(id) != nil, "\(id)")
      let bannered = s.banner?.notification.request.identifier == id
      switch id {
      case "p", "a":
        #expect(!bannered, "\(id) should arrive without a banner")
        #expect(s.silenced[id] == "Do Not Disturb")
      default:
        #expect(bannered, "\(id) should break through")
        #expect(s.silenced[id] == nil)
      }
    }
  }

  @Test func withoutTimeSensitiveOnlyCriticalBreaksThrough() {
    var s = state {
      $0.focus = .named("Work")
      $0.timeSensitiveBreaksThrough = false
    }
    deliver(notification("t", level: .timeSensitive), into: &s)
    #expect(s.banner == nil)
    #expect(s.silenced["t"] == "Work")
    deliver(notification("c", level: .critical), into: &s)
    #expect(s.banner?.notification.request.identifier == "c")
  }

  @Test func anAllowedAppAlertsAsUsualByBundleOrByName() {
    var s = state {
      $0.focus = .doNotDisturb
      $0.focusAllowList = ["com.example.chat", "Bank"]
    }
    deliver(notification("chat", bundle: "com.example.chat"), into: &s)
    #expect(s.banner?.notification.request.identifier == "chat")
    // The header shows the last part of the bundle, so "Bank" allows com.example.Bank.
    deliver(notification("bank", bundle: "com.example.Bank"), into: &s)
    #expect(s.banner?.notification.request.identifier == "bank")
    deliver(notification("other", bundle: "com.example.news"), into: &s)
    #expect(s.banner?.notification.request.identifier == "bank")
    #expect(s.silenced["other"] == "Do Not Disturb")
  }

  @Test func focusLeavesTheForegroundAppsAnswerAlone() {
    var s = state { $0.focus = .doNotDisturb }
    _ = s.handle(.command(.setAppState(.foreground)))
    _ = s.handle(.deliver(notification("a"), presentation: [.banner, .list]))
    #expect(s.banner?.notification.request.identifier == "a")
  }

  @Test func fCyclesOffDoNotDisturbTheNamedFocusAndOff() {
    var s = state { $0.focus = .named("Sleep") }
    #expect(s.focus == .named("Sleep"))
    _ = s.handle(.key(.character("F")))
    #expect(s.focus == .off)
    _ = s.handle(.key(.character("F")))
    #expect(s.focus == .doNotDisturb)
    _ = s.handle(.key(.character("F")))
    #expect(s.focus == .named("Sleep"))
    // Without a named Focus, F goes between off and Do Not Disturb.
    var plain = state()
    _ = plain.handle(.key(.character("F")))
    _ = plain.handle(.key(.character("F")))
    #expect(plain.focus == .off)
    #expect(plain.notices.last?.text == "Focus off: notifications alert as usual")
  }

  @Test func aSilencedMarkGoesWithItsNotificationAndIsClearedByAnAlertingOne() {
    var s = state { $0.focus = .doNotDisturb }
    deliver(notification("a"), into: &s)
    #expect(s.silenced["a"] != nil)
    _ = s.handle(.command(.setFocusMode(.off, allow: nil)))
    // The same identifier again, now alerting: the card no longer says silenced.
    deliver(notification("a"), into: &s)
    #expect(s.silenced["a"] == nil)
    _ = s.handle(.command(.setFocusMode(.doNotDisturb, allow: nil)))
    deliver(notification("b"), into: &s)
    _ = s.handle(.center(.removeDelivered(["b"], .ownApp)))
    #expect(s.silenced["b"] == nil)
  }

  // MARK: - Scheduled Summary

  private func summaryState() -> CenterState {
    state {
      $0.summaryTimes = [DayTime(hour: 8, minute: 0), DayTime(hour: 21, minute: 30)].compactMap { $0 }
    }
  }

  @Test func theSummaryHoldsPassiveAndActiveUntilItsTime() {
    var s = summaryState()
    deliver(notification("a", relevance: 0.2), into: &s)
    deliver(notification("p", level: .passive, relevance: 0.9), into: &s)
    deliver(notification("t", level: .timeSensitive), into: &s)
    deliver(notification("c", level: .critical), into: &s)
    #expect(s.held.map(\.request.identifier) == ["a", "p"])
    #expect(s.store.delivered("a") == nil)
    #expect(s.store.delivered("t") != nil && s.store.delivered("c") != nil)
    // t0 is 20:00 UTC: the next summary is at 21:30.
    #expect(s.nextSummary == t0.addingTimeInterval(90 * 60))
    #expect(s.nextDeadline != nil)
    _ = s.handle(.tick(t0.addingTimeInterval(90 * 60 - 1)))
    #expect(s.held.count == 2)
    _ = s.handle(.tick(t0.addingTimeInterval(90 * 60)))
    #expect(s.held.isEmpty)
    let key = s.store.groupKey(ofDelivered: "a")
    #expect(key.map { s.summaries[$0]?.title } == "Evening Summary")
    // The highest relevance leads; each keeps the time it arrived.
    #expect(key.map { s.store.members(of: $0).map(\.request.identifier) } == ["p", "a"])
    #expect(s.store.delivered("a")?.date == t0)
    #expect(s.nextSummary == nil)
  }

  @Test func theSummaryOrdersByRelevanceTiesNewestFirst() {
    var s = summaryState()
    for (id, relevance) in [("low", 0.1), ("top", 1.0), ("mid1", 0.5), ("mid2", 0.5), ("zero", 0)] {
      deliver(notification(id, relevance: relevance), into: &s)
    }
    _ = s.handle(.tick(t0.addingTimeInterval(2 * 3600)))
    let key = s.store.groupKey(ofDelivered: "top")
    #expect(key.map { s.store.members(of: $0).map(\.request.identifier) } == ["top", "mid2", "mid1", "low", "zero"])
    #expect(s.listFocus == "top")
  }

  @Test func timeSensitiveIsHeldWhenItMayNotBreakThrough() {
    var s = state {
      $0.summaryTimes = [DayTime(hour: 8, minute: 0)].compactMap { $0 }
      $0.timeSensitiveBreaksThrough = false
    }
    deliver(notification("t", level: .timeSensitive), into: &s)
    #expect(s.held.map(\.request.identifier) == ["t"])
  }

  @Test func aClockJumpDeliversOneSummaryNamedForTheLastTimePassed() {
    var s = summaryState()
    deliver(notification("a"), into: &s)
    // From 20:00 past 21:30 and 08:00 to 09:00 the next day: one summary, the morning's.
    _ = s.handle(.tick(t0.addingTimeInterval(13 * 3600)))
    let key = s.store.groupKey(ofDelivered: "a")
    #expect(key.map { s.summaries[$0]?.title } == "Morning Summary")
    #expect(s.summaries.count == 1)
  }

  @Test func removingAndTurningTheSummaryOffReachWhatIsHeld() {
    var s = summaryState()
    deliver(notification("a"), into: &s)
    deliver(notification("b"), into: &s)
    _ = s.handle(.center(.removeDelivered(["a"], .ownApp)))
    #expect(s.held.map(\.request.identifier) == ["b"])
    _ = s.handle(.command(.setSummary([])))
    #expect(s.held.isEmpty)
    #expect(s.store.delivered("b") != nil)
    deliver(notification("c"), into: &s)
    #expect(s.banner?.notification.request.identifier == "c")
    // Clearing the center empties the list, and with it the summary's name.
    _ = s.handle(.center(.removeAllDelivered(.ownApp)))
    #expect(s.summaries.isEmpty)
  }

  /// The app's center removes only its own held notifications (issue 17.4): another app's
  /// stay held for the summary; the tester's `clear` (every app's) takes them too.
  @Test func theAppsCenterRemovesOnlyItsOwnHeldNotifications() {
    var s = summaryState()
    deliver(notification("a"), into: &s)
    deliver(notification("b", bundle: "com.t.other"), into: &s)
    deliver(notification("c"), into: &s)
    _ = s.handle(.center(.removeDelivered(["a", "b"], .ownApp)))
    #expect(s.held.map(\.request.identifier) == ["b", "c"])
    _ = s.handle(.center(.removeAllDelivered(.ownApp)))
    #expect(s.held.map(\.request.identifier) == ["b"])
    _ = s.handle(.center(.removeDelivered(["b"], .everyApp)))
    #expect(s.held.isEmpty)
  }

  @Test func aHeldNotificationReplacesTheOneDeliveredWithItsIdentifier() {
    var s = state()
    deliver(notification("x"), into: &s)
    _ = s.handle(.command(.setSummary([DayTime(hour: 8, minute: 0)].compactMap { $0 })))
    deliver(notification("x"), into: &s)
    #expect(s.store.delivered("x") == nil)
    #expect(s.held.map(\.request.identifier) == ["x"])
  }

  @Test func summaryTimesAndFocusNamesParse() {
    #expect(DayTime.list("18:00,8:00,18:00")?.map(\.description) == ["08:00", "18:00"])
    #expect(DayTime.list("24:00") == nil)
    #expect(DayTime.list("8") == nil)
    #expect(DayTime.list("08:00,") == nil)
    #expect(FocusMode(argument: "dnd") == .doNotDisturb)
    #expect(FocusMode(argument: "Work") == .named("Work"))
    #expect(FocusMode(argument: " ") == nil)
    #expect(UNNotificationPresentationOptions(optionList: "banner,sound") == [.banner, .sound])
    #expect(UNNotificationPresentationOptions(optionList: "none") == [])
    #expect(UNNotificationPresentationOptions(optionList: "alert") == nil)
  }
}
