import CNghttp2

#if canImport(Glibc)
  import Glibc
#endif

/// What a server connection allows a client: APNs's advertised settings, and the largest body.
package struct HTTP2Limits: Sendable {
  /// SETTINGS_MAX_CONCURRENT_STREAMS (APNs: 1000): past it a stream is refused.
  package var maxConcurrentStreams = 1000
  /// What the first SETTINGS tells the client instead, where it is lower: APNs tells a token
  /// connection 1 until a token is valid. The client reads that limit, but streams it opened
  /// before it read it are still served: RFC 9113 §5.1.2 binds a client only to a limit it has
  /// seen, and a provider that sends a burst at connect is not refused for a race.
  package var initialAdvertisedStreams: Int?
  /// SETTINGS_MAX_HEADER_LIST_SIZE, as APNs advertises it; a request past it is reset.
  package var maxHeaderListBytes = 8000
  /// The largest body kept (a VoIP payload's 5120 bytes); past it the request is handed over
  /// marked truncated, and the rest is never buffered.
  package var maxBodyBytes = 5120

  package init() {}
}

/// HTTP/2 error codes the endpoint sends (RFC 9113 §7).
package enum HTTP2ErrorCode {
  package static let noError: UInt32 = 0x0
  package static let protocolError: UInt32 = 0x1
  package static let enhanceYourCalm: UInt32 = 0xb
}

/// A request as it ended (or as its body passed the limit).
package struct HTTP2Request: Sendable {
  package var stream: Int32
  /// In arrival order, pseudo-headers included.
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]
  package var bodyTruncated: Bool
}

/// What happened on a connection.
package enum HTTP2Event: Sendable {
  case request(HTTP2Request)
  /// A request's headers passed the limit; the stream was reset.
  case headerListTooLarge(stream: Int32)
  /// The client reset a stream before it was answered.
  case streamReset(stream: Int32, code: UInt32)
  /// The client sent GOAWAY.
  case goAway(code: UInt32)
}

/// Why nghttp2 refused.
package struct HTTP2Error: Error, Sendable, CustomStringConvertible {
  package var code: Int32
  package var description: String
}

/// One HTTP/2 server connection on nghttp2: bytes in (`receive`), bytes out (`takeOutput`),
/// requests out as events, answers in (`respond`). No socket and no thread: the endpoint's loop
/// owns those. Not thread-safe: one thread at a time.
package final class HTTP2ServerConnection {
  private let server: OpaquePointer

  /// A connection that has queued its SETTINGS.
  package init(limits: HTTP2Limits) throws(HTTP2Error) {
    if let error = cnh2_load_error() { throw HTTP2Error(code: -1, description: String(cString: error)) }
    var cLimits = cnh2_limits(
      max_concurrent_streams: UInt32(clamping: limits.maxConcurrentStreams),
      initial_advertised_streams: UInt32(clamping: limits.initialAdvertisedStreams ?? 0),
      max_header_list: UInt32(clamping: limits.maxHeaderListBytes), max_body: limits.maxBodyBytes)
    guard let server = cnh2_server_new(&cLimits) else { throw HTTP2Error(code: -901, description: "out of memory") }
    self.server = server
  }

  deinit { cnh2_server_free(server) }

  /// Feeds what the client sent; the events it completed, or the protocol error that ends the
  /// connection (a GOAWAY is then waiting in `takeOutput`).
  package func receive(_ bytes: UnsafeRawBufferPointer) -> Result<[HTTP2Event], HTTP2Error> {
    let status = cnh2_server_receive(server, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    let events = takeEvents()
    guard status == 0 else {
      return .failure(HTTP2Error(code: status, description: String(cString: cnh2_strerror(status))))
    }
    return .success(events)
  }

  /// Answers a stream; a stream the client reset, or one already answered, is left alone.
  package func respond(stream: Int32, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
    var names = headers.map { strdup($0.name) }
    var values = headers.map { strdup($0.value) }
    defer {
      for pointer in names + values { free(pointer) }
    }
    _ = names.withUnsafeMutableBufferPointer { namePointers in
      values.withUnsafeMutableBufferPointer { valuePointers in
        namePointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { n in
          valuePointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { v in
            body.withUnsafeBufferPointer { b in
              cnh2_server_respond(
                server, stream, Int32(status), n.baseAddress, v.baseAddress, headers.count, b.baseAddress, b.count)
            }
          }
        }
      }
    }
  }

  /// What nghttp2 has to send now.
  package func takeOutput() -> [UInt8] {
    var output: [UInt8] = []
    while true {
      var pointer: UnsafePointer<UInt8>?
      let length = cnh2_server_output(server, &pointer)
      guard length > 0, let pointer else { break }
      output.append(contentsOf: UnsafeBufferPointer(start: pointer, count: length))
      if output.count > 1 << 20 { break }
    }
    return output
  }

  /// Sends a new MAX_CONCURRENT_STREAMS.
  package func advertise(maxConcurrentStreams: Int) {
    _ = cnh2_server_set_max_streams(server, UInt32(clamping: maxConcurrentStreams))
  }

  /// A graceful end: GOAWAY with the last stream processed; new streams are refused.
  package func goAway(code: UInt32 = HTTP2ErrorCode.noError, debug: [UInt8] = []) {
    _ = debug.withUnsafeBufferPointer { cnh2_server_goaway(server, code, $0.baseAddress, $0.count) }
  }

  /// Whether nghttp2 is done with the connection both ways.
  package var isClosed: Bool { cnh2_server_wants_read(server) == 0 && cnh2_server_wants_write(server) == 0 }

  package var openStreams: Int { cnh2_server_open_streams(server) }

  private func takeEvents() -> [HTTP2Event] {
    var events: [HTTP2Event] = []
    while let event = cnh2_server_next_event(server) {
      defer { cnh2_event_free(event) }
      let e = event.pointee
      switch Int(e.kind) {
      case Int(CNH2_EVENT_REQUEST):
        let body = e.body.map { Array(UnsafeBufferPointer(start: $0, count: e.body_length)) } ?? []
        events.append(
          .request(
            HTTP2Request(
              stream: e.stream_id, headers: Self.headers(e.headers, e.headers_length), body: body,
              bodyTruncated: e.truncated != 0)))
      case Int(CNH2_EVENT_HEADERS_TOO_LARGE): events.append(.headerListTooLarge(stream: e.stream_id))
      case Int(CNH2_EVENT_STREAM_RESET): events.append(.streamReset(stream: e.stream_id, code: e.code))
      case Int(CNH2_EVENT_GOAWAY): events.append(.goAway(code: e.code))
      default: break
      }
    }
    return events
  }

  /// Reads the shim's flat header list: length-prefixed names and values.
  private static func headers(_ bytes: UnsafeMutablePointer<UInt8>?, _ length: Int) -> [(name: String, value: String)] {
    guard let bytes else { return [] }
    let buffer = UnsafeBufferPointer(start: bytes, count: length)
    var headers: [(name: String, value: String)] = []
    var offset = 0
    func field() -> String? {
      guard offset + 4 <= length else { return nil }
      let count = (0..<4).reduce(0) { $0 | Int(buffer[offset + $1]) << (8 * $1) }
      offset += 4
      guard offset + count <= length else { return nil }
      defer { offset += count }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<offset + count]), as: UTF8.self)
    }
    while offset < length, let name = field(), let value = field() { headers.append((name, value)) }
    return headers
  }
}
