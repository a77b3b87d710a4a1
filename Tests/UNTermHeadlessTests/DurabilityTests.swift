import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermScript
@testable import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

/// A record as the session writes it, for a request.
private func record(_ request: String, action: String = "reply", text: String? = nil) -> JSONWriter.Value {
  var members: [(String, JSONWriter.Value)] = [("actionIdentifier", .string(action))]
  if let text { members.append(("userText", .string(text))) }
  members.append(("requestIdentifier", .string(request)))
  return .object(members)
}

private func contents(_ path: String) -> String {
  (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<missing>"
}

/// The Responses pane's column of a frame, one string a row, trailing spaces removed.
private func pane(_ session: Session) -> [String] {
  let frame = session.frame()
  guard let area = session.renderer.paneArea(session.state) else { return [] }
  return (area.y..<area.maxY).map { y in
    var row = ""
    for x in area.x..<area.maxX { row += frame.grid[x, y].text }
    while row.hasSuffix(" ") { row.removeLast() }
    return row
  }
}

/// The status bar, the screen's last row.
private func statusBar(_ session: Session) -> String {
  session.frame().grid.lines.last ?? ""
}

private func tapNewMessage(_ session: Session, as id: String) throws {
  // The session's own app, the one a tap brings to the foreground.
  try session.push(
    try Payload.load(Fixtures.sample("message.json"), bundle: CategoryRegistry.defaultBundle), identifier: id)
  session.send(.command(.tap))
}

// MARK: - 18.1: the log writer, with failures injected

@Suite("Log writer: failures are reported, never retried")
struct LogWriterFaultTests {
  private func logPath() throws -> String {
    try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
  }

  @Test(arguments: [ENOSPC, EIO, EDQUOT, EROFS])
  func aFailedWriteLosesThatRecordOnlyAndSaysWhy(_ code: Int32) throws {
    let path = try logPath()
    let files = FaultyLogFiles([.write(at: 1, code)])
    let log = try ResponseLog(path: path, files: files)
    let failure = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-1")) }
    #expect(failure.reason == String(cString: strerror(code)))
    #expect(failure.description == "\(path): error: writing the log failed: \(String(cString: strerror(code)))")
    #expect(failure.recovery == "reopened the log; it is empty")
    #expect(contents(path) == "")
    // The next response is a fresh attempt; the lost one is not written behind the user's back.
    try log.append(record("req-2"))
    #expect(contents(path) == #"{"actionIdentifier":"reply","requestIdentifier":"req-2"}"# + "\n")
    #expect(files.calls(.write).count == 2)
  }

  /// Linux may drop the dirty pages of a failed fsync and report success next time (PostgreSQL's
  /// "fsyncgate"): the descriptor is never synced again; the log is reopened and checked.
  @Test func aFailedSyncIsNotRetriedOnTheSameDescriptor() throws {
    let path = try logPath()
    let files = FaultyLogFiles([.sync(at: 1, EIO)])
    let log = try ResponseLog(path: path, files: files)
    let failure = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-1")) }
    #expect(failure.message == "syncing the log failed: Input/output error")
    #expect(
      failure.recovery
        == "reopened the log; the unsynced record is in the file but may not survive a crash, so it counts as lost")
    try log.append(record("req-2"))
    // Open (missing), create, write, sync (fails); then the descriptor is replaced before
    // anything else touches the file; the next record gets a sync of its own.
    #expect(
      files.calls.map { "\($0.operation.rawValue)\($0.failed ? "✗" : "")" } == [
        "open✗", "open", "write", "sync✗", "open", "readTail", "write", "sync",
      ])
    #expect(contents(path).split(separator: "\n").count == 2)
  }

  /// A short write followed by ENOSPC leaves half a record; it is closed off before anything else
  /// is written, so the next record never fuses onto it.
  @Test func aTornRecordIsClosedOffBeforeTheNextOne() throws {
    let path = try logPath()
    let files = FaultyLogFiles([.write(at: 1, ENOSPC, partial: 12)])
    let log = try ResponseLog(path: path, files: files)
    let failure = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-1")) }
    #expect(failure.reason == "No space left on device")
    #expect(failure.recovery == "reopened the log and closed off the cut-off record at its end")
    try log.append(record("req-2"))
    #expect(
      contents(path) == #"{"actionIden"# + "\n" + #"{"actionIdentifier":"reply","requestIdentifier":"req-2"}"# + "\n")
    let read = try ResponseLog.read(path)
    #expect(read.records.map(\.requestIdentifier) == ["req-2"])
    #expect(read.damagedLines == [1])
  }

  /// On a disk that stays full, not even the closing newline fits: every later record fails
  /// without writing a byte of itself after the torn one.
  @Test func aDiskThatStaysFullWritesNothingAfterTheTornRecord() throws {
    let path = try logPath()
    let files = FaultyLogFiles([.write(at: 1, ENOSPC, partial: 12, persists: true)])
    let log = try ResponseLog(path: path, files: files)
    let first = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-1")) }
    #expect(
      first.recovery
        == "cannot close off the cut-off record at the log's end: No space left on device; the next response tries again"
    )
    let second = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-2")) }
    #expect(second.message == "cannot close off the cut-off record at the log's end: No space left on device")
    #expect(contents(path) == #"{"actionIden"#)
  }

  @Test func aLogThatCannotBeOpenedIsAnError() throws {
    let path = try logPath()
    let failure = try #require(throws: ResponseLog.Failure.self) {
      _ = try ResponseLog(path: path, files: FaultyLogFiles([.open(at: 1, EROFS)]))
    }
    #expect(failure.description == "\(path): error: cannot open the log: Read-only file system")
  }

  /// A removed file takes writes and syncs without complaint; they go nowhere.
  @Test func aRemovedLogFileIsNoticedAndRecreated() throws {
    let path = try logPath()
    let log = try ResponseLog(path: path)
    try log.append(record("req-1"))
    unlink(path)
    let failure = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-2")) }
    #expect(failure.message == "the log file was removed, so the record went nowhere")
    #expect(failure.recovery == "the log file was gone; a new one was created at \(path)")
    try log.append(record("req-3"))
    #expect(contents(path) == #"{"actionIdentifier":"reply","requestIdentifier":"req-3"}"# + "\n")
  }

  @Test func aRemovedFolderFailsEveryRecordUntilItIsBack() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("log.jsonl").path
    let log = try ResponseLog(path: path)
    try FileManager.default.removeItem(at: dir)
    let first = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-1")) }
    #expect(first.recovery == "cannot reopen the log: No such file or directory; the next response tries again")
    let second = try #require(throws: ResponseLog.Failure.self) { try log.append(record("req-2")) }
    #expect(second.message == "cannot reopen the log: No such file or directory")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    #expect(try log.append(record("req-3")) == "the log file was gone; a new one was created at \(path)")
    #expect(contents(path) == #"{"actionIdentifier":"reply","requestIdentifier":"req-3"}"# + "\n")
  }
}

