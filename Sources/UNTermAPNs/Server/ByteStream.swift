import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a read or a write on a connection's socket came to.
enum StreamIO: Equatable {
  /// This many bytes moved (never 0).
  case bytes(Int)
  /// Nothing now; poll for readable (or writable, for TLS that must write to read).
  case wantRead, wantWrite
  /// The peer closed its side.
  case closed
  case failed(String)
}

/// A connection's bytes: the socket itself (`--apns-plaintext`) or TLS over it.
protocol ByteStream: AnyObject {
  /// Moves the TLS handshake on; a plain socket is done at once.
  func handshake() -> StreamIO
  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamIO
  func write(_ bytes: UnsafeRawBufferPointer) -> StreamIO
  /// The application protocol ALPN chose (`h2`), or nil; a plain socket speaks h2 by prior
  /// knowledge.
  var applicationProtocol: String? { get }
  /// The topics of the client's certificate, when it sent one the CA vouches for.
  var certificateTopics: [String]? { get }
  /// Bytes the TLS layer has read from the socket that no poll would report.
  var hasBufferedInput: Bool { get }
  /// Says goodbye (TLS close_notify) without waiting for an answer.
  func shutdown()
}

/// The socket as it is: cleartext HTTP/2 with prior knowledge.
final class PlainStream: ByteStream {
  private let fd: Int32

  init(fd: Int32) { self.fd = fd }

  func handshake() -> StreamIO { .bytes(1) }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamIO {
    let n = recv(fd, buffer.baseAddress, buffer.count, 0)
    if n > 0 { return .bytes(n) }
    if n == 0 { return .closed }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
      ? .wantRead : .failed(String(cString: strerror(errno)))
  }

  func write(_ bytes: UnsafeRawBufferPointer) -> StreamIO {
    let n = send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    if n > 0 { return .bytes(n) }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
      ? .wantWrite : .failed(String(cString: strerror(errno)))
  }

  var applicationProtocol: String? { "h2" }
  var certificateTopics: [String]? { nil }
  var hasBufferedInput: Bool { false }
  func shutdown() {}
}
