import Foundation
import UNTermCore

#if canImport(Glibc)
  import Glibc
#endif

/// The durable response log: one JSON object per line, appended with `O_APPEND` and synced to
/// disk before the response is acknowledged.
///
/// On open, a torn last line (left by a crash mid-write) is closed with a newline so the next
/// record starts on a line of its own; readers skip an unterminated last line and report damage
/// anywhere else.
package final class ResponseLog {
  /// An I/O failure; the log stops acknowledging responses after one.
  package struct Failure: Error, CustomStringConvertible {
    package var path: String
    package var message: String
    package var description: String { "\(path): error: \(message)" }
  }

  package let path: String
  private var fd: Int32
  /// Whether opening repaired a torn last line.
  package private(set) var repairedTornTail = false
  private var failed: Failure?

  /// Opens (creating with mode 0600) the log for appending.
  package init(path: String) throws(Failure) {
    self.path = path
    let existed = access(path, F_OK) == 0
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw Failure(path: path, message: "cannot open the log: \(String(cString: strerror(errno)))")
    }
    if !existed { Self.syncDirectory(of: path) }
    try repairTail()
  }

  deinit { close(fd) }

  private func repairTail() throws(Failure) {
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    guard reader >= 0 else { return }
    defer { close(reader) }
    let size = lseek(reader, 0, SEEK_END)
    guard size > 0 else { return }
    var last: UInt8 = 0
    guard pread(reader, &last, 1, size - 1) == 1 else { return }
    if last != 0x0A {
      try write(Array("\n".utf8))
      repairedTornTail = true
    }
  }

  /// Appends one record and syncs it to disk.
  ///
  /// - Throws: `Failure` when the write or the sync fails; the sync is never retried, and every
  ///   later append fails too, so no response is acknowledged that might not be on disk.
  package func append(_ record: JSONWriter.Value) throws(Failure) {
    if let failed { throw failed }
    do {
      try write(Array((JSONWriter.write(record) + "\n").utf8))
    } catch {
      failed = error
      throw error
    }
  }

  private func write(_ bytes: [UInt8]) throws(Failure) {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        Glibc.write(fd, raw.baseAddress! + written, bytes.count - written)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, message: "writing the log failed: \(String(cString: strerror(errno)))")
      }
      written += n
    }
    guard fdatasync(fd) == 0 else {
      throw Failure(path: path, message: "syncing the log failed: \(String(cString: strerror(errno)))")
    }
  }

  private static func syncDirectory(of path: String) {
    let dir = (path as NSString).deletingLastPathComponent
    let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard dfd >= 0 else { return }
    fsync(dfd)
    close(dfd)
  }

  /// What reading a log found.
  package struct Contents {
    /// The lines that are JSON objects, in order.
    package var records: [String]
    /// Line numbers of complete lines that are not JSON objects: torn records closed by a
    /// repair, or damage.
    package var damagedLines: [Int]
    /// An unterminated last line, skipped.
    package var tornTail: String?
  }

  /// Reads a log.
  package static func read(_ path: String) throws(Failure) -> Contents {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(path: path, message: "cannot read the log")
    }
    var contents = Contents(records: [], damagedLines: [], tornTail: nil)
    var start = data.startIndex
    var lineNumber = 0
    for i in data.indices where data[i] == 0x0A {
      lineNumber += 1
      let bytes = Array(data[start..<i])
      start = i + 1
      if bytes.isEmpty { continue }
      if (try? JSONParser.parse(bytes))?.object != nil {
        contents.records.append(String(decoding: bytes, as: UTF8.self))
      } else {
        contents.damagedLines.append(lineNumber)
      }
    }
    let tail = data[start...]
    if !tail.isEmpty { contents.tornTail = String(decoding: tail, as: UTF8.self) }
    return contents
  }
}
