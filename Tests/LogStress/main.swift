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

/// What `soak` was asked for: how many responses, how many kills, the seed, and the folder.
struct SoakOptions {
  var responses = 10_000
  var kills = 50
  var seed = ProcessInfo.processInfo.environment["UNTERM_TEST_SEED"].flatMap { UInt64($0) }
  var folder: URL?

  /// Reads `[--responses N] [--kills K] [--seed S] [FOLDER]`; exits with the usage on nonsense.
  init(_ arguments: [String]) {
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
  }
}

/// When each kill comes: after how many acknowledged responses, and how long after that.
struct KillSchedule {
  var points: [Int]
  var delays: [useconds_t]

  /// The acknowledged count after which each kill comes, and a delay of up to 2 ms after it,
  /// so kills land anywhere in a response's handling: mid-write, mid-sync, between responses.
  init(kills: Int, responses: Int, seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    points = (0..<kills).map { _ in Int.random(in: 1..<responses, using: &generator) }.sorted()
    delays = (0..<kills).map { _ in useconds_t.random(in: 0...2000, using: &generator) }
  }
}

/// What the responders acknowledged, over how many runs, with how many kills.
struct SoakRuns {
  var acknowledged: [String] = []
  var kills = 0
  var rounds = 0
}

func soak(_ arguments: [String]) {
  let options = SoakOptions(arguments)
  let seed = options.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
  say("soak: seed \(seed) (UNTERM_TEST_SEED=\(seed) replays this kill schedule)")
  let schedule = KillSchedule(kills: options.kills, responses: options.responses, seed: seed)
  let directory: URL
  do {
    directory =
      options.folder
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("unterm-soak-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  } catch {
    fail("cannot create the soak folder: \(error)", code: 1)
  }
  let log = directory.appendingPathComponent("responses.jsonl").path
  guard access(log, F_OK) != 0 else { fail("\(log) exists; give the soak test a folder without one", code: 1) }
  let start = Date()
  let runs = runResponders(log: log, until: options.responses, killing: schedule)
  let elapsed = Date().timeIntervalSince(start)
  let (contents, problems) = checkSoakLog(log, runs)
  let summary =
    "\(runs.acknowledged.count) responses acknowledged over \(runs.rounds) runs, \(runs.kills) kill -9s, seed \(seed), \(String(format: "%.1f", elapsed)) s; the log has \(contents.records.count) records, \(contents.damagedLines.count) torn lines closed off"
  guard problems.isEmpty else {
    say("soak: FAILED: \(summary)")
    for problem in problems { say("  \(problem)") }
    say("  the log is kept at \(log)")
    exit(1)
  }
  say("soak: passed: \(summary); every acknowledged response is in the log exactly once")
  // Remove what the soak wrote (the whole folder only when it made it).
  if options.folder == nil {
    try? FileManager.default.removeItem(at: directory)
  } else {
    for name in ["responses.jsonl", "soak-categories.json", "soak-message.json"] {
      unlink(directory.appendingPathComponent(name).path)
    }
  }
}

/// Runs `respond` on the log, a run after another, until `responses` are acknowledged, killing
/// runs with SIGKILL as the schedule says.
func runResponders(log: String, until responses: Int, killing schedule: KillSchedule) -> SoakRuns {
  let me = URL(fileURLWithPath: CommandLine.arguments[0]).path
  var runs = SoakRuns()
  while runs.acknowledged.count < responses {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: me)
    process.arguments = ["respond", log, String(responses - runs.acknowledged.count), "r\(runs.rounds)"]
    let out = Pipe()
    process.standardOutput = out
    do { try process.run() } catch { fail("cannot start the responder: \(error)", code: 1) }
    let reader = LineReader(out.fileHandleForReading)
    let killAt = runs.kills < schedule.points.count ? schedule.points[runs.kills] : nil
    var killed = false
    while let line = reader.next() {
      if line.hasPrefix("ack ") { runs.acknowledged.append(String(line.dropFirst(4))) }
      if let killAt, runs.acknowledged.count >= killAt {
        usleep(schedule.delays[runs.kills])
        kill(process.processIdentifier, SIGKILL)
        killed = true
        break
      }
    }
    // What the child printed before it died was printed after its sync: it counts.
    while let line = reader.next() {
      if line.hasPrefix("ack ") { runs.acknowledged.append(String(line.dropFirst(4))) }
    }
    process.waitUntilExit()
    if killed {
      guard process.terminationReason == .uncaughtSignal else {
        fail("round \(runs.rounds): the responder was not killed (it exited \(process.terminationStatus))", code: 1)
      }
      runs.kills += 1
    } else if process.terminationStatus != 0 {
      fail("round \(runs.rounds): the responder failed with exit \(process.terminationStatus)", code: 1)
    }
    runs.rounds += 1
  }
  return runs
}

/// Reads the log back: every acknowledged response must be in it exactly once, and every line
/// must parse (a torn line closed off for each kill at most). Returns what it holds and what
/// is wrong.
func checkSoakLog(_ log: String, _ runs: SoakRuns) -> (ResponseLog.Contents, [String]) {
  let contents: ResponseLog.Contents
  do { contents = try ResponseLog.read(log) } catch { fail("\(error)", code: 1) }
  var seen: [String: Int] = [:]
  for record in contents.records { seen[record.requestIdentifier, default: 0] += 1 }
  var problems: [String] = []
  let acknowledged = runs.acknowledged
  let missing = acknowledged.filter { seen[$0] == nil }
  let repeated = seen.filter { $0.value > 1 }.map(\.key).sorted()
  if !missing.isEmpty { problems.append("\(missing.count) acknowledged responses missing: \(missing.prefix(5))") }
  if !repeated.isEmpty { problems.append("\(repeated.count) responses logged more than once: \(repeated.prefix(5))") }
  if Set(acknowledged).count != acknowledged.count { problems.append("a response was acknowledged twice") }
  if contents.damagedLines.count > runs.kills {
    problems.append("\(contents.damagedLines.count) damaged lines for \(runs.kills) kills")
  }
  if let tail = contents.tornTail { problems.append("the log ends in a torn line: \(tail.prefix(60))") }
  return (contents, problems)
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
