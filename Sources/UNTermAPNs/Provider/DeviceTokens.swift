import Foundation

/// The session device's token for each app, as a real device has one per app: 32 random bytes
/// shown as 64 lower-case hex digits, made when an app first needs one, or set with
/// `--device-token [APP=]HEX` so a backend's test fixture can hold it. An expired app's token
/// (`unterm center tokens --expire APP`) answers 410 `Unregistered` from then on.
package struct DeviceTokens: Codable, Equatable, Sendable {
  /// Each app's token, lower-case hex.
  package private(set) var tokens: [String: String] = [:]
  /// When an app's token stopped being valid.
  package private(set) var unregistered: [String: Date] = [:]

  package init() {}

  /// The token of `app`, made now when it has none (`made` then says so).
  package mutating func token(for app: String) -> (token: String, made: Bool) {
    if let token = tokens[app] { return (token, false) }
    let token = Self.random()
    tokens[app] = token
    return (token, true)
  }

  /// Sets an app's token (`--device-token APP=HEX`); a token another app holds moves to this one.
  package mutating func set(_ token: String, for app: String) throws(DeviceTokenError) {
    guard Self.isWellFormed(token) else { throw DeviceTokenError(token: token) }
    let token = token.lowercased()
    for (other, held) in tokens where held == token && other != app { tokens[other] = nil }
    tokens[app] = token
    unregistered[app] = nil
  }

  /// Makes an app's token answer 410 `Unregistered` from `date` on.
  package mutating func expire(_ app: String, at date: Date) {
    _ = token(for: app)
    unregistered[app] = date
  }

  /// The app a token belongs to, if any.
  package func app(for token: String) -> String? {
    let token = token.lowercased()
    return tokens.first { $0.value == token }?.key
  }

  /// Apps with tokens, in order.
  package var apps: [String] { tokens.keys.sorted() }

  /// A device token as the path carries it: hex digits, an even number of them. Apple says not
  /// to assume a length (64 is usual; 108 and 160 have been seen), so any length up to 200 is
  /// taken.
  package static func isWellFormed(_ token: String) -> Bool {
    !token.isEmpty && token.count <= 200 && token.count % 2 == 0 && token.allSatisfy(\.isHexDigit)
  }

  private static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
  }
}

/// A `--device-token` value that is not a token.
package struct DeviceTokenError: Error, Sendable {
  package var token: String
  package var message: String {
    "\(token.prefix(80)) is not a device token: hex digits (0-9, a-f), an even number of them, as a device's 64"
  }
}
