import Foundation
import UserNotificationsModel

/// What happens to the expanded view after the extension handled an action.
public enum UNNotificationContentExtensionResponseOption: UInt, Sendable {
  /// Keep the view; the extension handled the action.
  case doNotDismiss = 0
  /// Close the view; the extension handled the action and the app is not told.
  case dismiss = 1
  /// Close the view and forward the action to the app's delegate.
  case dismissAndForwardAction = 2
}

/// The system's play/pause button over a content extension's media.
public enum UNNotificationContentExtensionMediaPlayPauseButtonType: UInt, Sendable {
  /// No button (the default).
  case none = 0
  /// A button that is always visible and toggles between play and pause.
  case `default` = 1
  /// A play button over the content that hides while playing.
  case overlay = 2
}

/// A notification content extension: a custom expanded view for the categories it declares.
///
/// Adopt it in a `UNNotificationContentViewController` subclass. `didReceive(_:)` is required;
/// implement `didReceive(_:completionHandler:)` to handle actions in the extension (then it
/// must handle every action of its categories), and the media members for a play button.
public protocol UNNotificationContentExtension: AnyObject {
  /// Configures the view from a notification; called again when a notification of the same
  /// thread arrives while the view is open.
  func didReceive(_ notification: UNNotification)

  /// Handles an action; call `completion` with what the system should do next.
  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void)

  /// The play/pause button the system draws.
  var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { get }

  /// The user pressed play; start playback.
  func mediaPlay()

  /// The user pressed pause; pause playback.
  func mediaPause()
}

extension UNNotificationContentExtension {
  /// Not implemented: actions go to the app's delegate.
  public func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    UNContentExtensionDefaults.markDefaultUsed(self)
  }

  public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .none }
  public func mediaPlay() {}
  public func mediaPause() {}
}

/// Tells the emulator that an extension left `didReceive(_:completionHandler:)` to the default implementation.
package enum UNContentExtensionDefaults {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var usedDefault: Set<ObjectIdentifier> = []

  static func markDefaultUsed(_ object: AnyObject) {
    lock.lock()
    usedDefault.insert(ObjectIdentifier(object))
    lock.unlock()
  }

  /// Whether the last call to `didReceive(_:completionHandler:)` on `object` hit the default.
  package static func takeDefaultUsed(_ object: AnyObject) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return usedDefault.remove(ObjectIdentifier(object)) != nil
  }
}
