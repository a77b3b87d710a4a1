import Foundation
import UNTermHeadless
import UNTermState
import UserNotificationsModel

/// The notifications the list and memory figures deliver, all of the sample `message` category,
/// each body with Bengali and Japanese in it. They are numbered from the newest (`k` = 0), so the
/// top of the list is the same at every count: four single notifications, a stack of four, two
/// singles; older ones come from 977 senders in 5,000 threads. (Numbered from the oldest, as
/// before, the newest notification at 100,000 headed a stack of 20 and at 10 stood alone: a
/// focus step expanded the stack at one count and moved between two boxes at the other, two
/// different screens, which made the bytes of "a focus step" differ.)
enum Workload {
  static let now = Date(timeIntervalSince1970: 1_767_260_460)

  /// The thread of the `k`-th newest notification.
  static func thread(_ k: Int) -> String {
    switch k {
    case 4..<8: return "stack"
    case 0..<10: return "recent-\(k)"
    default: return "thread-\(k % 5_000)"
    }
  }

  static func content(_ k: Int) -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "Sender \(k % 977)"
    content.body = "Message number \(k): are we still on for tonight? ক্ষমা করো 明日"
    content.threadIdentifier = thread(k)
    content.categoryIdentifier = "message"
    return content
  }

  static func identifier(_ k: Int) -> String { "n\(k)" }

  /// The UTF-8 bytes of a notification's text: identifier, title, subtitle, body, thread and
  /// category (what a store cannot do without).
  static func textBytes(_ k: Int) -> Int {
    let c = content(k)
    return [identifier(k), c.title, c.subtitle, c.body, c.threadIdentifier, c.categoryIdentifier].reduce(0) {
      $0 + $1.utf8.count
    }
  }

  /// A session at 80×24 with `count` notifications delivered to the list, oldest first, the
  /// list open.
  static func session(_ count: Int) throws -> Session {
    var configuration = SessionConfiguration()
    configuration.categoriesFile = Resources.samples?.appendingPathComponent("categories.json").path
    let session = try SessionFactory.make(configuration, now: now)
    session.resize(width: 80, height: 24)
    for k in (0..<count).reversed() {
      let request = UNNotificationRequest(identifier: identifier(k), content: content(k), trigger: nil)
      let notification = UNNotification(request: request, date: session.state.now)
      session.send(.deliver(notification, presentation: [.list, .badge]))
    }
    session.send(.command(.openCenter))
    return session
  }
}
