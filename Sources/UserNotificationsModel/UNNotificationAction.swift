import Foundation

/// Options that say how the system treats an action.
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// The device must be unlocked before the action is performed.
  public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
  /// The action is drawn with destructive styling.
  public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
  /// The action brings the app to the foreground.
  public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// An icon shown next to an action's title (iOS 15+).
public final class UNNotificationActionIcon: NSObject, NSCopying, @unchecked Sendable {
  /// Where the icon's image comes from.
  package enum Source: Hashable, Sendable {
    case systemImage(String)
    case templateImage(String)
  }

  package let source: Source

  /// Creates an icon from an SF Symbol name.
  public init(systemImageName: String) {
    source = .systemImage(systemImageName)
    super.init()
  }

  /// Creates an icon from an image in the app's bundle or asset catalog.
  public init(templateImageName: String) {
    source = .templateImage(templateImageName)
    super.init()
  }

  /// The image name, whichever kind it is.
  package var imageName: String {
    switch source {
    case .systemImage(let name), .templateImage(let name): return name
    }
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  public override func isEqual(_ object: Any?) -> Bool {
    (object as? UNNotificationActionIcon)?.source == source
  }

  public override var hash: Int { source.hashValue }
}

/// A task the app performs in response to a notification.
open class UNNotificationAction: NSObject, NSCopying, @unchecked Sendable {
  /// The string that identifies the action; unique across all categories.
  public let identifier: String
  /// The localized button title.
  public let title: String
  /// How the action is performed.
  public let options: UNNotificationActionOptions
  /// The icon shown beside the title.
  public let icon: UNNotificationActionIcon?

  /// Creates an action with an icon.
  public init(
    identifier: String, title: String, options: UNNotificationActionOptions = [],
    icon: UNNotificationActionIcon?
  ) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.icon = icon
    super.init()
  }

  /// Creates an action.
  public convenience init(
    identifier: String, title: String, options: UNNotificationActionOptions = []
  ) {
    self.init(identifier: identifier, title: title, options: options, icon: nil)
  }

  open func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationAction, type(of: other) == type(of: self) else {
      return false
    }
    return other.identifier == identifier && other.title == title && other.options == options
      && other.icon == icon
  }

  open override var hash: Int { identifier.hashValue }

  open override var description: String {
    "<\(type(of: self)): identifier: \(identifier), title: \(title), options: \(options.rawValue)>"
  }
}

/// An action that lets the user type a reply.
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
  /// The title of the button that sends the text.
  public let textInputButtonTitle: String
  /// The placeholder shown in the empty text field.
  public let textInputPlaceholder: String

  /// Creates a text-input action with an icon.
  public init(
    identifier: String, title: String, options: UNNotificationActionOptions = [],
    icon: UNNotificationActionIcon?, textInputButtonTitle: String, textInputPlaceholder: String
  ) {
    self.textInputButtonTitle = textInputButtonTitle
    self.textInputPlaceholder = textInputPlaceholder
    super.init(identifier: identifier, title: title, options: options, icon: icon)
  }

  /// Creates a text-input action.
  public convenience init(
    identifier: String, title: String, options: UNNotificationActionOptions = [],
    textInputButtonTitle: String, textInputPlaceholder: String
  ) {
    self.init(
      identifier: identifier, title: title, options: options, icon: nil,
      textInputButtonTitle: textInputButtonTitle, textInputPlaceholder: textInputPlaceholder)
  }

  /// Creates a text-input action with an empty button title and placeholder, as the inherited
  /// initializer does on iOS.
  public override init(
    identifier: String, title: String, options: UNNotificationActionOptions = [],
    icon: UNNotificationActionIcon?
  ) {
    self.textInputButtonTitle = ""
    self.textInputPlaceholder = ""
    super.init(identifier: identifier, title: title, options: options, icon: icon)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNTextInputNotificationAction, super.isEqual(object) else {
      return false
    }
    return other.textInputButtonTitle == textInputButtonTitle
      && other.textInputPlaceholder == textInputPlaceholder
  }

  open override var hash: Int { identifier.hashValue }
}
