import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState
@testable import UserNotificationsModel

@Suite("Center state machine")
struct CenterStateTests {
  private let t0 = Fixtures.now

  private func state(previews: CenterState.Previews = .whenUnlocked) throws -> CenterState {
    var s = CenterState(now: t0)
    var settings = CenterSettings()
    settings.previews = previews
    _ = s.handle(.configure(settings))
    s.store.setCategories(try Fixtures.sampleCategories().categories)
    return s
  }

  private func notification(
    _ id: String, category: String = "message", thread: String = "t", level: UNNotificationInterruptionLevel = .active
  ) -> UNNotification {
    let content = UNMutableNotificationContent()
    content.title = "Title \(id)"
    content.body = "Body \(id)"
    content.categoryIdentifier = category
    content.threadIdentifier = thread
    content.interruptionLevel = level
    return UNNotification(request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: t0)
  }

  private func deliver(_ n: UNNotification, into s: inout CenterState) {
    _ = s.handle(.deliver(n, presentation: CenterState.backgroundPresentation(for: n.request.content)))
  }

  private func responses(_ outcome: Outcome) -> [(String, String?)] {
    outcome.effects.compactMap {
      if case .respond(let recorded) = $0 {
        let r = recorded.response
        return (r.actionIdentifier, (r as? UNTextInputNotificationResponse)?.userText)
      }
      return nil
    }
  }

