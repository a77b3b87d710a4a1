import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermInput
@testable import UNTermState

/// What a shell used to write into the state directly now arrives as events, and the update
/// asks the layout instead of reading back a drawn frame.
@Suite("The state changes only through events")
struct SingleWriterTests {
  private let t0 = Fixtures.now

  private func request(_ id: String, trigger: UNNotificationTrigger? = nil) -> UNNotificationRequest {
    let content = UNMutableNotificationContent()
    content.title = "Title \(id)"
    content.body = "Body \(id)"
    content.categoryIdentifier = "message"
    return UNNotificationRequest(identifier: id, content: content, trigger: trigger)
  }

  private func presented(_ outcome: Outcome) -> [String] {
    outcome.effects.compactMap {
      if case .present(let request) = $0 { return request.identifier }
      return nil
    }
  }

  @Test func theConfigurationIsAnEvent() {
    var s = CenterState(now: t0)
    var settings = CenterSettings()
    settings.device = .ipad
    settings.isLocked = true
    settings.passcode = "2468"
    settings.previews = .never
    settings.appName = "Chat"
    settings.theme = "dark"
    settings.themeNames = ["default", "high-contrast"]
    _ = s.handle(.configure(settings))
    #expect(s.device.kind == .ipad)
    #expect(s.isLocked)
    #expect(s.passcode == "2468")
    #expect(s.previews == .never)
    #expect(s.appName == "Chat" && s.appNames[CategoryRegistry.defaultBundle] == "Chat")
    #expect(s.themeName == "dark")
    #expect(s.themeNames == ["default", "high-contrast", "dark"])
  }

  @Test func aDueTriggerLeavesTheStoreAsAPresentEffect() {
    var s = CenterState(now: t0)
    let outcome = s.handle(
      .schedule(request("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))))
    #expect(outcome.failure == nil)
    #expect(s.nextDeadline == t0.addingTimeInterval(60))
    #expect(presented(s.handle(.tick(t0.addingTimeInterval(59)))).isEmpty)
    #expect(presented(s.handle(.tick(t0.addingTimeInterval(60)))) == ["later"])
    #expect(s.nextDeadline == nil)
    #expect(s.store.delivered("later") == nil)  // the shell presents it; the update delivers it
  }

  @Test func anInvalidTriggerIsTheOutcomesFailure() {
    var s = CenterState(now: t0)
    let outcome = s.handle(
      .schedule(request("bad", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false))))
    #expect(outcome.failure != nil)
    #expect(s.nextDeadline == nil)
  }

  @Test func adoptingTheCentersStoreKeepsWhatTheAppDid() throws {
    var adopted = NotificationStore()
    adopted.setCategories(try Fixtures.sampleCategories().categories)
    adopted.deliver(UNNotification(request: request("old"), date: t0))
    adopted.schedule(
      request("soon", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)), fireDate: t0)
    adopted.setBadge(4)
    var s = CenterState(now: t0.addingTimeInterval(100))
    // The app's wall clock ran 90 s behind the session's: the request still has 90 s to wait.
    _ = s.handle(.adopt(adopted, clockShift: 90))
    #expect(s.store.delivered("old") != nil)
    #expect(s.store.category("message") != nil)
    #expect(s.store.badge == 4)
    #expect(s.nextDeadline == t0.addingTimeInterval(100))  // never in the past
  }

  @Test func extensionsArriveAsAnEvent() {
    var s = CenterState(now: t0)
    let attributes = ContentExtensionAttributes(categories: ["message"], initialContentSizeRatio: 0.5)
    _ = s.handle(.setExtensions(["message": attributes]))
    #expect(s.extensions["message"]?.initialContentSizeRatio == 0.5)
  }

  @Test func tAsksTheShellForTheNextThemeAndTheAnswerNamesIt() {
    var s = CenterState(now: t0)
    var settings = CenterSettings()
    settings.themeNames = ["default", "dark", "monochrome"]
    _ = s.handle(.configure(settings))
    let outcome = s.handle(.key(.character("t")))
    let asked = outcome.effects.compactMap { effect -> String? in
      if case .applyTheme(let name) = effect { return name }
      return nil
    }
    #expect(asked == ["dark"])
    #expect(s.themeName == "default")  // nothing changes until the shell has loaded it
    _ = s.handle(.themeApplied("dark", announce: true))
    #expect(s.themeName == "dark")
    #expect(s.notices.last?.text == "Theme: dark")
    // A theme that cannot be loaded says why and leaves the cycle.
    _ = s.handle(.themeFailed("monochrome", reason: "monochrome: no such theme"))
    #expect(s.themeNames == ["default", "dark"])
    #expect(s.notices.last?.kind == .error)
  }

  /// A layout that says how far the expanded view scrolls, as the renderer would.
  private struct FixedLayout: ScreenLayout {
    var limit: Int
    /// Rows shown at once: a page (12, as half of the 24-row screen was).
    var page = 12
    func expandedScrollLimit(_ state: CenterState) -> Int? { state.expanded == nil ? nil : limit }
    func expandedPageRows(_ state: CenterState) -> Int? { state.expanded == nil ? nil : page }
  }

  @Test func theExpandedViewScrollsWithinWhatTheLayoutSays() throws {
    var s = CenterState(now: t0)
    _ = s.handle(.resize(width: 80, height: 24))
    _ = s.handle(.deliver(UNNotification(request: request("a"), date: t0), presentation: [.banner, .list]))
    _ = s.handle(.command(.longPress))
    for _ in 0..<5 { _ = s.handle(.key(.pageDown), layout: FixedLayout(limit: 15)) }
    #expect(s.expanded?.scroll == 15)
    _ = s.handle(.key(.pageUp), layout: FixedLayout(limit: 15))
    #expect(s.expanded?.scroll == 3)
    // The screen grew and the content now fits in 2: PgUp moves from what is shown, at once.
    _ = s.handle(.key(.pageDown), layout: FixedLayout(limit: 15))
    _ = s.handle(.key(.pageUp), layout: FixedLayout(limit: 2))
    #expect(s.expanded?.scroll == 0)
  }
}
