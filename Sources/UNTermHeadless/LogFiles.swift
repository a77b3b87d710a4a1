import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: its `errno`, named for messages.
package struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
  package var code: Int32

  package init(_ code: Int32) { self.code = code }

  /// The system's reason: "No space left on device".
  package var description: String { String(cString: strerror(code)) }
}

/// The file operations the response log makes, one call each, so a test can make any of them
/// fail (`FaultyLogFiles` in the test support) while the log's handling stays the real one.
package protocol LogFileOperations: AnyObject {
  /// `open(2)`: a descriptor.
  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32
  /// One `write(2)`: how many bytes it took, which may be fewer than given.
  func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int
  /// `fdatasync(2)`.
  func sync(_ fd: Int32) throws(SystemError)
  /// `close(2)`.
  func close(_ fd: Int32)
  /// How many names the open file has (`fstat`'s `st_nlink`): 0 once it was removed.
  func linkCount(_ fd: Int32) throws(SystemError) -> Int
  /// The file's last `count` bytes (fewer when it is shorter).
  func readTail(_ path: String, count: Int) throws(SystemError) -> [UInt8]
  /// The whole file.
  func readAll(_ path: String) throws(SystemError) -> [UInt8]
  /// `fsync(2)` on the folder holding `path`, so a new file's name survives a crash.
  func syncFolder(of path: String)
}

/// The real system calls.
package final class SystemLogFiles: LogFileOperations {
  package init() {}

  package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
    while true {
      let fd = Glibc.open(path, flags, mode)
      if fd >= 0 { return fd }
      if errno != EINTR { throw SystemError(errno) }
    }
  }

  package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    while true {
      let n = Glibc.write(fd, base, bytes.count)
      if n >= 0 { return n }
      if errno != EINTR { throw SystemError(errno) }
    }
  }

  package func sync(_ fd: Int32) throws(SystemError) {
    // Not retried on EINTR either: after a failed sync the pages' state is unknown.
    guard fdatasync(fd) == 0 else { throw SystemError(errno) }
  }

  package func close(_ fd: Int32) { _ = Glibc.close(fd) }

  package func linkCount(_ fd: Int32) throws(SystemError) -> Int {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SystemError(errno) }
    return Int(info.st_nlink)
  }

  package func readTail(_ path: String, count: Int) throws(SystemError) -> [UInt8] {
    let fd = try open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
    defer { close(fd) }
    let size = lseek(fd, 0, SEEK_END)
    guard size >= 0 else { throw SystemError(errno) }
    let start = max(0, Int(size) - count)
    return try read(fd, from: start, count: Int(size) - start)
  }

  package func readAll(_ path: String) throws(SystemError) -> [UInt8] {
    let fd = try open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw SystemError(errno) }
    return try read(fd, from: 0, count: Int(info.st_size))
  }

  /// Reads `count` bytes from `offset`, or up to the end of the file if it is shorter now.
  private func read(_ fd: Int32, from offset: Int, count: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = bytes.withUnsafeMutableBytes { raw in
        pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw SystemError(errno)
      }
      if n == 0 { break }
      done += n
    }
    return Array(bytes.prefix(done))
  }

  package func syncFolder(of path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    guard let fd = try? open(folder.isEmpty ? "." : folder, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0)
    else { return }
    fsync(fd)
    close(fd)
  }
}
