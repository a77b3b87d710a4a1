import Foundation
import UNTermInput

/// Checks a signature over a token's signing input: an ES256 key from a `.p8` file.
package protocol SignatureVerifier: Sendable {
  /// Whether `signature` (raw r‖s or DER) signs `message`.
  func verify(_ message: [UInt8], signature: [UInt8]) -> Bool
}

/// The keys and team tokens are checked against (`--apns-key KEYID=FILE.p8`, `--apns-team`).
/// Without keys a token is checked for its form, its age and the connection's rules only, and
/// the activity pane says signatures are not verified.
package struct ProviderKeys: Sendable {
  package var keys: [String: any SignatureVerifier]
  package var teamID: String?

  package init(keys: [String: any SignatureVerifier] = [:], teamID: String? = nil) {
    self.keys = keys
    self.teamID = teamID
  }

  package var verifiesSignatures: Bool { !keys.isEmpty }
}

/// One connection's token authentication, as APNs keeps it (Apple, "Establishing a
/// token-based connection to APNs"; the reasons from "Handling notification responses from
/// APNs"):
///
/// - A request without a token is `MissingProviderToken`; one that is not an ES256 JWT with
///   `kid`, `iss` and `iat`, names an unknown key or another team, or whose signature does not
///   verify is `InvalidProviderToken`.
/// - A token issued more than an hour ago is `ExpiredProviderToken`, and so is the connection's
///   current token once it is an hour old. UNTerm also refuses one issued more than five
///   minutes in the future as `InvalidProviderToken` (Apple is silent; a clock that far off is
///   the provider's bug).
/// - The first valid token binds the connection to its team and key: a later token of another
///   team is `InvalidProviderToken`, of another key `UnrelatedKeyIdInToken`.
/// - A new token within 20 minutes of the current one's first use is 429
///   `TooManyProviderTokenUpdates`.
package struct ProviderAuthentication: Sendable {
  package let keys: ProviderKeys
  /// What the connection is bound to, after its first valid token.
  package private(set) var team: String?
  package private(set) var keyID: String?
  /// The token in use and when it was first accepted.
  package private(set) var current: (text: String, since: Date)?

  /// The oldest `iat` APNs accepts, in seconds.
  package static let tokenLifetime: TimeInterval = 3600
  /// The shortest time between two tokens on a connection.
  package static let refreshInterval: TimeInterval = 20 * 60
  /// How far in the future an `iat` may be (UNTerm's choice).
  package static let clockSkew: TimeInterval = 300

  package init(keys: ProviderKeys) { self.keys = keys }

  /// Whether a token was ever accepted on the connection (it then gets more than one stream).
  package var isAuthenticated: Bool { current != nil }

  /// Checks a request's `authorization` header at `now`; a new valid token becomes current.
  package mutating func check(authorization: String?, now: Date) throws(ProviderToken.Refusal) -> ProviderToken {
    guard let authorization, !authorization.isEmpty else {
      throw .init(
        .missingProviderToken, "the request has no authorization header (bearer token) and no client certificate")
    }
    let token = try ProviderToken.parse(authorization: authorization)
    try checkAge(token, now: now)
    if let current, current.text == token.text { return token }
    try checkKey(token)
    try checkBinding(token)
    if let current, now.timeIntervalSince(current.since) < Self.refreshInterval {
      let minutes = Int(now.timeIntervalSince(current.since) / 60)
      throw .init(
        .tooManyProviderTokenUpdates,
        "a new token \(minutes) minute\(minutes == 1 ? "" : "s") after the last; APNs takes one at most every 20 minutes on a connection"
      )
    }
    team = token.teamID
    keyID = token.keyID
    current = (token.text, now)
    return token
  }

  private func checkAge(_ token: ProviderToken, now: Date) throws(ProviderToken.Refusal) {
    let age = now.timeIntervalSince1970 - TimeInterval(token.issuedAt)
    if age > Self.tokenLifetime {
      throw .init(
        .expiredProviderToken,
        "the token was issued \(Int(age / 60)) minutes ago (iat \(token.issuedAt)); APNs takes tokens up to an hour old"
      )
    }
    if age < -Self.clockSkew {
      throw .init(
        .invalidProviderToken,
        "the token's iat \(token.issuedAt) is \(Int(-age)) seconds in the future; check the provider's clock")
    }
  }

  private func checkKey(_ token: ProviderToken) throws(ProviderToken.Refusal) {
    if let team = keys.teamID, token.teamID != team {
      throw .init(.invalidProviderToken, "the token's iss is \(quoted(token.teamID)), not the team \(quoted(team))")
    }
    guard keys.verifiesSignatures else { return }
    guard let key = keys.keys[token.keyID] else {
      let known = keys.keys.keys.sorted().map(quoted).joined(separator: ", ")
      throw .init(
        .invalidProviderToken, "the token's kid \(quoted(token.keyID)) is not a key of this session (\(known))")
    }
    guard key.verify(token.signingInput, signature: token.signature) else {
      throw .init(.invalidProviderToken, "the token's signature does not verify with the key \(quoted(token.keyID))")
    }
  }

  private func checkBinding(_ token: ProviderToken) throws(ProviderToken.Refusal) {
    if let team, token.teamID != team {
      throw .init(
        .invalidProviderToken,
        "the connection belongs to the team \(quoted(team)); a token of \(quoted(token.teamID)) needs a connection of its own"
      )
    }
    if let keyID, token.keyID != keyID {
      throw .init(
        .unrelatedKeyIdInToken,
        "the connection's first push used the key \(quoted(keyID)), this one \(quoted(token.keyID))")
    }
  }

  private func quoted(_ text: String) -> String { "\"\(OneLine.flatten(String(text.prefix(40))))\"" }
}
