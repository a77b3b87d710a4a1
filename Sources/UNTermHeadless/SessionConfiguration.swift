import Foundation
import UNTermCore

/// The session options every command that loads notifications shares (the contract's table).
package struct SessionConfiguration: Sendable {
  package var categoriesFile: String?
  package var extensionFiles: [String] = []
  package var device: DeviceProfile.Kind = .iphone
  package var theme = "default"
  package var locked = false
  package var passcode: String?
  package var logFile: String?
  package var appName: String?
  package var mediaDirectory: String?
  package var serviceTimeout: TimeInterval = 30
  package var previews: CenterState.Previews = .whenUnlocked
  package var trace = false

  package init() {}

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
    return settings
  }
}
