import Foundation
import UserNotifications

/// Something that happened: time passed, a notification arrived, the user did something.
package enum Event: @unchecked Sendable {
  /// The clock moved on.
  case tick(Date)
  /// A notification arrives, presented with these options (the delegate's `willPresent`
  /// answer in the foreground, `backgroundPresentation` otherwise).
  case deliver(UNNotification, presentation: UNNotificationPresentationOptions)
  /// A key was pressed.
  case key(Key)
  /// The user did something a script names directly.
  case command(Command)
  /// The terminal changed size.
  case resize(width: Int, height: Int)
  /// A center call from the app: categories, removals, badge.
  case center(UNCenterOperation)
  /// A message for the activity pane.
  case notice(CenterState.Notice.Kind, String)
}

/// A user gesture named by what it does rather than by a key.
package enum Command: Hashable, Sendable {
  case longPress
  case tap
  case dismiss
  case chooseAction(String)
  case type(String)
  case send
  case openCenter
  case lock
  case unlock(String?)
  case setDevice(DeviceProfile.Kind)
  case setTheme(String)
  case setPasscode(String?)
}

/// What the shell must do after an update.
package enum Effect: @unchecked Sendable {
  /// Hand a response to the delegate (and the log); `context` says how the device was.
  case respond(UNNotificationResponse, ResponseContext)
  /// Stop the session.
  case quit
}

/// The device's state when a response was made, for the log.
package struct ResponseContext: Hashable, Sendable {
  package var date: Date
  package var device: DeviceProfile.Kind
  package var isLocked: Bool
}

/// What an update did: the effects to carry out, and why a command could not be done.
package struct Outcome: @unchecked Sendable {
  package var effects: [Effect] = []
  /// Set when a scripted command made no sense in the current state.
  package var failure: String?

  package init(effects: [Effect] = [], failure: String? = nil) {
    self.effects = effects
    self.failure = failure
  }

  package static func failed(_ reason: String) -> Outcome { Outcome(failure: reason) }
}
