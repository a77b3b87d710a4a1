import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermScript

@Suite("Script runner")
struct ScriptRunnerTests {
  private func run(_ text: String, options: RunOptions = RunOptions(), in dir: URL? = nil) throws -> ScriptResult {
    let folder = try dir ?? Fixtures.temporaryDirectory()
    let path = folder.appendingPathComponent("test.session").path
    let samples = Fixtures.samples.path
    let script = try SessionScript.parse(text.replacingOccurrences(of: "$S", with: samples), file: path)
    return ScriptRunner(script: script, options: options).run()
  }

  @Test func passingScript() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      push $S/message.json as chat-1
      expect screen "Ana Lima"
      expect screen "Messages badge 3"
      longpress
      expect screen "Delete"
      action reply
      type "On my way"
      send
      expect response reply "On my way"
      push $S/meeting.json
      tap
      expect response @default
      expect no response
      """)
    #expect(result.passed, "\(result.report ?? "")")
    #expect(result.steps == 14)
    #expect(result.expectations == 6)
  }

  @Test(arguments: [
    ("expect response like", "no unchecked response remains"),
    ("expect screen \"Nobody\"", "expected the screen to show \"Nobody\""),
    ("expect screen not \"Ana Lima\"", "expected the screen not to show"),
    ("expect badge 9", "actual badge   3"),
    ("action reply", "no actions are listed"),
    ("type \"hello\"", "no text field is open"),
  ])
  func failuresExplainThemselves(line: String, message: String) throws {
    let result = try run(
      "categories com.example.messages=$S/categories.json\npush $S/message.json\n\(line)\nexpect badge 0")
    #expect(!result.passed)
    #expect(result.exitCode == .failure)
    let report = try #require(result.report)
    #expect(report.contains(message), "\(report)")
    #expect(report.contains("test.session:3:1: \(line)"))
    #expect(report.contains("screen:"))
    #expect(report.contains("Ana Lima"))
    #expect(result.steps == 3)
  }

  @Test func wrongResponseShowsExpectedAndActual() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      push $S/message.json
      longpress
      action like
      expect response reply "hi"
      """)
    let report = try #require(result.report)
    #expect(report.contains("expected response reply \"hi\""))
    #expect(report.contains("actual response   like (request req-1)"))
    #expect(report.contains("recent responses:"))
  }

  /// A failure is a value: the line, what was expected and what was seen, the responses and the
  /// screen — the report is made from it, never parsed back.
  @Test func failuresAreValuesWithTheirParts() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      push $S/message.json
      longpress
      action like
      expect response reply "hi"
      """)
    let failure = try #require(result.failure)
    #expect(failure.line == 5)
    #expect(failure.source == #"expect response reply "hi""#)
    guard case .mismatch(let subject, let expected, let actual) = failure.reason else {
      Issue.record("expected a mismatch, not \(failure.reason)")
      return
    }
    #expect(subject == "response")
    #expect(expected == #"reply "hi""#)
    #expect(actual == "like (request req-1)")
    #expect(failure.responses == [.init(action: "like", userText: nil, request: "req-1", checked: true)])
    #expect(failure.screenWidth == 80)
    #expect(failure.screen.count == 24)
    #expect(failure.error == nil)
    #expect(failure.exitCode == .failure)

    let badge = try #require(try run("push $S/Scripts/unread-badge.json\nexpect badge 9").failure)
    guard case .mismatch("badge", "9", "2") = badge.reason else {
      Issue.record("expected a badge mismatch, not \(badge.reason)")
      return
    }

    let missing = try #require(try run("lock\npush nowhere.json").failure)
    #expect(missing.line == 2)
    #expect(missing.exitCode == .noInput)
    #expect(missing.error?.description.hasSuffix("nowhere.json: error: no such file") == true)
    #expect(missing.screen.isEmpty)
  }

  @Test func aChangedSnapshotCarriesBothScreens() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data("old screen\n".utf8).write(to: dir.appendingPathComponent("shot.txt"))
    let failure = try #require(try run("push $S/message.json\nsnapshot shot", in: dir).failure)
    guard case .snapshotDiffers("shot", "old screen\n", let actual) = failure.reason else {
      Issue.record("expected a snapshot difference, not \(failure.reason)")
      return
    }
    #expect(actual.contains("Ana Lima"))
    #expect(failure.report.contains("- 1│old screen"))
  }

  @Test func dismissWithAndWithoutCustomDismissAction() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      push $S/message.json
      dismiss
      expect response @dismiss
      push $S/reminder-passive.json
      center
      dismiss
      expect no response
      expect screen not "Water the plants"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func waitRetiresTheBannerOnTheVirtualClock() throws {
    let result = try run(
      """
      push $S/message.json
      expect screen "Dinner tonight?"
      wait 4s
      expect screen "Dinner tonight?"
      wait 1s
      expect screen not "Dinner tonight?"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func snapshotsAreRecordedComparedAndReRecorded() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = "push $S/message.json\nsnapshot shot"
    let first = try run(script, in: dir)
    #expect(first.passed)
    #expect(first.recorded.count == 1)
    let file = dir.appendingPathComponent("shot.txt")
    #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("Ana Lima"))
    #expect(try run(script, in: dir).recorded.isEmpty)
    try Data("something else\n".utf8).write(to: file)
    let changed = try run(script, in: dir)
    #expect(!changed.passed)
    #expect(changed.report?.contains("differs from snapshot shot.txt") == true)
    var update = RunOptions()
    update.updateSnapshots = true
    #expect(try run(script, options: update, in: dir).passed)
    #expect(try run(script, in: dir).passed)
  }

  @Test func missingSnapshotFailsUnderCI() throws {
    var options = RunOptions()
    options.isCI = true
    let result = try run("push $S/message.json\nsnapshot never-recorded", options: options)
    #expect(!result.passed)
    #expect(result.report?.contains("missing") == true)
    // Asked to record with --update-snapshots, CI records it as it re-records a changed one.
    options.updateSnapshots = true
    let dir = try Fixtures.temporaryDirectory()
    let recorded = try run("push $S/message.json\nsnapshot asked-for", options: options, in: dir)
    #expect(recorded.passed, "\(recorded.report ?? "")")
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("asked-for.txt").path))
  }

  @Test func missingFileIsExitCode66WithItsLine() throws {
    let result = try run("push nowhere.json")
    #expect(result.exitCode == .noInput)
    #expect(result.report?.contains("test.session:1:1: push nowhere.json") == true)
  }

  @Test func lockedAuthenticationRequiredActionWithPasscode() throws {
    let result = try run(
      """
      categories com.example.Bank=$S/categories.json
      passcode 1234
      lock
      push $S/security-alert.apns
      expect screen "Locked"
      longpress
      expect screen "Enter Passcode"
      expect screen "to see the notification"
      type "9999"
      key enter
      expect no response
      expect screen "Wrong passcode"
      unlock 1234
      expect screen "Lisbon"
      action approve
      expect response approve
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  /// Issue 10.2's script, word for word: no passcode is set, and still the tap waits for one.
  @Test func lockTapEscapeSendsNothing() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      push $S/message.json
      lock
      tap
      key esc
      expect no response
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  /// A tap on a locked device opens nothing until the passcode is given: cancelled, nothing
  /// reaches the app (issue 10.2's script).
  @Test func aTapOnTheLockScreenAsksThePasscodeFirst() throws {
    let result = try run(
      """
      categories com.example.messages=$S/categories.json
      passcode 1234
      lock
      push $S/message.json
      tap
      expect screen "Enter Passcode"
      expect screen "to open Messages"
      key esc
      expect no response
      expect screen not "Enter Passcode"
      tap
      type "0000"
      key enter
      expect no response
      type "1234"
      key enter
      expect response @default
      expect screen "Opened Messages"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }
}
