import CoreLocation
import Intents
import UserNotifications

// App code as iOS projects write it for iOS 15 and later, compiled in Swift 5 mode with its
// Apple API use unchanged: a service extension in the `async` form that turns a message into a
// communication notification, a delegate with the `async` forms, the center's `async` calls, and
// a location trigger.

class CommunicationService: UNNotificationServiceExtension {
  override func didReceive(_ request: UNNotificationRequest) async -> UNNotificationContent {
    let userInfo = request.content.userInfo
    guard let senderName = userInfo["sender-name"] as? String else { return request.content }
    let handle = INPersonHandle(value: userInfo["sender-id"] as? String, type: .unknown)
    var avatar: INImage?
    if let path = userInfo["avatar"] as? String {
      avatar = INImage(url: URL(fileURLWithPath: path))
    }
    let sender = INPerson(
      personHandle: handle, nameComponents: nil, displayName: senderName, image: avatar, contactIdentifier: nil,
      customIdentifier: nil)
    let group = (userInfo["group"] as? String).map { INSpeakableString(spokenPhrase: $0) }
    let intent = INSendMessageIntent(
      recipients: nil, outgoingMessageType: .outgoingMessageText, content: request.content.body,
      speakableGroupName: group, conversationIdentifier: request.content.threadIdentifier, serviceName: nil,
      sender: sender, attachments: nil)
    if let avatar {
      intent.setImage(avatar, forParameterNamed: \.sender)
    }
    let interaction = INInteraction(intent: intent, response: nil)
    interaction.direction = .incoming
    do {
      try await interaction.donate()
      return try request.content.updating(from: intent)
    } catch {
      return request.content
    }
  }
}

final class AsyncAppDelegate: NSObject, UNUserNotificationCenterDelegate {
  var responses: [String] = []
  var presented: [String] = []

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    presented.append(notification.request.identifier)
    return [.banner, .list, .badge]
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
    if let reply = response as? UNTextInputNotificationResponse {
      responses.append("\(response.actionIdentifier): \(reply.userText)")
    } else {
      responses.append(response.actionIdentifier)
    }
  }
}

enum NotificationScheduler {
  /// Adds a reminder for arriving at a place, and says what the center holds.
  static func remindAtTheOffice(_ center: UNUserNotificationCenter) async throws -> (
    pending: [String], delivered: [String], alerts: Bool
  ) {
    let settings = await center.notificationSettings()
    let region = CLCircularRegion(
      center: CLLocationCoordinate2D(latitude: 38.7223, longitude: -9.1393), radius: 100, identifier: "office")
    region.notifyOnEntry = true
    region.notifyOnExit = false
    let content = UNMutableNotificationContent()
    content.title = "At the office"
    content.body = "Water the plants"
    let trigger = UNLocationNotificationTrigger(region: region, repeats: false)
    try await center.add(UNNotificationRequest(identifier: "plants", content: content, trigger: trigger))
    let now = UNMutableNotificationContent()
    now.title = "Now"
    now.body = "Delivered at once"
    try await center.add(UNNotificationRequest(identifier: "now", content: now, trigger: nil))
    let pending = await center.pendingNotificationRequests().map(\.identifier)
    let delivered = await center.deliveredNotifications().map(\.request.identifier)
    return (pending, delivered, settings.alertSetting == .enabled)
  }
}
