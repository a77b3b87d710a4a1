import Foundation
import UNTermInput

/// A provider authentication token as APNs reads it: a JWT whose header is
/// `{"alg":"ES256","kid":KEY_ID}` and whose claims are `{"iss":TEAM_ID,"iat":UNIX_SECONDS}`,
/// signed with the developer's `.p8` key (Apple, "Establishing a token-based connection to
/// APNs"). `parse` checks its form; `ProviderAuthentication` checks it against the keys, the
/// clock and the connection.
package struct ProviderToken: Equatable, Sendable {
  /// The token as sent, after `bearer `.
  package var text: String
  package var keyID: String
  package var teamID: String
  /// When it was issued (`iat`), in UNIX seconds.
  package var issuedAt: Int
  /// `BASE64URL(header).BASE64URL(claims)`: what the signature signs.
  package var signingInput: [UInt8]
  /// The signature's bytes: 64 (JOSE's r‖s, as JWT libraries make it) or DER (as
  /// `openssl dgst -sign` makes it in Apple's shell recipe).
  package var signature: [UInt8]

  /// Why a token is refused, with the reason APNs gives.
  package struct Refusal: Error, Equatable, Sendable {
    package var reason: APNsReason
    /// What is wrong, for the activity pane and the log (never sent to the client).
    package var detail: String

    package init(_ reason: APNsReason, _ detail: String) {
      self.reason = reason
      self.detail = detail
    }
  }

  /// Reads an `authorization` header's value: `bearer` and a JWT of three base64url parts with
  /// the header and claims APNs needs. Anything else is `InvalidProviderToken`.
  package static func parse(authorization value: String) throws(Refusal) -> ProviderToken {
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      throw Refusal(.invalidProviderToken, "the authorization header is not \"bearer\" and a token")
    }
    let text = String(parts[1]).trimmingCharacters(in: .whitespaces)
    let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
    guard pieces.count == 3 else {
      throw Refusal(.invalidProviderToken, "the token is not a JWT (three base64url parts joined by dots)")
    }
    guard let headerBytes = Base64URL.decode(pieces[0]), let claimsBytes = Base64URL.decode(pieces[1]),
      let signature = Base64URL.decode(pieces[2]), !signature.isEmpty
    else { throw Refusal(.invalidProviderToken, "a part of the JWT is not base64url") }
    let header = try object(headerBytes, "header")
    let claims = try object(claimsBytes, "claims")
    guard header["alg"]?.string == "ES256" else {
      throw Refusal(.invalidProviderToken, "the JWT's alg is \(describe(header["alg"])); APNs takes only ES256")
    }
    guard let kid = header["kid"]?.string, !kid.isEmpty else {
      throw Refusal(.invalidProviderToken, "the JWT's header has no kid (the key's 10-character identifier)")
    }
    guard let iss = claims["iss"]?.string, !iss.isEmpty else {
      throw Refusal(.invalidProviderToken, "the JWT's claims have no iss (the 10-character Team ID)")
    }
    guard let number = claims["iat"]?.number, number.isIntegral, let iat = number.integer else {
      throw Refusal(
        .invalidProviderToken, "the JWT's iat is \(describe(claims["iat"])); it must be UNIX seconds, a whole number")
    }
    return ProviderToken(
      text: text, keyID: kid, teamID: iss, issuedAt: iat,
      signingInput: Array("\(pieces[0]).\(pieces[1])".utf8), signature: signature)
  }

  private static func object(_ bytes: [UInt8], _ part: String) throws(Refusal) -> JSONObject {
    guard let node = try? JSONParser.parse(bytes, maximumDepth: 8), let object = node.object else {
      throw Refusal(.invalidProviderToken, "the JWT's \(part) is not a JSON object")
    }
    return object
  }

  private static func describe(_ node: JSONNode?) -> String {
    guard let node else { return "missing" }
    if let string = node.string { return "\"\(OneLine.flatten(String(string.prefix(40))))\"" }
    if let number = node.number { return number.text }
    return "a JSON \(node.typeName)"
  }
}

/// base64url without padding (RFC 7515 §2), as JWTs use it; padding is tolerated.
package enum Base64URL {
  package static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
    var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.hasSuffix("=") { base64.removeLast() }
    guard base64.count % 4 != 1 else { return nil }
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
  }

  package static func encode(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
