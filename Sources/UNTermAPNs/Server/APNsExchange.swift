import Foundation
import UNTermInput

/// One request and its answer, as APNs's delivery log would keep it: what the activity pane
/// shows and `--apns-log` writes as a JSON line. The token is never written: only its key and
/// team.
package struct APNsExchange: Sendable {
  package var time: Date
  package var connection: Int
  package var stream: Int32
  package var method: String?
  package var path: String?
  /// The request's headers, `authorization` shown as `bearer KID/TEAM …`.
  package var headers: [(name: String, value: String)]
  package var payloadBytes: Int
  package var status: Int
  package var reason: APNsReason?
  package var apnsID: String
  /// What was wrong, for a refusal.
  package var detail: String?
  /// The app it went to, for an accepted push.
  package var app: String?

  init(
    request: APNsRequest, connection: Int, stream: Int32, time: Date, verdict: Result<APNsAcceptedPush, APNsRejection>
  ) {
    self.time = time
    self.connection = connection
    self.stream = stream
    method = request.method
    path = request.path
    headers = request.headers.map { header in
      header.name == "authorization" ? (header.name, Self.redacted(header.value)) : header
    }
    payloadBytes = request.body.count
    switch verdict {
    case .success(let push):
      status = 200
      apnsID = push.apnsID
      app = push.app
    case .failure(let rejection):
      status = rejection.reason.status
      reason = rejection.reason
      apnsID = rejection.apnsID
      detail = rejection.detail
    }
  }

  /// `bearer KID/TEAM …`: who signed, never the token.
  static func redacted(_ value: String) -> String {
    guard let token = try? ProviderToken.parse(authorization: value) else { return "(not a provider token)" }
    return "bearer \(token.keyID)/\(token.teamID) …"
  }

  /// The `--apns-log` line.
  package var jsonLine: String {
    var members: [(String, JSONWriter.Value)] = [
      ("time", .string(ISO8601DateFormatter().string(from: time))),
      ("connection", .int(connection)), ("stream", .int(Int(stream))),
      ("method", method.map(JSONWriter.Value.string) ?? .null), ("path", path.map(JSONWriter.Value.string) ?? .null),
      ("headers", .object(headers.map { ($0.name, .string($0.value)) })), ("payload-bytes", .int(payloadBytes)),
      ("status", .int(status)), ("apns-id", .string(apnsID)),
    ]
    if let reason { members.append(("reason", .string(reason.rawValue))) }
    if let detail { members.append(("detail", .string(detail))) }
    if let app { members.append(("app", .string(app))) }
    return JSONWriter.write(.object(members))
  }

  /// The activity pane's line: `APNs 200 com.example.chat 3f2a…` or
  /// `APNs 400 BadDeviceToken: the device token … (apns-id 3f2a…)`.
  package var summary: String {
    guard let reason else { return "APNs 200 to \(app ?? "?"), apns-id \(apnsID)" }
    return "APNs \(status) \(reason.rawValue): \(detail ?? reason.meaning)"
  }
}
