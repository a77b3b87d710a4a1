import Foundation
import UNTermHeadless
import UNTermInput
import UNTermScript
import UNTermState
import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

// The response log's durability tools.
//
//   unterm-log-stress LOG COUNT PREFIX
//       Appends numbered records to a log as fast as it can, printing "ack PREFIX-N" after each
//       record is synced (the kill -9 test in ResponseLogTests kills it).
//   unterm-log-stress respond LOG COUNT PREFIX
//       Plays a session script of COUNT scripted responses (replies, taps, dismissals) with
//       --log LOG, printing "ack ID" as each response reaches the delegate, after its sync.
//   unterm-log-stress soak [--responses N] [--kills K] [--seed S] [FOLDER]
//       (FOLDER: where the log goes, a fresh temporary folder by default)
//       The soak test: runs `respond` until N responses are acknowledged, killing it with
//       SIGKILL K times at moments drawn from the seed (printed first; also read from
//       UNTERM_TEST_SEED, as the tests' seeds are), then checks that every acknowledged response is in the log exactly
//       once and that the log parses. Exits 0 when it holds, 1 otherwise.

func fail(_ message: String, code: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data("unterm-log-stress: \(message)\n".utf8))
  exit(code)
}

func say(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }

// MARK: - Raw records

func appendRecords(log path: String, count: Int, prefix: String) {
  do {
    let log = try ResponseLog(path: path)
    if log.repairedTornTail { say("repaired") }
    for i in 0..<count {
      let record: JSONWriter.Value = .object([
        ("actionIdentifier", .string("stress")), ("userText", .string("record \(i) — ক্ষ")),
        ("requestIdentifier", .string("\(prefix)-\(i)")), ("categoryIdentifier", .string("message")),
        ("threadIdentifier", .string("")), ("date", .string("2026-01-01T09:41:00Z")),
        ("device", .string("iphone")), ("locked", .bool(false)),
      ])
      try log.append(record)
      say("ack \(prefix)-\(i)")
    }
  } catch {
    fail("\(error)", code: 1)
  }
}

// MARK: - Scripted responses

/// Prints "ack ID" for each response: `onResponse` runs after the delegate and the synced log.
final class AckPrinter: ScriptObserver {
  func scriptWillStart(_ script: SessionScript, session: Session) {}
  func lineWillRun(_ line: SessionScript.Line, session: Session) {}
  func lineDidRun(_ line: SessionScript.Line, session: Session) {}
  func delivered(_ notification: UNNotification, session: Session) {}
  func responded(_ response: UNNotificationResponse, session: Session) {
    say("ack \(response.notification.request.identifier)")
  }
  func scriptDidFinish(_ result: ScriptResult, session: Session) {}
}

/// The files a soak script loads, written next to the log.
func writeFixtures(in folder: URL) throws {
  let categories = """
    {"categories": [{"identifier": "message", "options": ["customDismissAction"], "actions": [
      {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}},
      {"identifier": "like", "title": "Like"}]}]}
    """
  let payload =
    #"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8? ক্ষ 田中 🎉"},"category":"message","thread-id":"soak"}}"#
  try Data(categories.utf8).write(to: folder.appendingPathComponent("soak-categories.json"))
  try Data(payload.utf8).write(to: folder.appendingPathComponent("soak-message.json"))
}

/// Responses `first..<end` in the session language: a typed reply, an action, a tap, a dismissal.
func soakScript(_ range: Range<Int>, prefix: String) -> String {
  var lines = ["categories soak-categories.json"]
  for i in range {
    lines.append("push soak-message.json as \(prefix)-\(i)")
    switch i % 4 {
    case 0: lines += ["longpress", "action reply", "type \"reply \(i) — ক্ষ \\\"quoted\\\"\"", "send"]
    case 1: lines += ["longpress", "action like"]
    case 2: lines.append("tap")
    default: lines.append("dismiss")
    }
  }
  return lines.joined(separator: "\n") + "\n"
}

/// Plays COUNT responses, a script of at most `batch` at a time (each a session of its own on
/// the same log), so a long run does not parse one huge script first.
func respond(log path: String, count: Int, prefix: String, batch: Int = 200) {
  let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
  let scriptPath = folder.appendingPathComponent("soak-\(prefix).session").path
  do {
    try writeFixtures(in: folder)
    var options = RunOptions()
    options.logFile = path
    let printer = AckPrinter()
    for start in stride(from: 0, to: count, by: batch) {
      let text = soakScript(start..<min(count, start + batch), prefix: prefix)
      let script = try SessionScript.parse(text, file: scriptPath)
      let result = ScriptRunner(script: script, options: options, observer: printer).run()
      guard result.passed else { fail(result.report?.text ?? "the script failed", code: 1) }
    }
  } catch {
    fail("\(error)", code: 1)
  }
}

// MARK: - The soak test

/// SplitMix64: a small generator whose sequence a seed fixes, so a kill schedule can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Reads a child's output line by line.
final class LineReader {
  let handle: FileHandle
  private var buffer = Data()
  init(_ handle: FileHandle) { self.handle = handle }

  /// The next complete line, or nil at the end of the output.
  func next() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let chunk = handle.availableData
      if chunk.isEmpty { return nil }
      buffer.append(chunk)
    }
  }
}

