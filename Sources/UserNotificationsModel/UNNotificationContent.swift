import Foundation

/// The content of a notification: its text, sound, badge, attachments and app data.
///
/// Instances are immutable; `mutableCopy()` gives a `UNMutableNotificationContent`.
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  /// The notification's title.
  public internal(set) var title: String = ""
  /// A secondary line under the title.
  public internal(set) var subtitle: String = ""
  /// The message text.
  public internal(set) var body: String = ""
  /// The identifier of the registered category whose actions apply.
  public internal(set) var categoryIdentifier: String = ""
  /// The key that groups related notifications.
  public internal(set) var threadIdentifier: String = ""
  /// Media shown with the notification.
  public internal(set) var attachments: [UNNotificationAttachment] {
    get { rest?.attachments ?? [] }
    set { if rest != nil || !newValue.isEmpty { writableRest().attachments = newValue } }
  }
  /// The app-icon badge to apply; `nil` leaves the badge as it is, `0` clears it.
  public internal(set) var badge: NSNumber? {
    get { rest?.badge }
    set { if rest != nil || newValue != nil { writableRest().badge = newValue } }
  }
  /// The sound to play.
  public internal(set) var sound: UNNotificationSound? {
    get { rest?.sound }
    set { if rest != nil || newValue != nil { writableRest().sound = newValue } }
  }
  /// The image or storyboard shown when the app launches from the notification.
  public internal(set) var launchImageName: String {
    get { rest?.launchImageName ?? "" }
    set { if rest != nil || !newValue.isEmpty { writableRest().launchImageName = newValue } }
  }
  /// The window or scene to bring forward when the notification opens the app.
  public internal(set) var targetContentIdentifier: String? {
    get { rest?.targetContentIdentifier }
    set { if rest != nil || newValue != nil { writableRest().targetContentIdentifier = newValue } }
  }
  /// The payload: custom keys (and the `aps` dictionary for remote notifications).
  public internal(set) var userInfo: [AnyHashable: Any] {
    get { rest?.userInfo ?? [:] }
    set { if rest != nil || !newValue.isEmpty { writableRest().userInfo = newValue } }
  }
  /// How strongly the notification interrupts.
  public internal(set) var interruptionLevel: UNNotificationInterruptionLevel {
    get { rest?.interruptionLevel ?? .active }
    set { if rest != nil || newValue != .active { writableRest().interruptionLevel = newValue } }
  }
  /// A score from 0 to 1 used to sort and feature notifications in the summary.
  public internal(set) var relevanceScore: Double {
    get { rest?.relevanceScore ?? 0 }
    set { if rest != nil || newValue != 0 { writableRest().relevanceScore = newValue } }
  }
  /// Criteria checked against the current Focus filter.
  public internal(set) var filterCriteria: String? {
    get { rest?.filterCriteria }
    set { if rest != nil || newValue != nil { writableRest().filterCriteria = newValue } }
  }
  /// The argument for the category's summary format (deprecated in iOS 15).
  public internal(set) var summaryArgument: String {
    get { rest?.summaryArgument ?? "" }
    set { if rest != nil || !newValue.isEmpty { writableRest().summaryArgument = newValue } }
  }
  /// How many items this notification counts as in a summary (deprecated in iOS 15).
  public internal(set) var summaryArgumentCount: Int {
    get { rest?.summaryArgumentCount ?? 0 }
    set { if rest != nil || newValue != 0 { writableRest().summaryArgumentCount = newValue } }
  }
  /// The alert's localization keys and arguments (`title-loc-key`, `loc-args`…), kept so the
  /// text can be localized again in another device language. Setting a field's text on a
  /// mutable copy drops its key: the text set is what shows.
  package var localizedAlert: UNLocalizedAlert? {
    get { rest?.localizedAlert }
    set { if rest != nil || newValue != nil { writableRest().localizedAlert = newValue } }
  }

  /// The sender of a communication notification (`updating(from:)` with a message or call
  /// intent): the header shows it, with the avatar's initials.
  package internal(set) var communicationSender: UNCommunicationSender? {
    get { rest?.communicationSender }
    set { if rest != nil || newValue != nil { writableRest().communicationSender = newValue } }
  }

  /// Everything but the text and the two identifiers, which most notifications of a long list
  /// leave at its default: kept apart (and shared between copies until one changes), so such
  /// a notification's content is 104 bytes rather than 212.
  private final class Rest {
    var attachments: [UNNotificationAttachment] = []
    var badge: NSNumber?
    var sound: UNNotificationSound?
    var launchImageName = ""
    var targetContentIdentifier: String?
    var userInfo: [AnyHashable: Any] = [:]
    var interruptionLevel = UNNotificationInterruptionLevel.active
    var relevanceScore: Double = 0
    var filterCriteria: String?
    var summaryArgument = ""
    var summaryArgumentCount = 0
    var localizedAlert: UNLocalizedAlert?
    var communicationSender: UNCommunicationSender?

    func copy() -> Rest {
      let copy = Rest()
      copy.attachments = attachments
      copy.badge = badge
      copy.sound = sound
      copy.launchImageName = launchImageName
      copy.targetContentIdentifier = targetContentIdentifier
      copy.userInfo = userInfo
      copy.interruptionLevel = interruptionLevel
      copy.relevanceScore = relevanceScore
      copy.filterCriteria = filterCriteria
      copy.summaryArgument = summaryArgument
      copy.summaryArgumentCount = summaryArgumentCount
      copy.localizedAlert = localizedAlert
      copy.communicationSender = communicationSender
      return copy
    }
  }

  private var rest: Rest?

  /// The rest, this content's own (copied first if another content shares it).
  private func writableRest() -> Rest {
    if isKnownUniquelyReferenced(&rest), let own = rest { return own }
    let own = rest?.copy() ?? Rest()
    rest = own
    return own
  }

  public override init() { super.init() }

  /// The content updated from a provider: a communication notification when the provider is an
  /// `INSendMessageIntent` (or another intent that names a sender), which iOS shows with the
  /// sender's name and avatar. UNTerm's header shows the sender's name and avatar initials.
  /// Updating a `UNMutableNotificationContent` gives a `UNMutableNotificationContent`.
  ///
  /// - Throws: `UNError` `contentProvidingInvalid` when the provider is not an intent UNTerm
  ///   knows, or names no sender.
  @available(iOS 15.0, macOS 12.0, watchOS 8.0, tvOS 15.0, *)
  open func updating(from provider: any UNNotificationContentProviding) throws -> UNNotificationContent {
    guard let communication = provider as? any UNCommunicationProviding else {
      throw UNError(
        .contentProvidingInvalid,
        "\(type(of: provider)) cannot update notification content; iOS takes an INSendMessageIntent or INStartCallIntent"
      )
    }
    guard let sender = communication.communicationSender else {
      throw UNError(.contentProvidingInvalid, "the \(type(of: provider)) names no sender")
    }
    // As on iOS, a mutable content's update is mutable too: extensions cast it back with `as!`
    // and go on changing it.
    let updated =
      self is UNMutableNotificationContent
      ? UNMutableNotificationContent(copying: self) : UNNotificationContent(copying: self)
    updated.communicationSender = sender
    return updated
  }

  /// Copies every property of another content object.
  package init(copying other: UNNotificationContent) {
    super.init()
    assign(from: other)
  }

  package func assign(from other: UNNotificationContent) {
    title = other.title
    subtitle = other.subtitle
    body = other.body
    categoryIdentifier = other.categoryIdentifier
    threadIdentifier = other.threadIdentifier
    if type(of: other) == UNNotificationContent.self || type(of: other) == UNMutableNotificationContent.self {
      // Shared until either side changes a value of it (`writableRest`).
      rest = other.rest
    } else {
      // A subclass of the app's may answer with values of its own: copy what it says.
      attachments = other.attachments
      badge = other.badge
      sound = other.sound
      launchImageName = other.launchImageName
      targetContentIdentifier = other.targetContentIdentifier
      userInfo = other.userInfo
      interruptionLevel = other.interruptionLevel
      relevanceScore = other.relevanceScore
      filterCriteria = other.filterCriteria
      summaryArgument = other.summaryArgument
      summaryArgumentCount = other.summaryArgumentCount
      localizedAlert = other.localizedAlert
      communicationSender = other.communicationSender
    }
  }

  /// Whether the content has alert text: a title, subtitle or body.
  package var hasAlertText: Bool { !(title.isEmpty && subtitle.isEmpty && body.isEmpty) }

  /// An immutable copy.
  open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(copying: self) }

  /// A mutable copy, as `UNMutableNotificationContent`.
  open func mutableCopy(with zone: NSZone? = nil) -> Any {
    UNMutableNotificationContent(copying: self)
  }

  open override var description: String {
    "<UNNotificationContent: title: \(title), subtitle: \(subtitle), body: \(body), categoryIdentifier: \(categoryIdentifier), threadIdentifier: \(threadIdentifier)>"
  }
}

