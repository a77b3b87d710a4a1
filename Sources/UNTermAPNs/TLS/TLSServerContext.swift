import COpenSSL

/// The endpoint's TLS configuration (an OpenSSL SSL_CTX): its certificate and key, TLS 1.2 or
/// newer, no compression, no renegotiation, and ALPN that chooses `h2` and nothing else.
///
/// ALPN: a client that offers `h2` gets it. One that offers only other protocols (say
/// `http/1.1`) has its handshake refused with the `no_application_protocol` alert, as RFC 7301
/// asks, so it fails at once with a clear reason on both sides. One that offers no ALPN at all
/// completes the handshake with no protocol (`TLSConnection.negotiatedProtocol` is nil): the
/// caller decides whether to close it or speak HTTP/2 with prior knowledge (whether APNs
/// refuses such clients is unverified).
///
/// With `clientCAFile`, the server asks every client for a certificate and verifies one that is
/// sent against that CA (a certificate it does not verify fails the handshake); a client that
/// sends none is accepted without one, as token-authenticated providers send none.
///
/// Made once and shared: every connection of the endpoint starts from it, from any thread.
package final class TLSServerContext: @unchecked Sendable {
  let context: OpaquePointer
  /// Whether clients are asked for certificates (a `clientCAFile` was given).
  package let verifiesClientCertificates: Bool

  /// Throws when OpenSSL cannot be opened, a file cannot be read, or the key does not match
  /// the certificate. An encrypted key is refused, never prompted for.
  package init(certificateChainFile: String, privateKeyFile: String, clientCAFile: String? = nil)
    throws(APNsTLSError)
  {
    try OpenSSL.load()
    cossl_ERR_clear_error()
    guard let context = cossl_SSL_CTX_new(cossl_TLS_server_method()) else {
      throw OpenSSL.failure("making a TLS context")
    }
    do {
      try Self.configure(context)
      try Self.load(context, certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile)
      if let clientCAFile { try Self.verifyClients(context, against: clientCAFile) }
    } catch {
      cossl_SSL_CTX_free(context)
      throw error
    }
    self.context = context
    verifiesClientCertificates = clientCAFile != nil
  }

  deinit { cossl_SSL_CTX_free(context) }

  /// The options every connection gets (OpenSSL's SSL_OP_ bits), for tests.
  var options: UInt64 { cossl_SSL_CTX_get_options(context) }

  /// The oldest protocol version accepted (0x0303 is TLS 1.2), for tests.
  var minimumProtocolVersion: Int { cossl_SSL_CTX_ctrl(context, SSL_CTRL_GET_MIN_PROTO_VERSION, 0, nil) }

  private static func configure(_ context: OpaquePointer) throws(APNsTLSError) {
    guard cossl_SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil) == 1 else {
      throw OpenSSL.failure("setting TLS 1.2 as the oldest version")
    }
    // A client that closes without close_notify reads as closed, not as an error: HTTP/2's own
    // framing tells a cut-off request from a whole one.
    _ = cossl_SSL_CTX_set_options(
      context,
      SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_IGNORE_UNEXPECTED_EOF)
    // Non-blocking writes may be partial and retried from a moved buffer; an idle connection
    // gives its read and write buffers back (thousands of idle clients stay cheap).
    let mode = SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS
    _ = cossl_SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(mode), nil)
    // Resumed sessions need an id context once client certificates are verified.
    let id = Array("unterm-apns".utf8)
    guard cossl_SSL_CTX_set_session_id_context(context, id, UInt32(id.count)) == 1 else {
      throw OpenSSL.failure("setting the session id context")
    }
    cossl_SSL_CTX_set_default_passwd_cb(context) { _, _, _, _ in -1 }
    cossl_select_h2_only(context)
  }

  private static func load(_ context: OpaquePointer, certificateChainFile: String, privateKeyFile: String)
    throws(APNsTLSError)
  {
    guard cossl_SSL_CTX_use_certificate_chain_file(context, certificateChainFile) == 1 else {
      throw OpenSSL.failure("loading the certificate chain \(certificateChainFile)")
    }
    guard cossl_SSL_CTX_use_PrivateKey_file(context, privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
      throw OpenSSL.failure("loading the private key \(privateKeyFile)")
    }
    guard cossl_SSL_CTX_check_private_key(context) == 1 else {
      throw OpenSSL.failure("matching the key \(privateKeyFile) to the certificate \(certificateChainFile)")
    }
  }

  private static func verifyClients(_ context: OpaquePointer, against caFile: String) throws(APNsTLSError) {
    guard cossl_SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
      throw OpenSSL.failure("loading the client CA \(caFile)")
    }
    // The CA's name goes in the CertificateRequest, so a client picks the right certificate.
    guard let names = cossl_SSL_load_client_CA_file(caFile) else {
      throw OpenSSL.failure("reading the client CA's name from \(caFile)")
    }
    cossl_SSL_CTX_set_client_CA_list(context, names)
    cossl_SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
  }
}
