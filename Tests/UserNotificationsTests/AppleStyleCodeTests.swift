import Testing
import UserNotifications

// This file is written the way an iOS app writes notification code (UIKit lines removed):
// it must compile against UNTerm's UserNotifications module unchanged.

final class AppDelegate: NSObject, UNUserNotificationCenterDelegate {
  var received: [(String, String?)] = []

  func registerCategories(on center: UNUserNotificationCenter) {
    let reply = UNTextInputNotificationAction(
      identifier: "REPLY", title: "Reply", options: [.authenticationRequired],
      textInputButtonTitle: "Send", textInputPlaceholder: "Message")
    let like = UNNotificationAction(identifier: "LIKE", title: "Like", options: [])
    let delete = UNNotificationAction(
      identifier: "DELETE", title: "Delete", options: [.destructive],
      icon: UNNotificationActionIcon(systemImageName: "trash"))
    let message = UNNotificationCategory(
      identifier: "MESSAGE", actions: [reply, like, delete], intentIdentifiers: [],
      hiddenPreviewsBodyPlaceholder: "%u new messages", categorySummaryFormat: "%u more from %@",
      options: [.customDismissAction])
    let meeting = UNNotificationCategory(
      identifier: "MEETING_INVITATION", actions: [], intentIdentifiers: [], options: [])
    center.setNotificationCategories([message, meeting])
  }

  func scheduleMessage(on center: UNUserNotificationCenter) {
    let content = UNMutableNotificationContent()
    content.title = "Ana"
    content.body = "Dinner at 8?"
    content.categoryIdentifier = "MESSAGE"
    content.threadIdentifier = "chat-ana"
    content.sound = .default
    content.badge = 2
    content.userInfo = ["conversation": 4711]
    content.interruptionLevel = .timeSensitive
    let request = UNNotificationRequest(identifier: "msg-1", content: content, trigger: nil)
    center.add(request) { error in
      if let error { print("could not add: \(error)") }
    }
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
  ) {
    completionHandler([.banner, .list, .sound])
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    switch response.actionIdentifier {
    case UNNotificationDefaultActionIdentifier: received.append(("open", nil))
    case UNNotificationDismissActionIdentifier: received.append(("dismiss", nil))
    case "REPLY":
      if let textResponse = response as? UNTextInputNotificationResponse {
        received.append(("REPLY", textResponse.userText))
      }
    default: received.append((response.actionIdentifier, nil))
    }
    completionHandler()
  }
}

@Suite("iOS-style code")
struct AppleStyleCodeTests {
  @Test func appCodeRegistersAddsAndReceives() async throws {
    let center = UNUserNotificationCenter.current()
    let app = AppDelegate()
    center.delegate = app
    let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
    #expect(granted)
    app.registerCategories(on: center)
    app.scheduleMessage(on: center)
    let categories = await center.notificationCategories()
    #expect(Set(categories.map(\.identifier)) == ["MESSAGE", "MEETING_INVITATION"])
    let delivered = await center.deliveredNotifications()
    #expect(delivered.map(\.request.identifier).contains("msg-1"))
    #expect(center.badgeCount == 2)

    // A response built as UNTerm delivers it reaches the delegate.
    let notification = try #require(delivered.first { $0.request.identifier == "msg-1" })
    let response = UNTextInputNotificationResponse(
      notification: notification, actionIdentifier: "REPLY", userText: "On my way")
    app.userNotificationCenter(center, didReceive: response) {}
    #expect(app.received.last?.0 == "REPLY")
    #expect(app.received.last?.1 == "On my way")
    center.removeAllDeliveredNotifications()
    center.setNotificationCategories([])
  }
}
