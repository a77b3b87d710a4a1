import Foundation
import UNTermInput
import UserNotificationsModel

/// How a connection proves who sends: a bearer token on each request, or the client
/// certificate it connected with (its topics).
package enum ProviderCredential: Sendable {
  case token(ProviderAuthentication)
  case certificate(topics: [String])
}

/// Checks a request as APNs does, in this order, and answers with the first reason that
/// applies (Apple's reasons; the order is UNTerm's, close to pushy's `MockApnsServer`, since
/// Apple does not give one):
///
/// 1. the method (`MethodNotAllowed`) and the path (`BadPath`, `MissingDeviceToken`);
/// 2. repeated headers (`DuplicateHeaders`) and the `apns-id` (`BadMessageId`);
/// 3. the provider: a token (`ProviderAuthentication`) or a certificate's topics;
/// 4. the topic (`MissingTopic`, `BadTopic`) and the other headers (`InvalidPushType`,
///    `BadPriority`, `BadCollapseId`, `BadExpirationDate`), by the same rules lint uses
///    (`APNsRules`), payload included (a background push that alerts is `InvalidPushType`);
/// 5. the device token (`BadDeviceToken`, `DeviceTokenNotForTopic`, 410 `Unregistered`);
/// 6. the body (`PayloadEmpty`, 413 `PayloadTooLarge`).
package struct APNsRequestCheck: Sendable {
  package var devices: DeviceTokens
  package var now: Date

  package init(devices: DeviceTokens, now: Date) {
    self.devices = devices
    self.now = now
  }

  /// The verdict on a request; `credential` is the connection's and keeps its state.
  package func check(_ request: APNsRequest, credential: inout ProviderCredential) -> Result<
    APNsAcceptedPush, APNsRejection
  > {
    var apnsID = UUID.apnsID()
    func refuse(_ reason: APNsReason, _ detail: String, timestamp: Date? = nil) -> Result<
      APNsAcceptedPush, APNsRejection
    > {
      .failure(APNsRejection(reason, detail, apnsID: apnsID, timestamp: timestamp))
    }
    guard request.method == "POST" else {
      return refuse(.methodNotAllowed, "the method is \(quoted(request.method ?? "missing")); APNs takes only POST")
    }
    let path = request.path ?? ""
    let prefix = "/3/device/"
    guard path.hasPrefix(prefix) else {
      return refuse(.badPath, "the path \(quoted(path)) is not /3/device/<device token>")
    }
    let token = String(path.dropFirst(prefix.count).prefix { $0 != "?" })
    guard !token.isEmpty else { return refuse(.missingDeviceToken, "the path has no device token after /3/device/") }
    if let repeated = request.repeatedHeaders.first {
      return refuse(.duplicateHeaders, "the header \(quoted(repeated)) is given more than once")
    }
    if let given = request["apns-id"] {
      guard UUID.isAPNsID(given) else {
        return refuse(.badMessageId, "the apns-id \(quoted(given)) is not a UUID (8-4-4-4-12 hex digits)")
      }
      apnsID = given
    }
    switch checkProvider(request, &credential) {
    case .failure(let refusal): return refuse(refusal.reason, refusal.detail)
    case .success: break
    }
    var headers = request.apnsHeaders
    if headers.topic == nil, case .certificate(let topics) = credential, topics.count == 1 {
      headers[.topic] = topics[0]
    }
    guard let topic = headers.topic, !topic.isEmpty else {
      return refuse(.missingTopic, "the request has no apns-topic; a token connection must name the app's topic")
    }
    if case .certificate(let topics) = credential, !topics.contains(topic) {
      return refuse(
        .topicDisallowed,
        "the client certificate's topics (\(topics.joined(separator: ", "))) leave out \(quoted(topic))")
    }
    if let finding = headerFinding(headers, request.body) {
      return refuse(finding.reason, finding.detail)
    }
    let app = PayloadAnalyzer.app(fromTopic: headers) ?? topic
    guard DeviceTokens.isWellFormed(token) else {
      return refuse(.badDeviceToken, "the device token \(quoted(token)) is not hex digits")
    }
    guard let owner = devices.app(for: token) else {
      let known = devices.tokens[app].map { "; this device's token for \(app) is \($0)" } ?? ""
      return refuse(.badDeviceToken, "the device token \(token.prefix(16))… is not one of this device's\(known)")
    }
    guard owner == app else {
      return refuse(
        .deviceTokenNotForTopic, "the device token belongs to \(owner), the topic \(quoted(topic)) to \(app)")
    }
    if let since = devices.unregistered[app] {
      return refuse(
        .unregistered, "the token of \(app) is no longer registered (unterm center tokens --expire)", timestamp: since)
    }
    let limit =
      headers.pushType.flatMap(APNsPushType.init(rawValue:))?.payloadLimit ?? PayloadAnalyzer.maximumPayloadBytes
    guard !request.body.isEmpty else { return refuse(.payloadEmpty, "the request has no payload") }
    guard request.body.count <= limit, !request.bodyTruncated else {
      let size = request.bodyTruncated ? "over \(request.body.count - 1)" : "\(request.body.count)"
      return refuse(.payloadTooLarge, "the payload is \(size) bytes; APNs takes at most \(limit)")
    }
    let uniqueID = UUID.apnsID()
    return .success(
      APNsAcceptedPush(
        apnsID: apnsID, uniqueID: uniqueID, app: app, deviceToken: token.lowercased(), headers: headers,
        payload: request.body))
  }

  private func checkProvider(_ request: APNsRequest, _ credential: inout ProviderCredential) -> Result<
    Void, ProviderToken.Refusal
  > {
    guard case .token(var authentication) = credential else { return .success(()) }
    defer { credential = .token(authentication) }
    do {
      _ = try authentication.check(authorization: request["authorization"], now: now)
      return .success(())
    } catch {
      return .failure(error)
    }
  }

  /// The first finding lint's rules make of the headers against the payload that APNs answers
  /// with a reason (the topic against a `Simulator Target Bundle` is not one: the device token
  /// says whose the push is).
  private func headerFinding(_ headers: APNsHeaders, _ body: [UInt8]) -> (reason: APNsReason, detail: String)? {
    for field in APNsHeaders.Field.allCases {
      guard let value = headers[field], !APNsRules.isWellFormed(field, value) else { continue }
      let reason: APNsReason =
        switch field {
        case .pushType: .invalidPushType
        case .priority: .badPriority
        case .collapseID: .badCollapseId
        case .expiration: .badExpirationDate
        case .topic: .badTopic
        }
      return (reason, "\(field.rawValue) \(quoted(value)) \(APNsRules.wellFormed(field))")
    }
    let payload = PayloadAnalyzer.analyze(body, file: "request", categories: nil, headers: headers)
    for diagnostic in payload.diagnostics where diagnostic.severity == .error {
      guard let reason = diagnostic.code.apnsReason, reason != .deviceTokenNotForTopic, reason != .payloadTooLarge
      else { continue }
      return (reason, diagnostic.message.text)
    }
    return nil
  }

  private func quoted(_ text: String) -> String { "\"\(OneLine.flatten(String(text.prefix(80))))\"" }
}
