import Foundation
import Testing
import UNTermTesting
import UserNotifications
import UserNotificationsUI

/// A delegate that implements only `didReceive`: iOS then presents nothing in the foreground.
final class ReceiveOnlyDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [UNNotificationResponse] = []
  var responses: [UNNotificationResponse] { lock.withLock { received } }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void
  ) {
    lock.withLock { received.append(response) }
    completionHandler()
  }
}

/// A service extension that blanks the alert text and counts its runs.
final class BlankingService: UNNotificationServiceExtension, @unchecked Sendable {
  nonisolated(unsafe) static var runs = 0
  override func didReceive(_ request: UNNotificationRequest) async -> UNNotificationContent {
    Self.runs += 1
    let content = UNMutableNotificationContent()
    content.title = ""
    content.body = ""
    content.badge = 9
    return content
  }
}

/// The numbered facts of the iOS reference an app's tests rely on, checked through the testing API.
@Suite("Apple's facts through UNTermHarness")
struct AppleFactsTests {
  private static let payload = #"""
    {"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"},"category":"MEETING",
     "thread-id":"chat-7","target-content-id":"window-2"},"room":"kitchen","n":{"k":7}}
    """#

  private static let meeting = UNNotificationCategory(
    identifier: "MEETING",
    actions: [UNNotificationAction(identifier: "accept", title: "Accept", options: [])],
    intentIdentifiers: [], options: [.customDismissAction])

  /// Fact 12: the response carries the request's identifier, content, userInfo, category,
  /// thread, target content identifier and delivery date, and comes once per answer.
  @Test func aResponseCarriesTheWholeRequestOnce() async throws {
    let harness = UNTermHarness()
    let delegate = ReceiveOnlyDelegate()
    harness.delegate = delegate
    harness.registerCategories([Self.meeting])
    try await harness.push(Self.payload, as: "invite-1")
    await harness.wait(2)
    await harness.longPress()
    await harness.chooseAction("accept")
    let responses = delegate.responses
    try #require(responses.count == 1)
    let response = responses[0]
    #expect(response.actionIdentifier == "accept")
    let notification = response.notification
    #expect(notification.request.identifier == "invite-1")
    #expect(notification.date == UNTermHarness.startDate)
    let content = notification.request.content
    #expect(content.title == "Ana")
    #expect(content.body == "Dinner at 8?")
    #expect(content.categoryIdentifier == "MEETING")
    #expect(content.threadIdentifier == "chat-7")
    #expect(content.targetContentIdentifier == "window-2")
    #expect(content.userInfo["room"] as? String == "kitchen")
    #expect((content.userInfo["n"] as? [String: Any])?["k"] as? Int == 7)
    #expect(harness.responses.count == 1)
  }

  /// Fact 11: with a delegate that does not implement `willPresent`, a notification arriving
  /// while the app is in the foreground is neither shown nor listed.
  @Test func anUnimplementedWillPresentShowsNothing() async throws {
    let harness = UNTermHarness()
    let delegate = ReceiveOnlyDelegate()
    harness.delegate = delegate
    try await harness.push(#"{"aps":{"alert":"first"}}"#)
    await harness.tap()  // opens the app: it is in the foreground now
    try await harness.push(#"{"aps":{"alert":"second arrives in the foreground"}}"#)
    #expect(!harness.screen.contains { $0.contains("second arrives") }, "\(harness.screen.joined(separator: "\n"))")
    #expect(!harness.deliveredNotifications.contains { $0.request.content.body.hasPrefix("second") })
  }

  /// Fact 13: the service extension runs only for `mutable-content: 1` with alert text, and
  /// content it returns without alert text is ignored (the original shows).
  @Test(
    .serialized,
    arguments: [
      (#"{"aps":{"alert":{"title":"Kept","body":"original"},"mutable-content":1}}"#, 1),
      (#"{"aps":{"alert":{"title":"Kept","body":"original"},"mutable-content":0}}"#, 0),
      (#"{"aps":{"alert":{"title":"Kept","body":"original"}}}"#, 0),
      (#"{"aps":{"badge":3,"mutable-content":1}}"#, 0),
    ])
  func theServiceExtensionRunsOnlyForMutableAlerts(payload: String, runs: Int) async throws {
    BlankingService.runs = 0
    let harness = UNTermHarness()
    harness.serviceExtension = { BlankingService() }
    try await harness.push(payload)
    #expect(BlankingService.runs == runs)
    if payload.contains("Kept") {
      #expect(harness.deliveredNotifications.map(\.request.content.title) == ["Kept"])
      #expect(harness.deliveredNotifications.map(\.request.content.body) == ["original"])
    }
  }

  private static func content(_ body: String) -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "Reminder"
    content.body = body
    return content
  }

  /// Facts 22 and 23 in a running session: a pending request with the same identifier is
  /// replaced, a repeating interval under 60 s is refused and nothing is scheduled, and removing
  /// unknown identifiers is a silent no-op that leaves the list as it was.
  @Test func requestsReplaceRefuseAndRemoveAsIOSDoes() async throws {
    let harness = UNTermHarness()
    let center = harness.notificationCenter
    let later = UNTimeIntervalNotificationTrigger(timeInterval: 600, repeats: false)
    try await center.add(UNNotificationRequest(identifier: "r", content: Self.content("first"), trigger: later))
    try await center.add(UNNotificationRequest(identifier: "r", content: Self.content("second"), trigger: later))
    #expect(await center.pendingNotificationRequests().map(\.content.body) == ["second"])

    let tooOften = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true)
    await #expect(throws: (any Error).self) {
      try await center.add(UNNotificationRequest(identifier: "often", content: Self.content("x"), trigger: tooOften))
    }
    #expect(await center.pendingNotificationRequests().map(\.identifier) == ["r"])

    try await harness.push(#"{"aps":{"alert":"listed"}}"#, as: "listed")
    center.removeDeliveredNotifications(withIdentifiers: ["nope", "r"])
    await harness.wait(1)
    #expect(await center.deliveredNotifications().map(\.request.identifier) == ["listed"])
    #expect(await center.pendingNotificationRequests().map(\.identifier) == ["r"])
    await harness.wait(600)
    #expect(harness.deliveredNotifications.map(\.request.content.body) == ["second", "listed"])
  }
}

/// A content extension that names its notification in the header (fact 16).
final class TitledCard: UNNotificationContentViewController, UNNotificationContentExtension {
  func didReceive(_ notification: UNNotification) {
    title = "Trip to Porto"
    view.elements = [.label(notification.request.content.body, style: .body)]
  }
}

@Suite("Content extension titles through the harness")
struct HarnessExtensionTitleTests {
  private func expandedHeader(overridesDefaultTitle: Bool) async throws -> String {
    let harness = UNTermHarness(device: .iphone, size: (columns: 60, rows: 20))
    harness.registerCategories([UNNotificationCategory(identifier: "TRIP", actions: [], intentIdentifiers: [])])
    try harness.addContentExtension(
      categories: ["TRIP"], initialContentSizeRatio: 0.2, overridesDefaultTitle: overridesDefaultTitle
    ) { TitledCard() }
    try await harness.push(#"{"aps":{"alert":{"title":"Train","body":"Platform 4"},"category":"TRIP"}}"#)
    await harness.longPress()
    let header = try #require(harness.screen.first { $0.contains("now") }, "\(harness.screen)")
    return header
  }

  @Test func theControllersTitleReplacesTheAppNameOnlyWhenTheExtensionSaysSo() async throws {
    let overridden = try await expandedHeader(overridesDefaultTitle: true)
    #expect(overridden.contains("Trip to Porto"), "\(overridden)")
    #expect(!overridden.contains("App"), "\(overridden)")
    let plain = try await expandedHeader(overridesDefaultTitle: false)
    #expect(plain.contains("App"), "\(plain)")
    #expect(!plain.contains("Trip to Porto"), "\(plain)")
  }
}

/// The harness's screen puts a content extension's view above the default title and body
/// (issue 25.2), and counts them in the budget.
@Suite("Content extension order through the harness")
struct HarnessExtensionOrderTests {
  @Test func theViewIsAboveTheDefaultContent() async throws {
    let harness = UNTermHarness(device: .iphone, size: (columns: 60, rows: 20))
    harness.registerCategories([UNNotificationCategory(identifier: "TRIP", actions: [], intentIdentifiers: [])])
    try harness.addContentExtension(categories: ["TRIP"], initialContentSizeRatio: 0.2) { TitledCard() }
    try await harness.push(#"{"aps":{"alert":{"title":"Train","body":"Platform 4"},"category":"TRIP"}}"#)
    await harness.longPress()
    let rows = harness.screen.map { $0.replacing(/\ +$/, with: "") }
    let card = try #require(rows.firstIndex { $0.contains("App") && $0.contains("now") }, "\(rows)")
    // The view keeps its placeholder's height (359 × 0.2 pt: four rows), then a row of space,
    // then the system's title and body.
    #expect(
      Array(rows[card...(card + 10)]) == [
        "       │ App                                now  ✕ │",
        "       ├───────────────────────────────────────────┤",
        "       │ Platform 4                                │",
        "       │                                           │",
        "       │                                           │",
        "       │                                           │",
        "       │                                           │",
        "       │ Train                                     │",
        "       │ Platform 4                                │",
        "       ├───────────────────────────────────────────┤",
        "       │ x  Dismiss                                │",
      ], "\(rows.joined(separator: "\n"))")
    #expect(harness.extensionHeights.last?.defaultContentHeight == 60)
  }
}
