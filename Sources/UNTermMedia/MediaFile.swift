import Glibc

/// A regular file opened for bounded reads.
///
/// Opening never blocks (a FIFO or device path is refused after `open` with `O_NONBLOCK`), only
/// regular files are read, and every read is at an explicit offset with an explicit length.
final class MediaFile {
  /// What identifies one version of a file: its path, inode, size and modification time.
  struct Key: Hashable, Sendable {
    var path: String
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    /// The file itself, whatever path reached it.
    var identity: Identity {
      Identity(device: device, inode: inode, size: size, seconds: seconds, nanoseconds: nanoseconds)
    }
  }

  /// One version of a file, by device, inode, size and modification time.
  struct Identity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
  }

  private let descriptor: Int32
  /// The file's identity when it was opened.
  let key: Key

  /// Opens a regular file for reading.
  init(path: String) throws(MediaError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else { throw MediaError(.unreadable, Self.reason(errno)) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let error = errno
      close(fd)
      throw MediaError(.unreadable, Self.reason(error))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw MediaError(.unreadable, "not a regular file")
    }
    descriptor = fd
    key = Self.key(path: path, status)
  }

  deinit { close(descriptor) }

  /// The file's size in bytes when it was opened.
  var size: Int64 { key.size }

  /// A file's identity without opening it (one `stat`).
  static func key(of path: String) throws(MediaError) -> Key {
    var status = stat()
    guard stat(path, &status) == 0 else { throw MediaError(.unreadable, reason(errno)) }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw MediaError(.unreadable, "not a regular file")
    }
    return key(path: path, status)
  }

  /// Runs `body` with the open descriptor (for reads at explicit offsets; it stays open).
  func withDescriptor<T>(_ body: (Int32) -> T) -> T { body(descriptor) }

  /// Up to `count` bytes from `offset`; fewer at the end of the file.
  func read(at offset: Int64, count: Int) throws(MediaError) -> [UInt8] {
    guard count > 0, offset >= 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    var failure: Int32 = 0
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      while filled < count {
        let got = pread(descriptor, base + filled, count - filled, off_t(offset) + off_t(filled))
        if got > 0 {
          filled += got
        } else if got == 0 {
          break
        } else if errno != EINTR {
          failure = errno
          break
        }
      }
    }
    if failure != 0 { throw MediaError(.unreadable, Self.reason(failure)) }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// The whole file, refused when it is over `limit` bytes.
  func readAll(limit: Int) throws(MediaError) -> [UInt8] {
    guard size <= Int64(limit) else {
      throw MediaError(.fileTooLarge, "the file is \(size) bytes; images may be at most \(limit) bytes")
    }
    return try read(at: 0, count: Int(size))
  }

  private static func key(path: String, _ status: stat) -> Key {
    Key(
      path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
      size: Int64(status.st_size), seconds: Int(status.st_mtim.tv_sec),
      nanoseconds: Int(status.st_mtim.tv_nsec))
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file"
    case EACCES, EPERM: return "permission denied"
    case EISDIR: return "not a regular file"
    default:
      guard let text = strerror(code) else { return "cannot read the file (errno \(code))" }
      return String(cString: text).lowercased()
    }
  }
}
