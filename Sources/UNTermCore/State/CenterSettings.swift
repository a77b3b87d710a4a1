/// How a session starts: the device and what the user chose on the command line or in the
/// embedding program. Sent once as `Event.configure`.
package struct CenterSettings: Hashable, Sendable {
  package var device: DeviceProfile.Kind = .iphone
  package var isLocked = false
  /// The passcode authentication-required actions ask for; `nil` accepts any input.
  package var passcode: String?
  package var previews: CenterState.Previews = .whenUnlocked
  /// The app name in headers; `nil` takes it from the payload's bundle, else `App`.
  package var appName: String?
  /// The theme drawn with.
  package var theme = "default"
  /// The themes `t` cycles through (the catalog's); `theme` is added when missing.
  package var themeNames: [String] = []
  /// Whether responses are recorded in a log (`--log`): each is then acknowledged only when the
  /// session answers `Event.responseLogged`.
  package var keepsLog = false

  package init() {}
}
