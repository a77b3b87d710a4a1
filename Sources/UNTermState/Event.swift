import ActivityKit
import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

/// Something that happened: time passed, a notification arrived, the user did something.
package enum Event: @unchecked Sendable {
  /// The clock moved on.
  case tick(Date)
  /// A notification arrives, presented with these options (the delegate's `willPresent`
  /// answer in the foreground, `backgroundPresentation` otherwise).
  case deliver(UNNotification, presentation: UNNotificationPresentationOptions)
  /// A key was pressed.
  case key(Key)
  /// Text was pasted (a terminal's bracketed paste): it goes into an open reply field as typed
  /// text, and does nothing anywhere else.
  case paste(String)
  /// The user did something a script names directly.
  case command(Command)
  /// The terminal changed size.
  case resize(width: Int, height: Int)
  /// A center call from the app: categories, removals, badge.
  case center(UNCenterOperation)
  /// A message for the activity pane. `revealsContent` says it may quote a notification's
  /// content, so the pane hides it while previews are hidden: only a message known to quote
  /// none (a theme's name, the log's state) passes `false`.
  case notice(CenterState.Notice.Kind, String, revealsContent: Bool = true)
  /// A content extension loaded (or reloaded) its view for a notification.
  case extensionLoaded(notification: String, ExtensionView)
  /// A program's extension answered an action; `nil` means it does not handle actions.
  case extensionCompleted(UNNotificationResponse, ResponseContext, UNNotificationContentExtensionResponseOption?)
  /// The extension replaced the actions (`extensionContext.notificationActions`).
  case extensionSetActions([UNNotificationAction])
  /// The extension asked for the default action (`performNotificationDefaultAction()`).
  case extensionDefaultAction
  /// The extension closed its view (`dismissNotificationContentExtension()`).
  case extensionDismiss
  /// The extension's playback started or paused on its own.
  case extensionMediaChanged(playing: Bool)
  /// The extension asked to open a URL (`extensionContext.open(_:completionHandler:)`).
  case extensionOpen(String)
  /// The session starts with these settings (the command line's, or the embedding program's).
  case configure(CenterSettings)
  /// The session takes over the store the app's center kept while no session ran: its
  /// categories (unless some are registered already), delivered notifications, pending requests
  /// (their fire dates moved by `clockShift`, the session's clock minus the wall clock) and badge.
  case adopt(NotificationStore, clockShift: TimeInterval)
  /// The app added a request with a time, calendar or location trigger: it waits in the store
  /// until the trigger fires. An invalid trigger is the outcome's failure.
  case schedule(UNNotificationRequest)
  /// The content extensions the session has, by the category each serves.
  case setExtensions([String: ContentExtensionAttributes])
  /// The shell draws with this theme from now on; `announce` says so in the activity pane.
  case themeApplied(String, announce: Bool)
  /// The shell could not load this theme: the activity pane says why, and `t` skips it.
  case themeFailed(String, reason: String)
  /// The session wrote and synced the log record of response `number` (`.recorded`), or could
  /// not (`.notRecorded`); `nil` for a response the pane does not list.
  case responseLogged(Int?, CenterState.Recording)
  /// The live preview (`--watch`) re-read a file: its content replaces what was loaded, in
  /// place, and the screen's state (focus, open view, lock, a reply being typed) stays.
  case reload(Reload)
  /// The app's strings the session loaded (`--strings`, the `strings` script command).
  case setStrings(AppStrings)
  /// A Live Activity push (a payload with `aps.event`): a start names its activity `name` (or
  /// `activity-N`); an update or end goes to `name`'s, or to the newest activity.
  case activity(ActivityPush, name: String?)
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
  /// Moves the focus to a notification (a click on it).
  case focus(String)
  /// Presses a button of the content extension's view (a click on it).
  case pressExtensionButton(Int)
  /// Brings the app to the foreground or sends it to the background.
  case setAppState(CenterState.AppState)
  /// Collapses the fanned-out stack (iOS's "Show less").
  case showLess
  /// Turns a Focus on or off; `allow` replaces the apps it lets through when given.
  case setFocusMode(FocusMode, allow: [String]?)
  /// Sets the Scheduled Summary times; none turns the summary off (delivering what it held).
  case setSummary([DayTime])
  /// Changes the Dynamic Type size.
  case setTextSize(DynamicTypeSize)
  /// Changes the device language (`g`, the `locale` script command).
  case setLocale(String)
  /// Names the session's own app (a script's `bundle`).
  case setBundle(String)
  /// Names an app in headers; `nil` is the session's own (a script's `app-name`).
  case setAppName(app: String?, name: String)
  /// When previews show (a script's `previews`).
  case setPreviews(CenterState.Previews)
  /// Takes the device off the network or back (`o`, a script's `offline on|off`, `unterm
  /// center offline`): meanwhile APNs holds what it would store (`Effect.network`).
  case setOffline(Bool)
}

/// What the shell must do after an update.
package enum Effect: @unchecked Sendable {
  /// Hand a response to the delegate (and the log). Only the update makes one, as it records
  /// it in the Responses pane, so every response the app gets is one the pane shows; its
  /// `entry` is its number in the pane, for `Event.responseLogged`.
  case respond(RecordedResponse)
  /// Stop the session.
  case quit
  /// Draw with another theme from now on; the shell answers `.themeApplied` or `.themeFailed`.
  case applyTheme(String)
  /// A trigger fired: present the request (through the delegate's `willPresent` in the
  /// foreground).
  case present(UNNotificationRequest)
  /// Load the content extension's view for a notification (calls `didReceive(_:)`).
  case loadExtension(UNNotification)
  /// Hand an action to a program's extension (`didReceive(_:completionHandler:)`).
  case extensionAction(UNNotificationResponse, ResponseContext)
  /// Tell the extension to play or pause its media.
  case extensionMedia(play: Bool)
  /// A button in a program extension's view was pressed (its code decides what it does).
  case extensionButton(action: String)
  /// The device went offline (`true`) or back online: what reaches it from outside (the APNs
  /// endpoint) is held, or what was held is delivered.
  case network(offline: Bool)
}

/// The device's state when a response was made, for the log.
package struct ResponseContext: Hashable, Sendable {
  package var date: Date
  package var device: DeviceProfile.Kind
  package var isLocked: Bool
  /// The app the notification belongs to (its bundle identifier).
  package var bundleIdentifier = CategoryRegistry.defaultBundle
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
