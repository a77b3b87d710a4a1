import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState

/// The real binary in tmux, keys in and the log out: on a locked device a tap asks for the
/// passcode and a cancel sends nothing (issue 10.2); Enter fans a stack out, `s` collapses it,
/// and `x` on the collapsed stack clears the group with a dismiss response for each
/// (issues 10.4, 17.2); the locked screen shows none of the content (10.3).
@Suite("Lock screen and stacks in tmux", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct LockScreenEndToEndTests {
  @Test func theLockScreenAsksFirstAndClearsAStackAsAGroup() throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("responses.jsonl").path
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "LANG=C.UTF-8 NO_COLOR= \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) --locked "
        + "--passcode 2468 --log \(log) --socket \(dir.path)/s.sock \(Fixtures.sample("message.json")) "
        + "\(Fixtures.sample("voice-memo.json")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("2 new messages")
    try tmux.waitFor("1 more notification")  // the summary's %@ would be content
    #expect(!tmux.screen().contains("Are we still on"))
    #expect(!tmux.screen().contains("voice-memo"))
    // Where pushes come from is no notification's content: the locked activity pane says it.
    #expect(tmux.screen().contains("Listening for `unterm push`"), "\(tmux.screen())")

    // Enter on the collapsed stack fans it out; it opens nothing.
    tmux.keys("Enter")
    try tmux.waitFor("Show less")
    // Enter on a card opens the app only after the passcode; Esc sends nothing.
    tmux.keys("Enter")
    try tmux.waitFor("Enter Passcode")
    try tmux.waitFor("to open")
    tmux.keys("Escape")
    try tmux.waitFor("Passcode cancelled")
    // A response is in the log before the frame after it is drawn: none was sent.
    let logged = FileManager.default.contents(atPath: log) ?? Data()
    #expect(logged.isEmpty, "a cancelled passcode sent: \(String(decoding: logged, as: UTF8.self))")

    // s collapses the stack; x then clears the whole group, one dismiss response each.
    tmux.type("s")
    try tmux.waitFor("1 more notification")
    tmux.type("x")
    // Every response of the clear is in the log before the frame that shows the list empty.
    try tmux.waitFor("No notifications")
    let lines = (FileManager.default.contents(atPath: log).map { String(decoding: $0, as: UTF8.self) } ?? "")
      .split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    guard lines.count == 2 else { return }
    #expect(lines.allSatisfy { $0.contains(#""actionIdentifier":"com.apple.UNNotificationDismissActionIdentifier""#) })
    #expect(lines[0].contains(#""requestIdentifier":"req-2""#) && lines[1].contains(#""requestIdentifier":"req-1""#))
    #expect(lines.allSatisfy { $0.contains(#""locked":true"#) })
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }
}
