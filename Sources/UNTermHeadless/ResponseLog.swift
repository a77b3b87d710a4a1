import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The durable response log: one JSON object per line, appended with `O_APPEND` and synced to
/// disk before the response is acknowledged.
///
/// Opening an existing log reads it first: complete lines that are not response records
/// (damage) are reported in `damage` before anything is appended, and a torn last line
/// (left by a crash mid-write) is closed with a newline so the next record starts on a line of
/// its own. A write or sync that fails is never retried: the record is reported lost, the
/// descriptor is closed (after a failed `fdatasync` the kernel may have dropped the dirty pages
/// and would report success next time), and the log is reopened and its tail checked before
/// anything else is appended.
package final class ResponseLog {
  /// An I/O failure: the record in hand is not in the log.
  package struct Failure: Error, CustomStringConvertible {
    package var path: String
    /// What failed, with the system's reason: "writing the log failed: No space left on device".
    package var message: String
    /// The system's reason alone, for the Responses pane: "No space left on device".
    package var reason: String
    /// What the log did about it afterwards: "reopened the log; it ends with a complete line".
    package var recovery: String?

    package var description: String { "\(path): error: \(message)" }
  }

  package let path: String
  private let files: any LogFileOperations
  private var fd: Int32 = -1
  /// Whether the file is known to end with a complete line, so a record may be appended.
  private var tailIsClean = false
  /// Whether opening repaired a torn last line.
  package private(set) var repairedTornTail = false
  /// Complete lines the log held on opening that are not response records.
  package private(set) var damage: [Contents.Damage] = []
  /// How many lines the log held on opening.
  package private(set) var linesOnOpen = 0

  /// Opens (creating with mode 0600) the log for appending, after reading what it holds.
  ///
  /// - Throws: `Failure` when the log cannot be opened or read, or a torn last line cannot be
  ///   closed off.
  package init(path: String, files: any LogFileOperations = SystemLogFiles()) throws(Failure) {
    self.path = path
    self.files = files
    let created = try openDescriptor()
    guard !created else {
      tailIsClean = true
      return
    }
    let bytes: [UInt8]
    do {
      bytes = try files.readAll(path)
    } catch {
      close()
      throw Failure(path: path, message: "cannot read the log to check it: \(error)", reason: error.description)
    }
    let contents = Self.scan(bytes)
    damage = contents.damage
    linesOnOpen = contents.lineCount
    if contents.tornTail != nil {
      do {
        try closeOffTail()
      } catch {
        close()
        throw Failure(
          path: path, message: "cannot close off the log's torn last line: \(error)", reason: error.description)
      }
      repairedTornTail = true
    }
    tailIsClean = true
  }

  deinit { close() }

  /// Opens the descriptor; creates the file (and syncs its folder) when there is none.
  /// Returns whether it was created.
  @discardableResult
  private func openDescriptor() throws(Failure) -> Bool {
    do {
      fd = try files.open(path, flags: O_WRONLY | O_APPEND | O_CLOEXEC, mode: 0)
      return false
    } catch  where error.code == ENOENT {
      do {
        fd = try files.open(path, flags: O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
      } catch  where error.code == EEXIST {
        // Another writer created it between the two calls.
        return try openDescriptor()
      } catch {
        throw Failure(path: path, message: "cannot create the log: \(error)", reason: error.description)
      }
      files.syncFolder(of: path)
      return true
    } catch {
      throw Failure(path: path, message: "cannot open the log: \(error)", reason: error.description)
    }
  }

  private func close() {
    if fd >= 0 { files.close(fd) }
    fd = -1
  }

  /// Appends one record and syncs it to disk; only a return means the record is durable.
  ///
  /// - Returns: what the log did first, when an earlier failure had left it closed: "reopened
  ///   the log; …".
  /// - Throws: `Failure` when the record could not be written, synced, or the file is gone.
  ///   Nothing is retried; the failure's `recovery` says how the log was left.
  @discardableResult
  package func append(_ record: JSONWriter.Value) throws(Failure) -> String? {
    var note: String?
    if fd < 0 || !tailIsClean {
      // An earlier failure left the log closed or its end unknown: reopen and check first.
      switch reopen() {
      case .ready(let found): note = found
      case .failed(let message, let reason): throw Failure(path: path, message: message, reason: reason)
      }
    }
    let bytes = Array((JSONWriter.write(record) + "\n").utf8)
    do {
      try writeAll(bytes)
    } catch {
      throw failed("writing the log failed: \(error)", reason: error.description, record: bytes)
    }
    do {
      try files.sync(fd)
    } catch {
      // Never retried on this descriptor: the kernel may have dropped the unsynced pages and
      // would report success the next time.
      throw failed("syncing the log failed: \(error)", reason: error.description, record: bytes)
    }
    if let links = try? files.linkCount(fd), links == 0 {
      throw failed(
        "the log file was removed, so the record went nowhere", reason: "the log file was removed", record: bytes)
    }
    return note
  }

  /// Writes all the bytes, continuing after short writes.
  private func writeAll(_ bytes: [UInt8]) throws(SystemError) {
    var written = 0
    while written < bytes.count {
      let files = self.files
      let fd = self.fd
      let n = try bytes.withUnsafeBytes { raw in
        Result { () throws(SystemError) -> Int in
          try files.write(fd, UnsafeRawBufferPointer(rebasing: raw[written...]))
        }
      }.get()
      // A write that takes nothing would loop forever; the disk is as good as full.
      guard n > 0 else { throw SystemError(ENOSPC) }
      written += n
    }
  }

  /// A failure after the descriptor was used: it is closed, and the log reopened and its tail
  /// checked, so the next record starts on a clean line of a file that is really there.
  private func failed(_ message: String, reason: String, record: [UInt8]) -> Failure {
    tailIsClean = false
    var failure = Failure(path: path, message: message, reason: reason)
    switch reopen(expecting: record) {
    case .ready(let found): failure.recovery = found
    case .failed(let problem, _): failure.recovery = problem + "; the next response tries again"
    }
    return failure
  }

  /// How a reopen went: what it found, or what went wrong.
  private enum Reopened {
    case ready(String)
    case failed(message: String, reason: String)
  }

  /// Closes the descriptor, opens the log again and makes its end a complete line. `record` is
  /// the record whose write or sync just failed, to say whether it is in the file.
  private func reopen(expecting record: [UInt8]? = nil) -> Reopened {
    close()
    tailIsClean = false
    let created: Bool
    do {
      created = try openDescriptor()
    } catch {
      return .failed(message: "cannot reopen the log: \(error.reason)", reason: error.reason)
    }
    if created {
      tailIsClean = true
      return .ready("the log file was gone; a new one was created at \(path)")
    }
    let tail: [UInt8]
    do {
      tail = try files.readTail(path, count: (record?.count ?? 0) + 1)
    } catch {
      close()
      return .failed(message: "cannot read the reopened log's end: \(error)", reason: error.description)
    }
    let found: String
    if let last = tail.last, last != 0x0A {
      do {
        try closeOffTail()
      } catch {
        close()
        return .failed(
          message: "cannot close off the cut-off record at the log's end: \(error)", reason: error.description)
      }
      found = "reopened the log and closed off the cut-off record at its end"
    } else if let record, tail.count >= record.count, Array(tail.suffix(record.count)) == record {
      found = "reopened the log; the unsynced record is in the file but may not survive a crash, so it counts as lost"
    } else if tail.isEmpty {
      found = "reopened the log; it is empty"
    } else {
      found = "reopened the log; it ends with a complete line"
    }
    tailIsClean = true
    return .ready(found)
  }

  /// Ends a torn last line with a newline, synced.
  private func closeOffTail() throws(SystemError) {
    let newline: [UInt8] = [0x0A]
    try writeAll(newline)
    try files.sync(fd)
  }

  // MARK: - Reading

  /// What reading a log found.
  package struct Contents: Sendable {
    /// A complete line that is not a response record: a torn record closed off by a repair,
    /// or damage.
    package struct Damage: Sendable, Equatable {
      package var line: Int
      /// Why it is not a record: "not valid JSON: unexpected end of input at column 41".
      package var reason: String
    }

    /// The response records, in order.
    package var records: [LogRecord]
    /// The complete lines that are not response records.
    package var damage: [Damage]
    /// An unterminated last line, skipped: a record cut off by a crash, never acknowledged.
    package var tornTail: String?
    /// How many lines there are, the torn tail included.
    package var lineCount: Int

    /// The numbers of the damaged lines.
    package var damagedLines: [Int] { damage.map(\.line) }
  }

  /// Reads a log.
  package static func read(_ path: String) throws(Failure) -> Contents {
    do {
      return scan(try SystemLogFiles().readAll(path))
    } catch {
      throw Failure(path: path, message: "cannot read the log: \(error)", reason: error.description)
    }
  }

  /// Splits a log's bytes into lines (on bytes, so a cut multibyte character cannot hide a
  /// line break) and checks each. Empty lines are skipped.
  package static func scan(_ data: [UInt8]) -> Contents {
    var contents = Contents(records: [], damage: [], tornTail: nil, lineCount: 0)
    var start = 0
    var lineNumber = 0
    for i in data.indices where data[i] == 0x0A {
      lineNumber += 1
      let bytes = Array(data[start..<i])
      start = i + 1
      if bytes.isEmpty { continue }
      switch LogRecord.parse(bytes, line: lineNumber) {
      case .success(let record): contents.records.append(record)
      case .failure(let reason): contents.damage.append(Contents.Damage(line: lineNumber, reason: reason.message))
      }
    }
    contents.lineCount = lineNumber
    if start < data.count {
      contents.tornTail = String(decoding: data[start...], as: UTF8.self)
      contents.lineCount += 1
    }
    return contents
  }
}

/// One response as the log holds it: a JSON object with at least the action and request
/// identifiers as strings.
package struct LogRecord: Sendable {
  /// Why a line is not a record.
  package struct Problem: Error, Sendable {
    package var message: String
  }

  /// The line it is on (1-based).
  package var line: Int
  package var actionIdentifier: String
  package var requestIdentifier: String
  package var userText: String?
  package var categoryIdentifier: String?
  package var threadIdentifier: String?
  package var date: String?
  package var device: String?
  package var locked: Bool?
  /// The notification's app; `nil` in records written before the log named it.
  package var bundleIdentifier: String?
  /// Every member as written, in order, for re-emitting.
  package var value: JSONWriter.Value

  /// Parses a line: a JSON object with `actionIdentifier` and `requestIdentifier` strings.
  package static func parse(_ bytes: [UInt8], line: Int) -> Result<LogRecord, Problem> {
    let node: JSONNode
    do {
      node = try JSONParser.parse(bytes)
    } catch {
      return .failure(Problem(message: "not valid JSON: \(error.message) at column \(error.position.column)"))
    }
    guard let object = node.object else {
      return .failure(Problem(message: "not a JSON object but \(node.typeNameWithArticle)"))
    }
    for key in ["actionIdentifier", "requestIdentifier"] where object[key]?.string == nil {
      return .failure(Problem(message: "no \"\(key)\" string, so not a response record"))
    }
    return .success(LogRecord(object, line: line))
  }

  private init(_ object: JSONObject, line: Int) {
    self.line = line
    actionIdentifier = object["actionIdentifier"]?.string ?? ""
    requestIdentifier = object["requestIdentifier"]?.string ?? ""
    userText = object["userText"]?.string
    categoryIdentifier = object["categoryIdentifier"]?.string
    threadIdentifier = object["threadIdentifier"]?.string
    date = object["date"]?.string
    device = object["device"]?.string
    locked = object["locked"]?.bool
    bundleIdentifier = object["bundleIdentifier"]?.string
    value = .object(object.members.map { ($0.key, Self.writerValue($0.value)) })
  }

  private static func writerValue(_ node: JSONNode) -> JSONWriter.Value {
    switch node.value {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .number(let n):
      if n.isIntegral, let i = n.integer { return .int(i) }
      return .double(n.double ?? 0)
    case .string(let s): return .string(s)
    case .array(let items): return .array(items.map(writerValue))
    case .object(let o): return .object(o.members.map { ($0.key, writerValue($0.value)) })
    }
  }
}
