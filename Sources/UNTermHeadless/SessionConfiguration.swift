import Foundation
import UNTermBidi
import UNTermCore
import UserNotifications
import UserNotificationsUI

/// The session options every command that loads notifications shares (the contract's table).
package struct SessionConfiguration: Sendable {
  package var categoriesFile: String?
  package var extensionFiles: [String] = []
  package var device: DeviceProfile.Kind = .iphone
  package var theme = SessionConfiguration.defaultTheme
  package var locked = false
  package var passcode: String?
  package var logFile: String?
  package var appName: String?
  package var mediaDirectory: String?
  package var serviceTimeout: TimeInterval = 30
  package var previews: CenterState.Previews = .whenUnlocked
  package var trace = false
  /// Focus (`--focus`, `--focus-allow`, `--no-time-sensitive`).
  package var focus = FocusMode.off
  package var focusAllowList: [String] = []
  package var timeSensitiveBreaksThrough = true
  /// Scheduled Summary times (`--summary`).
  package var summaryTimes: [DayTime] = []
  /// The Dynamic Type size (`--text-size`).
  package var textSize = DynamicTypeSize.default
  /// What the built-in delegate answers `willPresent` with (`--foreground-options`).
  package var foregroundOptions: UNNotificationPresentationOptions = RecordingDelegate.defaultPresentation
  /// The APNs request headers for the payloads the command line names (`--push-type`,
  /// `--priority`, `--collapse-id`, `--expiration`, `--topic`); over each file's `apns-headers`.
  package var apnsHeaders = APNsHeaders()
  /// Who reorders right-to-left text (`--bidi`, resolved from `auto` by the command).
  package var bidi: BidiMode = .visual
  /// The app's strings (`--strings`, repeatable): files or folders.
  package var stringsPaths: [String] = []
  /// The device language (`--locale`; the commands default it from the environment).
  package var locale = "en"
  /// Whether what the session draws is shown with its styles. `render` as plain text is not:
  /// the default theme is then neither looked up nor loaded (a theme named with `--theme` still
  /// is, so a mistyped one is an error whatever the output).
  package var stylesShown = true

  package init() {}

  /// The theme drawn with when none is named.
  package static let defaultTheme = "default"

  /// What the core starts with (the theme catalog's names are the session's to add).
  package var centerSettings: CenterSettings {
    var settings = CenterSettings()
    settings.device = device
    settings.isLocked = locked
    settings.passcode = passcode
    settings.previews = previews
    settings.appName = appName
    settings.theme = theme
    settings.keepsLog = logFile != nil
    settings.focus = focus
    settings.focusAllowList = focusAllowList
    settings.timeSensitiveBreaksThrough = timeSensitiveBreaksThrough
    settings.summaryTimes = summaryTimes
    settings.textSize = textSize
    settings.bidi = bidi
    settings.locale = locale
    return settings
  }
}