// MARK: - 18.1: the session acknowledges only what is on disk

@Suite("A response is acknowledged only once its record is on disk")
struct AcknowledgementTests {
  private func session(_ files: FaultyLogFiles) throws -> (Session, String) {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
    return (try Fixtures.session(logFiles: files) { $0.logFile = path }, path)
  }

  @Test func aLostRecordShowsACrossTheReasonAndAFailingLog() throws {
    let (session, path) = try session(FaultyLogFiles([.write(at: 1, ENOSPC)]))
    try tapNewMessage(session, as: "m1")
    #expect(
      Array(pane(session).prefix(5)) == [
        "Responses",
        "✗ default (tap) · m1",
        "  not in the log: No space left",
        "  on device",
        "",
      ])
    #expect(pane(session).contains("Activity"))
    // The status bar says so first (a tap also opened the app).
    #expect(statusBar(session).hasPrefix(" ✗ log failing · iPhone · Unlocked · badge 3 · app open │"))
    let notices = session.state.notices.map(\.text)
    #expect(
      notices.contains(
        "\(path): error: writing the log failed: No space left on device — the response \"@default\" to m1 is NOT in the log"
      ))
    #expect(notices.contains("\(path): reopened the log; it is empty"))
    #expect(contents(path) == "")

    // The next response is written: ✓, and the status bar no longer says the log is failing.
    try tapNewMessage(session, as: "m2")
    #expect(
      Array(pane(session).prefix(5)) == [
        "Responses",
        "✓ default (tap) · m2",
        "✗ default (tap) · m1",
        "  not in the log: No space left",
        "  on device",
      ])
    #expect(!statusBar(session).contains("log failing"))
    #expect(try ResponseLog.read(path).records.map(\.requestIdentifier) == ["m2"])
  }

  /// A screen too narrow for the Responses pane still says it, first thing on the status bar.
  @Test func aNarrowScreenWithoutThePaneStillSaysTheLogIsFailing() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
    let session = try Fixtures.session(size: (40, 12), logFiles: FaultyLogFiles([.write(at: 1, EIO)])) {
      $0.logFile = path
    }
    try tapNewMessage(session, as: "m1")
    #expect(session.renderer.paneArea(session.state) == nil)
    // The unlocked state and the badge give way whole (never "bad…"), the log failing stays first.
    #expect(statusBar(session) == " ✗ log failing · iPhone │ ? keys")
    var error = session.renderer.theme[.error]
    error.background = session.renderer.theme[.statusBar].background
    #expect(session.frame().grid[1, 11].style == error)
  }

  /// While the record is being written the pane shows it as pending, never ✓.
  @Test func thePaneNeverShowsATickBeforeTheWrite() throws {
    let files = FaultyLogFiles()
    let (session, _) = try session(files)
    var seen: [String] = []
    files.beforeWrite = { seen.append(pane(session)[1]) }
    try tapNewMessage(session, as: "m1")
    #expect(seen == ["… default (tap) · m1"])
    #expect(pane(session)[1] == "✓ default (tap) · m1")
  }

  @Test func aFailedSyncIsShownAsNotRecordedAndSaysWhatTheSessionDid() throws {
    let (session, path) = try session(FaultyLogFiles([.sync(at: 1, EIO)]))
    try tapNewMessage(session, as: "m1")
    #expect(pane(session)[1] == "✗ default (tap) · m1")
    #expect(Array(pane(session)[2...3]) == ["  not in the log: Input/output", "  error"])
    #expect(
      session.state.notices.map(\.text).contains(
        "\(path): reopened the log; the unsynced record is in the file but may not survive a crash, so it counts as lost"
      ))
    #expect(statusBar(session).contains("✗ log failing"))
  }

  /// A script's step passes only when its record is synced: the run stops at the first lost
  /// record, and the failure names the response.
  @Test func aScriptStopsAtTheFirstLostRecord() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("test.session").path
    let samples = Fixtures.samples.path
    let script = try SessionScript.parse(
      """
      categories com.example.messages=\(samples)/categories.json
      push \(samples)/message.json as one
      tap
      expect response @default
      push \(samples)/message.json as two
      longpress
      action reply
      type "On my way"
      send
      expect response reply "On my way"
      expect no response
      """, file: path)
    var options = RunOptions()
    options.logFile = dir.appendingPathComponent("log.jsonl").path
    // The first record is written; the second one's write fails.
    let files = FaultyLogFiles([.write(at: 2, EDQUOT)])
    let result = ScriptRunner(script: script, options: options, logFiles: files).run()
    let failure = try #require(result.failure)
    #expect(result.exitCode == .ioError)
    #expect(failure.line == 9)
    #expect(failure.lostResponse == .init(action: "reply", userText: "On my way", request: "two", checked: false))
    #expect(
      failure.error?.description
        == "\(options.logFile ?? ""): error: writing the log failed: Disk quota exceeded; the response \"reply\" \"On my way\" to two is not recorded"
    )
    #expect(failure.report.contains("  lost response: reply \"On my way\" — two (not in the log)"))
    #expect(try ResponseLog.read(options.logFile ?? "").records.map(\.requestIdentifier) == ["one"])
  }
}

