import Foundation

/// The kinds of interaction an app asks permission for.
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
  public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
  public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
  public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
  public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
  public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
  public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
  public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)
  public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)
}

/// Whether the app may post notifications.
public enum UNAuthorizationStatus: Int, Sendable {
  case notDetermined = 0
  case denied = 1
  case authorized = 2
  case provisional = 3
  case ephemeral = 4
}

/// Whether one notification feature is on.
public enum UNNotificationSetting: Int, Sendable {
  case notSupported = 0
  case disabled = 1
  case enabled = 2
}

/// How alerts are shown while the device is unlocked.
public enum UNAlertStyle: Int, Sendable {
  case none = 0
  case banner = 1
  case alert = 2
}

/// When notification previews are shown.
public enum UNShowPreviewsSetting: Int, Sendable {
  case always = 0
  case whenAuthenticated = 1
  case never = 2
}

/// The app's notification settings. In UNTerm every feature is enabled.
open class UNNotificationSettings: NSObject, @unchecked Sendable {
  public let authorizationStatus: UNAuthorizationStatus
  public let soundSetting: UNNotificationSetting
  public let badgeSetting: UNNotificationSetting
  public let alertSetting: UNNotificationSetting
  public let notificationCenterSetting: UNNotificationSetting
  public let lockScreenSetting: UNNotificationSetting
  public let carPlaySetting: UNNotificationSetting
  public let criticalAlertSetting: UNNotificationSetting
  public let timeSensitiveSetting: UNNotificationSetting
  public let alertStyle: UNAlertStyle
  public let showPreviewsSetting: UNShowPreviewsSetting
  public let providesAppNotificationSettings: Bool

  package init(showPreviews: UNShowPreviewsSetting) {
    authorizationStatus = .authorized
    soundSetting = .enabled
    badgeSetting = .enabled
    alertSetting = .enabled
    notificationCenterSetting = .enabled
    lockScreenSetting = .enabled
    carPlaySetting = .notSupported
    criticalAlertSetting = .enabled
    timeSensitiveSetting = .enabled
    alertStyle = .banner
    showPreviewsSetting = showPreviews
    providesAppNotificationSettings = false
    super.init()
  }
}
