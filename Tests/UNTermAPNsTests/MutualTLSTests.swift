import Foundation
import Testing

@testable import UNTermAPNs

/// A provider's push certificate as Apple issues one, made by the openssl command: subject
/// `UID=<bundle id>, CN=Apple Push Services: <bundle id>, OU=<team>`, and the topics extension
/// (1.2.840.113635.100.6.3.6) listing the bundle ID and its VoIP topic, each followed by its kind.
private struct ProviderCertificates {
  let folder: URL
  var path: (String) -> String { { folder.appendingPathComponent($0).path } }

  init() throws {
    folder = temporaryFolder("mtls")
    try Data(
      """
      [apns]
      basicConstraints = CA:FALSE
      extendedKeyUsage = clientAuth
      1.2.840.113635.100.6.3.6 = ASN1:SEQUENCE:topics
      [topics]
      t0 = UTF8:com.example.chat
      k0 = SEQUENCE:app
      t1 = UTF8:com.example.chat.voip
      k1 = SEQUENCE:voip
      [app]
      k = UTF8:app
      [voip]
      k = UTF8:voip

      """.utf8
    ).write(to: folder.appendingPathComponent("apns.cnf"))
    for ca in ["ca", "other-ca"] {
      try openssl([
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("\(ca).key"),
        "-out", path("\(ca).pem"), "-subj", "/CN=Push CA \(ca)", "-days", "2",
      ])
      try openssl([
        "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("\(ca)-client.key"),
        "-out", path("\(ca)-client.csr"),
        "-subj", "/UID=com.example.chat/CN=Apple Push Services: com.example.chat/OU=TEAM123456",
      ])
      try openssl([
        "x509", "-req", "-in", path("\(ca)-client.csr"), "-CA", path("\(ca).pem"), "-CAkey", path("\(ca).key"),
        "-CAcreateserial", "-out", path("\(ca)-client.pem"), "-days", "2", "-extfile", path("apns.cnf"),
        "-extensions", "apns",
      ])
    }
  }

  private func openssl(_ arguments: [String]) throws {
    let result = try run("/usr/bin/openssl", arguments)
    try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.output)")
  }
}

@Suite("The APNs endpoint with client certificates (mutual TLS)", .serialized)
struct MutualTLSTests {
  @Test(
    "a certificate from --apns-client-ca's CA pushes without a token to its topics; another topic is TopicDisallowed; another CA's fails the handshake"
  )
  func clientCertificates() throws {
    let certificates = try ProviderCertificates()
    let endpoint = try TestEndpoint(plaintext: false, clientCA: certificates.path("ca.pem"))
    defer { endpoint.endpoint.stop() }
    let ca = try #require(endpoint.endpoint.caCertificate)
    func send(_ headers: [String], client: String = "ca", body: String = APNsEndpointTests.payload) throws -> [String] {
      try curl(
        [
          "--connect-to", "api.sandbox.push.apple.com:443:127.0.0.1:\(endpoint.port)", "--cacert", ca,
          "--cert", certificates.path("\(client)-client.pem"), "--key", certificates.path("\(client)-client.key"),
          "--http2",
        ] + headers.flatMap { ["--header", $0] } + [
          "--data", body, "https://api.sandbox.push.apple.com/3/device/\(endpoint.token)",
        ])
    }
    let alert = try send(["apns-topic: com.example.chat", "apns-push-type: alert"])
    #expect(alert.first == "HTTP/2 200", "\(alert)")
    let voip = try send(["apns-topic: com.example.chat.voip", "apns-push-type: voip"], body: #"{"call":"Ana"}"#)
    #expect(voip.first == "HTTP/2 200", "\(voip)")
    let other = try send(["apns-topic: com.example.other", "apns-push-type: alert"])
    #expect(other.first == "HTTP/2 400")
    #expect(other.last == #"{"reason":"TopicDisallowed"}"#)
    // Two topics: the request must say which.
    #expect(try send(["apns-push-type: alert"]).last == #"{"reason":"MissingTopic"}"#)
    #expect(endpoint.received.wait { $0.accepted.count == 2 })
    #expect(endpoint.received.accepted.map(\.headers.pushType) == ["alert", "voip"])
    // A certificate the CA did not issue gets no HTTP/2 at all.
    let stranger = try send(["apns-topic: com.example.chat"], client: "other-ca")
    #expect(!stranger.contains { $0.hasPrefix("HTTP/") }, "\(stranger)")
    #expect(endpoint.received.accepted.count == 2)
    // Without a certificate, a provider token still works on the same endpoint.
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    let token = try curl([
      "--connect-to", "api.sandbox.push.apple.com:443:127.0.0.1:\(endpoint.port)", "--cacert", ca, "--http2",
      "--header", "apns-topic: com.example.chat", "--header", "authorization: bearer \(jwt)", "--data",
      APNsEndpointTests.payload, "https://api.sandbox.push.apple.com/3/device/\(endpoint.token)",
    ])
    #expect(token.first == "HTTP/2 200", "\(token)")
  }
}
