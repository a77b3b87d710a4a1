import Foundation
import UserNotifications

/// The built-in app delegate: presents foreground notifications as a banner in the list with
/// badge and sound, and records every response it receives.
package final class RecordingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [UNNotificationResponse] = []

  /// The responses received so far, oldest first.
  package var responses: [UNNotificationResponse] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  package func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
  ) {
    completionHandler([.banner, .list, .badge, .sound])
  }

  package func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void
  ) {
    lock.lock()
    received.append(response)
    lock.unlock()
    completionHandler()
  }
}
