import Foundation
import UNTermInput
import UserNotificationsModel

/// A request as it reached the endpoint: HTTP/2's pseudo-headers, the other headers in order
/// (names lower-case, as HTTP/2 sends them) and the body.
package struct APNsRequest: Sendable {
  package var method: String?
  package var path: String?
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]
  /// The body passed the largest payload any push type may have, and the rest was not read.
  package var bodyTruncated: Bool

  package init(
    method: String?, path: String?, headers: [(name: String, value: String)], body: [UInt8], bodyTruncated: Bool = false
  ) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
    self.bodyTruncated = bodyTruncated
  }

  /// A header's value (the first, if repeated).
  package subscript(name: String) -> String? { headers.first { $0.name == name }?.value }

  /// The APNs headers that shape the delivery.
  package var apnsHeaders: APNsHeaders {
    var headers = APNsHeaders()
    for field in APNsHeaders.Field.allCases {
      if let value = self[field.rawValue] { headers[field] = value }
    }
    return headers
  }

  /// Names given more than once, in order of their second appearance.
  package var repeatedHeaders: [String] {
    var seen = Set<String>()
    var repeated: [String] = []
    for (name, _) in headers where !seen.insert(name).inserted && !repeated.contains(name) { repeated.append(name) }
    return repeated
  }
}

/// A push APNs accepted: 200, then delivery to the device.
package struct APNsAcceptedPush: Sendable {
  package var apnsID: String
  /// The development environment's `apns-unique-id`, the key of its delivery log.
  package var uniqueID: String
  /// The app the topic names (the bundle identifier, without the push type's suffix).
  package var app: String
  package var deviceToken: String
  package var headers: APNsHeaders
  package var payload: [UInt8]
}

/// A request APNs refused: the reason, what was wrong, and the answer's `apns-id`.
package struct APNsRejection: Error, Sendable {
  package var reason: APNsReason
  /// What was wrong, for the activity pane and the log; the client gets only the reason.
  package var detail: String
  package var apnsID: String
  /// When the device token stopped being valid, sent with every 410.
  package var timestamp: Date?

  package init(_ reason: APNsReason, _ detail: String, apnsID: String, timestamp: Date? = nil) {
    self.reason = reason
    self.detail = detail
    self.apnsID = apnsID
    self.timestamp = timestamp
  }
}

/// An answer as APNs sends it (Apple, "Handling notification responses from APNs"): 200 with
/// `apns-id` (and `apns-unique-id` in development) and no body; an error with `apns-id`,
/// `content-type: application/json` and `{"reason":"…"}`, with `timestamp` in milliseconds on
/// every 410.
package struct APNsAnswer: Equatable, Sendable {
  package var status: Int
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]

  package static func == (a: APNsAnswer, b: APNsAnswer) -> Bool {
    a.status == b.status && a.body == b.body
      && a.headers.map { "\($0.name): \($0.value)" }
        == b.headers.map { "\($0.name): \($0.value)" }
  }

  package init(accepted push: APNsAcceptedPush, development: Bool = true) {
    status = 200
    headers = [("apns-id", push.apnsID)]
    if development { headers.append(("apns-unique-id", push.uniqueID)) }
    body = []
  }

  package init(rejected rejection: APNsRejection) {
    status = rejection.reason.status
    headers = [("apns-id", rejection.apnsID), ("content-type", "application/json")]
    var json = "{\"reason\":\"\(rejection.reason.rawValue)\""
    if status == 410 {
      let milliseconds = Int64(((rejection.timestamp ?? Date()).timeIntervalSince1970 * 1000).rounded(.down))
      json += ",\"timestamp\":\(milliseconds)"
    }
    body = Array((json + "}").utf8)
  }
}

extension UUID {
  /// A new identifier in the form APNs answers with: lower-case, 8-4-4-4-12.
  package static func apnsID() -> String { UUID().uuidString.lowercased() }

  /// Whether `text` is an `apns-id` APNs takes: a canonical UUID, 8-4-4-4-12 hex digits.
  package static func isAPNsID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}