func soak(_ arguments: [String]) {
  var responses = 10_000
  var kills = 50
  var seed = ProcessInfo.processInfo.environment["UNTERM_TEST_SEED"].flatMap { UInt64($0) }
  var folder: URL?
  var rest = arguments[...]
  while let argument = rest.popFirst() {
    switch argument {
    case "--responses": responses = rest.popFirst().flatMap { Int($0) } ?? -1
    case "--kills": kills = rest.popFirst().flatMap { Int($0) } ?? -1
    case "--seed": seed = rest.popFirst().flatMap { UInt64($0) }
    default: folder = URL(fileURLWithPath: argument)
    }
  }
  guard responses > 0, kills >= 0, kills < responses else {
    fail("usage: unterm-log-stress soak [--responses N] [--kills K] [--seed S] [FOLDER] (K < N)")
  }
  let seedValue = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
  say("soak: seed \(seedValue) (UNTERM_TEST_SEED=\(seedValue) replays this kill schedule)")
  var generator = SeededGenerator(state: seedValue)
  // The acknowledged count after which each kill comes, and a delay of up to 2 ms after it,
  // so kills land anywhere in a response's handling: mid-write, mid-sync, between responses.
  let points = (0..<kills).map { _ in Int.random(in: 1..<responses, using: &generator) }.sorted()
  let delays = (0..<kills).map { _ in useconds_t.random(in: 0...2000, using: &generator) }

  let directory: URL
  do {
    directory =
      folder
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("unterm-soak-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  } catch {
    fail("cannot create the soak folder: \(error)", code: 1)
  }
  let log = directory.appendingPathComponent("responses.jsonl").path
  guard access(log, F_OK) != 0 else { fail("\(log) exists; give the soak test a folder without one", code: 1) }
  let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
  var acknowledged: [String] = []
  var killsDone = 0
  var round = 0
  let start = Date()
  while acknowledged.count < responses {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: me)
    process.arguments = ["respond", log, String(responses - acknowledged.count), "r\(round)"]
    let out = Pipe()
    process.standardOutput = out
    do { try process.run() } catch { fail("cannot start the responder: \(error)", code: 1) }
    let reader = LineReader(out.fileHandleForReading)
    let killAt = killsDone < kills ? points[killsDone] : nil
    var killed = false
    while let line = reader.next() {
      if line.hasPrefix("ack ") { acknowledged.append(String(line.dropFirst(4))) }
      if let killAt, acknowledged.count >= killAt {
        usleep(delays[killsDone])
        kill(process.processIdentifier, SIGKILL)
        killed = true
        break
      }
    }
    // What the child printed before it died was printed after its sync: it counts.
    while let line = reader.next() {
      if line.hasPrefix("ack ") { acknowledged.append(String(line.dropFirst(4))) }
    }
    process.waitUntilExit()
    if killed {
      guard process.terminationReason == .uncaughtSignal else {
        fail("round \(round): the responder was not killed (it exited \(process.terminationStatus))", code: 1)
      }
      killsDone += 1
    } else if process.terminationStatus != 0 {
      fail("round \(round): the responder failed with exit \(process.terminationStatus)", code: 1)
    }
    round += 1
  }
  let elapsed = Date().timeIntervalSince(start)

  // Every acknowledged response is in the log exactly once, and every line parses.
  let contents: ResponseLog.Contents
  do { contents = try ResponseLog.read(log) } catch { fail("\(error)", code: 1) }
  var seen: [String: Int] = [:]
  for record in contents.records { seen[record.requestIdentifier, default: 0] += 1 }
  var problems: [String] = []
  let missing = acknowledged.filter { seen[$0] == nil }
  let repeated = seen.filter { $0.value > 1 }.map(\.key).sorted()
  if !missing.isEmpty { problems.append("\(missing.count) acknowledged responses missing: \(missing.prefix(5))") }
  if !repeated.isEmpty { problems.append("\(repeated.count) responses logged more than once: \(repeated.prefix(5))") }
  if Set(acknowledged).count != acknowledged.count { problems.append("a response was acknowledged twice") }
  if contents.damagedLines.count > killsDone {
    problems.append("\(contents.damagedLines.count) damaged lines for \(killsDone) kills")
  }
  if let tail = contents.tornTail { problems.append("the log ends in a torn line: \(tail.prefix(60))") }
  let summary =
    "\(acknowledged.count) responses acknowledged over \(round) runs, \(killsDone) kill -9s, seed \(seedValue), \(String(format: "%.1f", elapsed)) s; the log has \(contents.records.count) records, \(contents.damagedLines.count) torn lines closed off"
  if problems.isEmpty {
    say("soak: passed: \(summary); every acknowledged response is in the log exactly once")
    // Remove what the soak wrote (the whole folder only when it made it).
    if folder == nil {
      try? FileManager.default.removeItem(at: directory)
    } else {
      for name in ["responses.jsonl", "soak-categories.json", "soak-message.json"] {
        unlink(directory.appendingPathComponent(name).path)
      }
    }
  } else {
    say("soak: FAILED: \(summary)")
    for problem in problems { say("  \(problem)") }
    say("  the log is kept at \(log)")
    exit(1)
  }
}

// MARK: - Command line

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "respond":
  guard arguments.count == 4, let count = Int(arguments[2]), count >= 0 else {
    fail("usage: unterm-log-stress respond LOG COUNT PREFIX")
  }
  respond(log: arguments[1], count: count, prefix: arguments[3])
case "soak":
  soak(Array(arguments.dropFirst()))
default:
  guard arguments.count == 3, let count = Int(arguments[1]) else {
    fail("usage: unterm-log-stress LOG COUNT PREFIX | respond LOG COUNT PREFIX | soak [OPTIONS] [FOLDER]")
  }
  appendRecords(log: arguments[0], count: count, prefix: arguments[2])
}
