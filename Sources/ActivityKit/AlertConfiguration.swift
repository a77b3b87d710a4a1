import Foundation

/// A string an app gives the system to show, as Foundation's `LocalizedStringResource` is written
/// on Apple's platforms: a literal (`"Your order is here"`) or an interpolation. On Linux it
/// keeps its text; UNTerm shows it as written, in the device language's strings where the key is
/// found.
public struct LocalizedStringResource: Equatable, Hashable, Sendable, ExpressibleByStringInterpolation,
  CustomStringConvertible
{
  /// The key, which is also the text when no strings table has it.
  public var key: String

  public init(_ key: String) { self.key = key }
  public init(stringLiteral value: String) { key = value }
  public init(stringInterpolation: DefaultStringInterpolation) {
    key = String(stringInterpolation: stringInterpolation)
  }

  public var description: String { key }
}

/// The alert an update lights the screen with: on a device with a Dynamic Island its expanded
/// presentation, elsewhere the Lock Screen view as a banner; Apple Watch shows the title and body.
public struct AlertConfiguration: Equatable, Hashable, Sendable {
  /// The alert's sound.
  public struct AlertSound: Equatable, Hashable, Sendable {
    enum Kind: Equatable, Hashable, Sendable {
      case `default`
      case named(String)
    }

    let kind: Kind

    /// The default notification sound.
    public static let `default` = AlertSound(kind: .default)
    /// A sound file in the app's bundle.
    public static func named(_ name: String) -> AlertSound { AlertSound(kind: .named(name)) }

    /// The file's name, or `nil` for the default sound.
    public var fileName: String? {
      if case .named(let name) = kind { return name }
      return nil
    }
  }

  public var title: LocalizedStringResource
  public var body: LocalizedStringResource
  public var sound: AlertSound

  public init(title: LocalizedStringResource, body: LocalizedStringResource, sound: AlertSound) {
    self.title = title
    self.body = body
    self.sound = sound
  }
}
