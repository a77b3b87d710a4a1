import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermAPNs

@Suite("The APNs endpoint, with real clients", .serialized)
struct APNsEndpointTests {
  static let payload = #"{"aps":{"alert":{"title":"Hi","body":"From the backend"}}}"#

  @Test(
    "curl over cleartext HTTP/2 (prior knowledge): 200 with apns-id and apns-unique-id, and the push is handed over")
  func plaintextCurl() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    let lines = try curl([
      "--http2-prior-knowledge", "--header", "apns-topic: \(TestEndpoint.app)", "--header", "apns-push-type: alert",
      "--header", "apns-id: 123e4567-e89b-12d3-a456-426614174000", "--header", "authorization: bearer \(jwt)",
      "--data", Self.payload, endpoint.url,
    ])
    #expect(lines.first == "HTTP/2 200")
    #expect(lines.contains("apns-id: 123e4567-e89b-12d3-a456-426614174000"))
    #expect(lines.contains { $0.hasPrefix("apns-unique-id: ") })
    #expect(endpoint.received.wait { $0.accepted.count == 1 })
    let push = try #require(endpoint.received.accepted.first)
    #expect(push.app == TestEndpoint.app)
    #expect(String(decoding: push.payload, as: UTF8.self) == Self.payload)
    #expect(push.headers.pushType == "alert")
  }

  @Test("Apple's curl command, pointed with --connect-to and --cacert, over TLS with ALPN h2")
  func appleCurlCommand() throws {
    let endpoint = try TestEndpoint(plaintext: false)
    defer { endpoint.endpoint.stop() }
    let ca = try #require(endpoint.endpoint.caCertificate)
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    let lines = try curl([
      "--connect-to", "api.sandbox.push.apple.com:443:127.0.0.1:\(endpoint.port)", "--cacert", ca,
      "-v", "--header", "apns-topic: \(TestEndpoint.app)", "--header", "apns-push-type: alert",
      "--header", "authorization: bearer \(jwt)", "--data", #"{"aps":{"alert":"test"}}"#, "--http2",
      "https://api.sandbox.push.apple.com/3/device/\(endpoint.token)",
    ])
    #expect(lines.first == "HTTP/2 200", "\(lines)")
    #expect(endpoint.received.wait { $0.accepted.count == 1 })
  }

  @Test("the documented errors, as APNs's JSON body: a bad token, too large, a wrong topic, background at 10")
  func errors() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    func send(_ headers: [String], _ body: String, path: String? = nil) throws -> [String] {
      try curl(
        ["--http2-prior-knowledge", "--header", "authorization: bearer \(jwt)"]
          + headers.flatMap { ["--header", $0] } + ["--data-binary", body, path ?? endpoint.url])
    }
    let topic = "apns-topic: \(TestEndpoint.app)"
    let badToken = try send(
      [topic], Self.payload, path: "http://127.0.0.1:\(endpoint.port)/3/device/" + String(repeating: "0", count: 64))
    #expect(badToken.first == "HTTP/2 400")
    #expect(badToken.contains("content-type: application/json"))
    #expect(badToken.last == #"{"reason":"BadDeviceToken"}"#)
    let large = #"{"aps":{"alert":""# + String(repeating: "x", count: 5000) + #""}}"#
    #expect(try send([topic], large).suffix(1) == [#"{"reason":"PayloadTooLarge"}"#])
    #expect(try send([topic], large).first == "HTTP/2 413")
    #expect(try send(["apns-topic: com.example.other"], Self.payload).last == #"{"reason":"DeviceTokenNotForTopic"}"#)
    let background = [topic, "apns-push-type: background", "apns-priority: 10"]
    #expect(try send(background, #"{"aps":{"content-available":1}}"#).last == #"{"reason":"BadPriority"}"#)
    let old = try TestEndpoint.jwt(key: try ES256Key.generate(), age: 3700)
    let expired = try curl([
      "--http2-prior-knowledge", "--header", topic, "--header", "authorization: bearer \(old)", "--data", Self.payload,
      endpoint.url,
    ])
    #expect(expired.first == "HTTP/2 403")
    #expect(expired.last == #"{"reason":"ExpiredProviderToken"}"#)
    #expect(endpoint.received.accepted.isEmpty)
    #expect(endpoint.received.wait { $0.answered.count == 6 })
  }

  @Test("nghttp, a second HTTP/2 stack, gets 200 too")
  func nghttp() throws {
    let missing = SystemPackages.reason(.nghttp)
    try #require(missing == nil, "\(missing ?? "")")
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let body = endpoint.folder.appendingPathComponent("payload.json")
    try Data(Self.payload.utf8).write(to: body)
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    let result = try run(
      "/usr/bin/nghttp",
      [
        "-v", "-d", body.path, "-H", "apns-topic: \(TestEndpoint.app)", "-H", "authorization: bearer \(jwt)",
        endpoint.url,
      ])
    #expect(result.output.contains(":status: 200"), "\(result.output)")
    #expect(endpoint.received.wait { $0.accepted.count == 1 })
  }

  @Test(
    "a burst sent before the server's SETTINGS is read is served; the SETTINGS say one stream until a token is valid, then 1,000"
  )
  func burstBeforeSettings() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    // Twenty requests in the client's first write, as Go's, curl's and h2load's HTTP/2 send them
    // before they have read anything; then every SETTINGS value and every status, in order.
    let client = """
      body, streams = extra[0].encode(), [1 + 2 * i for i in range(20)]
      for i in streams:
          c.send_headers(i, [(":method", "POST"), (":path", path), (":scheme", "http"), (":authority", "localhost"),
                             ("apns-topic", topic), ("authorization", "bearer " + jwt)])
          c.send_data(i, body, end_stream=True)
      s.sendall(c.data_to_send())
      statuses, limits, streamsLimit = {}, [], h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS
      while len(statuses) < len(streams):
          data = s.recv(65536)
          if not data: break
          for e in c.receive_data(data):
              if isinstance(e, h2.events.RemoteSettingsChanged) and streamsLimit in e.changed_settings:
                  limits.append(str(e.changed_settings[streamsLimit].new_value))
              if isinstance(e, h2.events.ResponseReceived): statuses[e.stream_id] = dict(e.headers)[b":status"].decode()
              if isinstance(e, h2.events.StreamReset): statuses[e.stream_id] = "reset %d" % e.error_code
          s.sendall(c.data_to_send())
      print("limits", " ".join(limits))
      print("statuses", " ".join(statuses.get(i, "none") for i in streams))
      """
    let output = try h2Client(client, endpoint: endpoint, jwt: jwt, [Self.payload])
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "limits 1 1000", "\(output)")
    #expect(lines.dropFirst().first == "statuses " + Array(repeating: "200", count: 20).joined(separator: " "))
    #expect(endpoint.received.wait { $0.accepted.count == 20 })
  }
}
