import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermState
@testable import UserNotificationsModel

/// The lock screen asks before it opens anything (issue 10.2), and stacks behave as iOS's do:
/// a tap fans one out, "Show less" collapses it, `x` clears a collapsed one as a group
/// (issues 10.4, 17.2).
@Suite("Lock screen and stacks")
struct LockScreenAndStackTests {
  private let t0 = Fixtures.now

  private func state(previews: CenterState.Previews = .whenUnlocked, passcode: String? = "1234") throws
    -> CenterState
  {
    var s = CenterState(now: t0)
    var settings = CenterSettings()
    settings.previews = previews
    settings.passcode = passcode
    _ = s.handle(.configure(settings))
    s.store.setCategories(try Fixtures.sampleCategories().categories)
    return s
  }

  private func notification(_ id: String, category: String = "message", thread: String = "t") -> UNNotification {
    let content = UNMutableNotificationContent()
    content.title = "Title \(id)"
    content.body = "Body \(id)"
    content.categoryIdentifier = category
    content.threadIdentifier = thread
    return UNNotification(request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: t0)
  }

  private func deliver(_ n: UNNotification, into s: inout CenterState) {
    _ = s.handle(.deliver(n, presentation: CenterState.backgroundPresentation(for: n.request.content)))
  }

  /// The responses an update sends: action identifier and request.
  private func responses(_ outcome: Outcome) -> [String] {
    outcome.effects.compactMap {
      if case .respond(let recorded) = $0 {
        return "\(recorded.response.actionIdentifier)@\(recorded.response.notification.request.identifier)"
      }
      return nil
    }
  }

  private let open = UNNotificationDefaultActionIdentifier
  private let dismiss = UNNotificationDismissActionIdentifier

  // MARK: - The lock screen

  @Test func aTapOnALockedDeviceAsksThePasscodeAndACancelSendsNothing() throws {
    var s = try state()
    _ = s.handle(.command(.lock))
    deliver(notification("a"), into: &s)
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(s.passcodePrompt?.intent == .open(notification: "a"))
    #expect(responses(s.handle(.key(.escape))).isEmpty)
    #expect(s.passcodePrompt == nil && s.isLocked && s.appState == .background)
    #expect(s.store.delivered("a") != nil)
    // A wrong passcode delivers nothing either; the right one opens the app.
    _ = s.handle(.command(.tap))
    _ = s.handle(.command(.type("0000")))
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(s.passcodePrompt?.wrongAttempts == 1)
    _ = s.handle(.command(.type("1234")))
    #expect(responses(s.handle(.key(.enter))) == ["\(open)@a"])
    #expect(!s.isLocked && s.appState == .foreground)
    #expect(s.responses.map(\.requestIdentifier) == ["a"])
  }

