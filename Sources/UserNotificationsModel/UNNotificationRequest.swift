import CoreLocation
import Foundation

/// What an APNs payload file said beyond the notification's content.
package struct UNRemotePayloadInfo: Sendable, Hashable {
  /// `aps.mutable-content` was 1: a service extension may modify the content.
  package var mutableContent: Bool
  /// `aps.content-available` was 1: a background update.
  package var contentAvailable: Bool
  /// The target app's bundle identifier from `Simulator Target Bundle`.
  package var bundleIdentifier: String?
  /// The file the payload came from (`-` for standard input).
  package var file: String
  /// The payload's size in bytes as APNs counts it.
  package var byteCount: Int
  /// The APNs request headers it came with (the file's `apns-headers`, under the command line's).
  package var headers = APNsHeaders()
  /// The app it is for, as the payload says: `unterm push --bundle`, else `Simulator Target
  /// Bundle`, else the `apns-topic` header (less its push type's suffix); `nil`: the session's
  /// default app. `NotificationStore.app(of:)` is the one place that resolves it.
  package var app: String?

  package init(
    mutableContent: Bool = false, contentAvailable: Bool = false, bundleIdentifier: String? = nil,
    file: String = "-", byteCount: Int = 0
  ) {
    self.mutableContent = mutableContent
    self.contentAvailable = contentAvailable
    self.bundleIdentifier = bundleIdentifier
    app = bundleIdentifier
    self.file = file
    self.byteCount = byteCount
  }
}

/// A request to deliver a notification: an identifier, the content and when to deliver it.
open class UNNotificationRequest: NSObject, NSCopying, @unchecked Sendable {
  /// The request's identifier; adding a request with the same identifier replaces the old one.
  public let identifier: String
  /// The content, copied when the request was made.
  public let content: UNNotificationContent
  /// When to deliver; `nil` delivers at once. Remote notifications carry a push trigger.
  public let trigger: UNNotificationTrigger?
  /// The payload facts for a remote notification loaded from a file.
  package let remote: UNRemotePayloadInfo?

  /// Creates a request; the content is copied, so later changes to it have no effect.
  public convenience init(
    identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?
  ) {
    self.init(identifier: identifier, content: content, trigger: trigger, remote: nil)
  }

  package convenience init(
    identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?,
    remote: UNRemotePayloadInfo?
  ) {
    self.init(
      identifier: identifier, sharing: UNNotificationContent(copying: content), trigger: trigger, remote: remote)
  }

  /// A request with this very content object, not a copy: for content that is already a
  /// request's own (immutable) copy, as the store keeps it.
  package init(
    identifier: String, sharing content: UNNotificationContent, trigger: UNNotificationTrigger?,
    remote: UNRemotePayloadInfo?
  ) {
    self.identifier = identifier
    self.content = content
    self.trigger = trigger
    self.remote = remote
    super.init()
  }

  /// The same request under another identifier, or with other content.
  package func replacing(identifier: String? = nil, content: UNNotificationContent? = nil)
    -> UNNotificationRequest
  {
    UNNotificationRequest(
      identifier: identifier ?? self.identifier, content: content ?? self.content,
      trigger: trigger, remote: remote)
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override var description: String {
    "<UNNotificationRequest: identifier: \(identifier), content: \(content), trigger: \(trigger.map { "\($0)" } ?? "nil")>"
  }
}

/// The condition that delivers a notification.
open class UNNotificationTrigger: NSObject, NSCopying, @unchecked Sendable {
  /// Whether the trigger fires again after it delivers.
  public let repeats: Bool

