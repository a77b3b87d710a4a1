import Foundation
import Testing
import UNTermInput
import UNTermTestSupport

@testable import UNTermAPNs

/// What an endpoint under test was handed, in order.
final class Received: @unchecked Sendable {
  private let lock = NSLock()
  private var pushes: [APNsAcceptedPush] = []
  private var exchanges: [APNsExchange] = []
  private var notices: [String] = []

  func add(_ push: APNsAcceptedPush) { locked { pushes.append(push) } }
  func add(_ exchange: APNsExchange) { locked { exchanges.append(exchange) } }
  func add(_ notice: String) { locked { notices.append(notice) } }
  var accepted: [APNsAcceptedPush] { locked { pushes } }
  var answered: [APNsExchange] { locked { exchanges } }
  var said: [String] { locked { notices } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// Waits (real time, at most `seconds`) until `condition` holds.
  func wait(_ seconds: Double = 10, until condition: (Received) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition(self) { return true }
      usleep(10_000)
    }
    return condition(self)
  }
}

/// An endpoint on a free loopback port, with a device that has a token for `app`.
struct TestEndpoint {
  static let app = "com.example.chat"
  let endpoint: APNsEndpoint
  let received = Received()
  let token: String
  let folder: URL

  init(
    plaintext: Bool, keys: ProviderKeys = ProviderKeys(), clientCA: String? = nil,
    tune: (inout APNsEndpointConfiguration) -> Void = { _ in }
  ) throws {
    folder = temporaryFolder("endpoint")
    var configuration = APNsEndpointConfiguration(
      address: APNsListenAddress(port: 0), certificateDirectory: folder.appendingPathComponent("apns"))
    configuration.plaintext = plaintext
    configuration.keys = keys
    configuration.clientCAFile = clientCA
    tune(&configuration)
    let devices = try DeviceRegistry(file: nil)
    token = devices.token(for: Self.app)
    let received = received
    endpoint = try APNsEndpoint(
      configuration: configuration, devices: devices,
      handlers: APNsEndpointHandlers(
        push: { received.add($0) }, exchange: { received.add($0) }, notice: { received.add($0) }))
    endpoint.start()
  }

  var port: UInt16 { endpoint.port }
  var url: String { "http://127.0.0.1:\(port)/3/device/\(token)" }

  /// A JWT signed with `key`, issued `age` seconds ago.
  static func jwt(key: ES256Key, kid: String = "ABC123DEFG", team: String = "TEAM123456", age: Int = 60) throws
    -> String
  {
    let header = Base64URL.encode(Array("{\"alg\":\"ES256\",\"kid\":\"\(kid)\"}".utf8))
    let claims = Base64URL.encode(
      Array("{\"iss\":\"\(team)\",\"iat\":\(Int(Date().timeIntervalSince1970) - age)}".utf8))
    let signature = try key.sign(Array("\(header).\(claims)".utf8))
    return "\(header).\(claims).\(Base64URL.encode(signature))"
  }
}

/// Runs curl and returns the response's status line and headers, then the body, as lines.
func curl(_ arguments: [String]) throws -> [String] {
  let result = try run("/usr/bin/curl", ["-s", "-S", "-D", "-", "--max-time", "20"] + arguments, errors: false)
  return result.output.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: true)
    .map { $0.trimmingCharacters(in: .whitespaces) }
}

/// Runs a Python client on h2's own HTTP/2 stack against `endpoint`, and returns what it
/// printed. The script starts connected: `s` is the socket, `c` the client connection with its
/// preface queued, `port, path, topic, jwt` its arguments and `extra` the rest. Skipped, with
/// the reason, where h2 is missing.
func h2Client(_ script: String, endpoint: TestEndpoint, jwt: String, _ extra: [String] = []) throws -> String {
  let missing = SystemPackages.pythonReason(modules: ["h2"], packages: ["h2"], purpose: "a raw HTTP/2 client")
  try #require(missing == nil, "\(missing ?? "")")
  let prologue = """
    import select, socket, sys, h2.config, h2.connection, h2.events, h2.settings
    port, path, topic, jwt, extra = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10)
    c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    c.initiate_connection()

    """
  let path = "/3/device/\(endpoint.token)"
  let arguments = [prologue + script, String(endpoint.port), path, TestEndpoint.app, jwt] + extra
  return try run("/usr/bin/env", ["python3", "-c"] + arguments).output
}
