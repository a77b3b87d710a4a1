import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermAPNs

/// A raw TCP client of the endpoint.
final class RawClient {
  let fd: Int32

  init(port: UInt16) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else { throw POSIXError(.ECONNREFUSED) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  @discardableResult
  func send(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Everything until the server closes (or 5 s pass).
  func readToEnd() -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      all += buffer[0..<n]
    }
    return all
  }
}

/// The frames in what a server sent: type, stream and payload of each.
func frames(_ bytes: [UInt8]) -> [(type: UInt8, stream: UInt32, payload: ArraySlice<UInt8>)] {
  var result: [(UInt8, UInt32, ArraySlice<UInt8>)] = []
  var offset = 0
  while offset + 9 <= bytes.count {
    let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
    let stream =
      UInt32(bytes[offset + 5] & 0x7f) << 24 | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 8
      | UInt32(bytes[offset + 8])
    result.append(
      (bytes[offset + 3], stream, bytes[min(bytes.count, offset + 9)..<min(bytes.count, offset + 9 + length)]))
    offset += 9 + length
  }
  return result
}

let goAwayFrame: UInt8 = 7

/// The error code of the first GOAWAY in what a server sent.
func goAwayCode(_ bytes: [UInt8]) -> UInt32? {
  guard let goAway = frames(bytes).first(where: { $0.type == goAwayFrame }), goAway.payload.count >= 8 else {
    return nil
  }
  return goAway.payload.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
}

/// The client preface and an empty SETTINGS frame.
let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]

@Suite("The APNs endpoint under abuse", .serialized)
struct APNsAbuseTests {
  @Test("garbage instead of the HTTP/2 preface gets a GOAWAY and a close; the endpoint serves the next client")
  func garbagePreface() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let client = try RawClient(port: endpoint.port)
    client.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n\u{1b}[2J".utf8))
    let answer = client.readToEnd()
    #expect(frames(answer).contains { $0.type == goAwayFrame })
    #expect(!answer.contains(0x1b), "nothing the client sent is echoed")
    #expect(try curlWorks(endpoint))
  }

  @Test("garbage instead of a TLS ClientHello is closed; so is a client that never finishes its handshake")
  func garbageBeforeTLS() throws {
    let endpoint = try TestEndpoint(plaintext: false) { $0.handshakeTimeout = 1 }
    defer { endpoint.endpoint.stop() }
    let garbage = try RawClient(port: endpoint.port)
    garbage.send(Array(repeating: 0x42, count: 300))
    _ = garbage.readToEnd()
    let silent = try RawClient(port: endpoint.port)
    let started = Date()
    _ = silent.readToEnd()
    #expect(Date().timeIntervalSince(started) < 4, "the handshake deadline closes it")
    #expect(endpoint.received.wait(5) { $0.said.filter { $0.contains("closed") }.count >= 2 })
  }

  @Test("a header flood past 8,000 bytes resets the stream, and the connection still answers")
  func headerFlood() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let flood = (0..<40).flatMap { ["--header", "x-flood-\($0): " + String(repeating: "v", count: 250)] }
    let lines = try curl(["--http2-prior-knowledge"] + flood + ["--data", "{}", endpoint.url])
    #expect(!lines.contains { $0.hasPrefix("HTTP/2 200") })
    #expect(endpoint.received.wait { $0.said.contains { $0.contains("headers passed 8,000 bytes") } })
    #expect(try curlWorks(endpoint))
  }

  @Test("a 1 GB body is refused with 413 before it is read: the client stops after a few windows")
  func hugeBody() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
    // h2's own client streams zeros as fast as the windows allow, until the answer or 1 GB.
    let client = """
      c.send_headers(1, [(":method", "POST"), (":path", path), (":scheme", "http"), (":authority", "localhost"),
                         ("apns-topic", topic), ("authorization", "bearer " + jwt)])
      s.sendall(c.data_to_send())
      sent, status, body, reset, chunk = 0, None, b"", False, bytes(16384)
      while not reset and sent < 1 << 30:
          window = min(c.local_flow_control_window(1), len(chunk)) if status is None else 0
          if window > 0:
              c.send_data(1, chunk[:window]); sent += window
              s.sendall(c.data_to_send())
          if select.select([s], [], [], 0 if window > 0 else 5)[0]:
              data = s.recv(65536)
              if not data: break
              for e in c.receive_data(data):
                  if isinstance(e, h2.events.ResponseReceived): status = dict(e.headers)[b":status"].decode()
                  if isinstance(e, h2.events.DataReceived):
                      body += e.data; c.acknowledge_received_data(len(e.data), 1)
                  if isinstance(e, h2.events.StreamReset): reset = True
              s.sendall(c.data_to_send())
      print(status, body.decode(), "reset" if reset else "no reset", sent)
      """
    let output = try h2Client(client, endpoint: endpoint, jwt: jwt)
    let words = output.split(separator: " ")
    #expect(words.prefix(3) == ["413", #"{"reason":"PayloadTooLarge"}"#, "reset"], "\(output)")
    let sent = Int(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .max
    #expect(sent < 4 << 20, "the client stopped within a few windows, not after \(sent) bytes")
    #expect(endpoint.received.accepted.isEmpty)
  }

  @Test("a client that disconnects mid-stream costs nothing; connections past the cap are refused with a GOAWAY")
  func disconnectsAndCap() throws {
    let endpoint = try TestEndpoint(plaintext: true) { $0.maxConnections = 20 }
    defer { endpoint.endpoint.stop() }
    // A HEADERS frame announcing more, then nothing: the client goes away.
    for _ in 0..<5 {
      let client = try RawClient(port: endpoint.port)
      client.send(clientPreface + [0, 0, 5, 1, 0x04, 0, 0, 0, 1, 0x82, 0x84, 0x86, 0x41, 0x00])
    }
    var idle: [RawClient] = []
    for _ in 0..<40 { idle.append(try RawClient(port: endpoint.port)) }
    let refused = idle.suffix(10).map { frames($0.readToEnd()) }
    #expect(refused.allSatisfy { $0.contains { $0.type == goAwayFrame } })
    idle.removeAll()
    #expect(endpoint.received.wait { $0.said.contains { $0.contains("past the limit of 20") } })
    usleep(200_000)
    #expect(try curlWorks(endpoint))
  }
}

/// Whether curl still gets a 200 from the endpoint.
func curlWorks(_ endpoint: TestEndpoint) throws -> Bool {
  let jwt = try TestEndpoint.jwt(key: try ES256Key.generate())
  let lines = try curl([
    "--http2-prior-knowledge", "--header", "apns-topic: \(TestEndpoint.app)", "--header",
    "authorization: bearer \(jwt)",
    "--data", #"{"aps":{"alert":"still here"}}"#, endpoint.url,
  ])
  return lines.first == "HTTP/2 200"
}
