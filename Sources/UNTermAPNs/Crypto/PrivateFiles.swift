import Glibc

/// Files only their owner may read: folders made 0700, files written 0600 through a temporary
/// file renamed into place, so a reader never sees half a key and a crash never leaves one.
enum PrivateFiles {
  /// The bytes of the file at `path`, refused past `limit` (a key or a certificate is small).
  static func read(_ path: String, limit: Int = 1 << 20) throws(APNsTLSError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw failure(path) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = Glibc.read(fd, &chunk, chunk.count)
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw failure(path) }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
      guard bytes.count <= limit else { throw .file(path: path, reason: "larger than \(limit) bytes") }
    }
  }

  /// Whether a file is at `path`.
  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Writes `text` to `path` with mode 0600: into a temporary file beside it, synced, then
  /// renamed over `path`.
  static func write(_ text: String, to path: String) throws(APNsTLSError) {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let name = path.split(separator: "/").last.map(String.init) ?? path
    var template = Array("\(folder.isEmpty ? "." : folder)/.\(name).XXXXXX".utf8CString)
    let fd = mkstemp(&template)  // mode 0600
    guard fd >= 0 else { throw failure(path) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var written = fchmod(fd, 0o600) == 0
    var bytes = Array(text.utf8)[...]
    while written && !bytes.isEmpty {
      let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { written = false } else { bytes = bytes.dropFirst(count) }
    }
    written = written && fsync(fd) == 0
    let error = failure(path)
    close(fd)
    guard written, rename(temporary, path) == 0 else {
      let renameError = failure(path)
      unlink(temporary)
      throw written ? renameError : error
    }
  }

  /// Makes `path` a folder with mode 0700, with any missing parents (also 0700); an existing
  /// folder is set to 0700.
  static func makeFolder(_ path: String) throws(APNsTLSError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw failure(prefix) }
    }
    var status = stat()
    guard stat(path, &status) == 0 else { throw failure(path) }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw .file(path: path, reason: "not a folder") }
    guard chmod(path, 0o700) == 0 else { throw failure(path) }
  }

  /// Holds an exclusive lock on the file `path` (made 0600 if missing) until `body` returns, so
  /// that two processes never make the same files at once.
  static func withLock<T>(_ path: String, _ body: () throws(APNsTLSError) -> T) throws(APNsTLSError) -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(path) }
    defer { close(fd) }  // closing releases the lock
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else { throw failure(path) }
    }
    return try body()
  }

  /// The error for `path` from errno.
  private static func failure(_ path: String) -> APNsTLSError {
    .file(path: path, reason: String(cString: strerror(errno)))
  }
}
