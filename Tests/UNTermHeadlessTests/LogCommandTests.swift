import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput

/// Issue 18.4: `unterm log` reads a response log back; and 18.3 as `run` reports it.
@Suite("unterm log", .hangGuard)
struct LogCommandTests {
  private func write(_ lines: [String], final: Bool = true) throws -> String {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("log.jsonl")
    try Data((lines.joined(separator: "\n") + (final ? "\n" : "")).utf8).write(to: url)
    return url.path
  }

  private static let hostile =
    #"{"actionIdentifier":"reply","userText":"On my way \u001b[2J\nআমি আসছি \u202e","requestIdentifier":"req-1","categoryIdentifier":"message","threadIdentifier":"chat_123","date":"2026-11-29T20:00:05Z","device":"iphone","locked":false}"#
  private static let tap =
    #"{"actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier","requestIdentifier":"req-2","categoryIdentifier":"message","threadIdentifier":"","date":"2026-11-29T20:00:09Z","device":"ipad","locked":true}"#

  @Test func printsOneSanitizedLineAResponse() throws {
    let path = try write([Self.hostile, Self.tap])
    let result = try Fixtures.run(Fixtures.unterm, ["log", path])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
        "2026-11-29T20:00:05Z  req-1  reply  “On my way ␛[2J␊আমি আসছি ‹RLO›”  (category message, thread chat_123, iphone, unlocked)",
        "2026-11-29T20:00:09Z  req-2  @default  (category message, ipad, locked)",
        "",
      ])
    #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
  }

  @Test func jsonReEmitsValidJSONLinesWithEveryControlEscaped() throws {
    // A raw C1 control (U+009B, a CSI to some terminals) is valid inside a JSON string.
    let rawC1 = #"{"actionIdentifier":"x\#u{9B}31m","requestIdentifier":"req-3"}"#
    let path = try write([Self.hostile, Self.tap, rawC1])
    let result = try Fixtures.run(Fixtures.unterm, ["log", "--json", path])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    for line in lines {
      let object = try JSONParser.parse(Array(line.utf8)).object
      #expect(object?["actionIdentifier"]?.string != nil, "\(line)")
    }
    #expect(lines[0] == Self.hostile)
    #expect(lines[1] == Self.tap)
    #expect(lines[2] == #"{"actionIdentifier":"x\u009b31m","requestIdentifier":"req-3"}"#)
    #expect(
      !result.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
  }

  @Test func damagedLinesAreReportedWithTheirNumbersAndExit65() throws {
    let path = try write([Self.hostile, #"{"actionIdentifier":"rep"#, "[1]", Self.tap, "{\"note\":\"\u{1B}[31m\"}"])
    let result = try Fixtures.run(Fixtures.unterm, ["log", path])
    #expect(result.status == 65)
    #expect(result.stdout.split(separator: "\n").count == 2)
    #expect(
      result.stderr.split(separator: "\n") == [
        "\(path):2: error: line 2 is damaged: not valid JSON: unterminated string at column 25",
        "\(path):3: error: line 3 is damaged: not a JSON object but an array",
        "\(path):5: error: line 5 is damaged: not valid JSON: control character U+001B must be escaped in a string at column 10",
      ])
  }

  @Test func aCutOffLastLineIsAWarningOnly() throws {
    let path = try write([Self.tap, #"{"actionIdentifier":"rep"#], final: false)
    let result = try Fixtures.run(Fixtures.unterm, ["log", "--json", path])
    #expect(result.status == 0)
    #expect(result.stdout == Self.tap + "\n")
    #expect(
      result.stderr
        == "\(path):2: warning: the last line is cut off (a record cut short by a crash or a full disk, never acknowledged); skipped\n"
    )
  }

  @Test func missingFilesAndUsageErrors() throws {
    let missing = try Fixtures.run(Fixtures.unterm, ["log", "/nonexistent/log.jsonl"])
    #expect(missing.status == 66)
    #expect(missing.stderr == "/nonexistent/log.jsonl: error: no such file\n")
    let none = try Fixtures.run(Fixtures.unterm, ["log"])
    #expect(none.status == 2)
    #expect(none.stderr == "error: log needs a FILE (a response log) (see 'unterm log --help')\n")
    let two = try Fixtures.run(Fixtures.unterm, ["log", "a.jsonl", "b.jsonl"])
    #expect(two.status == 2)
    let other = try Fixtures.run(Fixtures.unterm, ["log", "--view", "center", "a.jsonl"])
    #expect(other.status == 2)
    #expect(other.stderr.contains("'unterm render'"))
    let help = try Fixtures.run(Fixtures.unterm, ["help", "log"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("Usage: unterm log [--json] FILE"))
  }

  /// 18.3 through `run`: the damage is on stderr before the script's records are appended after it.
  @Test func runReportsADamagedLogOnStderrAndAppendsAfterIt() throws {
    let path = try write([Self.tap, "not json", Self.tap])
    let script = try Fixtures.temporaryDirectory().appendingPathComponent("s.session")
    try Data("push \(Fixtures.sample("meeting.json"))\ntap\nexpect response @default\n".utf8).write(to: script)
    let result = try Fixtures.run(Fixtures.unterm, ["run", "--log", path, script.path, script.path])
    #expect(result.status == 0, "\(result.stdout)")
    // Said once, though both scripts open the log.
    #expect(
      result.stderr
        == "\(path):2: warning: line 2 is damaged (not valid JSON: unexpected 'o'; expected 'null' at column 2); new records go after the last line\n"
    )
    let contents = try ResponseLog.read(path)
    #expect(contents.damagedLines == [2])
    #expect(contents.records.map(\.requestIdentifier) == ["req-2", "req-2", "req-1", "req-1"])
  }
}
