/// The action identifier a response carries when the user opened the app from the notification.
///
/// The string is Apple's runtime value, `com.apple.UNNotificationDefaultActionIdentifier`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

/// The action identifier a response carries when the user explicitly dismissed the notification.
///
/// It is delivered only when the notification's category has the `customDismissAction` option.
/// The string is Apple's runtime value, `com.apple.UNNotificationDismissActionIdentifier`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
