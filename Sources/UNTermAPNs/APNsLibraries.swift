import CNghttp2
import COpenSSL

/// The libraries the APNs endpoint stands on, opened on first use: OpenSSL 3 for TLS, ALPN,
/// certificates and ES256, nghttp2 for HTTP/2.
package enum APNsLibraries {
  /// Why the endpoint cannot start, or `nil` when both libraries open.
  package static var loadError: String? {
    if let error = cossl_load_error() { return String(cString: error) }
    if let error = cnh2_load_error() { return String(cString: error) }
    return nil
  }

  /// "OpenSSL 3.0.19 …, nghttp2 1.52.0", when both open.
  package static var versions: String? {
    guard let ssl = cossl_version(), let h2 = cnh2_version() else { return nil }
    return "\(String(cString: ssl)), nghttp2 \(String(cString: h2))"
  }
}