  @Test func bannerRetiresIntoTheListAfterFiveSeconds() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    #expect(s.isBannerShown)
    _ = s.handle(.tick(t0.addingTimeInterval(4.9)))
    #expect(s.isBannerShown)
    _ = s.handle(.tick(t0.addingTimeInterval(5)))
    #expect(!s.isBannerShown)
    #expect(s.store.delivered("a") != nil)
  }

  @Test func passiveGoesToTheListWithoutABanner() throws {
    var s = try state()
    deliver(notification("p", level: .passive), into: &s)
    #expect(s.banner == nil)
    #expect(s.store.delivered("p") != nil)
  }

  @Test func tapSendsTheDefaultActionAndRemovesTheNotification() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    let outcome = s.handle(.key(.enter))
    #expect(responses(outcome).map(\.0) == [UNNotificationDefaultActionIdentifier])
    #expect(s.store.delivered("a") == nil)
    #expect(s.appState == .foreground)
  }

  @Test func clearSendsDismissOnlyWithCustomDismissAction() throws {
    var s = try state()
    deliver(notification("a", category: "message"), into: &s)
    #expect(responses(s.handle(.key(.character("x")))).map(\.0) == [UNNotificationDismissActionIdentifier])
    deliver(notification("b", category: "reminder"), into: &s)
    #expect(responses(s.handle(.key(.character("x")))).isEmpty)
    #expect(s.store.delivered("b") == nil)
    deliver(notification("c", category: ""), into: &s)
    #expect(responses(s.handle(.key(.character("x")))).isEmpty)
  }

  @Test func escapeFlicksTheBannerAwayWithoutAResponse() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    #expect(responses(s.handle(.key(.escape))).isEmpty)
    #expect(!s.isBannerShown)
    #expect(s.store.delivered("a") != nil)
  }

  @Test func longPressListsActionsAndNumberKeysChooseThem() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    _ = s.handle(.key(.character(" ")))
    let e = try #require(s.expanded)
    #expect(s.actions(for: e).map(\.identifier) == ["reply", "like", "delete"])
    #expect(responses(s.handle(.key(.character("2")))).map(\.0) == ["like"])
    #expect(s.overlay == nil)
  }

  @Test func arrowsAndEnterChooseAnAction() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    _ = s.handle(.key(.character("l")))
    _ = s.handle(.key(.down))
    _ = s.handle(.key(.down))
    _ = s.handle(.key(.down))
    #expect(responses(s.handle(.key(.enter))).map(\.0) == ["delete"])
  }

  @Test func textInputRepliesCarryTheText() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    _ = s.handle(.command(.longPress))
    _ = s.handle(.command(.chooseAction("reply")))
    #expect(s.expanded?.reply != nil)
    for c in "আমি আসছি" { _ = s.handle(.key(.character(c))) }
    _ = s.handle(.key(.backspace))  // removes the whole cluster ছি
    _ = s.handle(.command(.type("ছি")))
    let sent = responses(s.handle(.key(.enter)))
    #expect(sent.first?.0 == "reply")
    #expect(sent.first?.1 == "আমি আসছি")
  }

  @Test func escapeCancelsTheReplyAndSendsNothing() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    _ = s.handle(.command(.longPress))
    _ = s.handle(.command(.chooseAction("reply")))
    _ = s.handle(.command(.type("never sent")))
    #expect(responses(s.handle(.key(.escape))).isEmpty)
    #expect(s.expanded != nil && s.expanded?.reply == nil)
  }

  @Test func lockedAuthenticationRequiredActionAsksThePasscode() throws {
    // Previews shown on the lock screen, so the expanded view opens without unlocking.
    var s = try state(previews: .always)
    _ = s.handle(.command(.setPasscode("1234")))
    _ = s.handle(.command(.lock))
    deliver(notification("a"), into: &s)
    _ = s.handle(.command(.longPress))
    #expect(responses(s.handle(.command(.chooseAction("reply")))).isEmpty)
    #expect(s.passcodePrompt != nil)
    _ = s.handle(.command(.type("0000")))
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(s.passcodePrompt?.wrongAttempts == 1)
    #expect(s.isLocked)
    _ = s.handle(.command(.type("1234")))
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(!s.isLocked)
    #expect(s.expanded?.reply != nil)
    _ = s.handle(.command(.type("ok")))
    let sent = responses(s.handle(.command(.send)))
    #expect(sent.first?.0 == "reply" && sent.first?.1 == "ok")
  }

  @Test func cancelledPasscodeDeliversNothing() throws {
    // Previews shown on the lock screen, so the expanded view opens without unlocking.
    var s = try state(previews: .always)
    _ = s.handle(.command(.lock))
    deliver(notification("a", category: "security-alert"), into: &s)
    _ = s.handle(.command(.longPress))
    _ = s.handle(.command(.chooseAction("approve")))
    #expect(responses(s.handle(.key(.escape))).isEmpty)
    #expect(s.isLocked)
    #expect(s.passcodePrompt == nil)
  }

  @Test func anyInputUnlocksWhenNoPasscodeIsSet() throws {
    // Previews shown on the lock screen, so the expanded view opens without unlocking.
    var s = try state(previews: .always)
    _ = s.handle(.command(.lock))
    deliver(notification("a", category: "security-alert"), into: &s)
    _ = s.handle(.command(.longPress))
    _ = s.handle(.command(.chooseAction("approve")))
    let sent = responses(s.handle(.key(.enter)))
    #expect(sent.map(\.0) == ["approve"])
  }

  @Test func unlistedActionIsAFailure() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    #expect(s.handle(.command(.chooseAction("reply"))).failure != nil)
    _ = s.handle(.command(.longPress))
    #expect(s.handle(.command(.chooseAction("snooze"))).failure?.contains("not listed") == true)
  }

  @Test func unknownCategoryShowsNoActions() throws {
    var s = try state()
    deliver(notification("a", category: "Message"), into: &s)
    _ = s.handle(.command(.longPress))
    #expect(s.actions(for: try #require(s.expanded)).isEmpty)
  }

  @Test func sameIdentifierReplacesAndMovesToTop() throws {
    var s = try state()
    deliver(notification("a", thread: "x"), into: &s)
    deliver(notification("b", thread: "y"), into: &s)
    deliver(notification("a", thread: "x"), into: &s)
    #expect(s.store.deliveredCount == 2)
    #expect(ListLayout.first(s) == "a")
  }

  @Test func focusMovesThroughStacksAndScrollsInView() throws {
    var s = try state()
    for i in 0..<40 { deliver(notification("n\(i)", thread: "t\(i % 4)"), into: &s) }
    _ = s.handle(.command(.openCenter))
    #expect(s.listFocus == "n39")
    for _ in 0..<25 { _ = s.handle(.key(.down)) }
    let focus = try #require(s.listFocus)
    // The focused card is inside the window that starts at listTop.
    var id = try #require(s.listTop)
    var rows = 0
    while id != focus {
      rows += ListLayout.height(of: id, s)
      id = try #require(ListLayout.displayNext(after: id, s))
    }
    #expect(rows + ListLayout.cardHeight <= ListLayout.visibleRows(s))
    _ = s.handle(.key(.home))
    #expect(s.listFocus == "n39")
    _ = s.handle(.key(.end))
    #expect(s.listFocus == ListLayout.last(s))
  }

  @Test func foregroundActionOpensTheApp() throws {
    var s = try state()
    deliver(notification("a", category: "meeting-invite"), into: &s)
    _ = s.handle(.command(.longPress))
    #expect(responses(s.handle(.command(.chooseAction("open-calendar")))).map(\.0) == ["open-calendar"])
    #expect(s.appState == .foreground)
  }

  @Test func notificationWithoutAlertTextIsNotShown() throws {
    var s = try state()
    let content = UNMutableNotificationContent()
    content.badge = 9
    let n = UNNotification(request: UNNotificationRequest(identifier: "bg", content: content, trigger: nil), date: t0)
    deliver(n, into: &s)
    #expect(s.store.deliveredCount == 0)
    #expect(s.banner == nil)
    #expect(s.store.badge == 9)
  }

  @Test func foregroundPresentationHonoursTheOptions() throws {
    var s = try state()
    _ = s.handle(.deliver(notification("a"), presentation: []))
    #expect(s.banner == nil && s.store.deliveredCount == 0)
    _ = s.handle(.deliver(notification("b"), presentation: [.banner]))
    #expect(s.banner != nil && s.store.deliveredCount == 0)
    _ = s.handle(.deliver(notification("c"), presentation: [.list]))
    #expect(s.banner?.notification.request.identifier == "b" && s.store.deliveredCount == 1)
    let badged = UNMutableNotificationContent()
    badged.title = "x"
    badged.badge = 4
    _ = s.handle(
      .deliver(
        UNNotification(request: UNNotificationRequest(identifier: "d", content: badged, trigger: nil), date: t0),
        presentation: [.badge]))
    #expect(s.store.badge == 4)
  }
}
