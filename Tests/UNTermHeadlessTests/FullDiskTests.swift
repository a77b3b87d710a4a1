import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermShell

/// Issue 18.1 and 18.2 on a disk that is really full: a 64 KiB tmpfs, filled, so ENOSPC comes
/// from the kernel. Mounting needs root; elsewhere these are skipped, saying why.
@Suite(
  "A full disk, for real", .enabled(if: SmallFilesystem.isAvailable, SmallFilesystem.unavailableReason), .hangGuard)
struct FullDiskTests {
  private func script(_ lines: [String]) throws -> String {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("s.session")
    let text =
      (["categories com.example.messages=\(Fixtures.sample("categories.json"))"] + lines).joined(separator: "\n") + "\n"
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
  }

  /// The issue's case: `run --log` on a full disk used to print ✓ and exit 0 with an empty log.
  @Test func runStopsWithExit74AndOneLineNamingTheFileTheReasonAndTheResponse() throws {
    let disk = try SmallFilesystem()
    defer { withExtendedLifetime(disk) {} }  // mounted until the test ends
    try disk.fill()
    let log = disk.path("log.jsonl")
    let first = try script([
      "push \(Fixtures.sample("message.json"))", "longpress", "action reply", "type \"আমি আসছি\"", "send",
      "expect response reply \"আমি আসছি\"",
    ])
    let second = try script(["push \(Fixtures.sample("meeting.json"))", "tap"])
    let result = try Fixtures.run(Fixtures.unterm, ["run", "--log", log, first, second])
    #expect(result.status == 74)
    #expect(
      result.stderr
        == "\(log): error: writing the log failed: No space left on device; the response \"reply\" \"আমি আসছি\" to req-1 is not recorded\n"
    )
    #expect(result.stdout.hasPrefix("✗ \(first)\n\(first):6:1: send\n"))
    #expect(result.stdout.contains("  lost response: reply \"আমি আসছি\" — req-1 (not in the log)"))
    // The report's screen shows the response as not recorded and the log as failing.
    #expect(result.stdout.contains("  ✗ reply · req-1  "))
    #expect(result.stdout.contains("✗ log failing"))
    #expect(!result.stdout.contains("✓"))
    // The run stops: the second script never starts.
    #expect(!result.stdout.contains(second))
    #expect(size(log) == 0)
  }

  /// With room for a few records, every one acknowledged is in the log, whole; the first that
  /// does not fit stops the run and is named, and `unterm log` reads back exactly the others.
  @Test func everyAcknowledgedRecordIsOnDiskAndTheFirstLostOneIsNamed() throws {
    let disk = try SmallFilesystem()
    defer { withExtendedLifetime(disk) {} }  // mounted until the test ends
    try disk.fill(keepingPages: 1)
    let log = disk.path("log.jsonl")
    var lines: [String] = []
    for i in 1...40 {
      lines += ["push \(Fixtures.sample("message.json")) as m\(i)", "tap", "expect response @default"]
    }
    let result = try Fixtures.run(Fixtures.unterm, ["run", "--log", log, try script(lines)])
    #expect(result.status == 74)
    let contents = try ResponseLog.read(log)
    let kept = contents.records.map(\.requestIdentifier)
    #expect(kept.count >= 5, "\(result.stdout)")
    #expect(kept == (1...kept.count).map { "m\($0)" })
    #expect(contents.damage.isEmpty)
    let lost = "m\(kept.count + 1)"
    #expect(
      result.stderr
        == "\(log): error: writing the log failed: No space left on device; the response \"@default\" to \(lost) is not recorded\n"
    )
    // The lost record's start fit in the last page: a cut-off line that nothing fused onto.
    #expect(contents.tornTail?.contains("\"requestIdentifier\":\"\(lost)\"") == true)

    let readBack = try Fixtures.run(Fixtures.unterm, ["log", log])
    #expect(readBack.status == 0)
    #expect(readBack.stdout.split(separator: "\n").count == kept.count)
    #expect(
      readBack.stderr
        == "\(log):\(kept.count + 1): warning: the last line is cut off (a record cut short by a crash or a full disk, never acknowledged); skipped\n"
    )
  }

  /// The interactive session on a full disk: the loop draws ✗ and the failing log.
  @Test func theInteractiveScreenShowsTheLoss() throws {
    let disk = try SmallFilesystem()
    defer { withExtendedLifetime(disk) {} }  // mounted until the test ends
    try disk.fill()
    let log = disk.path("log.jsonl")
    let session = try Fixtures.session { $0.logFile = log }
    try session.push(try Payload.load(Fixtures.sample("message.json"), categories: session.state.store.categories))
    let terminal = InMemoryTerminal(width: 80, height: 24, now: Fixtures.now)
    let shell = InteractiveShell(session: session, depth: .palette256, clock: { terminal.now })
    terminal.press(.enter, after: 0.1)
    _ = shell.run(on: terminal)
    let screen = terminal.screen.lines
    #expect(
      Array(screen.prefix(4).map { String($0.dropFirst(48)) }) == [
        "Responses",
        "✗ default (tap) · req-1",
        "  not in the log: No space left",
        "  on device",
      ], "\(screen.joined(separator: "\n"))")
    #expect(screen.last?.hasPrefix(" ✗ log failing · iPhone · Unlocked") == true, "\(screen.last ?? "")")
    #expect(size(log) == 0)
  }

  /// A read-only file system refuses to create the log: the session does not start.
  @Test func aReadOnlyFileSystemRefusesTheLog() throws {
    let disk = try SmallFilesystem(readOnly: true)
    defer { withExtendedLifetime(disk) {} }  // mounted until the test ends
    let log = disk.path("log.jsonl")
    let result = try Fixtures.run(Fixtures.unterm, ["run", "--log", log, try script(["lock"])])
    #expect(result.status == 66)
    #expect(result.stderr == "\(log): error: cannot create the log: Read-only file system\n")
  }
}
