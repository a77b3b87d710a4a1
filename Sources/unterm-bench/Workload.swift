import Foundation
import UNTermCore
import UNTermHeadless
import UserNotifications

/// The notifications the list and memory figures deliver: messages from 977 senders in 5,000
/// threads, each body with Bengali and Japanese in it, all of the sample `message` category.
enum Workload {
  static let now = Date(timeIntervalSince1970: 1_767_260_460)

  static func content(_ i: Int) -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "Sender \(i % 977)"
    content.body = "Message number \(i): are we still on for tonight? ক্ষমা করো 明日"
    content.threadIdentifier = "thread-\(i % 5_000)"
    content.categoryIdentifier = "message"
    return content
  }

  static func identifier(_ i: Int) -> String { "n\(i)" }

  /// The UTF-8 bytes of a notification's text: identifier, title, subtitle, body, thread and
  /// category (what a store cannot do without).
  static func textBytes(_ i: Int) -> Int {
    let c = content(i)
    return [identifier(i), c.title, c.subtitle, c.body, c.threadIdentifier, c.categoryIdentifier].reduce(0) {
      $0 + $1.utf8.count
    }
  }

  /// A session at 80×24 with `count` notifications delivered to the list, the list open.
  static func session(_ count: Int) throws -> Session {
    var configuration = SessionConfiguration()
    configuration.categoriesFile = Resources.samples?.appendingPathComponent("categories.json").path
    let session = try SessionFactory.make(configuration, now: now)
    session.resize(width: 80, height: 24)
    for i in 0..<count {
      let request = UNNotificationRequest(identifier: identifier(i), content: content(i), trigger: nil)
      let notification = UNNotification(request: request, date: session.state.now)
      session.send(.deliver(notification, presentation: [.list, .badge]))
    }
    session.send(.command(.openCenter))
    return session
  }
}
