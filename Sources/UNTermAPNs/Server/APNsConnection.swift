import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// One client of the endpoint: its socket, TLS, its HTTP/2 session and its provider
/// credential. Only the endpoint's thread touches it. What it holds is bounded: the read
/// buffer, one request's headers (≤ 8,000 bytes) and body (≤ 5,121 bytes) per open stream, and
/// the output a client has not read (past `outputLimit` the connection stops reading it).
final class APNsConnection {
  enum Phase: Equatable {
    case handshaking, open, closing
  }

  let id: Int
  let fd: Int32
  let peer: String
  let stream: ByteStream
  private(set) var http2: HTTP2ServerConnection?
  private(set) var phase = Phase.handshaking
  var credential: ProviderCredential
  private var output: [UInt8] = []
  private var outputSent = 0
  /// Whether the TLS layer asked to write before it can read (renegotiation, post-handshake
  /// messages) or to read before it can write.
  private var tlsWantsWrite = false
  /// When something last arrived; a connection idle past the endpoint's limit is closed.
  private(set) var lastActivity: Double
  let opened: Double
  /// Requests answered on this connection.
  private(set) var answered = 0

  /// A client that reads nothing back makes the connection stop reading past this much output.
  static let outputLimit = 1 << 20
  private static let readChunk = 16 * 1024

  init(id: Int, fd: Int32, peer: String, stream: ByteStream, credential: ProviderCredential, now: Double) {
    self.id = id
    self.fd = fd
    self.peer = peer
    self.stream = stream
    self.credential = credential
    lastActivity = now
    opened = now
  }

  /// The events poll should wait for.
  var events: Int16 {
    var events: Int32 = 0
    if phase != .closing && output.count - outputSent < Self.outputLimit { events |= Int32(POLLIN) }
    if hasOutput || tlsWantsWrite { events |= Int32(POLLOUT) }
    return Int16(events)
  }

  var hasOutput: Bool { outputSent < output.count }

  /// Input the TLS layer holds that poll cannot see: the loop serves it without waiting.
  var hasPendingInput: Bool { phase == .open && stream.hasBufferedInput }

  /// Whether everything is sent and the connection may close.
  var isFinished: Bool { phase == .closing && !hasOutput }

  /// Moves the handshake on; `nil` while it goes on, else whether it succeeded.
  func continueHandshake(limits: HTTP2Limits, now: Double) -> Result<Void, APNsConnectionError>? {
    switch stream.handshake() {
    case .wantRead:
      tlsWantsWrite = false
      return nil
    case .wantWrite:
      tlsWantsWrite = true
      return nil
    case .closed: return .failure(.init("closed during the TLS handshake"))
    case .failed(let reason): return .failure(.init("TLS handshake failed: \(reason)"))
    case .bytes:
      tlsWantsWrite = false
      // A client that offers no ALPN at all speaks HTTP/2 by prior knowledge, as aioapns does
      // with a custom SSL context (APNs takes it: such providers run in production). One that
      // offered only other protocols was refused in the handshake.
      guard stream.applicationProtocol == "h2" || stream.applicationProtocol == nil else {
        return .failure(.init("the client did not offer HTTP/2 (ALPN h2); APNs speaks only HTTP/2"))
      }
      if let topics = stream.certificateTopics { credential = .certificate(topics: topics) }
      do throws(HTTP2Error) {
        var connectionLimits = limits
        // A token connection is told it has one stream until it has sent a valid token.
        if case .token = credential { connectionLimits.initialAdvertisedStreams = 1 }
        let session = try HTTP2ServerConnection(limits: connectionLimits)
        http2 = session
        phase = .open
        lastActivity = now
        queue(session.takeOutput())
        return .success(())
      } catch {
        return .failure(.init("HTTP/2 could not start: \(error)"))
      }
    }
  }

  /// Reads what has arrived and hands it to HTTP/2; returns its events, or why the connection
  /// must close.
  func readAvailable(now: Double) -> Result<[HTTP2Event], APNsConnectionError> {
    guard let http2 else { return .success([]) }
    var events: [HTTP2Event] = []
    var buffer = [UInt8](repeating: 0, count: Self.readChunk)
    for _ in 0..<64 {
      let io = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
      switch io {
      case .bytes(let n):
        lastActivity = now
        let received = buffer.withUnsafeBytes { http2.receive(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        switch received {
        case .success(let more): events += more
        case .failure(let error):
          queue(http2.takeOutput())
          phase = .closing
          return .failure(.init("HTTP/2 protocol error: \(error)"))
        }
        if n < buffer.count && !stream.hasBufferedInput { return .success(events) }
      case .wantRead: return .success(events)
      case .wantWrite:
        tlsWantsWrite = true
        return .success(events)
      case .closed:
        phase = .closing
        output.removeAll()
        outputSent = 0
        return events.isEmpty ? .failure(.init("the client closed the connection")) : .success(events)
      case .failed(let reason):
        phase = .closing
        return .failure(.init(reason))
      }
    }
    return .success(events)
  }

  /// Answers a stream (a stream the client reset is not answered).
  func answer(stream id: Int32, with answer: APNsAnswer) {
    guard let http2 else { return }
    http2.respond(stream: id, status: answer.status, headers: answer.headers, body: answer.body)
    answered += 1
    queue(http2.takeOutput())
  }

  /// Lets a token connection open as many streams as APNs allows, after its first valid token.
  func raiseStreamLimit(to streams: Int) {
    guard let http2 else { return }
    http2.advertise(maxConcurrentStreams: streams)
    queue(http2.takeOutput())
  }

  /// A graceful end: GOAWAY (with `debug` as its JSON reason, as APNs sends one), then close
  /// once it is sent.
  func goAway(code: UInt32 = 0, reason: String? = nil) {
    guard phase != .closing else { return }
    if let http2 {
      http2.goAway(code: code, debug: reason.map { Array("{\"reason\":\"\($0)\"}".utf8) } ?? [])
      queue(http2.takeOutput())
    }
    phase = .closing
  }

  /// Sends what is waiting; returns why the connection must close, if it must.
  func flush() -> APNsConnectionError? {
    tlsWantsWrite = false
    if let http2 { queue(http2.takeOutput()) }
    while hasOutput {
      let io = output.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[outputSent...])) }
      switch io {
      case .bytes(let n): outputSent += n
      case .wantWrite, .wantRead:
        compact()
        return nil
      case .closed: return .init("the client closed the connection")
      case .failed(let reason): return .init(reason)
      }
    }
    output.removeAll(keepingCapacity: output.count <= 64 * 1024)
    outputSent = 0
    return nil
  }

  func close() {
    stream.shutdown()
    Glibc.close(fd)
  }

  private func queue(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    output += bytes
  }

  private func compact() {
    if outputSent > 64 * 1024 {
      output.removeFirst(outputSent)
      outputSent = 0
    }
  }
}

/// Why a connection closed, for the activity pane and the log.
struct APNsConnectionError: Error, Equatable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
