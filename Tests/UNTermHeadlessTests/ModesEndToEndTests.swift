import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermScript
@testable import UNTermShell
@testable import UNTermState

/// Focus, Scheduled Summary, Dynamic Type, the foreground answer and the APNs headers as users
/// meet them: in scripts, `render`, `lint`, and the interactive loop on the in-memory terminal.
@Suite("iOS modes end to end", .hangGuard)
struct ModesEndToEndTests {
  private func folder(_ files: [String: String]) throws -> URL {
    let dir = try Fixtures.temporaryDirectory()
    for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
    return dir
  }

  private func run(_ script: String, in dir: URL, options: RunOptions = RunOptions()) throws -> ScriptResult {
    let path = dir.appendingPathComponent("test.session").path
    return ScriptRunner(script: try SessionScript.parse(script, file: path), options: options).run()
  }

  private static let payloads = [
    "chat.json":
      #"{"aps":{"alert":{"title":"Ana Lima","body":"Dinner tonight?"},"relevance-score":0.4,"thread-id":"chat"}}"#,
    "news.json":
      #"{"aps":{"alert":{"title":"Morning news","body":"Markets up"},"relevance-score":0.9,"thread-id":"news"}}"#,
    "tip.json":
      #"{"aps":{"alert":{"title":"Tip of the day","body":"Try dark mode"},"interruption-level":"passive","relevance-score":0.1,"thread-id":"tips"}}"#,
    "flight.json":
      #"{"aps":{"alert":{"title":"Gate change","body":"Now B12"},"interruption-level":"time-sensitive"}}"#,
    "flood.json":
      #"{"aps":{"alert":{"title":"Flood warning","body":"Move to higher ground"},"interruption-level":"critical"}}"#,
  ]

  // MARK: - Scheduled Summary

