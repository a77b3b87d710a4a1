#if canImport(Glibc)
  import Glibc
#endif

/// Standard output and standard error: the only code that writes to them (the terminal shell
/// draws through ncurses, and the restore bytes after a crash are constants). Both take
/// `SafeText`, so nothing untrusted reaches the terminal raw; a test fails on any other write
/// to the two streams in `Sources/`.
///
/// Each call is one `write(2)` (retried when interrupted or short), unbuffered, so lines on the
/// two streams and the live player's screens keep the order they were written in.
package enum Console {
  package enum Stream: Sendable {
    case standardOutput, standardError

    var descriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
  }

  /// Writes text and a line feed.
  package static func line(_ text: SafeText, to stream: Stream = .standardOutput) {
    write(text + "\n", to: stream)
  }

  /// Writes text as it is (the live player's screens).
  package static func write(_ text: SafeText, to stream: Stream = .standardOutput) {
    let bytes = Array(text.text.utf8)
    var start = 0
    while start < bytes.count {
      let n = bytes.withUnsafeBytes { buffer in
        buffer.baseAddress.map { Glibc.write(stream.descriptor, $0 + start, buffer.count - start) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      // A closed stream (EPIPE with SIGPIPE ignored, EBADF): nothing more can be said there.
      guard n > 0 else { return }
      start += n
    }
  }
}
