import Foundation

/// The app's handler for notifications arriving in the foreground and for the user's responses.
///
/// Every method is optional, as on iOS: implement the completion-handler form or the `async`
/// form. An unimplemented `willPresent` shows nothing; an unimplemented `didReceive` means the
/// app never learns of the response.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
  /// A notification arrived while the app is in the foreground: say how to present it.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping @Sendable (UNNotificationPresentationOptions)
      -> Void)

  /// A notification arrived while the app is in the foreground: say how to present it.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions

  /// The user responded: tapped the notification, chose an action or dismissed it explicitly.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

  /// The user responded: tapped the notification, chose an action or dismissed it explicitly.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async

  /// The user asked for the app's notification settings.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

/// Carries a value across a task boundary that the caller guarantees is used safely.
private struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
}

extension UNUserNotificationCenterDelegate {
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping @Sendable (UNNotificationPresentationOptions)
      -> Void
  ) {
    let box = UncheckedBox(value: (self as any UNUserNotificationCenterDelegate, center, notification))
    Task(executorPreference: ServiceExtensionExecutor.shared) {
      let (delegate, center, notification) = box.value
      // The app's async code, and every task it starts, finds this center as `current()`.
      let options = await UNUserNotificationCenter.$bound.withValue(center) {
        await delegate.userNotificationCenter(center, willPresent: notification)
      }
      completionHandler(options)
    }
  }

  /// Not implemented: iOS then presents nothing.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    []
  }

  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void
  ) {
    let box = UncheckedBox(value: (self as any UNUserNotificationCenterDelegate, center, response))
    Task(executorPreference: ServiceExtensionExecutor.shared) {
      let (delegate, center, response) = box.value
      await UNUserNotificationCenter.$bound.withValue(center) {
        await delegate.userNotificationCenter(center, didReceive: response)
      }
      completionHandler()
    }
  }

  /// Not implemented: the app never learns of the response.
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {}

  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?
  ) {}
}
