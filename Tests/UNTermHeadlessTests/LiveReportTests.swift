import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript

/// Issue 10 point 9: `--live` leaves its report on the screen, and a cast's header is the size
/// its first frame is drawn at.
@Suite("Live runs and casts", .hangGuard)
struct LiveReportTests {
  private func script(_ text: String) throws -> String {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("live.session")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// Everything the user must read comes after the sequence that leaves the alternate screen.
  @Test func theReportIsWrittenAfterLeavingTheAlternateScreen() throws {
    let failing = try script(
      "categories \(Fixtures.sample("categories.json"))\npush \(Fixtures.sample("message.json"))\nexpect badge 9\n")
    let passing = try script("push \(Fixtures.sample("Scripts/unread-badge.json"))\nexpect badge 2\n")
    let missing = try script("push nowhere.json\n")
    let result = try Fixtures.run(Fixtures.unterm, ["run", "--live", "--speed", "100", failing, passing, missing])
    #expect(result.status == 66)
    let leave = try #require(result.stdout.range(of: "\u{1B}[?1049l"), "\(result.stdout.debugDescription)")
    let after = result.stdout[leave.upperBound...]
    #expect(after.contains("✗ \(failing)"))
    #expect(after.contains("live.session:3:1: expect badge 9"))
    #expect(after.contains("actual badge   3"))
    #expect(after.contains("✓ \(passing)"))
    #expect(after.contains("1 of 3 scripts passed"))
    #expect(!result.stdout[..<leave.lowerBound].contains("expect badge 9"))
    // The error line on stderr too, once, after the run.
    #expect(result.stderr.hasSuffix("nowhere.json: error: no such file\n"), "\(result.stderr)")
  }

  /// The screens are in display order: a VTE, which would reorder right-to-left text again, is
  /// asked to show cells as written for the run and given its own bidi back before the report.
  @Test func aTerminalThatReordersIsAskedNotToWhileTheRunPlays() throws {
    let urdu = try script(
      "strings \(Fixtures.sample("Localization"))\nlocale ur\npush \(Fixtures.sample("localized.json"))\n")
    let vte = try Fixtures.run(
      Fixtures.unterm, ["run", "--live", "--speed", "100", urdu], environment: ["VTE_VERSION": "7600", "TMUX": ""])
    #expect(vte.status == 0, "\(vte.stderr)")
    let enter = try #require(vte.stdout.range(of: "\u{1B}[?1049h"))
    let explicit = try #require(vte.stdout.range(of: "\u{1B}[8l"), "\(vte.stdout.debugDescription)")
    let urduShown = try #require(vte.stdout.range(of: "ﺕﻮﻋﺩ"), "the title in display order")
    let implicit = try #require(vte.stdout.range(of: "\u{1B}[8h"))
    let leave = try #require(vte.stdout.range(of: "\u{1B}[?1049l"))
    #expect(enter.upperBound <= explicit.lowerBound && explicit.upperBound <= urduShown.lowerBound)
    #expect(urduShown.upperBound <= implicit.lowerBound && implicit.upperBound <= leave.lowerBound)
    let xterm = try Fixtures.run(
      Fixtures.unterm, ["run", "--live", "--speed", "100", urdu], environment: ["VTE_VERSION": "", "TERM": "xterm"])
    #expect(xterm.status == 0, "\(xterm.stderr)")
    #expect(!xterm.stdout.contains("\u{1B}[8l") && !xterm.stdout.contains("\u{1B}[8h"))
  }

  /// In a real terminal (tmux), the report is on the screen when the run ends: printed while
  /// the alternate screen was up, it would vanish with it.
  @Test(.enabled(if: TmuxDriver.isAvailable))
  func theReportStaysOnTheTerminalScreen() throws {
    let failing = try script(
      "categories \(Fixtures.sample("categories.json"))\npush \(Fixtures.sample("message.json"))\nexpect badge 9\n")
    let tmux = try TmuxDriver(width: 100, height: 60)
    defer { tmux.kill() }
    tmux.type("LANG=C.UTF-8 \(Fixtures.unterm) run --live --speed 100 \(failing); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("EXIT=1")
    let screen = tmux.screen()
    #expect(screen.contains("✗ \(failing)"), "\(screen)")
    #expect(screen.contains("live.session:3:1: expect badge 9"), "\(screen)")
    #expect(screen.contains("actual badge   3"), "\(screen)")
  }

  private func castLines(_ text: String) throws -> [[JSONNode]] {
    let dir = try Fixtures.temporaryDirectory()
    let cast = dir.appendingPathComponent("s.cast").path
    let script = try SessionScript.parse(text, file: dir.appendingPathComponent("s.session").path)
    let writer = try CastWriter(path: cast, speed: 100)
    let result = ScriptRunner(script: script, options: RunOptions(), observer: writer).run()
    writer.close()
    #expect(result.passed, "\(result.report ?? "")")
    let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cast)), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    return try lines.map { line in
      let node = try JSONParser.parse(Array(line.utf8))
      return node.array ?? [node]
    }
  }

  /// The first frame of a script that starts with `size 100x30` is drawn at 100×30, and the
  /// header says so; no resize comes before it.
  @Test func aCastHeaderIsTheSizeOfItsFirstFrame() throws {
    let lines = try castLines(
      "categories \(Fixtures.sample("categories.json"))\nsize 100x30\npush \(Fixtures.sample("message.json"))\n")
    let header = try #require(lines.first?.first?.object)
    #expect(header["width"]?.number?.integer == 100)
    #expect(header["height"]?.number?.integer == 30)
    let events = lines.dropFirst()
    #expect(!events.contains { $0.count == 3 && $0[1].string == "r" })
    let first = try #require(events.first { $0.count == 3 && $0[1].string == "o" && ($0[2].string ?? "").count > 100 })
    let frame = try #require(first[2].string)
    #expect(frame.components(separatedBy: "\r\n").count == 30)
  }

  /// A size set after something is shown is a resize in the recording.
  @Test func aLaterSizeIsAResize() throws {
    let lines = try castLines("push \(Fixtures.sample("message.json"))\nsize 100x30\n")
    let header = try #require(lines.first?.first?.object)
    #expect(header["width"]?.number?.integer == 80)
    #expect(lines.dropFirst().contains { $0.count == 3 && $0[1].string == "r" && $0[2].string == "100x30" })
  }

  /// The line for a script that passed counts its steps and expectations in words that agree.
  @Test func thePassLineSaysOneStepAndOneExpectation() throws {
    let one = try script("push \(Fixtures.sample("message.json"))\n")
    let two = try script("push \(Fixtures.sample("Scripts/unread-badge.json"))\nexpect badge 2\n")
    let result = try Fixtures.run(Fixtures.unterm, ["run", one])
    #expect(result.stdout == "✓ \(one) — 1 step, 0 expectations\n", "\(result.stdout)")
    let second = try Fixtures.run(Fixtures.unterm, ["run", two])
    #expect(second.stdout == "✓ \(two) — 2 steps, 1 expectation\n", "\(second.stdout)")
  }
}