  @Test func anUnlockedTapOpensAtOnce() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    #expect(responses(s.handle(.command(.tap))) == ["\(open)@a"])
  }

  @Test func expandingAHiddenPreviewAsksThePasscodeBeforeAnythingShows() throws {
    var s = try state()
    _ = s.handle(
      .setExtensions(["message": ContentExtensionAttributes(categories: ["message"], initialContentSizeRatio: 0.5)]))
    _ = s.handle(.command(.lock))
    deliver(notification("a"), into: &s)
    let asked = s.handle(.command(.longPress))
    #expect(asked.effects.isEmpty)  // no extension is loaded: it would show the content
    #expect(s.passcodePrompt?.intent == .expand(notification: "a"))
    #expect(s.expandedOrReturning == nil)
    _ = s.handle(.key(.escape))
    #expect(s.overlay == nil && s.isLocked)
    _ = s.handle(.command(.longPress))
    _ = s.handle(.command(.type("1234")))
    let unlocked = s.handle(.key(.enter))
    #expect(!s.isLocked)
    #expect(s.expanded?.notification.request.identifier == "a")
    #expect(
      unlocked.effects.contains {
        if case .loadExtension(let n) = $0 { return n.request.identifier == "a" }
        return false
      })
  }

  @Test func previewsShownOnTheLockScreenExpandWithoutAPasscode() throws {
    var s = try state(previews: .always)
    _ = s.handle(.command(.lock))
    deliver(notification("a"), into: &s)
    _ = s.handle(.command(.longPress))
    #expect(s.expanded?.notification.request.identifier == "a")
    #expect(s.isLocked)
    // Opening the app from it still asks: the app opens only after unlocking.
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(s.passcodePrompt?.intent == .open(notification: "a"))
    // So does an extension's performNotificationDefaultAction().
    _ = s.handle(.key(.escape))
    #expect(responses(s.handle(.extensionDefaultAction)).isEmpty)
    #expect(s.passcodePrompt != nil)
  }

  // MARK: - Stacks

  /// Three messages of one thread under a reminder of another: the thread's stack is on top.
  private func stacked() throws -> CenterState {
    var s = try state()
    deliver(notification("u1", category: "reminder", thread: "u"), into: &s)
    deliver(notification("t1", category: "message"), into: &s)
    deliver(notification("t2", category: "reminder"), into: &s)
    deliver(notification("t3", category: "message"), into: &s)
    _ = s.handle(.command(.openCenter))
    return s
  }

  @Test func enterOnACollapsedStackFansItOutAndOpensNothing() throws {
    var s = try stacked()
    let key = try #require(s.store.groupKey(ofDelivered: "t3"))
    #expect(!ListLayout.isGroupExpanded(key, s))
    #expect(responses(s.handle(.key(.enter))).isEmpty)
    #expect(ListLayout.isGroupExpanded(key, s))
    #expect(s.fannedOutGroup == key && s.listFocus == "t3")
    #expect(s.store.deliveredCount == 4 && s.appState == .background)
    // Fanned out, a tap opens the card it is on.
    #expect(responses(s.handle(.key(.enter))) == ["\(open)@t3"])
  }

  @Test func showLessCollapsesTheStackBackToItsNewestCard() throws {
    var s = try stacked()
    let key = try #require(s.store.groupKey(ofDelivered: "t3"))
    _ = s.handle(.key(.enter))
    _ = s.handle(.key(.down))
    #expect(s.listFocus == "t2")
    _ = s.handle(.key(.character("s")))
    #expect(s.fannedOutGroup == nil && !ListLayout.isGroupExpanded(key, s))
    #expect(s.listFocus == "t3")
    #expect(s.handle(.command(.showLess)).failure != nil)  // nothing left to collapse
  }

  @Test func aStackStaysFannedOutWhileTheFocusIsInIt() throws {
    var s = try stacked()
    let key = try #require(s.store.groupKey(ofDelivered: "t3"))
    _ = s.handle(.key(.down))  // into the stack: it fans out
    #expect(s.listFocus == "t2" && s.fannedOutGroup == key)
    _ = s.handle(.key(.up))  // back to its newest card: still fanned out
    #expect(s.listFocus == "t3" && ListLayout.isGroupExpanded(key, s))
    for _ in 0..<3 { _ = s.handle(.key(.down)) }  // on to the next group: it collapses
    #expect(s.listFocus == "u1" && s.fannedOutGroup == nil && !ListLayout.isGroupExpanded(key, s))
  }

  @Test func xOnACollapsedStackClearsTheGroupWithOneDismissPerCustomDismissCategory() throws {
    var s = try stacked()
    let sent = responses(s.handle(.key(.character("x"))))
    // t2's category (reminder) has no customDismissAction: cleared silently, as iOS does.
    #expect(sent == ["\(dismiss)@t3", "\(dismiss)@t1"])
    #expect(s.responses.map(\.requestIdentifier) == ["t3", "t1"])
    #expect(["t1", "t2", "t3"].allSatisfy { s.store.delivered($0) == nil })
    #expect(s.store.delivered("u1") != nil && s.listFocus == "u1")
  }

  @Test func xOnAFannedOutStackClearsOnlyTheFocusedNotification() throws {
    var s = try stacked()
    _ = s.handle(.key(.enter))
    _ = s.handle(.key(.down))
    #expect(responses(s.handle(.key(.character("x")))).isEmpty)  // t2: reminder, no response
    #expect(s.store.delivered("t2") == nil)
    #expect(s.store.delivered("t1") != nil && s.store.delivered("t3") != nil)
    _ = s.handle(.key(.home))
    #expect(responses(s.handle(.key(.character("x")))) == ["\(dismiss)@t3"])
    #expect(s.store.delivered("t1") != nil)
  }

  @Test func aBannerOrASingleCardIsNeverAStack() throws {
    var s = try state()
    deliver(notification("a"), into: &s)
    deliver(notification("b"), into: &s)
    // The banner is one notification: x clears only it.
    #expect(responses(s.handle(.key(.character("x")))) == ["\(dismiss)@b"])
    #expect(s.store.delivered("a") != nil)
  }
}
