import Foundation

/// The categories each app registered, and which app is the session's own (`--bundle`).
///
/// On iOS every app registers its own categories, and a notification finds only its own app's:
/// a category identifier another app registered gives it no actions.
package struct CategoryRegistry: Sendable {
  /// The bundle identifier a session's own app has when `--bundle` names none.
  package static let defaultBundle = "com.example.app"

  /// The session's own app: local requests and payloads that name no app belong to it.
  package var defaultApp = CategoryRegistry.defaultBundle
  /// Each app's categories by identifier.
  package private(set) var byApp: [String: [String: UNNotificationCategory]] = [:]
  /// Categories given without saying for which app, serving every app (a caller that knows no
  /// apps, as a test that hands a dictionary); `nil` for none.
  package private(set) var everyApp: [String: UNNotificationCategory]?

  package init(defaultApp: String = CategoryRegistry.defaultBundle) {
    self.defaultApp = defaultApp
  }

  /// Categories that serve every app's notifications.
  package init(everyApp categories: [String: UNNotificationCategory]) {
    everyApp = categories
  }

  /// Replaces the categories `app` registered.
  package mutating func set(_ categories: some Sequence<UNNotificationCategory>, for app: String) {
    var table: [String: UNNotificationCategory] = [:]
    for category in categories { table[category.identifier] = category }
    byApp[app] = table
  }

  /// Replaces the categories a scope registers.
  package mutating func set(_ categories: some Sequence<UNNotificationCategory>, for scope: CategoryScope) {
    switch scope {
    case .defaultApp: set(categories, for: defaultApp)
    case .app(let app): set(categories, for: app)
    case .everyApp:
      var table: [String: UNNotificationCategory] = [:]
      for category in categories { table[category.identifier] = category }
      everyApp = table
    }
  }

  /// The categories `app`'s notifications find.
  package func categories(of app: String) -> [String: UNNotificationCategory] {
    byApp[app] ?? everyApp ?? [:]
  }

  /// Whether any app registered categories (a notification's category can then be unregistered).
  package var isEmpty: Bool { everyApp == nil && byApp.isEmpty }
}

/// Whose categories a categories file registers (issue 25.4).
package enum CategoryScope: Hashable, Sendable {
  /// The session's own app: a bare file when `--bundle` names it, and the app's own
  /// `setNotificationCategories`.
  case defaultApp
  /// One app: `--categories ID=FILE`.
  case app(String)
  /// Every app that registers none of its own: a bare file when no `--bundle` says whose it is,
  /// so a payload naming its app (`Simulator Target Bundle`) finds the categories the user gave.
  case everyApp
}

extension CategoryRegistry {
  /// Whether text is a bundle identifier: letters, digits, dots and hyphens, not empty (the
  /// characters APNs takes in a topic).
  package static func isBundleIdentifier(_ text: some StringProtocol) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        ($0.value < 128 && (CharacterSet.alphanumerics.contains($0))) || $0 == "." || $0 == "-"
      }
  }
}