// MARK: - 18.3: a damaged log is reported before anything is appended

@Suite("A damaged log is reported, not appended to blindly")
struct DamagedLogTests {
  static let good = #"{"actionIdentifier":"reply","requestIdentifier":"req-1"}"#

  @Test func aDamagedMiddleLineIsReportedBeforeTheFirstAppend() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
    try Data((Self.good + "\n" + #"{"actionIdentifier":"rep"# + "\n" + Self.good + "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let files = FaultyLogFiles()
    let session = try Fixtures.session(logFiles: files) { $0.logFile = path }
    let warning =
      "\(path):2: warning: line 2 is damaged (not valid JSON: unterminated string at column 25); new records go after the last line"
    #expect(session.logReport == [warning])
    #expect(session.state.notices.map(\.text) == [warning])
    // The activity pane shows it (wrapped to the pane's width).
    #expect(pane(session).joined(separator: " ").contains("warning: line 2 is damaged (not valid JSON:"))
    // It was read before anything was written, and the new record still goes at the end.
    try tapNewMessage(session, as: "m1")
    let order = files.calls.map(\.operation)
    #expect(order.firstIndex(of: .readAll).map { $0 < (order.firstIndex(of: .write) ?? .max) } == true)
    let read = try ResponseLog.read(path)
    #expect(read.damagedLines == [2])
    #expect(read.records.map(\.requestIdentifier) == ["req-1", "req-1", "m1"])
  }

  @Test func manyDamagedLinesMakeOneWarning() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
    let lines = [Self.good] + (1...8).map { "garbage \($0)" } + [Self.good, "[1,2]", #"{"actionIdentifier":7}"#]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let log = try ResponseLog(path: path)
    #expect(log.damage.map(\.line) == Array(2...9) + [11, 12])
    #expect(log.damage[8].reason == "not a JSON object but an array")
    #expect(log.damage[9].reason == "no \"actionIdentifier\" string, so not a response record")
    let session = try Fixtures.session { $0.logFile = path }
    #expect(
      session.logReport == [
        "\(path):2: warning: 10 lines are damaged (not response records): 2, 3, 4, 5, 6 and 5 more; new records go after the last line"
      ])
  }

  @Test func aTornLastLineIsClosedOffAndSaidSo() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl").path
    try Data((Self.good + "\n" + #"{"actionIdentifier":"rep"#).utf8).write(to: URL(fileURLWithPath: path))
    let session = try Fixtures.session { $0.logFile = path }
    #expect(
      session.logReport == [
        "\(path):2: warning: the last line was cut off (a record cut short by a crash or a full disk, never acknowledged); it is closed off and new records go after it"
      ])
    #expect(contents(path).hasSuffix("\"rep\n"))
  }
}
