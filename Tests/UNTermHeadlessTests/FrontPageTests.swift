import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// README is the front page (issue 26.2): short, every link leads somewhere, its five-minute tour
/// does what it says when typed, its exit codes are the declared ones and its picture is what
/// `unterm run --svg` records from the demo script today.
@Suite("README, the front page", .serialized, .hangGuard)
struct FrontPageTests {
  private var readme: String {
    get throws { try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8) }
  }

  /// The README's fenced blocks, in order: the info string and the lines.
  private func blocks() throws -> [(info: String, lines: [String])] {
    var result: [(info: String, lines: [String])] = []
    var open: (info: String, lines: [String])?
    for line in try readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        if let block = open {
          result.append(block)
          open = nil
        } else {
          open = (String(line.dropFirst(3)), [])
        }
      } else if open != nil {
        open?.lines.append(line)
      }
    }
    return result
  }

  /// The tour's command that starts so, as README gives it, for the binary under test.
  private func tourCommand(_ start: String) throws -> [String] {
    let line = try #require(
      try blocks().filter { $0.info == "sh" }.flatMap(\.lines).first { $0.hasPrefix("swift run unterm \(start)") },
      "README has no `swift run unterm \(start)`")
    return Array(line.split(separator: " ").map(String.init).dropFirst(3))
  }

  /// A copy of Examples/tour, where README says to run the commands.
  private func tourDirectory() throws -> URL {
    let dir = try Fixtures.temporaryDirectory().appendingPathComponent("tour")
    try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("Examples/tour"), to: dir)
    return dir
  }

  @Test func itIsAFrontPageWhoseLinksLeadSomewhere() throws {
    let text = try readme
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 250, "README is \(lines.count) lines")
    let links = text.matches(of: /\]\(([^)#]+)\)/).map { String($0.output.1) }
    #expect(links.count >= 20, "\(links)")
    for link in links where !link.contains("://") {
      let target = Fixtures.root.appendingPathComponent(link)
      #expect(FileManager.default.fileExists(atPath: target.path), "README links to \(link), which is not there")
    }
    // The manual has one guide per topic, every one of them linked.
    let guides = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("Docs").path)
      .filter { $0.hasSuffix(".md") }
    #expect(guides.count >= 12, "\(guides)")
    for guide in guides { #expect(links.contains("Docs/\(guide)"), "README does not link Docs/\(guide)") }
  }

  @Test func theTwoCommandsAreTheFirstBlock() throws {
    let first = try #require(try blocks().first)
    #expect(first.info == "sh")
    #expect(
      first.lines.map { $0.split(separator: "#").first?.trimmingCharacters(in: .whitespaces) } == [
        "swift run unterm", "swift test",
      ])
  }

  @Test func theToursPictureIsWhatRenderDraws() throws {
    let command = try tourCommand("render")
    let all = try blocks()
    let index = try #require(all.firstIndex { $0.lines.contains { $0.hasPrefix("swift run unterm render") } })
    let shown = all[index + 1]
    #expect(shown.info == "")
    let run = try Fixtures.run(Fixtures.unterm, command, directory: try tourDirectory().path)
    #expect(run.status == 0, "\(run.stderr)")
    var drawn = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    while drawn.last == "" { drawn.removeLast() }
    #expect(drawn == shown.lines)
  }

  @Test func theToursLintAndCIRunPass() throws {
    let dir = try tourDirectory()
    let lint = try Fixtures.run(Fixtures.unterm, try tourCommand("lint"), directory: dir.path)
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    #expect(lint.stderr.hasSuffix("0 errors, 0 warnings, 1 note in 2 files\n"), "\(lint.stderr)")
    let run = try Fixtures.run(Fixtures.unterm, try tourCommand("run"), directory: dir.path)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout == "✓ order.session — 11 steps, 4 expectations\n")
    let report = try String(contentsOf: dir.appendingPathComponent("report.xml"), encoding: .utf8)
    #expect(report.contains(#"failures="0""#), "\(report)")
    // The script README shows is the script the tour runs (README leaves out its set-up lines).
    let script = try String(contentsOf: dir.appendingPathComponent("order.session"), encoding: .utf8)
      .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("expect screen") }
    let shown = try #require(try blocks().first { $0.lines.first == "push order.json" }, "no script block")
    #expect(Array(script.suffix(shown.lines.count)) == shown.lines)
  }

  @Test(.enabled(if: TmuxDriver.isAvailable))
  func theToursSessionTakesTheReplyAndLogsIt() throws {
    let dir = try tourDirectory()
    let arguments = try tourCommand("--categories")
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type("cd \(dir.path) && LANG=C.UTF-8 \(Fixtures.unterm) \(arguments.joined(separator: " ")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Your dabba is on its way")
    tmux.keys("Space")
    try tmux.waitFor("Note to Rider")
    tmux.type("2")
    try tmux.waitFor("Send")
    tmux.type("Ring twice")
    tmux.keys("Enter")
    try tmux.waitFor("✓ note · req-1")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
    let log = try String(contentsOf: dir.appendingPathComponent("responses.jsonl"), encoding: .utf8)
    let records = log.split(separator: "\n")
    #expect(records.count == 1, "\(log)")
    #expect(records.first?.contains(#""actionIdentifier":"note""#) == true, "\(log)")
    #expect(records.first?.contains(#""userText":"Ring twice""#) == true, "\(log)")
  }

  @Test func theExitCodesAreTheDeclaredOnes() throws {
    let rows = try readme.split(separator: "\n").map(String.init).filter {
      $0.wholeMatch(of: /\| \d+ \| .*/) != nil
    }
    #expect(rows == ExitCode.allCases.map { "| \($0.rawValue) | \($0.meaning) |" })
  }

  @Test func thePictureIsWhatTheDemoScriptRecords() throws {
    #expect(try readme.contains("](Docs/demo.svg)"))
    let recorded = try Fixtures.temporaryDirectory().appendingPathComponent("demo.svg")
    let run = try Fixtures.run(
      Fixtures.unterm, ["run", "--svg", recorded.path, Fixtures.sample("Scripts/demo-tour.session")])
    #expect(run.status == 0, "\(run.stderr)")
    let checkedIn = try Data(contentsOf: Fixtures.root.appendingPathComponent("Docs/demo.svg"))
    #expect(
      try Data(contentsOf: recorded) == checkedIn,
      "Docs/demo.svg is stale: run Scripts/gen-docs.sh")
  }
}