/// An object that can update a notification's content: on iOS, the Intents framework's
/// `INSendMessageIntent` and `INStartCallIntent` (communication notifications).
@available(iOS 15.0, macOS 12.0, watchOS 8.0, tvOS 15.0, *)
public protocol UNNotificationContentProviding: NSObjectProtocol {}

/// What a communication provider says about its sender (UNTerm's `Intents` conforms its
/// intents; apps never see it).
package protocol UNCommunicationProviding {
  var communicationSender: UNCommunicationSender? { get }
}

/// The sender of a communication notification, as the header shows it.
package struct UNCommunicationSender: Hashable, Sendable {
  /// The sender's name.
  package var displayName: String
  /// Up to two letters for the avatar, from the name's first and last words.
  package var initials: String
  /// The group conversation's name, when the message went to a group.
  package var groupName: String?
  /// Whether the avatar has an image (iOS would show it; UNTerm shows the initials).
  package var hasImage: Bool

  package init(displayName: String, groupName: String? = nil, hasImage: Bool = false) {
    self.displayName = displayName
    self.groupName = groupName
    self.hasImage = hasImage
    initials = Self.initials(of: displayName)
  }

  /// The first character of the first word and of the last, upper-cased where the script has
  /// case: "Ana Lima" → "AL", "প্রজ্ঞা" → "প্র", "Kenji" → "K".
  package static func initials(of name: String) -> String {
    let words = name.split(whereSeparator: { $0.isWhitespace || $0 == "-" }).filter { $0.first?.isLetter ?? false }
    guard let first = words.first?.first else { return name.first.map(String.init) ?? "" }
    var result = String(first).uppercased()
    if words.count > 1, let last = words.last?.first { result += String(last).uppercased() }
    return result
  }
}

