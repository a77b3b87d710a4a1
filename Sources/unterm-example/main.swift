import Foundation
import UNTerm
import UserNotifications
import UserNotificationsUI

// An app that links UNTerm: it registers its categories and its own delegate in code, as an
// iOS app does, adds a content extension, and runs the notification center in this process.
// A tiny chat bot answers every reply you send from a notification.
//
// Run it in a terminal:  swift run unterm-example

final class ChatBot: NSObject, UNUserNotificationCenterDelegate {
  let center = UNUserNotificationCenter.current()
  private var counter = 0
  private(set) var received: [String] = []

  func start() {
    let reply = UNTextInputNotificationAction(
      identifier: "REPLY", title: "Reply", options: [], textInputButtonTitle: "Send",
      textInputPlaceholder: "Say something to Botty")
    let like = UNNotificationAction(identifier: "LIKE", title: "❤️ Like", options: [])
    let mute = UNNotificationAction(identifier: "MUTE", title: "Mute Botty", options: [.destructive])
    let chat = UNNotificationCategory(
      identifier: "CHAT", actions: [reply, like, mute], intentIdentifiers: [],
      hiddenPreviewsBodyPlaceholder: "%u messages from Botty", categorySummaryFormat: "%u more from %@",
      options: [.customDismissAction])
    center.setNotificationCategories([chat])
    center.delegate = self
    say("Hi! I'm Botty. Long-press me (Space), choose Reply, and type something.", after: 1)
  }

  func say(_ text: String, after seconds: TimeInterval) {
    counter += 1
    let content = UNMutableNotificationContent()
    content.title = "Botty"
    content.body = text
    content.categoryIdentifier = "CHAT"
    content.threadIdentifier = "botty"
    content.summaryArgument = "Botty"
    content.badge = NSNumber(value: counter)
    content.userInfo = ["turn": counter]
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)
    center.add(UNNotificationRequest(identifier: "botty-\(counter)", content: content, trigger: trigger))
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
  ) {
    completionHandler([.banner, .list, .badge, .sound])
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    received.append(response.actionIdentifier)
    switch response.actionIdentifier {
    case "REPLY":
      let text = (response as? UNTextInputNotificationResponse)?.userText ?? ""
      say(text.isEmpty ? "You sent nothing at all. Shy?" : "You said “\(text)”. Tell me more!", after: 2)
    case "LIKE":
      say("Thanks for the ❤️!", after: 2)
    case UNNotificationDefaultActionIdentifier:
      say("You opened the app. Press h to send it to the background again.", after: 2)
    case UNNotificationDismissActionIdentifier:
      say("Cleared — I'll be quiet for a while. (Just kidding.)", after: 5)
    default:
      break
    }
    completionHandler()
  }
}

/// Botty's content extension: a small card with the turn number and a progress bar.
final class BottyCard: UNNotificationContentViewController, UNNotificationContentExtension {
  func didReceive(_ notification: UNNotification) {
    let turn = notification.request.content.userInfo["turn"] as? Int ?? 0
    title = "Botty · turn \(turn)"
    view.elements = [
      .label("🤖 Botty", style: .title3),
      .label(notification.request.content.body, style: .body, maxLines: 4),
      .spacer(8),
      .progress(min(1, Double(turn) / 10)),
      .label("Conversation \(min(turn, 10)) of 10", style: .caption1),
    ]
  }
}

let bot = ChatBot()
bot.start()
// The app's own bundle identifier and the name its notifications' headers show.
var configuration = UNTermSession.Configuration()
configuration.bundleIdentifier = "com.example.botty"
configuration.appName = "Botty Chat"
let session = UNTermSession(configuration: configuration)
session.addContentExtension(categories: ["CHAT"], initialContentSizeRatio: 0.4, overridesDefaultTitle: true) {
  BottyCard()
}
do {
  try session.run()
  print("Botty received \(bot.received.count) response(s): \(bot.received.joined(separator: ", "))")
} catch {
  FileHandle.standardError.write(Data("unterm-example: \(error)\n".utf8))
  exit(1)
}
