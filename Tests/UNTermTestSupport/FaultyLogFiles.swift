import Foundation
import Testing
import UNTermHeadless

#if canImport(Glibc)
  import Glibc
#endif

/// The response log's file operations with failures injected: the Nth open, write or sync fails
/// with a chosen `errno` (once, or from then on), a write may first take part of its bytes, and
/// everything else goes to the real file system. Every call is recorded, in order.
package final class FaultyLogFiles: LogFileOperations {
  package enum Operation: String, Sendable {
    case open, write, sync, readTail, readAll
  }

  /// A failure to inject.
  package struct Fault: Sendable {
    package var operation: Operation
    /// Which call of that operation fails, from 1.
    package var at: Int
    package var errno: Int32
    /// Whether every later call of that operation fails too (a disk that stays full).
    package var persists: Bool
    /// For a write: how many bytes it takes before failing (a short write, then the error on
    /// the next call, as the kernel reports it).
    package var partial: Int

    package static func write(at n: Int, _ errno: Int32, partial: Int = 0, persists: Bool = false) -> Fault {
      Fault(operation: .write, at: n, errno: errno, persists: persists, partial: partial)
    }

    package static func sync(at n: Int, _ errno: Int32, persists: Bool = false) -> Fault {
      Fault(operation: .sync, at: n, errno: errno, persists: persists, partial: 0)
    }

    package static func open(at n: Int, _ errno: Int32, persists: Bool = false) -> Fault {
      Fault(operation: .open, at: n, errno: errno, persists: persists, partial: 0)
    }
  }

  /// One call: the operation, the descriptor it used (or returned), and whether it failed.
  package struct Call: Sendable, Equatable {
    package var operation: Operation
    package var fd: Int32
    package var failed: Bool
  }

  private let real = SystemLogFiles()
  package var faults: [Fault]
  private var counts: [Operation: Int] = [:]
  /// A write cut short, whose error comes on the next call.
  private var pendingError: Int32?
  package private(set) var calls: [Call] = []
  /// Called before every write, to look at the world while a record is being written.
  package var beforeWrite: (() -> Void)?

  package init(_ faults: [Fault] = []) { self.faults = faults }

  /// The calls of one operation.
  package func calls(_ operation: Operation) -> [Call] { calls.filter { $0.operation == operation } }

  private func fault(for operation: Operation) -> Fault? {
    counts[operation, default: 0] += 1
    let n = counts[operation, default: 0]
    return faults.first { $0.operation == operation && ($0.at == n || ($0.persists && n > $0.at)) }
  }

  private func note(_ operation: Operation, _ fd: Int32, failed: Bool) {
    calls.append(Call(operation: operation, fd: fd, failed: failed))
  }

  package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
    if let fault = fault(for: .open) {
      note(.open, -1, failed: true)
      throw SystemError(fault.errno)
    }
    do {
      let fd = try real.open(path, flags: flags, mode: mode)
      note(.open, fd, failed: false)
      return fd
    } catch {
      note(.open, -1, failed: true)
      throw error
    }
  }

  package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
    beforeWrite?()
    if let error = pendingError {
      pendingError = nil
      note(.write, fd, failed: true)
      throw SystemError(error)
    }
    if let fault = fault(for: .write) {
      if fault.partial > 0 && bytes.count > fault.partial {
        pendingError = fault.errno
        note(.write, fd, failed: false)
        return try real.write(fd, UnsafeRawBufferPointer(rebasing: bytes[..<fault.partial]))
      }
      note(.write, fd, failed: true)
      throw SystemError(fault.errno)
    }
    note(.write, fd, failed: false)
    return try real.write(fd, bytes)
  }

  package func sync(_ fd: Int32) throws(SystemError) {
    if let fault = fault(for: .sync) {
      note(.sync, fd, failed: true)
      throw SystemError(fault.errno)
    }
    note(.sync, fd, failed: false)
    try real.sync(fd)
  }

  package func close(_ fd: Int32) { real.close(fd) }

  package func linkCount(_ fd: Int32) throws(SystemError) -> Int { try real.linkCount(fd) }

  package func readTail(_ path: String, count: Int) throws(SystemError) -> [UInt8] {
    note(.readTail, -1, failed: false)
    return try real.readTail(path, count: count)
  }

  package func readAll(_ path: String) throws(SystemError) -> [UInt8] {
    note(.readAll, -1, failed: false)
    return try real.readAll(path)
  }

  package func syncFolder(of path: String) { real.syncFolder(of: path) }
}

/// A small tmpfs mounted for a test, to fill up for real: ENOSPC from the kernel rather than
/// from a seam. Mounting needs root (CI runs as root); elsewhere the tests that need one are
/// skipped, saying why.
package final class SmallFilesystem {
  /// Whether this process may mount one: it runs as root, and a trial mount works (a container
  /// without CAP_SYS_ADMIN refuses even root).
  package static let isAvailable: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
    return (try? SmallFilesystem(kilobytes: 16)) != nil
  }()

  package static let unavailableReason: Comment =
    "needs root allowed to mount a small tmpfs (mount -t tmpfs -o size=64k); CI runs as root"

  /// Where it is mounted.
  package let url: URL
  private let holder: URL

  /// Mounts a tmpfs of `kilobytes` KiB on a fresh folder; `readOnly` mounts it read-only.
  package init(kilobytes: Int = 64, readOnly: Bool = false) throws {
    holder = try Fixtures.temporaryDirectory()
    url = holder.appendingPathComponent("fs")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let options = "size=\(kilobytes)k,mode=0777" + (readOnly ? ",ro" : "")
    let result = Fixtures.spawn("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", url.path])
    guard result.status == 0 else {
      throw MountFailed(description: "mount -t tmpfs on \(url.path) failed (status \(result.status))")
    }
  }

  struct MountFailed: Error, CustomStringConvertible {
    var description: String
  }

  deinit {
    _ = Fixtures.spawn("/bin/umount", ["-l", url.path])
    try? FileManager.default.removeItem(at: holder)
  }

  /// A path inside it.
  package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Fills it with a file of zeros until the kernel says ENOSPC, leaving `keepingPages` 4 KiB
  /// pages free (a filler that is removed again).
  package func fill(keepingPages pages: Int = 0) throws {
    let spare = path("spare")
    if pages > 0 {
      try Data(count: pages * 4096).write(to: URL(fileURLWithPath: spare))
    }
    let fd = Glibc.open(path("filler"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw MountFailed(description: "cannot create the filler") }
    let chunk = [UInt8](repeating: 0, count: 4096)
    while chunk.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) > 0 {}
    Glibc.close(fd)
    if pages > 0 { unlink(spare) }
  }
}