/// Notification content whose properties can be changed.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
  public override init() { super.init() }

  package override init(copying other: UNNotificationContent) { super.init(copying: other) }

  open override var title: String {
    get { super.title }
    set {
      super.title = newValue
      localizedAlert?.title = nil
    }
  }
  open override var subtitle: String {
    get { super.subtitle }
    set {
      super.subtitle = newValue
      localizedAlert?.subtitle = nil
    }
  }
  open override var body: String {
    get { super.body }
    set {
      super.body = newValue
      localizedAlert?.body = nil
    }
  }
  open override var attachments: [UNNotificationAttachment] {
    get { super.attachments }
    set { super.attachments = newValue }
  }
  open override var badge: NSNumber? {
    get { super.badge }
    set { super.badge = newValue }
  }
  open override var sound: UNNotificationSound? {
    get { super.sound }
    set { super.sound = newValue }
  }
  open override var launchImageName: String {
    get { super.launchImageName }
    set { super.launchImageName = newValue }
  }
  open override var categoryIdentifier: String {
    get { super.categoryIdentifier }
    set { super.categoryIdentifier = newValue }
  }
  open override var threadIdentifier: String {
    get { super.threadIdentifier }
    set { super.threadIdentifier = newValue }
  }
  open override var targetContentIdentifier: String? {
    get { super.targetContentIdentifier }
    set { super.targetContentIdentifier = newValue }
  }
  open override var userInfo: [AnyHashable: Any] {
    get { super.userInfo }
    set { super.userInfo = newValue }
  }
  open override var interruptionLevel: UNNotificationInterruptionLevel {
    get { super.interruptionLevel }
    set { super.interruptionLevel = newValue }
  }
  open override var relevanceScore: Double {
    get { super.relevanceScore }
    set { super.relevanceScore = newValue }
  }
  open override var filterCriteria: String? {
    get { super.filterCriteria }
    set { super.filterCriteria = newValue }
  }
  open override var summaryArgument: String {
    get { super.summaryArgument }
    set { super.summaryArgument = newValue }
  }
  open override var summaryArgumentCount: Int {
    get { super.summaryArgumentCount }
    set { super.summaryArgumentCount = newValue }
  }
}

/// The localization keys of an alert, with their arguments, as the payload gave them.
package struct UNLocalizedAlert: Sendable, Hashable {
  /// One field's key and arguments.
  package struct Field: Sendable, Hashable {
    package var key: String
    package var arguments: [String]

    package init(key: String, arguments: [String]) {
      self.key = key
      self.arguments = arguments
    }
  }

  package var title: Field?
  package var subtitle: Field?
  package var body: Field?

  package init(title: Field? = nil, subtitle: Field? = nil, body: Field? = nil) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
  }

  package var isEmpty: Bool { title == nil && subtitle == nil && body == nil }
}

extension NSString {
  /// A localized string for a notification, formatted with its arguments.
  ///
  /// UNTerm has no app bundle to look the key up in, so, as Foundation does for a missing
  /// key, the key itself is the format, formatted as `String(format:)` would (`StringFormat`).
  public class func localizedUserNotificationString(forKey key: String, arguments: [Any]?)
    -> String
  {
    StringFormat.format(key, arguments: (arguments ?? []).map { "\($0)" })
  }
}
