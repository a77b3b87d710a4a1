import Foundation
import Testing
import UNTermTestSupport

/// `render` refuses a size it cannot draw (issue 25.7): a usage error naming the smallest
/// screen, not a printed "Terminal too small" and exit 0.
@Suite("render refuses a size below the smallest screen", .hangGuard)
struct RenderSizeTests {
  @Test(arguments: ["50x6", "23x8", "24x7", "1x1"])
  func aSizeBelowTheMinimumIsAUsageError(_ size: String) throws {
    let out = try Fixtures.run(Fixtures.unterm, ["render", "--size", size, Fixtures.sample("message.json")])
    #expect(out.status == 2)
    #expect(out.stdout.isEmpty, "\(out.stdout)")
    #expect(
      out.stderr
        == "error: --size takes COLSxROWS from 24x8 (the smallest screen UNTerm draws) to 1000x1000, such as 80x24, not '\(size)' (see 'unterm render --help')\n"
    )
  }

  @Test func theSmallestScreenIsDrawn() throws {
    let out = try Fixtures.run(
      Fixtures.unterm, ["render", "--size", "24x8", "--now", "2025-11-29T20:00:00Z", Fixtures.sample("message.json")])
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 9)
    #expect(!out.stdout.contains("too small"))
  }
}

/// Without --size, a terminal smaller than the smallest screen is said so, in the terminal.
@Suite("render in a tiny terminal", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct RenderTinyTerminalTests {
  @Test func aTinyTerminalIsAUsageErrorNamingTheMinimum() throws {
    let dir = try Fixtures.temporaryDirectory()
    let errors = dir.appendingPathComponent("err.txt").path
    let tmux = try TmuxDriver(width: 22, height: 6)
    defer { tmux.kill() }
    // Standard output stays the terminal (its size is what render reads); the error is kept.
    tmux.type("\(Fixtures.unterm) render \(Fixtures.sample("message.json")) 2>\(errors); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("EXIT=2")
    let screen = try String(contentsOfFile: errors, encoding: .utf8)
    #expect(screen.contains("22x6"), "\(screen)")
    #expect(screen.contains("24x8"), "\(screen)")
    #expect(!screen.contains("Terminal too small"))
  }
}
