import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Durable response log", .hangGuard)
struct ResponseLogTests {
  @Test func recordsFollowTheContractFormat() throws {
    let session = try Fixtures.session { $0.logFile = nil }
    try Fixtures.push(#"{"aps":{"alert":"hi","category":"message","thread-id":"chat_123"}}"#, into: session)
    var record: String?
    session.onResponse = { response, context in
      record = JSONWriter.write(Session.logRecord(response, context))
    }
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.type("On my way")))
    session.send(.command(.send))
    #expect(
      record
        == #"{"actionIdentifier":"reply","userText":"On my way","requestIdentifier":"req-1","categoryIdentifier":"message","threadIdentifier":"chat_123","date":"2025-11-29T20:00:00Z","device":"iphone","locked":false,"bundleIdentifier":"com.example.app"}"#
    )
  }

  @Test func hostileTextIsEscapedInTheLog() {
    #expect(JSONWriter.quote("a\u{1B}[2J\u{0}\u{202E}\"\\\n") == #""a\u001b[2J\u0000\u202e\"\\\n""#)
  }

  @Test func tornLastLineIsClosedOnOpen() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("log.jsonl").path
    // A complete record, then half a record ending in half a multibyte character.
    var bytes = Array(
      "{\"actionIdentifier\":\"a\",\"requestIdentifier\":\"r\"}\n{\"actionIdentifier\":\"b\",\"userText\":\"ক".utf8)
    bytes.removeLast()
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let log = try ResponseLog(path: path)
    #expect(log.repairedTornTail)
    #expect(log.damage.isEmpty)
    try log.append(.object([("actionIdentifier", .string("c")), ("requestIdentifier", .string("r"))]))
    let contents = try ResponseLog.read(path)
    #expect(contents.records.map(\.actionIdentifier) == ["a", "c"])
    #expect(contents.damagedLines == [2])
    #expect(contents.tornTail == nil)
  }

  @Test func createdWithOwnerOnlyPermissions() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("new.jsonl").path
    _ = try ResponseLog(path: path)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  /// A child writes records and prints "ack ID" after each sync; it is killed with SIGKILL at a
  /// random moment, five times over the same file. Every acknowledged record must be there
  /// exactly once, and every complete line must parse.
  @Test func everyAcknowledgedRecordSurvivesKillMinus9() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("stress.jsonl").path
    let helper = Fixtures.productsDirectory.appendingPathComponent("unterm-log-stress").path
    var acknowledged: [String] = []
    let seed = TestSeed()
    var generator = seed.generator
    for round in 0..<5 {
      let child = try ChildProcess(
        helper, [path, "1000000", "r\(round)"], environment: ChildProcess.environment(), pipeOutput: true)
      let target = Int.random(in: 20...300, using: &generator)
      var buffer = child.readOutput { $0.split(separator: 0x0A).count >= target }
      child.signal(SIGKILL)
      let status = try child.wait()
      #expect(status & 0x7F == SIGKILL, "\(seed)")
      buffer += child.readOutput(upTo: 10) { _ in false }
      let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
      // The last line may be cut off mid-print; a whole "ack" line was printed after its sync.
      acknowledged += lines.dropLast().filter { $0.hasPrefix("ack ") }.map { String($0.dropFirst(4)) }
    }
    let contents = try ResponseLog.read(path)
    var seen: [String: Int] = [:]
    for record in contents.records {
      seen[record.requestIdentifier, default: 0] += 1
    }
    #expect(acknowledged.count > 50, "\(seed)")
    for id in acknowledged {
      #expect(seen[id] == 1, "acknowledged record \(id) appears \(seen[id] ?? 0) times; \(seed)")
    }
    #expect(contents.records.allSatisfy { $0.actionIdentifier == "stress" }, "\(seed)")
    // At most one torn record per kill, each closed off by the next open.
    #expect(contents.damagedLines.count <= 5, "\(seed)")
  }

  /// The soak test's short form (`unterm-log-stress soak`, run at full length by CI and by
  /// hand): scripted responses through a real session and its log, killed with SIGKILL at
  /// seeded moments (UNTERM_TEST_SEED replays a schedule).
  @Test func scriptedResponsesSurviveSeededKills() throws {
    let seed = TestSeed()
    let helper = Fixtures.productsDirectory.appendingPathComponent("unterm-log-stress").path
    let folder = try Fixtures.temporaryDirectory().path
    let result = try Fixtures.run(
      helper, ["soak", "--responses", "300", "--kills", "4", "--seed", String(seed.value), folder])
    #expect(result.status == 0, "\(seed): \(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("soak: passed: "), "\(seed): \(result.stdout)")
    #expect(result.stdout.contains("4 kill -9s, seed \(seed.value)"), "\(seed): \(result.stdout)")
  }
}
