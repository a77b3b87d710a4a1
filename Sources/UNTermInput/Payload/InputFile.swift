import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads untrusted input files with a size cap checked before reading.
package enum InputFile {
  /// The largest payload, categories or descriptor file UNTerm reads: 256 KiB.
  package static let defaultLimit = 256 * 1024

  /// Reads a file, or standard input for `-`.
  ///
  /// - Throws: `UNTermError` with exit code 66 when the file is missing or unreadable, 65 when it
  ///   is larger than `limit`.
  package static func read(_ path: String, limit: Int = defaultLimit) throws(UNTermError) -> [UInt8] {
    guard path == "-" else { return try readOnce(path, limit: limit) }
    // Standard input can be read only once; a command that needs `-` again (the design sheet
    // draws each payload many times) gets the same bytes.
    let bytes = try StandardInput.shared.bytes { () throws(UNTermError) in try readOnce(path, limit: limit) }
    if bytes.count > limit {
      throw UNTermError(
        .dataError, file: path, "the input is over \(limit) bytes; UNTerm reads files of at most \(limit) bytes")
    }
    return bytes
  }

  private static func readOnce(_ path: String, limit: Int) throws(UNTermError) -> [UInt8] {
    let fd: Int32
    if path == "-" {
      fd = STDIN_FILENO
    } else {
      fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      guard fd >= 0 else {
        let reason: SafeText = errno == ENOENT ? "no such file" : "\(String(cString: strerror(errno)))"
        throw UNTermError(.noInput, file: path, reason)
      }
      // Blocking reads again for FIFOs; O_NONBLOCK only kept open() from hanging on one.
      _ = fcntl(fd, F_SETFL, 0)
    }
    defer { if fd != STDIN_FILENO { close(fd) } }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw UNTermError(.noInput, file: path, "\(String(cString: strerror(errno)))")
    }
    if info.st_mode & S_IFMT == S_IFDIR {
      throw UNTermError(.noInput, file: path, "is a directory, not a file")
    }
    if info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) > limit {
      throw UNTermError(
        .dataError, file: path,
        "the file is \(info.st_size) bytes; UNTerm reads files of at most \(limit) bytes")
    }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw UNTermError(.noInput, file: path, "\(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      data.append(contentsOf: buffer[0..<n])
      if data.count > limit {
        throw UNTermError(
          .dataError, file: path,
          "the input is over \(limit) bytes; UNTerm reads files of at most \(limit) bytes")
      }
    }
    return data
  }
}

/// Standard input's bytes, once read.
private final class StandardInput: @unchecked Sendable {
  static let shared = StandardInput()
  private let lock = NSLock()
  private var read: [UInt8]?

  /// The bytes, read by `load` the first time (a failed read is not remembered).
  func bytes(_ load: () throws(UNTermError) -> [UInt8]) throws(UNTermError) -> [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    if let read { return read }
    let bytes = try load()
    read = bytes
    return bytes
  }
}
