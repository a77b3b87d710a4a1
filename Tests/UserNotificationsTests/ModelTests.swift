import Foundation
import Testing
import UserNotificationsModel

@Suite("UserNotifications model")
struct ModelTests {
  @Test func localizedUserNotificationStringFormatsTheKeyAsFoundationWould() {
    // No bundle: the key is the format, with positions, numbers and widths as String(format:).
    let text = NSString.localizedUserNotificationString(
      forKey: "%@ invited %@ (%d players, %03d)", arguments: ["Jenna", "Ana", 3, 7])
    #expect(text == "Jenna invited Ana (3 players, 007)")
    let reordered = NSString.localizedUserNotificationString(forKey: "%2$@ ← %1$@", arguments: ["Ana", "Jenna"])
    #expect(reordered == "Jenna ← Ana")
  }

  @Test func systemIdentifiersAreApplesRuntimeStrings() {
    #expect(UNNotificationDefaultActionIdentifier == "com.apple.UNNotificationDefaultActionIdentifier")
    #expect(UNNotificationDismissActionIdentifier == "com.apple.UNNotificationDismissActionIdentifier")
  }

  @Test func mutableCopyWorksAsOnIOS() throws {
    let original = UNMutableNotificationContent()
    original.title = "Hello"
    original.userInfo = ["k": 1]
    let frozen = try #require(original.copy() as? UNNotificationContent)
    #expect(!(frozen is UNMutableNotificationContent))
    let editable = try #require(frozen.mutableCopy() as? UNMutableNotificationContent)
    editable.title = "Changed"
    #expect(frozen.title == "Hello")
    #expect(editable.title == "Changed")
    #expect(editable.userInfo["k"] as? Int == 1)
  }

  @Test func requestCopiesItsContent() {
    let content = UNMutableNotificationContent()
    content.body = "first"
    let request = UNNotificationRequest(identifier: "a", content: content, trigger: nil)
    content.body = "second"
    #expect(request.content.body == "first")
  }

  @Test func textInputActionInheritsThePlainInitializer() {
    let action = UNTextInputNotificationAction(identifier: "r", title: "Reply", options: [])
    #expect(action.textInputButtonTitle == "")
    #expect(action.textInputPlaceholder == "")
    let full = UNTextInputNotificationAction(
      identifier: "r", title: "Reply", options: [.foreground], textInputButtonTitle: "Send",
      textInputPlaceholder: "Message")
    #expect(full.options == [.foreground])
    #expect(full.textInputButtonTitle == "Send")
  }

  @Test func optionRawValuesMatchApple() {
    #expect(UNNotificationActionOptions.authenticationRequired.rawValue == 1)
    #expect(UNNotificationActionOptions.destructive.rawValue == 2)
    #expect(UNNotificationActionOptions.foreground.rawValue == 4)
    #expect(UNNotificationCategoryOptions.customDismissAction.rawValue == 1)
    #expect(UNNotificationCategoryOptions.hiddenPreviewsShowSubtitle.rawValue == 8)
    #expect(UNNotificationPresentationOptions.banner.rawValue == 16)
    #expect(UNNotificationPresentationOptions.list.rawValue == 8)
    #expect(UNNotificationInterruptionLevel.timeSensitive.rawValue == 2)
  }

  @Test func categoryDefaultsAreEmptyStrings() {
    let category = UNNotificationCategory(identifier: "c", actions: [], intentIdentifiers: [])
    #expect(category.hiddenPreviewsBodyPlaceholder == "")
    #expect(category.categorySummaryFormat == "")
    #expect(category.options == [])
  }

  @Test func setNotificationCategoriesReplacesAll() async {
    let center = UNUserNotificationCenter.makeForSession()
    center.setNotificationCategories([UNNotificationCategory(identifier: "a", actions: [], intentIdentifiers: [])])
    center.setNotificationCategories([UNNotificationCategory(identifier: "b", actions: [], intentIdentifiers: [])])
    let ids = await center.notificationCategories().map(\.identifier)
    #expect(ids == ["b"])
  }

  private func request(_ id: String, thread: String = "", badge: Int? = nil) -> UNNotificationRequest {
    let content = UNMutableNotificationContent()
    content.title = id
    content.threadIdentifier = thread
    content.badge = badge.map { NSNumber(value: $0) }
    return UNNotificationRequest(identifier: id, content: content, trigger: nil)
  }

  @Test func addingAnExistingIdentifierReplacesAndMovesToTop() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    try await center.add(request("a"))
    try await center.add(request("b"))
    let replacement = UNMutableNotificationContent()
    replacement.title = "a again"
    try await center.add(UNNotificationRequest(identifier: "a", content: replacement, trigger: nil))
    let delivered = await center.deliveredNotifications()
    #expect(delivered.map(\.request.identifier) == ["a", "b"])
    #expect(delivered.first?.request.content.title == "a again")
  }

  @Test func removingUnknownIdentifiersIsANoOp() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    try await center.add(request("a"))
    center.removeDeliveredNotifications(withIdentifiers: ["nope", "missing"])
    #expect(await center.deliveredNotifications().count == 1)
    center.removeDeliveredNotifications(withIdentifiers: ["a"])
    #expect(await center.deliveredNotifications().isEmpty)
  }

  @Test func badgeZeroClearsAndAbsentLeavesIt() {
    let center = UNUserNotificationCenter.makeForSession()
    center.add(request("a", badge: 5), withCompletionHandler: nil)
    #expect(center.badgeCount == 5)
    center.add(request("b"), withCompletionHandler: nil)
    #expect(center.badgeCount == 5)
    center.add(request("c", badge: 0), withCompletionHandler: nil)
    #expect(center.badgeCount == 0)
  }

  @Test func repeatingIntervalsUnderAMinuteAreRejected() async {
    let center = UNUserNotificationCenter.makeForSession()
    let content = UNMutableNotificationContent()
    content.title = "t"
    let bad = UNNotificationRequest(
      identifier: "r", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true))
    await #expect(throws: UNError.self) { try await center.add(bad) }
    let zero = UNNotificationRequest(
      identifier: "z", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false))
    await #expect(throws: UNError.self) { try await center.add(zero) }
    let good = UNNotificationRequest(
      identifier: "g", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true))
    try? await center.add(good)
    #expect(await center.pendingNotificationRequests().map(\.identifier) == ["g"])
    #expect(await center.deliveredNotifications().isEmpty)
  }

  @Test func pendingRequestWithSameIdentifierIsReplaced() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    let content = UNMutableNotificationContent()
    content.title = "one"
    try await center.add(
      UNNotificationRequest(
        identifier: "p", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false)
      ))
    content.title = "two"
    try await center.add(
      UNNotificationRequest(
        identifier: "p", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 300, repeats: false)
      ))
    let pending = await center.pendingNotificationRequests()
    #expect(pending.count == 1)
    #expect(pending.first?.content.title == "two")
  }
}
