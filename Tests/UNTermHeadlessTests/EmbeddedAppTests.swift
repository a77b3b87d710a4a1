import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermShell

/// Issue 17.6: an app's own code behaves inside a session as on iOS. `unterm-app-probe` embeds
/// UNTerm with `UNTermSession.run()` on the main thread, has a `@MainActor` delegate with the
/// `async` forms, and prints from work it puts on `DispatchQueue.main`.
@Suite("An app's own code inside a session", .serialized, .enabled(if: TmuxDriver.isAvailable))
struct EmbeddedAppTests {
  private var probe: String { Fixtures.productsDirectory.appendingPathComponent("unterm-app-probe").path }

  @Test func mainQueueAndMainActorRunDuringTheSessionAndOutputGoesToThePane() throws {
    let tmux = try TmuxDriver(width: 120, height: 30)
    defer { tmux.kill() }
    tmux.type("LANG=C.UTF-8 NO_COLOR= \(probe); echo EXIT=$?")
    tmux.keys("Enter")
    // Work queued on DispatchQueue.main before run() runs while run() holds the main thread.
    try tmux.waitFor("Posted from DispatchQueue.main")
    // The request is the configured app's (bundleIdentifier), shown by its configured name.
    #expect(tmux.screen().contains("Probe App"), "\(tmux.screen())")
    try tmux.waitFor("app stdout: hello from the main queue")
    try tmux.waitFor("app stderr: a warning on stderr")
    // What the app printed is in the pane only: no line of the screen starts with it.
    let lines = tmux.screen().split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("hello from the main queue") || $0.hasPrefix("a warning on stderr") })
    // A tap: the @MainActor async delegate answers during the session, and its own request
    // is presented through its @MainActor willPresent.
    tmux.keys("Enter")
    try tmux.waitFor("The delegate answered on the main actor")
    try tmux.waitFor("app stdout: delegate saw from-main-queue on the main thread: true")
    tmux.type("q")
    try tmux.waitFor("after run: from-main-queue")
    try tmux.waitFor("EXIT=0")
  }
}

@Suite("Captured output, cut into lines")
struct LineSplitterTests {
  @Test func completeLinesComeOutAndTheRestWaits() {
    var splitter = LineSplitter()
    #expect(splitter.feed(Array("one\ntw".utf8), limit: 100) == ["one"])
    #expect(splitter.feed(Array("o\r\nআমি আসছি\n".utf8), limit: 100) == ["two", "আমি আসছি"])
    #expect(splitter.feed(Array("no break".utf8), limit: 100) == [])
    #expect(splitter.remainder == Array("no break".utf8))
  }

  @Test func aLongLineComesOutInPiecesAndBrokenUTF8IsReplaced() {
    var splitter = LineSplitter()
    #expect(splitter.feed(Array("abcdefg\n".utf8), limit: 3) == ["abc", "def", "g"])
    #expect(splitter.feed([0x61, 0xFF, 0x0A], limit: 10) == ["a\u{FFFD}"])
    // Without a line break, a flood is still handed on once it passes the limit.
    #expect(splitter.feed(Array("xxxxxxx".utf8), limit: 3) == ["xxx", "xxx"])
    #expect(splitter.remainder == Array("x".utf8))
  }
}
