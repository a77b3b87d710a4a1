import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// Files `unterm` writes for other programs (`sheet --out`, `run --junit`): written whole or not
/// at all.
enum OutputFile {
  /// Writes into a temporary file beside `path`, syncs it, then renames it over `path`, so a
  /// failure never leaves half a file (or destroys the last good one). `what` names the file in
  /// the error: "cannot write the sheet: …" (exit 73, sysexits' "cannot create output file").
  static func write(_ text: String, to path: String, what: String) throws(UNTermError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = "\(folder).\(name).\(getpid()).tmp"
    func fail(_ code: Int32) -> UNTermError {
      UNTermError(.cannotCreate, file: path, "cannot write \(what): \(String(cString: strerror(code)))")
    }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw fail(errno) }
    var failure: Int32 = 0
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(fd, base + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += n
      }
    }
    if failure == 0 && fsync(fd) != 0 { failure = errno }
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temporary, path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw fail(failure)
    }
  }
}
