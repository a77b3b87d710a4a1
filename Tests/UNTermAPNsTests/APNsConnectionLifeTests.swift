import Foundation
import Testing

@testable import UNTermAPNs

/// HTTP/2 error codes (RFC 9113 §7) a GOAWAY carries.
private enum Code {
  static let noError: UInt32 = 0x0
  static let protocolError: UInt32 = 0x1
  static let frameSizeError: UInt32 = 0x6
  static let compressionError: UInt32 = 0x9
  static let enhanceYourCalm: UInt32 = 0xb
}

/// How many connections the endpoint's lines say it refused past its cap.
private func refused(_ said: [String]) -> Int {
  said.filter { $0.contains("past the limit of") }.reduce(0) { total, line in
    let words = line.split(separator: " ")
    guard let at = words.firstIndex(of: "refused"), at + 1 < words.count else { return total }
    return total + (Int(words[at + 1]) ?? 1)
  }
}

/// A frame: its 9-byte header, then the payload.
private func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, length: Int? = nil, _ payload: [UInt8] = [])
  -> [UInt8]
{
  let n = length ?? payload.count
  return [UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), type, flags]
    + [UInt8(stream >> 24 & 0x7f), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff)]
    + payload
}

/// The descriptors this process has open.
private func openDescriptors() -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
}

@Suite("The APNs endpoint's connections: malformed frames, idle, many, shutdown", .serialized)
struct APNsConnectionLifeTests {
  /// Malformed frames after a valid preface, each with the error RFC 9113 gives it.
  static let malformed: [(String, [UInt8], UInt32)] = [
    ("DATA on stream 0", frame(type: 0x0, [0x41]), Code.protocolError),
    ("SETTINGS of 5 bytes", frame(type: 0x4, [0, 3, 0, 0, 0]), Code.frameSizeError),
    ("a frame past MAX_FRAME_SIZE", frame(type: 0x0, stream: 1, length: 1 << 20, [0, 0, 0]), Code.frameSizeError),
    ("PING of 7 bytes", frame(type: 0x6, [0, 0, 0, 0, 0, 0, 0]), Code.frameSizeError),
    ("WINDOW_UPDATE of 0", frame(type: 0x8, [0, 0, 0, 0]), Code.protocolError),
    ("CONTINUATION with no HEADERS", frame(type: 0x9, flags: 0x4, stream: 1, [0x82]), Code.protocolError),
    ("HEADERS on an even stream", frame(type: 0x1, flags: 0x5, stream: 2, [0x82, 0x86, 0x84]), Code.protocolError),
    (
      "HEADERS whose HPACK indexes past the table",
      frame(type: 0x1, flags: 0x5, stream: 1, [0xff, 0xff, 0xff, 0xff, 0x0f]), Code.compressionError
    ),
  ]

  @Test(
    "a malformed frame gets a GOAWAY with RFC 9113's error and a close; nothing is echoed; the next client is served",
    arguments: 0..<malformed.count)
  func malformedFrame(_ index: Int) throws {
    let (name, bytes, code) = Self.malformed[index]
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    let client = try RawClient(port: endpoint.port)
    client.send(clientPreface + bytes + Array("\u{1b}]0;owned\u{7}".utf8))
    let answer = client.readToEnd()
    #expect(goAwayCode(answer) == code, "\(name)")
    #expect(!answer.contains(0x1b), "\(name): nothing the client sent is echoed")
    #expect(try curlWorks(endpoint), "\(name)")
  }

  @Test("an idle connection gets a GOAWAY (NO_ERROR) when its time is up, and the activity pane says so")
  func idleTimeout() throws {
    let endpoint = try TestEndpoint(plaintext: true) { $0.idleTimeout = 1 }
    defer { endpoint.endpoint.stop() }
    let client = try RawClient(port: endpoint.port)
    client.send(clientPreface)
    let started = Date()
    let answer = client.readToEnd()
    #expect(goAwayCode(answer) == Code.noError)
    #expect(Date().timeIntervalSince(started) < 4)
    #expect(endpoint.received.wait(5) { $0.said.contains { $0.contains("idle") } }, "\(endpoint.received.said)")
  }

  @Test("stopping the endpoint sends every client a GOAWAY (NO_ERROR) and closes; the port is free again")
  func shutdownSaysGoodbye() throws {
    let endpoint = try TestEndpoint(plaintext: true)
    let clients = try (0..<3).map { _ in try RawClient(port: endpoint.port) }
    for client in clients { client.send(clientPreface) }
    usleep(200_000)
    endpoint.endpoint.stop()
    for client in clients { #expect(goAwayCode(client.readToEnd()) == Code.noError) }
    #expect(throws: (any Error).self) { try RawClient(port: endpoint.port) }
  }

  @Test(
    "10,000 idle connections: those past the cap are refused with a GOAWAY, the endpoint still answers at once, and every descriptor comes back"
  )
  func tenThousandIdle() throws {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    try #require(limit.rlim_max >= 10_600, "10,000 clients and the endpoint's 256 need 10,600 descriptors")
    let soft = limit.rlim_cur
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    defer {
      limit.rlim_cur = soft
      setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    let endpoint = try TestEndpoint(plaintext: true)
    defer { endpoint.endpoint.stop() }
    // A first client, so what running curl keeps open (Foundation's own) is counted before.
    #expect(try curlWorks(endpoint))
    usleep(100_000)
    let before = openDescriptors()
    var idle: [RawClient] = []
    idle.reserveCapacity(10_000)
    for _ in 0..<10_000 { idle.append(try RawClient(port: endpoint.port)) }
    // Every connection is in: the cap's 256 are served, the rest were told why and closed.
    // The activity pane is told in a line a second, not a line a connection.
    #expect(endpoint.received.wait(30) { refused($0.said) >= 9_744 }, "\(refused(endpoint.received.said)) refused")
    #expect(endpoint.received.said.count < 100)
    #expect(goAwayCode(idle[9_999].readToEnd()) == Code.enhanceYourCalm)
    let started = Date()
    #expect(try curlWorks(endpoint) == false, "the cap is full: a new client is refused too")
    #expect(Date().timeIntervalSince(started) < 2)
    let held = openDescriptors() - before
    #expect(held <= 10_000 + 256 + 16, "\(held) descriptors for 10,000 clients and the endpoint's 256")
    idle.removeAll()
    #expect(endpoint.received.wait(10) { _ in openDescriptors() <= before + 8 }, "\(openDescriptors() - before) left")
    #expect(try curlWorks(endpoint))
  }
}
