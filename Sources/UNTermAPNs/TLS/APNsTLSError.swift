import COpenSSL

/// Why the endpoint's TLS, its certificates or an ES256 key could not be made or read. Each
/// case's text is one line, for the activity pane or stderr.
package enum APNsTLSError: Error, Equatable, Sendable, CustomStringConvertible {
  /// OpenSSL 3 cannot be opened (libssl.so.3 and libcrypto.so.3; Debian: libssl3).
  case unavailable(String)
  /// A file or folder could not be read, written or made.
  case file(path: String, reason: String)
  /// A key is not one this use takes: not PEM, encrypted, not EC P-256, or public where a
  /// private key is needed.
  case key(String)
  /// A certificate does not parse.
  case certificate(String)
  /// OpenSSL refused: what was being done, and OpenSSL's errors (ERR_error_string_n) as one line.
  case openSSL(operation: String, reason: String)

  package var description: String {
    switch self {
    case .unavailable(let reason): return "OpenSSL is unavailable: \(reason)"
    case .file(let path, let reason): return "\(path): \(reason)"
    case .key(let reason): return "key: \(reason)"
    case .certificate(let reason): return "certificate: \(reason)"
    case .openSSL(let operation, let reason): return "\(operation): \(reason)"
    }
  }
}

/// What every caller of COpenSSL shares: opening the libraries and reading OpenSSL's error queue,
/// which is per thread and must be emptied after each failure so that it never speaks for the
/// next one.
enum OpenSSL {
  /// Opens OpenSSL 3 (once per process), or throws why it cannot. Every entry point of this
  /// module that reaches COpenSSL calls this first.
  static func load() throws(APNsTLSError) {
    if let error = cossl_load_error() { throw .unavailable(String(cString: error)) }
  }

  /// This thread's OpenSSL errors, oldest first, joined into one line
  /// ("error:0A00010B:SSL routines::wrong version number"), with the queue left empty; nil when
  /// it was empty.
  static func drainErrors() -> String? {
    var lines: [String] = []
    while true {
      let code = cossl_ERR_get_error()
      if code == 0 { break }
      var text = [CChar](repeating: 0, count: 256)
      cossl_ERR_error_string_n(code, &text, text.count)
      let line = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !lines.contains(line) { lines.append(line) }
    }
    return lines.isEmpty ? nil : lines.joined(separator: "; ")
  }

  /// The error for `operation`, with the queue's errors as its reason.
  static func failure(_ operation: String) -> APNsTLSError {
    .openSSL(operation: operation, reason: drainErrors() ?? "OpenSSL gave no reason")
  }

  /// Calls `body` with a pointer to `bytes` and their count; the pointer is valid (not nil)
  /// even when `bytes` is empty, as some OpenSSL functions ask.
  static func withBytes<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> T) -> T {
    if bytes.isEmpty {
      let none: UInt8 = 0
      return withUnsafePointer(to: none) { body($0, 0) }
    }
    return bytes.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
  }
}
