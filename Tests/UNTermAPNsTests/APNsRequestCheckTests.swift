import Foundation
import Testing
import UNTermInput

@testable import UNTermAPNs

/// Signatures are checked by a stand-in here (the real ES256 has its own tests): a signature
/// verifies when it is the message's bytes reversed.
private struct ReversedBytes: SignatureVerifier {
  func verify(_ message: [UInt8], signature: [UInt8]) -> Bool { signature == Array(message.reversed()) }
}

private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let app = "com.example.chat"

/// A JWT as a provider makes one; `sign: false` spoils the signature.
private func jwt(
  kid: String = "ABC123DEFG", iss: String = "TEAM123456", iat: Int? = nil, alg: String = "ES256", sign: Bool = true
)
  -> String
{
  let header = Base64URL.encode(Array("{\"alg\":\"\(alg)\",\"kid\":\"\(kid)\"}".utf8))
  let claims = Base64URL.encode(
    Array("{\"iss\":\"\(iss)\",\"iat\":\(iat ?? Int(now.timeIntervalSince1970) - 60)}".utf8))
  let input = Array("\(header).\(claims)".utf8)
  let signature = sign ? Array(input.reversed()) : Array(repeating: 7, count: 64)
  return "\(header).\(claims).\(Base64URL.encode(signature))"
}

private struct Endpoint {
  var devices = DeviceTokens()
  var credential = ProviderCredential.token(
    ProviderAuthentication(keys: ProviderKeys(keys: ["ABC123DEFG": ReversedBytes()], teamID: "TEAM123456")))
  var clock = now
  let token: String

  init() {
    token = devices.token(for: app).token
    _ = devices.token(for: "com.example.other")
  }

  /// What APNs answers, as `STATUS REASON` or `200`.
  mutating func send(
    method: String = "POST", path: String? = nil, headers: [(String, String)]? = nil,
    body: String = #"{"aps":{"alert":"Hi"}}"#,
    extra: [(String, String)] = [], authorization: String? = nil
  ) -> String {
    let base = headers ?? [("apns-topic", app), ("apns-push-type", "alert")]
    var all = base.map { (name: $0.0, value: $0.1) } + extra.map { (name: $0.0, value: $0.1) }
    all.append(
      (name: "authorization", value: authorization ?? "bearer \(jwt(iat: Int(clock.timeIntervalSince1970) - 60))"))
    let request = APNsRequest(method: method, path: path ?? "/3/device/\(token)", headers: all, body: Array(body.utf8))
    switch APNsRequestCheck(devices: devices, now: clock).check(request, credential: &credential) {
    case .success: return "200"
    case .failure(let rejection): return "\(rejection.reason.status) \(rejection.reason.rawValue)"
    }
  }
}

@Suite("APNs's answers to a request")
struct APNsRequestCheckTests {
  @Test("a well-formed push with a valid token is accepted")
  func accepted() {
    var endpoint = Endpoint()
    #expect(endpoint.send() == "200")
  }

  @Test("the method and the path")
  func methodAndPath() {
    var endpoint = Endpoint()
    #expect(endpoint.send(method: "GET") == "405 MethodNotAllowed")
    #expect(endpoint.send(path: "/3/devices/abc") == "404 BadPath")
    #expect(endpoint.send(path: "/3/device/") == "400 MissingDeviceToken")
    #expect(endpoint.send(path: "/3/device/xyz") == "400 BadDeviceToken")
    #expect(endpoint.send(path: "/3/device/" + String(repeating: "ab", count: 32)) == "400 BadDeviceToken")
  }

  @Test("headers: repeated, the apns-id, the topic, the push type, the priority, the collapse id, the expiration")
  func headers() {
    var endpoint = Endpoint()
    #expect(endpoint.send(extra: [("apns-priority", "10"), ("apns-priority", "5")]) == "400 DuplicateHeaders")
    #expect(endpoint.send(extra: [("apns-id", "not-a-uuid")]) == "400 BadMessageId")
    #expect(endpoint.send(extra: [("apns-id", "123e4567-e89b-12d3-a456-426614174000")]) == "200")
    #expect(endpoint.send(headers: [("apns-push-type", "alert")]) == "400 MissingTopic")
    #expect(endpoint.send(headers: [("apns-topic", "com.example chat")]) == "400 BadTopic")
    #expect(endpoint.send(headers: [("apns-topic", app), ("apns-push-type", "voip")]) == "400 BadTopic")
    #expect(endpoint.send(headers: [("apns-topic", app), ("apns-push-type", "alarm")]) == "400 InvalidPushType")
    #expect(endpoint.send(extra: [("apns-priority", "7")]) == "400 BadPriority")
    #expect(endpoint.send(extra: [("apns-collapse-id", String(repeating: "c", count: 65))]) == "400 BadCollapseId")
    #expect(endpoint.send(extra: [("apns-expiration", "tomorrow")]) == "400 BadExpirationDate")
  }

  @Test("a background push: priority 10 (given or left out) and an alert in it are refused, as lint says")
  func background() {
    var endpoint = Endpoint()
    let background = [("apns-topic", app), ("apns-push-type", "background")]
    let silent = #"{"aps":{"content-available":1}}"#
    #expect(endpoint.send(headers: background, body: silent) == "400 BadPriority")
    #expect(endpoint.send(headers: background + [("apns-priority", "10")], body: silent) == "400 BadPriority")
    #expect(endpoint.send(headers: background + [("apns-priority", "5")], body: silent) == "200")
    #expect(endpoint.send(headers: background + [("apns-priority", "5")]) == "400 InvalidPushType")
  }

