import Foundation
import UserNotifications
import UserNotificationsUI

// A chat app's notification code, written as for iOS.

/// The app's categories: a message can be answered or liked.
public enum ChatCategories {
  public static let message = UNNotificationCategory(
    identifier: "MESSAGE",
    actions: [
      UNTextInputNotificationAction(
        identifier: "REPLY", title: "Reply", options: [], textInputButtonTitle: "Send",
        textInputPlaceholder: "Message"),
      UNNotificationAction(identifier: "LIKE", title: "Like", options: []),
    ],
    intentIdentifiers: [])
}

/// The app delegate: replies go to the outbox, likes are counted.
public final class ChatDelegate: NSObject, UNUserNotificationCenterDelegate {
  /// The replies the user sent, with the conversation they answer.
  public private(set) var outbox: [(conversation: String, text: String)] = []

  public override init() { super.init() }

  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    if let reply = response as? UNTextInputNotificationResponse, response.actionIdentifier == "REPLY" {
      let conversation = response.notification.request.content.threadIdentifier
      outbox.append((conversation, reply.userText))
    }
    completionHandler()
  }
}

/// The service extension: downloads nothing, attaches the sender's photo the payload names.
public final class PhotoService: UNNotificationServiceExtension {
  private var contentHandler: ((UNNotificationContent) -> Void)?
  private var bestAttempt: UNMutableNotificationContent?

  public override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    self.contentHandler = contentHandler
    guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
      return contentHandler(request.content)
    }
    bestAttempt = content
    if let path = content.userInfo["photo"] as? String,
      let photo = try? UNNotificationAttachment(identifier: "photo", url: URL(fileURLWithPath: path), options: nil)
    {
      content.attachments = [photo]
      content.subtitle = "Photo"
    }
    contentHandler(content)
  }

  public override func serviceExtensionTimeWillExpire() {
    if let contentHandler, let bestAttempt { contentHandler(bestAttempt) }
  }
}

/// The content extension: the message and a Like button that counts, also counting the
/// category's Like action (the view stays open).
public final class LikeViewController: UNNotificationContentViewController, UNNotificationContentExtension {
  private var likes = 0
  private var body = ""

  public func didReceive(_ notification: UNNotification) {
    body = notification.request.content.body
    show()
  }

  public func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    if response.actionIdentifier == "LIKE" {
      like()
      completion(.doNotDismiss)
    } else {
      completion(.dismissAndForwardAction)
    }
  }

  public override func buttonPressed(action: String) {
    if action == "like" { like() }
  }

  private func like() {
    likes += 1
    show()
    // Room for the "liked" line once there is one.
    preferredContentSize = CGSize(width: 0, height: 120)
  }

  private func show() {
    view.elements = [.label(body, style: .body), .label("♥ \(likes)", style: .title3)]
    if likes > 0 { view.elements.append(.label("You liked this", style: .footnote)) }
    view.elements.append(.button(title: "Like", action: "like"))
  }
}
