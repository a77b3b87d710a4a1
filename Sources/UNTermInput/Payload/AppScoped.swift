import Foundation
import UserNotificationsModel

/// A value for one app or for the default one: `ID=VALUE` or a bare `VALUE`
/// (`--categories [ID=]FILE`, `--app-name [ID=]NAME`, the script command `categories [ID=]FILE`).
package struct AppScoped: Sendable, Hashable {
  /// The app's bundle identifier; `nil` for the default app.
  package var app: String?
  package var value: String

  package init(app: String?, value: String) {
    self.app = app
    self.value = value
  }

  /// `ID=VALUE` when the text before the first `=` is a bundle identifier (letters, digits, dots
  /// and hyphens), else a bare VALUE; `nil` for an empty ID or VALUE (`=x`, `com.a=`, ``). On
  /// the command line a file that exists under the whole text is taken as that file
  /// (`OptionValue.appScopedFile`); elsewhere such a name is written `./a=b.json`.
  package static func parse(_ text: String) -> AppScoped? {
    guard !text.isEmpty, !text.hasPrefix("=") else { return nil }
    guard let equals = text.firstIndex(of: "="), CategoryRegistry.isBundleIdentifier(text[..<equals]) else {
      return AppScoped(app: nil, value: text)
    }
    let value = String(text[text.index(after: equals)...])
    return value.isEmpty ? nil : AppScoped(app: String(text[..<equals]), value: value)
  }

  /// What a bad one is told: "takes FILE or ID=FILE, …".
  package static func expectation(_ placeholder: String) -> String {
    "takes \(placeholder) or ID=\(placeholder), ID a bundle identifier such as com.acme.bank and \(placeholder) not empty"
  }
}
