import Foundation

/// Options for a category's behaviour.
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Send explicit dismissals to the delegate as `UNNotificationDismissActionIdentifier`.
  public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
  /// CarPlay may show notifications of this category.
  public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
  /// Show the title even when previews are hidden.
  public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
  /// Show the subtitle even when previews are hidden.
  public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
  /// Siri may read the notification aloud (deprecated in iOS 15).
  public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A type of notification the app supports, with the actions to show for it.
open class UNNotificationCategory: NSObject, NSCopying, @unchecked Sendable {
  /// The category's identifier, matched case-sensitively against a payload's `category`.
  public let identifier: String
  /// The actions, in the order the system shows them.
  public let actions: [UNNotificationAction]
  /// Intents related to this category.
  public let intentIdentifiers: [String]
  /// Text shown in place of the body when previews are hidden; `%u` is the thread's count.
  public let hiddenPreviewsBodyPlaceholder: String
  /// The summary of a group of this category; `%u` is the count and `%@` the argument.
  public let categorySummaryFormat: String
  /// The category's options.
  public let options: UNNotificationCategoryOptions
  /// The placeholder in each language the categories file gives (`{"en": …, "bn": …}`);
  /// `hiddenPreviewsBodyPlaceholder` holds the first, the development language's.
  package var localizedPlaceholders: [String: String] = [:]
  /// The summary format in each language the categories file gives.
  package var localizedSummaryFormats: [String: String] = [:]

  /// Creates a category with every property given.
  public init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?,
    options: UNNotificationCategoryOptions = []
  ) {
    self.identifier = identifier
    self.actions = actions
    self.intentIdentifiers = intentIdentifiers
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
    self.categorySummaryFormat = categorySummaryFormat ?? ""
    self.options = options
    super.init()
  }

  /// Creates a category.
  public convenience init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    options: UNNotificationCategoryOptions = []
  ) {
    self.init(
      identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
      hiddenPreviewsBodyPlaceholder: nil, categorySummaryFormat: nil, options: options)
  }

  /// Creates a category with a hidden-previews placeholder (iOS 11).
  public convenience init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []
  ) {
    self.init(
      identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
      hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: nil,
      options: options)
  }

  /// The action with the given identifier, if the category has one.
  package func action(withIdentifier id: String) -> UNNotificationAction? {
    actions.first { $0.identifier == id }
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationCategory else { return false }
    return other.identifier == identifier && other.actions == actions
      && other.intentIdentifiers == intentIdentifiers
      && other.hiddenPreviewsBodyPlaceholder == hiddenPreviewsBodyPlaceholder
      && other.categorySummaryFormat == categorySummaryFormat && other.options == options
      && other.localizedPlaceholders == localizedPlaceholders
      && other.localizedSummaryFormats == localizedSummaryFormats
  }

  /// Categories are kept in a `Set` by identifier, as on iOS.
  open override var hash: Int { identifier.hashValue }

  open override var description: String {
    "<UNNotificationCategory: identifier: \(identifier), actions: \(actions.map(\.identifier))>"
  }
}