  @Test("the device token: another app's, an expired one")
  func deviceTokens() {
    var endpoint = Endpoint()
    #expect(endpoint.send(headers: [("apns-topic", "com.example.other")]) == "400 DeviceTokenNotForTopic")
    endpoint.devices.expire(app, at: now.addingTimeInterval(-5))
    #expect(endpoint.send() == "410 Unregistered")
  }

  @Test("the body: empty, over 4096 bytes, a VoIP push up to 5120")
  func body() {
    var endpoint = Endpoint()
    #expect(endpoint.send(body: "") == "400 PayloadEmpty")
    let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
    #expect(endpoint.send(body: big) == "413 PayloadTooLarge")
    _ = endpoint.devices.token(for: app)
    let voip = [("apns-topic", app + ".voip"), ("apns-push-type", "voip")]
    #expect(endpoint.send(headers: voip, body: big) == "200")
  }

  @Test("provider tokens: missing, malformed, unknown key, wrong team, bad signature, expired")
  func providerTokens() {
    var endpoint = Endpoint()
    #expect(endpoint.send(authorization: "") == "403 MissingProviderToken")
    #expect(endpoint.send(authorization: "bearer abc") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "basic \(jwt())") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "bearer \(jwt(alg: "HS256"))") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "bearer \(jwt(kid: "ZZZZZZZZZZ"))") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "bearer \(jwt(iss: "OTHERTEAM1"))") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "bearer \(jwt(sign: false))") == "403 InvalidProviderToken")
    let old = Int(now.timeIntervalSince1970) - 3601
    #expect(endpoint.send(authorization: "bearer \(jwt(iat: old))") == "403 ExpiredProviderToken")
  }

  @Test("a connection keeps its token: a new one within 20 minutes is 429, after an hour the old one expires")
  func tokenRefresh() {
    var endpoint = Endpoint()
    let first = jwt(iat: Int(now.timeIntervalSince1970) - 60)
    #expect(endpoint.send(authorization: "bearer \(first)") == "200")
    endpoint.clock = now.addingTimeInterval(10 * 60)
    #expect(endpoint.send(authorization: "bearer \(first)") == "200")
    let second = jwt(iat: Int(endpoint.clock.timeIntervalSince1970))
    #expect(endpoint.send(authorization: "bearer \(second)") == "429 TooManyProviderTokenUpdates")
    endpoint.clock = now.addingTimeInterval(61 * 60)
    #expect(endpoint.send(authorization: "bearer \(first)") == "403 ExpiredProviderToken")
    let third = jwt(iat: Int(endpoint.clock.timeIntervalSince1970))
    #expect(endpoint.send(authorization: "bearer \(third)") == "200")
  }

  @Test("the connection is bound to its first token's team and key")
  func binding() {
    var endpoint = Endpoint()
    endpoint.credential = .token(ProviderAuthentication(keys: ProviderKeys()))
    #expect(endpoint.send(authorization: "bearer \(jwt(sign: false))") == "200")
    endpoint.clock = now.addingTimeInterval(21 * 60)
    let iat = Int(endpoint.clock.timeIntervalSince1970)
    #expect(endpoint.send(authorization: "bearer \(jwt(iss: "OTHERTEAM1", iat: iat))") == "403 InvalidProviderToken")
    #expect(endpoint.send(authorization: "bearer \(jwt(kid: "KEY2222222", iat: iat))") == "403 UnrelatedKeyIdInToken")
  }

  @Test("a certificate connection needs no token and takes only its topics")
  func certificate() {
    var endpoint = Endpoint()
    endpoint.credential = .certificate(topics: [app])
    #expect(endpoint.send(headers: [("apns-push-type", "alert")], authorization: "") == "200")
    #expect(endpoint.send(headers: [("apns-topic", "com.example.other")], authorization: "") == "400 TopicDisallowed")
  }

  @Test("answers byte for byte: 200 with apns-id and apns-unique-id; errors with a JSON reason, 410 with a timestamp")
  func answers() {
    let push = APNsAcceptedPush(
      apnsID: "123e4567-e89b-12d3-a456-426614174000", uniqueID: "u", app: app, deviceToken: "ab", headers: .init(),
      payload: [])
    let ok = APNsAnswer(accepted: push)
    #expect(ok.status == 200 && ok.body.isEmpty)
    #expect(
      ok.headers.map { "\($0.name): \($0.value)" } == [
        "apns-id: 123e4567-e89b-12d3-a456-426614174000", "apns-unique-id: u",
      ])
    let bad = APNsAnswer(rejected: APNsRejection(.badDeviceToken, "", apnsID: "id"))
    #expect(bad.status == 400)
    #expect(bad.headers.map { "\($0.name): \($0.value)" } == ["apns-id: id", "content-type: application/json"])
    #expect(String(decoding: bad.body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
    let gone = APNsAnswer(rejected: APNsRejection(.unregistered, "", apnsID: "id", timestamp: now))
    #expect(String(decoding: gone.body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1800000000000}"#)
  }

  @Test("every reason has Apple's status")
  func reasonTable() {
    let statuses = Dictionary(grouping: APNsReason.allCases, by: \.status).mapValues { $0.map(\.rawValue).sorted() }
    #expect(statuses[405] == ["MethodNotAllowed"])
    #expect(statuses[404] == ["BadPath"])
    #expect(statuses[410] == ["ExpiredToken", "Unregistered"])
    #expect(statuses[413] == ["PayloadTooLarge"])
    #expect(statuses[429] == ["TooManyProviderTokenUpdates", "TooManyRequests"])
    #expect(statuses[500] == ["InternalServerError"])
    #expect(statuses[503] == ["ServiceUnavailable", "Shutdown"])
    #expect(statuses[403]?.count == 8)
    #expect(APNsReason.allCases.allSatisfy { !$0.meaning.isEmpty && $0.meaning != $0.rawValue })
  }
}
