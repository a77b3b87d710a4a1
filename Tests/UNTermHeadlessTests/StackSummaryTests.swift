import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState

/// One model of iOS's stack summary (issue 25.6): current iOS shows a stack's newest card and the
/// cards behind it, no summary text, on the screen and in `render` (the sheet draws each payload
/// on its own, so it never shows a stack); lint says the
/// category's format and the payload's summary-arg are not shown; the iOS 12 to 14 summary is
/// the explicit `--stack-summary ios12`.
@Suite("Stack summaries", .hangGuard)
struct StackSummaryTests {
  private let categories = ["--categories", Fixtures.sample("categories.json")]
  private let message = Fixtures.sample("message.json")

  private func unterm(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments)
  }

  @Test func renderAndLintAgreeOnCurrentIOS() throws {
    let render = try unterm(["render", "--view", "center"] + categories + [message, message])
    #expect(render.stdout.contains("   1 more notification"), "\(render.stdout)")
    #expect(!render.stdout.contains("messages from"))
    let legacy = try unterm(
      ["render", "--view", "center", "--stack-summary", "ios12"] + categories + [message, message])
    #expect(legacy.stdout.contains("   1 more messages from Ana Lima"), "\(legacy.stdout)")
    let lint = try unterm(["lint"] + categories + [message])
    #expect(lint.stdout.contains("note[deprecated-summary-arg]"), "\(lint.stdout)")
    #expect(
      lint.stdout.contains(
        "note[stack-summary-format]: categorySummaryFormat is shown by iOS 12 to 14 only; current iOS shows a stack's newest notification with the cards behind it and no summary text (UNTerm: --stack-summary ios12 shows it) [categories[0].categorySummaryFormat]"
      ), "\(lint.stdout)")
    let explained = try unterm(["lint", "--explain", "stack-summary-format"])
    #expect(explained.stdout.contains("summaryArgument is ignored"), "\(explained.stdout)")
  }

  @Test func aScriptRunsWithEitherModel() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = dir.appendingPathComponent("s.session")
    try Data(
      "categories \(Fixtures.sample("categories.json"))\npush \(message)\npush \(message)\ncenter\nexpect screen \"1 more notification\"\n"
        .utf8
    ).write(to: script)
    #expect(try unterm(["run", script.path]).status == 0)
    #expect(try unterm(["run", "--stack-summary", "ios12", script.path]).status == 1)
  }
}
