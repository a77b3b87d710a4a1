import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.0 server on 127.0.0.1 for tests: fixed routes, optional delays, bodies that
/// never end or arrive a byte at a time, declared lengths that lie, requests never answered;
/// one thread per connection.
package final class LoopbackHTTPServer: @unchecked Sendable {
  package struct Route: Sendable {
    /// What the body does after `body` is sent.
    package enum Stream: Sendable {
      /// Nothing: the body is `body`.
      case none
      /// Zeros follow, without end, as fast as the client reads.
      case endless
      /// One zero byte follows every `interval` seconds, without end.
      case drip(interval: TimeInterval)
    }

    /// The Content-Length header.
    package enum DeclaredLength: Sendable {
      /// The length of `body` (none for a stream).
      case actual
      /// No header.
      case none
      /// This number, whatever comes.
      case claim(Int)
    }

    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    package var delay: TimeInterval
    package var stream: Stream
    package var declaredLength: DeclaredLength
    /// Extra header lines ("Location: …").
    package var headers: [String]
    /// Never answers while the server runs: a server slower than any budget, however long the
    /// test takes on a busy machine (a fixed delay can run out first there).
    package var stalls: Bool

    package init(
      status: Int = 200, contentType: String = "application/octet-stream", body: [UInt8], delay: TimeInterval = 0,
      stream: Stream = .none, declaredLength: DeclaredLength = .actual, headers: [String] = [], stalls: Bool = false
    ) {
      self.status = status
      self.contentType = contentType
      self.body = body
      self.delay = delay
      self.stream = stream
      self.declaredLength = declaredLength
      self.headers = headers
      self.stalls = stalls
    }
  }

  /// A stream stops by itself after this long, so no thread outlives a test for long.
  package static let longestStream: TimeInterval = 60

  /// What the server's threads share; they hold this, not the server, so the server stops
  /// (and its threads end) when the test lets go of it.
  private final class State: @unchecked Sendable {
    let routes: [String: Route]
    let listener: Int32
    let condition = NSCondition()
    var stopped = false
    /// The listening socket is closed (by the accept loop, once it ends).
    var closed = false
    var requests = 0
    var sentBytes: [String: Int] = [:]

    init(routes: [String: Route], listener: Int32) {
      self.routes = routes
      self.listener = listener
    }

    var isStopped: Bool {
      condition.lock()
      defer { condition.unlock() }
      return stopped
    }

    func count(_ path: String, _ bytes: Int) {
      condition.lock()
      sentBytes[path, default: 0] += bytes
      condition.unlock()
    }
  }

  private let state: State
  package let port: Int

  package init(routes: [String: Route]) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = Int(UInt16(bigEndian: actual.sin_port))
    let state = State(routes: routes, listener: listener)
    self.state = state
    Thread { Self.acceptLoop(state) }.start()
  }

  deinit { stop() }

  /// The URL of a path on this server.
  package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Body bytes sent so far on a path (all connections), for checking where a client stopped.
  package func bytesSent(_ path: String) -> Int {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.sentBytes[path] ?? 0
  }

  /// How many requests have arrived so far.
  package var requestCount: Int {
    state.condition.lock()
    defer { state.condition.unlock() }
    return state.requests
  }

  /// Stops accepting; streams end and stalled requests end unanswered.
  package func stop() {
    state.condition.lock()
    let wasStopped = state.stopped
    state.stopped = true
    state.condition.broadcast()
    state.condition.unlock()
    if !wasStopped {
      // Wakes the accept loop, which closes the socket itself: closed here, its number could be
      // reused by another test's file before the loop's next accept. Under the lock, so the
      // loop cannot have closed it in between.
      state.condition.lock()
      if !state.closed { shutdown(state.listener, Int32(SHUT_RDWR)) }
      state.condition.unlock()
    }
  }

  private static func acceptLoop(_ state: State) {
    defer {
      state.condition.lock()
      close(state.listener)
      state.closed = true
      state.condition.unlock()
    }
    while !state.isStopped {
      let client = accept(state.listener, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      Thread { serve(client, state) }.start()
    }
  }

  /// Sends all of `bytes`; false once the client has gone (no SIGPIPE).
  private static func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  private static func serve(_ client: Int32, _ state: State) {
    defer { close(client) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var request: [UInt8] = []
    while !request.suffix(4).elementsEqual([13, 10, 13, 10]) && request.count < 16_384 {
      let n = read(client, &buffer, buffer.count)
      if n <= 0 { break }
      request += buffer[0..<n]
    }
    let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
    let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    let route = state.routes[path] ?? Route(status: 404, contentType: "text/plain", body: Array("not found".utf8))
    state.condition.lock()
    state.requests += 1
    state.condition.unlock()
    if route.stalls {
      state.condition.lock()
      while !state.stopped { state.condition.wait() }
      state.condition.unlock()
      return
    }
    if route.delay > 0 { Thread.sleep(forTimeInterval: route.delay) }
    var header = "HTTP/1.0 \(route.status) X\r\nContent-Type: \(route.contentType)\r\n"
    switch route.declaredLength {
    case .actual:
      if case .none = route.stream { header += "Content-Length: \(route.body.count)\r\n" }
    case .none: break
    case .claim(let length): header += "Content-Length: \(length)\r\n"
    }
    for extra in route.headers { header += extra + "\r\n" }
    header += "Connection: close\r\n\r\n"
    guard send(client, Array(header.utf8)), send(client, route.body) else { return }
    state.count(path, route.body.count)
    let started = Date()
    switch route.stream {
    case .none:
      return
    case .endless:
      let zeros = [UInt8](repeating: 0, count: 64 * 1024)
      while !state.isStopped, Date().timeIntervalSince(started) < longestStream, send(client, zeros) {
        state.count(path, zeros.count)
      }
    case .drip(let interval):
      while !state.isStopped, Date().timeIntervalSince(started) < longestStream {
        Thread.sleep(forTimeInterval: interval)
        guard send(client, [0]) else { return }
        state.count(path, 1)
      }
    }
  }
}

/// Tiny PNG files for tests.
package enum TestImages {
  /// A PNG of `width` × `height` pixels filled by `color(x, y)`.
  package static func png(width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
    var raw: [UInt8] = []
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width {
        let (r, g, b) = color(x, y)
        raw += [r, g, b]
      }
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + data
      return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }
    let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
  }

  private static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  private static func crc32(_ data: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// zlib with stored (uncompressed) blocks.
  private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let length = min(65535, data.count - offset)
      let final: UInt8 = offset + length >= data.count ? 1 : 0
      out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
      out += data[offset..<offset + length]
      offset += length
    } while offset < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    return out + bigEndian(b << 16 | a)
  }
}
