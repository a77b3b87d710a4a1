import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// Binds the listening socket without harming anything else at its path.
enum SocketFile {
  /// Which file the bound socket is, so `stop` removes only that one.
  struct Identity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
  }

  /// Listens at `path`. A socket of this user that nothing answers on is stale and replaced;
  /// anything else at `path` is an error that names it.
  static func listen(at path: String) throws(UNTermError) -> (descriptor: Int32, identity: Identity) {
    let shown = OneLine.flatten(path)
    var address = sockaddr_un()
    guard PushClient.fill(&address, path: path) else {
      throw UNTermError(
        .noInput, file: shown,
        path.isEmpty || path.utf8.contains(0)
          ? "is not a usable socket path"
          : "the socket path is \(path.utf8.count) bytes; a Unix socket path has at most \(PushClient.maximumPathBytes)"
      )
    }
    try clearStale(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw UNTermError(.noInput, file: shown, "cannot make a socket: \(String(cString: strerror(errno)))")
    }
    // The bound file takes the socket's own mode: 0600 from the start, without touching the
    // process-wide umask that other threads create files under.
    _ = fchmod(fd, 0o600)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
      let reason = errno == EADDRINUSE ? "something else appeared at this path" : String(cString: strerror(errno))
      close(fd)
      throw UNTermError(.noInput, file: shown, "cannot listen: \(reason)")
    }
    var info = stat()
    guard Glibc.listen(fd, 64) == 0, lstat(path, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw UNTermError(.noInput, file: shown, "cannot listen: \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return (fd, Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
  }

  /// Removes a stale socket of this user at `path`; refuses anything else.
  private static func clearStale(_ path: String) throws(UNTermError) {
    let shown = OneLine.flatten(path)
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw UNTermError(.noInput, file: shown, "cannot read the path: \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      throw UNTermError(
        .noInput, file: shown,
        "\(FileKind(info.st_mode).description) is there, not a socket; refusing to replace it (remove it, or choose another --socket path)"
      )
    }
    guard info.st_uid == getuid() else {
      throw UNTermError(
        .noInput, file: shown, "the socket there belongs to another user (uid \(info.st_uid)); refusing to replace it")
    }
    switch PushClient.probe(path) {
    case .answered:
      throw UNTermError(.noInput, file: shown, "another UNTerm session is already listening here")
    case .refused:
      // A connection attempt proved it stale: its session is gone.
      if unlink(path) != 0 && errno != ENOENT {
        throw UNTermError(
          .noInput, file: shown, "cannot remove the stale socket: \(String(cString: strerror(errno)))")
      }
    case .failed(let reason):
      throw UNTermError(.noInput, file: shown, "cannot tell whether the socket there is in use: \(reason)")
    }
  }

  /// Unlinks `path` only if it is still the socket this session bound.
  static func remove(_ path: String, ifStill identity: Identity) {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK,
      Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == identity
    else { return }
    unlink(path)
  }
}
