import Foundation
import Testing
import UNTermTesting
import UserNotifications

/// The app's center is the harness app's own, as on iOS ("all of your app's delivered
/// notifications"): it lists and removes only that app's notifications, in every form (async,
/// completion handler, fire-and-forget removals) and from the test's thread, which is not the
/// session's. The harness's `deliveredNotifications` is the tester's view: every app's.
@Suite("The app's center in the harness")
struct AppCenterHarnessTests {
  /// The harness app's push ("mine"), another app's ("theirs") and the app's local request
  /// ("local"), in that order.
  private func twoApps() async throws -> UNTermHarness {
    let harness = UNTermHarness(bundleIdentifier: "com.t.mine")
    try await harness.push(#"{"aps":{"alert":{"title":"Inbox","body":"New mail"}}}"#, as: "mine")
    try await harness.push(
      #"{"aps":{"alert":{"title":"Hello","body":"From them"}}}"#, as: "theirs", bundle: "com.t.other")
    let content = UNMutableNotificationContent()
    content.title = "Reminder"
    content.body = "Water the plants"
    try await harness.notificationCenter.add(UNNotificationRequest(identifier: "local", content: content, trigger: nil))
    // Banners gone: the list is on screen.
    await harness.wait(10)
    return harness
  }

  private func ids(_ notifications: [UNNotification]) -> [String] { notifications.map(\.request.identifier) }

  @Test func theCenterListsOnlyTheAppsOwnTheHarnessEveryApps() async throws {
    let harness = try await twoApps()
    let center = harness.notificationCenter
    #expect(ids(await center.deliveredNotifications()) == ["local", "mine"])
    let handed = await withCheckedContinuation { continuation in
      center.getDeliveredNotifications { continuation.resume(returning: $0.map(\.request.identifier)) }
    }
    #expect(handed == ["local", "mine"])
    #expect(ids(harness.deliveredNotifications) == ["local", "theirs", "mine"])
    #expect(harness.app(of: harness.deliveredNotifications[1]) == "com.t.other")
  }

  @Test func removeAllLeavesAnotherAppsNotificationOnScreen() async throws {
    let harness = try await twoApps()
    let center = harness.notificationCenter
    center.removeAllDeliveredNotifications()
    await harness.wait(1)
    #expect(await center.deliveredNotifications().isEmpty)
    #expect(ids(harness.deliveredNotifications) == ["theirs"])
    await harness.key("c")
    let screen = harness.screen
    let expected =
      [
        " Notification Center                            Responses",
        "                                                 none yet",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ Other                                 now ┃  Activity",
        " ┃ Hello                                     ┃",
        " ┃ From them                                 ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
      ] + Array(repeating: "", count: 16) + [
        " iPhone · Unlocked │ Space actions  ⏎ open  x clear  c close list  ? keys"
      ]
    #expect(screen == expected, "\(screen.joined(separator: "\n"))")
  }

  @Test func removingByIdentifierIgnoresAnotherAppsIdentifier() async throws {
    let harness = try await twoApps()
    let center = harness.notificationCenter
    // Another app's identifier is ignored, as an unknown one is; the app's own goes.
    center.removeDeliveredNotifications(withIdentifiers: ["theirs", "nope", "mine"])
    await harness.wait(1)
    #expect(ids(await center.deliveredNotifications()) == ["local"])
    #expect(ids(harness.deliveredNotifications) == ["local", "theirs"])
  }

  /// Pending requests are the app's own: only the app adds them, and another app's push,
  /// delivered at once, never waits among them.
  @Test func pendingRequestsAreTheAppsOwn() async throws {
    let harness = try await twoApps()
    let center = harness.notificationCenter
    let later = UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)
    try await center.add(UNNotificationRequest(identifier: "later", content: UNNotificationContent(), trigger: later))
    #expect(await center.pendingNotificationRequests().map(\.identifier) == ["later"])
    center.removeAllPendingNotificationRequests()
    await harness.wait(1)
    #expect(await center.pendingNotificationRequests().isEmpty)
    #expect(ids(harness.deliveredNotifications) == ["local", "theirs", "mine"])
  }
}
