import Foundation
import UNTermBidi
import UserNotificationsModel
import UserNotificationsUI

/// What a collapsed stack in the list says under its newest card (issue 25.6).
package enum StackSummary: String, Sendable, CaseIterable {
  /// iOS 15 and later: the others' cards behind the newest one, no summary text; the category's
  /// `categorySummaryFormat` and the payloads' `summary-arg` are not shown (Apple's header:
  /// "summaryArgument is ignored"). A terminal cannot draw the cards' edges, so UNTerm writes
  /// how many there are: "2 more notifications".
  case current
  /// iOS 12 to 14: the category's summary format, `%u` the count (with `summary-arg-count`)
  /// and `%@` the `summary-arg`s of the notifications behind.
  case ios12
}

/// How a session starts: the device and what the user chose on the command line or in the
/// embedding program. Sent once as `Event.configure`.
package struct CenterSettings: Hashable, Sendable {
  package var device: DeviceProfile.Kind = .iphone
  package var isLocked = false
  /// The passcode authentication-required actions ask for; `nil` accepts any input.
  package var passcode: String?
  package var previews: CenterState.Previews = .whenUnlocked
  /// The default app's name in headers (a bare `--app-name`); `nil` derives it from its bundle
  /// identifier.
  package var appName: String?
  /// The session's own app (`--bundle`): the one in the foreground when the app is.
  package var bundle = CategoryRegistry.defaultBundle
  /// Whether the session's own app was named (`--bundle`): a bare categories file is then its.
  package var bundleNamed = false
  /// Apps' display names by bundle identifier (`--app-name ID=NAME`).
  package var appNames: [String: String] = [:]
  /// The theme drawn with.
  package var theme = "default"
  /// The themes `t` cycles through (the catalog's); `theme` is added when missing.
  package var themeNames: [String] = []
  /// Whether responses are recorded in a log (`--log`): each is then acknowledged only when the
  /// session answers `Event.responseLogged`.
  package var keepsLog = false
  /// Focus: off, Do Not Disturb or a named Focus (`--focus`).
  package var focus = FocusMode.off
  /// Apps whose notifications a Focus lets through, by bundle identifier or name (`--focus-allow`).
  package var focusAllowList: [String] = []
  /// Whether time-sensitive notifications break through Focus and the summary
  /// (`--no-time-sensitive` turns it off).
  package var timeSensitiveBreaksThrough = true
  /// Scheduled Summary times (`--summary`); none: no summary.
  package var summaryTimes: [DayTime] = []
  /// The time zone summary times are read in: the session clock's.
  package var timeZone = DisplayTimeZone.utc
  /// The user's Dynamic Type size (`--text-size`).
  package var textSize = DynamicTypeSize.default
  /// Who reorders right-to-left text (`--bidi`, resolved from `auto`).
  package var bidi: BidiMode = .visual
  /// The device language (`--locale`, resolved from the environment by the commands).
  package var locale = "en"
  /// What a collapsed stack says under its card (`--stack-summary`).
  package var stackSummary = StackSummary.current

  package init() {}
}
