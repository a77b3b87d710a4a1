import Foundation
import UserNotificationsModel

/// The built-in app delegate: answers `willPresent` for foreground notifications with the
/// options it was given (`--foreground-options`; a banner in the list with badge and sound by
/// default), and records every response it receives.
package final class RecordingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  /// What the delegate answers `willPresent` with unless told otherwise.
  package static let defaultPresentation: UNNotificationPresentationOptions = [.banner, .list, .badge, .sound]

  private let lock = NSLock()
  private var received: [UNNotificationResponse] = []
  /// The options `willPresent` completes with.
  package let presentation: UNNotificationPresentationOptions

  package init(presentation: UNNotificationPresentationOptions = RecordingDelegate.defaultPresentation) {
    self.presentation = presentation
  }

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
    completionHandler(presentation)
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