  package init(repeats: Bool) {
    self.repeats = repeats
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  /// The first date after `date` when the trigger fires, or `nil` if it never does.
  package func fireDate(after date: Date) -> Date? { date }

  /// Why the trigger cannot be scheduled, if it cannot.
  package var invalidReason: String? { nil }

  /// Why a valid trigger never fires in UNTerm, if it never does: the request then stays
  /// pending, as on a device that never meets the condition, and the activity pane says so.
  package var neverFiresNote: String? { nil }
}

/// A trigger that fires when the device enters or leaves a region.
///
/// UNTerm has no location, so the trigger never fires: the request is accepted and stays
/// pending (`pendingNotificationRequests()` lists it), and the activity pane says why.
@available(iOS 10.0, watchOS 3.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// The region watched.
  open private(set) var region: CLRegion

  /// Creates the trigger for a region; `repeats` fires it on every entry or exit.
  public init(region: CLRegion, repeats: Bool) {
    self.region = region
    super.init(repeats: repeats)
  }

  package override func fireDate(after date: Date) -> Date? { nil }

  package override var neverFiresNote: String? {
    "a location trigger (\(region.description)) never fires here: UNTerm has no location, so the request stays pending"
  }

  open override var description: String {
    "<UNLocationNotificationTrigger: region: \(region.description), repeats: \(repeats)>"
  }
}

/// The trigger of a notification sent through APNs.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  public init() { super.init(repeats: false) }
}

/// A trigger that fires after a number of seconds.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// Seconds from scheduling to delivery.
  public let timeInterval: TimeInterval

  /// Creates the trigger; the interval must be positive, and at least 60 s when repeating.
  public init(timeInterval: TimeInterval, repeats: Bool) {
    self.timeInterval = timeInterval
    super.init(repeats: repeats)
  }

  /// The next date the trigger fires, counted from now.
  open func nextTriggerDate() -> Date? {
    invalidReason == nil ? Date().addingTimeInterval(timeInterval) : nil
  }

  package override func fireDate(after date: Date) -> Date? {
    invalidReason == nil ? date.addingTimeInterval(timeInterval) : nil
  }

  package override var invalidReason: String? {
    if !(timeInterval > 0) { return "time interval must be greater than 0" }
    if repeats && timeInterval < 60 { return "time interval must be at least 60 if repeating" }
    return nil
  }
}

/// A trigger that fires at dates matching some date components.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  /// The components a date must match.
  public let dateComponents: DateComponents

  /// Creates the trigger.
  public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
    self.dateComponents = dateComponents
    super.init(repeats: repeats)
  }

  /// The next date matching the components, counted from now.
  open func nextTriggerDate() -> Date? { fireDate(after: Date()) }

  package override func fireDate(after date: Date) -> Date? {
    let calendar = dateComponents.calendar ?? Calendar.current
    return calendar.nextDate(
      after: date, matching: dateComponents, matchingPolicy: .nextTime)
  }
}

/// A notification the system delivered: the request and when it arrived.
open class UNNotification: NSObject, NSCopying, @unchecked Sendable {
  /// When the notification was delivered.
  public let date: Date
  /// The request that produced it.
  public let request: UNNotificationRequest

  /// Creates a delivered notification.
  ///
  /// iOS does not let apps create these; UNTerm does, so tests can build responses.
  public init(request: UNNotificationRequest, date: Date) {
    self.request = request
    self.date = date
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override var description: String {
    "<UNNotification: date: \(date), request: \(request)>"
  }
}

/// The user's answer to a notification: which action, for which notification.
open class UNNotificationResponse: NSObject, NSCopying, @unchecked Sendable {
  /// The notification answered.
  public let notification: UNNotification
  /// The action's identifier, or one of the two system identifiers.
  public let actionIdentifier: String

  /// Creates a response.
  ///
  /// iOS does not let apps create these; UNTerm does, so tests can drive a delegate.
  public init(notification: UNNotification, actionIdentifier: String) {
    self.notification = notification
    self.actionIdentifier = actionIdentifier
    super.init()
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override var description: String {
    "<\(type(of: self)): actionIdentifier: \(actionIdentifier), request: \(notification.request.identifier)>"
  }
}

/// The response to a text-input action, with the text the user sent.
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
  /// The text the user typed; may be empty.
  public let userText: String

  /// Creates a text-input response.
  public init(notification: UNNotification, actionIdentifier: String, userText: String) {
    self.userText = userText
    super.init(notification: notification, actionIdentifier: actionIdentifier)
  }
}

/// How to present a notification that arrives while the app is in the foreground.
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Apply the badge.
  public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
  /// Play the sound.
  public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
  /// Show the alert: the same as `[.list, .banner]` (deprecated in iOS 14).
  public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
  /// Add the notification to the notification list.
  public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
  /// Show the notification as a banner.
  public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)

  /// Whether a banner is shown.
  package var showsBanner: Bool { contains(.banner) || contains(.alert) }
  /// Whether the notification goes to the list.
  package var showsInList: Bool { contains(.list) || contains(.alert) }
}
