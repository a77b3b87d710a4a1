import COpenSSL
import Glibc

/// How far a handshake got.
package enum TLSProgress: Equatable, Sendable {
  case done
  /// Call `handshake()` again once the socket is readable.
  case wantRead
  /// Call `handshake()` again once the socket is writable.
  case wantWrite
  /// The handshake failed (garbage instead of a ClientHello, no common protocol or cipher, a
  /// client certificate that does not verify, the client gone); the reason is one line. Close
  /// the socket.
  case failed(String)
}

/// What a read or write did.
package enum TLSIO: Equatable, Sendable {
  /// This many bytes were read (at least 1) or written (a write may be partial).
  case bytes(Int)
  /// Try again, with the same arguments for a write, once the socket is readable.
  case wantRead
  /// Try again, with the same arguments for a write, once the socket is writable.
  case wantWrite
  /// The client closed the connection (close_notify, or the socket's end).
  case closed
  /// The connection failed; the reason is one line. Close the socket.
  case failed(String)
}

/// One TLS connection of the endpoint, on a non-blocking socket the caller accepted and still
/// owns (it closes it, after `shutdown()`). Nothing here blocks, prints or raises SIGPIPE.
///
/// Use it from one thread at a time. Read until `.wantRead` before waiting for the socket: a
/// read into a small buffer can leave decrypted bytes inside OpenSSL that no poll reports
/// (`hasBufferedBytes`).
package final class TLSConnection: @unchecked Sendable {
  private let ssl: OpaquePointer
  /// The socket the connection runs on.
  package let socket: Int32
  /// Why the connection failed, once it has: OpenSSL must not be used further then.
  private var failure: String?
  private var isShutDown = false

  /// A connection that will answer a client's handshake on `socket`.
  package init(context: TLSServerContext, socket: Int32) throws(APNsTLSError) {
    cossl_ERR_clear_error()
    guard let ssl = cossl_SSL_new(context.context) else { throw OpenSSL.failure("starting TLS on a connection") }
    guard cossl_SSL_set_fd(ssl, socket) == 1 else {
      cossl_SSL_free(ssl)
      throw OpenSSL.failure("starting TLS on a connection")
    }
    cossl_SSL_set_accept_state(ssl)
    self.ssl = ssl
    self.socket = socket
  }

  deinit { cossl_SSL_free(ssl) }

  /// Takes the handshake as far as the socket allows.
  package func handshake() -> TLSProgress {
    if let failure { return .failed(failure) }
    if isShutDown { return .failed("the connection was shut down") }
    if cossl_SSL_is_init_finished(ssl) == 1 { return .done }
    let (result, error) = Self.withoutSIGPIPE { cossl_SSL_do_handshake(ssl) }
    if result == 1 { return .done }
    switch outcome(of: result, errno: error) {
    case .wantRead: return .wantRead
    case .wantWrite: return .wantWrite
    case .closed: return .failed(fail("the client closed the connection during the handshake"))
    case .failed(let reason): return .failed(reason)
    case .bytes: return .failed(fail("unexpected handshake result"))
    }
  }

  /// Reads decrypted bytes into `buffer` (handshaking first if needed).
  package func read(into buffer: UnsafeMutableRawBufferPointer) -> TLSIO {
    if let failure { return .failed(failure) }
    if isShutDown { return .closed }
    guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
    let (result, error) = Self.withoutSIGPIPE { cossl_SSL_read(ssl, base, Int32(clamping: buffer.count)) }
    return result > 0 ? .bytes(Int(result)) : outcome(of: result, errno: error)
  }

  /// Encrypts and sends `bytes`, or as many as the socket takes (handshaking first if needed).
  /// After `.wantRead` or `.wantWrite`, call again with the same bytes.
  package func write(_ bytes: UnsafeRawBufferPointer) -> TLSIO {
    if let failure { return .failed(failure) }
    if isShutDown { return .closed }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
    let (result, error) = Self.withoutSIGPIPE { cossl_SSL_write(ssl, base, Int32(clamping: bytes.count)) }
    return result > 0 ? .bytes(Int(result)) : outcome(of: result, errno: error)
  }

  /// Whether OpenSSL holds bytes already read from the socket that no poll would report.
  package var hasBufferedBytes: Bool { cossl_SSL_has_pending(ssl) == 1 }

  /// The protocol ALPN chose: "h2", or nil when the client offered no ALPN (or the handshake
  /// is not done).
  package var negotiatedProtocol: String? {
    var data: UnsafePointer<UInt8>? = nil
    var length: UInt32 = 0
    cossl_SSL_get0_alpn_selected(ssl, &data, &length)
    guard let data, length > 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
  }

  /// The client's certificate, when the context asks for one, the client sent one and it
  /// verified against the client CA; nil otherwise.
  package var peerCertificate: PeerCertificate? {
    guard let certificate = cossl_SSL_get1_peer_certificate(ssl) else { return nil }
    defer { cossl_X509_free(certificate) }
    guard cossl_SSL_get_verify_result(ssl) == X509_V_OK else { return nil }
    return PeerCertificate(reading: certificate)
  }

  /// Sends close_notify once, without waiting for the client's; reads and writes then answer
  /// `.closed`. Nothing is sent before the handshake is done or after a failure. The caller
  /// closes the socket.
  package func shutdown() {
    guard failure == nil, !isShutDown else { return }
    isShutDown = true
    guard cossl_SSL_is_init_finished(ssl) == 1 else { return }
    _ = Self.withoutSIGPIPE { cossl_SSL_shutdown(ssl) }
    cossl_ERR_clear_error()
  }

  /// What a read, write or handshake that returned `result` (not success) means.
  private func outcome(of result: Int32, errno error: Int32) -> TLSIO {
    switch cossl_SSL_get_error(ssl, result) {
    case SSL_ERROR_WANT_READ: return .wantRead
    case SSL_ERROR_WANT_WRITE: return .wantWrite
    case SSL_ERROR_ZERO_RETURN:
      cossl_ERR_clear_error()
      return .closed
    case SSL_ERROR_SYSCALL:
      let queued = OpenSSL.drainErrors()
      if error == 0 && queued == nil { return .failed(fail("the client closed the connection")) }
      return .failed(fail(queued ?? String(cString: strerror(error))))
    case let code:
      var reason = OpenSSL.drainErrors() ?? "TLS error \(code)"
      let verification = cossl_SSL_get_verify_result(ssl)
      if verification != X509_V_OK, let text = cossl_X509_verify_cert_error_string(verification) {
        reason += " (client certificate: \(String(cString: text)))"
      }
      return .failed(fail(reason))
    }
  }

  /// Marks the connection failed for `reason`, and returns it.
  private func fail(_ reason: String) -> String {
    failure = reason
    return reason
  }

  /// `body`'s result and errno, with SIGPIPE blocked on this thread while it runs and a
  /// SIGPIPE it raised (a write to a client that has gone) discarded: OpenSSL writes to the
  /// socket with write(2), which would otherwise end the process.
  static func withoutSIGPIPE(_ body: () -> Int32) -> (result: Int32, errno: Int32) {
    var pipe = sigset_t()
    var previous = sigset_t()
    sigemptyset(&pipe)
    sigaddset(&pipe, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipe, &previous)
    errno = 0
    cossl_ERR_clear_error()
    let result = body()
    let error = errno
    // When the caller already blocks SIGPIPE, a pending one is the caller's to deal with.
    if sigismember(&previous, SIGPIPE) == 0 {
      var pending = sigset_t()
      if sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec()
        _ = sigtimedwait(&pipe, nil, &now)
      }
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    return (result, error)
  }
}