  /// The script's clock starts at 09:41 UTC; the summary at 12:00 shows the news first (0.9),
  /// then the chat (0.4), then the tip (0.1); the gate change broke through at once.
  @Test func aScriptWaitsForTheSummaryAndChecksItsOrder() throws {
    let dir = try folder(Self.payloads)
    let result = try run(
      """
      summary 12:00,18:00
      push chat.json
      push tip.json
      push news.json
      push flight.json
      expect screen "Gate change"
      expect screen "Summary 12:00 (3 held)"
      center
      expect screen not "Ana Lima"
      wait until 12:00
      expect screen list "Afternoon Summary · 3 notifications"
      expect screen card "Morning news"
      key enter
      expect screen "▴ Afternoon Summary · Show less · s"
      key down
      expect screen card "Ana Lima"
      key down
      expect screen card "Tip of the day"
      """, in: dir)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func renderRunsTheClockOnToTheSummary() throws {
    let dir = try folder(Self.payloads)
    let result = try Fixtures.run(
      Fixtures.unterm,
      [
        "render", "--summary", "21:00", "--now", "2025-11-29T20:00:00Z", "--view", "center", "--size", "80x20",
        dir.appendingPathComponent("chat.json").path, dir.appendingPathComponent("news.json").path,
      ], environment: ["TZ": "UTC"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let news = try #require(lines.firstIndex { $0.contains("Morning news") })
    #expect(lines.firstIndex { $0.contains("Evening Summary · 2 notifications") }.map { $0 > news } == true)
    #expect(lines.contains { $0.contains("1h ago") })
  }

  // MARK: - Focus

  @Test func aScriptUnderFocusSeesSilentCardsAndBreakThroughs() throws {
    let dir = try folder(Self.payloads)
    let result = try run(
      """
      focus dnd
      push chat.json
      expect screen not "Ana Lima"
      expect screen "Do Not Disturb"
      push flight.json
      expect screen card "Gate change"
      push flood.json
      expect screen card "Flood warning"
      center
      key down
      key down
      expect screen card "Silenced (Do Not Disturb)"
      expect screen card "Ana Lima"
      focus Work allow App
      push news.json
      expect screen "Morning news"
      focus off
      """, in: dir)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func runAndRenderTakeTheModeOptions() throws {
    let dir = try folder(Self.payloads)
    let rendered = try Fixtures.run(
      Fixtures.unterm,
      [
        "render", "--focus", "Sleep", "--no-time-sensitive", "--now", "2025-11-29T20:00:00Z", "--size", "80x14",
        dir.appendingPathComponent("flight.json").path,
      ])
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(!rendered.stdout.contains("Gate change"))
    #expect(rendered.stdout.contains("iPhone · Unlocked · Sleep"))
    let center = try Fixtures.run(
      Fixtures.unterm,
      [
        "render", "--focus", "Sleep", "--no-time-sensitive", "--view", "center", "--size", "80x14",
        dir.appendingPathComponent("flight.json").path,
      ])
    // The header says it was silenced (the Focus's name as far as the card's width allows).
    #expect(center.stdout.contains("┃ App · Time Sensitive · Silenced (Sle… now ┃"), "\(center.stdout)")
    try Data("push flight.json\nexpect screen not \"Gate change\"\n".utf8).write(
      to: dir.appendingPathComponent("t.session"))
    let script = try Fixtures.run(
      Fixtures.unterm, ["run", "--focus", "dnd", "--no-time-sensitive", dir.appendingPathComponent("t.session").path])
    #expect(script.status == 0, "\(script.stdout)\(script.stderr)")
    let bad = try Fixtures.run(Fixtures.unterm, ["render", "--summary", "25:00", "x.json"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--summary"), "\(bad.stderr)")
  }

  /// The interactive loop on the in-memory terminal: `F` turns Do Not Disturb on, the status bar
  /// says so, and a notification then arrives without a banner.
  @Test func fTurnsFocusOnInTheInteractiveSession() throws {
    let session = try Fixtures.session(size: (80, 12))
    defer { session.detach() }
    let terminal = InMemoryTerminal(width: 80, height: 12, now: Fixtures.now)
    let shell = InteractiveShell(session: session, depth: .palette256, clock: { terminal.now })
    terminal.type("F", after: 0.1)
    #expect(shell.run(on: terminal) == nil)
    #expect(terminal.screen.lines.last?.hasPrefix(" iPhone · Unlocked · Do Not Disturb │") == true)
    try Fixtures.push(#"{"aps":{"alert":{"title":"Ana Lima","body":"Dinner?"}}}"#, into: session)
    terminal.input([], after: 0.1)
    #expect(shell.run(on: terminal) == nil)
    #expect(!terminal.screen.lines.contains { $0.contains("Ana Lima") })
    #expect(terminal.screen.lines.contains { $0.contains("1 in Notification Center") })
    terminal.type("c", after: 0.1)
    #expect(shell.run(on: terminal) == nil)
    #expect(terminal.screen.lines.contains { $0.contains("App · Silenced (Do Not Disturb)") })
  }

  // MARK: - The app's answer to willPresent

  @Test func foregroundOnLetsTheDelegatesAnswerDecide() throws {
    let dir = try folder(Self.payloads)
    var options = RunOptions()
    options.modes.foregroundOptions = [.list]
    let result = try run(
      """
      foreground on
      push chat.json
      expect screen not "Dinner tonight?"
      center
      expect screen "Ana Lima"
      foreground off
      push news.json
      expect screen "Markets up"
      """, in: dir, options: options)
    #expect(result.passed, "\(result.report ?? "")")
    let none = try run(
      "foreground on\npush chat.json\ncenter\nexpect screen \"No notifications\"\n", in: dir,
      options: {
        var o = RunOptions()
        o.modes.foregroundOptions = []
        return o
      }())
    #expect(none.passed, "\(none.report ?? "")")
  }

  // MARK: - Removing and clearing

  @Test func scriptsRemoveAndClear() throws {
    let dir = try folder(Self.payloads)
    let result = try run(
      """
      push chat.json as a
      push news.json as b
      push tip.json as c
      remove a
      center
      expect screen not "Ana Lima"
      expect screen "Morning news"
      clear
      expect screen "No notifications"
      """, in: dir)
    #expect(result.passed, "\(result.report ?? "")")
    // An identifier nothing has is ignored, as iOS ignores it (reference, fact 23): the script
    // goes on, and the activity pane says so.
    let unknown = try run(
      """
      push chat.json as a
      remove a nope
      expect screen activity "remove: no notification has the"
      expect screen activity "identifier \\"nope\\"; nothing"
      center
      expect screen not "Ana Lima"
      """, in: dir)
    #expect(unknown.passed, "\(unknown.report ?? "")")
  }

  // MARK: - The APNs headers in a session

  @Test func aCollapseIDReplacesAndAnExpiredPushIsNotDelivered() throws {
    let dir = try folder([
      "score1.json": #"{"apns-headers":{"apns-collapse-id":"match-7"},"aps":{"alert":{"title":"1–0"}}}"#,
      "score2.json": #"{"apns-headers":{"apns-collapse-id":"match-7"},"aps":{"alert":{"title":"2–0"}}}"#,
      // 2026-01-01T00:00:00Z: before the script's 09:41.
      "late.json": #"{"apns-headers":{"apns-expiration":1767225600},"aps":{"alert":{"title":"Too late"}}}"#,
      "bg.json": #"{"apns-headers":{"apns-push-type":"background"},"aps":{"content-available":1}}"#,
    ])
    let result = try run(
      """
      push score1.json
      push score2.json
      center
      expect screen "2–0"
      expect screen not "1–0"
      push late.json
      expect screen not "Too late"
      expect screen activity "req-1 is not delivered: its"
      """, in: dir)
    #expect(result.passed, "\(result.report ?? "")")
    let refused = try run("push bg.json\n", in: dir)
    #expect(refused.exitCode == .dataError)
    // The line and the file's one-line error: where, what, and APNs's answer.
    #expect(
      refused.report?.text.contains(
        "bg.json:1:35: error: a background push must be sent with apns-priority 5 (or 1); left out, it is 10, and priority 10 is an error for it (APNs answers 400 BadPriority) [apns-headers.apns-push-type]"
      ) == true, "\(refused.report?.text ?? "")")
  }

  @Test func lintSaysAPushHasExpiredAndWhere() throws {
    let dir = try folder([
      "late.json": #"{"apns-headers":{"apns-expiration":1767225600},"aps":{"alert":{"title":"Too late"}}}"#,
      "plain.json": #"{"aps":{"alert":{"title":"Any time"}}}"#,
    ])
    let late = try Fixtures.run(Fixtures.unterm, ["lint", dir.appendingPathComponent("late.json").path])
    #expect(late.status == 0, "a warning, not an error")
    #expect(
      late.stdout.contains(
        "late.json:1:36: warning[expired-push]: the push expired at 2026-01-01T00:00:00Z"))
    #expect(late.stdout.hasSuffix(" [apns-headers.apns-expiration]\n"), "\(late.stdout)")
    let option = try Fixtures.run(
      Fixtures.unterm, ["lint", "--expiration", "1000", dir.appendingPathComponent("plain.json").path])
    #expect(
      option.stdout.contains(
        #"plain.json:1:1: warning[expired-push]: --expiration "1000": the push expired at 1970-01-01T00:16:40Z"#),
      "\(option.stdout)")
  }

  @Test func lintReportsEachDesignAtTheDefaultAndTheLargestSize() throws {
    let base =
      [
        "lint"
      ] + Fixtures.sampleCategoriesArguments + [
        "--extension",
        Fixtures.sample("extension-chat-card.json"), Fixtures.sample("chat-thread.json"),
      ]
    let plain = try Fixtures.run(Fixtures.unterm, base)
    #expect(plain.status == 0, "\(plain.stdout)")
    #expect(plain.stdout.contains("note[extension-size]: iphone: initial 179.5 pt (359 × 0.5)"))
    #expect(plain.stdout.contains("note[extension-size]: iphone at text size AX5: initial 179.5 pt"))
    #expect(!plain.stdout.contains("extension-overflow"))
    let held = try Fixtures.run(Fixtures.unterm, base + ["--strict", "--text-sizes", "l,ax3"])
    #expect(held.status == 1)
    #expect(
      held.stdout.contains("error[extension-overflow]: on iPhone at text size AX3 the view is"), "\(held.stdout)")
    #expect(held.stdout.contains("note[extension-size]: ipad at text size AX3:"))
    let bad = try Fixtures.run(Fixtures.unterm, base + ["--text-sizes", "huge"])
    #expect(bad.status == 2)
  }
}
