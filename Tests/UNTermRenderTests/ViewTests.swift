import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// What a person sees in each view, as screens.
@Suite("Views")
struct ViewTests {
  let message = #"""
    {"aps":{"alert":{"title":"Ana Lima","subtitle":"Dinner tonight?","body":"Are we still on for 8?",
    "summary-arg":"Ana Lima"},"badge":3,"thread-id":"chat-ana","category":"message"}}
    """#

  @Test func bannerShowsHeaderTextAndTheFirstTwoActions() throws {
    let session = try Fixtures.session(size: (47, 10))
    try Fixtures.push(message, into: session)
    expectScreen(
      session.frame().grid,
      [
        " ╭───────────────────────────────────────────╮",
        " │ App                                   now │",
        " │ Ana Lima                                  │",
        " │ Dinner tonight?                           │",
        " │ Are we still on for 8?                    │",
        " │ ▾ Reply · Like · +1 more                  │",
        " ╰───────────────────────────────────────────╯",
        "     1 in Notification Center · c to open",
        "",
        " iPhone · Unlocked · badge 3 │ ? keys",
      ])
  }

  @Test func expandedViewListsActionsWithTheirMarks() throws {
    let session = try Fixtures.session(size: (47, 14))
    try Fixtures.push(message, into: session)
    session.send(.command(.longPress))
    expectScreen(
      session.frame().grid,
      [
        " ╭───────────────────────────────────────────╮",
        " │ App                                now  ✕ │",
        " ├───────────────────────────────────────────┤",
        " │ Ana Lima                                  │",
        " │ Dinner tonight?                           │",
        " │ Are we still on for 8?                    │",
        " ├───────────────────────────────────────────┤",
        " │ 1  Reply                          (reply) │",
        " │ 2  Like                                   │",
        " │ 3  ⚠ Delete                               │",
        " │ x  Dismiss                                │",
        " ╰───────────────────────────────────────────╯",
        "",
        " iPhone · Unlocked · badge 3 │ ? keys",
      ])
  }

  @Test func replyFieldShowsPlaceholderAndButtonTitle() throws {
    let session = try Fixtures.session(size: (47, 14))
    try Fixtures.push(message, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    let lines = session.frame().grid.lines
    #expect(lines.contains { $0.contains("│ Message…") })
    #expect(lines.contains { $0.contains("│ Send │") })
    session.send(.command(.type("আমি আসছি")))
    #expect(session.frame().grid.text.contains("আমি আসছি"))
  }

  @Test func destructiveActionsUseTheDestructiveColour() throws {
    let session = try Fixtures.session(size: (47, 14))
    try Fixtures.push(message, into: session)
    session.send(.command(.longPress))
    let grid = session.frame().grid
    let row = try #require(grid.lines.firstIndex { $0.contains("Delete") })
    let x = try #require((0..<grid.width).first { grid[$0, row].text == "D" })
    #expect(grid[x, row].style.foreground == session.renderer.theme[.destructive].foreground)
    #expect(grid[x, row].style.foreground != session.renderer.theme[.action].foreground)
  }

  /// The list groups by thread; under a collapsed stack, current iOS's count of the cards behind
  /// (the category's summary and summary-arg are iOS 12 to 14's).
  @Test func listGroupsByThreadWithTheCountBehindTheNewest() throws {
    let session = try Fixtures.session(size: (47, 16))
    try Fixtures.push(message, into: session)
    try Fixtures.push(message, into: session)
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Design review","body":"Room 4"},"category":"meeting-invite"}}"#, into: session)
    session.send(.command(.openCenter))
    expectScreen(
      session.frame().grid,
      [
        " Notification Center                        3",
        "",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                                   now ┃",
        " ┃ Design review                             ┃",
        " ┃ Room 4                                    ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        " ╭───────────────────────────────────────────╮",
        " │ App                                   now │",
        " │ Ana Lima · Dinner tonight?                │",
        " │ Are we still on for 8?                    │",
        " ╰───────────────────────────────────────────╯",
        "    1 more notification",
        "",
        "",
        " iPhone · Unlocked · badge 3 │ ↑↓ move  ? keys",
      ])
    // The iOS 12 to 14 summary, asked for: the category's format with the summary-arg.
    let legacy = try Fixtures.session(size: (47, 16)) { $0.stackSummary = .ios12 }
    try Fixtures.push(message, into: legacy)
    try Fixtures.push(message, into: legacy)
    legacy.send(.command(.openCenter))
    #expect(legacy.frame().grid.lines.contains("    1 more messages from Ana Lima"))
  }

  /// Without colour (`--color never`, snapshots, `expect screen`) a destructive action is
  /// marked in text, as authentication-required and foreground ones are.
  @Test func destructiveActionsAreMarkedInTextWithoutColour() throws {
    // Locked (previews shown): an authentication-required or foreground action asks for the
    // passcode, and says so.
    let session = try Fixtures.session(size: (47, 16)) {
      $0.theme = "monochrome"
      $0.locked = true
      $0.previews = .always
    }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Sign-in","body":"Lisbon"},"category":"security-alert"}}"#, into: session)
    session.send(.command(.longPress))
    let grid = session.frame().grid
    #expect(grid.text.contains("│ 1  It Was Me                     (unlock) │"), "\(grid.text)")
    #expect(grid.text.contains("│ 2  ⚠ Lock My Account  (unlock, opens app) │"))
    #expect(!grid.ansiText(depth: .none).contains("\u{1B}[0;3"))  // not a colour anywhere
  }

  /// Unlocked, nothing will ask for the passcode, so no action says "unlock" (issue 25.10); a
  /// foreground action still says it opens the app.
  @Test func anUnlockedDeviceShowsNoUnlockTag() throws {
    let session = try Fixtures.session(size: (47, 14))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Sign-in","body":"Lisbon"},"category":"security-alert"}}"#, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("│ 1  It Was Me                              │"), "\(text)")
    #expect(text.contains("│ 2  ⚠ Lock My Account          (opens app) │"), "\(text)")
    session.send(.command(.lock))
    #expect(!session.frame().grid.text.contains("It Was Me"))
  }

  /// On a narrow screen an action's title comes before its tags: they give way, never draw over it.
  @Test func aNarrowExpandedViewKeepsTheActionTitleOverItsTags() throws {
    let json =
      #"{"aps":{"alert":{"title":"Ana Lima","body":"Dinner?"},"category":"message"}}"#
    var rows: [[String]] = []
    for width in [24, 30] {
      // Locked (previews shown), so Reply says it asks for the passcode as well.
      let session = try Fixtures.session(size: (width, 11)) {
        $0.locked = true
        $0.previews = .always
      }
      try Fixtures.push(json, into: session)
      session.send(.command(.longPress))
      rows.append(session.frame().grid.lines.filter { $0.contains("1  ") || $0.contains("2  ") })
    }
    #expect(
      rows == [
        [" │ 1  Reply           │", " │ 2  Like            │"],
        [" │ 1  Reply (unlock, reply) │", " │ 2  Like                  │"],
      ])
  }

  @Test func aFannedOutStackOffersShowLess() throws {
    let session = try Fixtures.session(size: (47, 20))
    try Fixtures.push(message, into: session, as: "older")
    try Fixtures.push(message.replacingOccurrences(of: "8?", with: "9?"), into: session, as: "newer")
    session.send(.command(.openCenter))
    session.send(.key(.enter))
    expectScreen(
      session.frame().grid,
      [
        " Notification Center                        3",
        "",
        " ▴ Show less · s",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                                   now ┃",
        " ┃ Ana Lima · Dinner tonight?                ┃",
        " ┃ Are we still on for 9?                    ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        " ╭───────────────────────────────────────────╮",
        " │ App                                   now │",
        " │ Ana Lima · Dinner tonight?                │",
        " │ Are we still on for 8?                    │",
        " ╰───────────────────────────────────────────╯",
        "",
        "",
        "",
        "",
        "",
        "",
        " iPhone · Unlocked · badge 3 │ ↑↓ move  ? keys",
      ])
    session.send(.key(.character("s")))
    #expect(session.frame().grid.text.contains("1 more notification"))
    #expect(!session.frame().grid.text.contains("Show less"))
  }

  /// The expanded view on the lock screen covers the list: no card shows under or around it.
  @Test func theExpandedViewOnTheLockScreenDoesNotOverlapTheCards() throws {
    let session = try Fixtures.session(size: (47, 30)) {
      $0.locked = true
      $0.previews = .always
    }
    for i in 1...4 {
      try Fixtures.push(
        #"{"aps":{"alert":{"title":"Card \#(i)","body":"Body \#(i)"},"thread-id":"t\#(i)"}}"#, into: session)
    }
    session.send(.command(.longPress))
    let lines = session.frame().grid.lines
    let bottom = try #require(lines.lastIndex { $0.contains("╰") })
    #expect(lines[(bottom + 1)...].dropLast().allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty })
    #expect(!session.frame().grid.text.contains("Card 3"))
    #expect(session.frame().grid.text.contains("Card 4"))
  }

  @Test func lockedDeviceShowsTheHiddenPreviewsPlaceholder() throws {
    let session = try Fixtures.session(size: (47, 12)) { $0.locked = true }
    try Fixtures.push(message, into: session)
    try Fixtures.push(message, into: session)
    let text = session.frame().grid.text
    #expect(text.contains("Locked · 20:00"))
    #expect(text.contains("Ana Lima"))  // hiddenPreviewsShowTitle
    #expect(text.contains("2 new messages"))
    #expect(!text.contains("Are we still on"))
  }

  @Test func passiveNotificationGoesToTheListWithoutABanner() throws {
    let session = try Fixtures.session(size: (47, 12))
    try Fixtures.push(#"{"aps":{"alert":"Water the plants","interruption-level":"passive"}}"#, into: session)
    let text = session.frame().grid.text
    #expect(!text.contains("Water the plants"))
    #expect(text.contains("1 in Notification Center"))
    session.send(.command(.openCenter))
    #expect(session.frame().grid.text.contains("Water the plants"))
  }

  @Test func tinyTerminalsSaySoAndNeverCrash() throws {
    let session = try Fixtures.session(size: (80, 24))
    try Fixtures.push(message, into: session)
    for (w, h) in [(1, 1), (2, 10), (5, 20), (10, 2), (0, 0), (23, 7), (24, 8), (200, 60)] {
      session.resize(width: w, height: h)
      session.send(.command(.longPress))
      let grid = session.frame().grid
      #expect(grid.width == w && grid.height == h)
      if w >= 10 && h >= 2 && w < Renderer.minimumWidth { #expect(grid.text.contains("Terminal")) }
    }
  }

  @Test func hostilePayloadRendersVisiblyAndInertly() throws {
    let session = try Fixtures.session(size: (80, 24))
    try Fixtures.push(
      #"""
      {"aps":{"alert":{"title":"\u001b]0;pwned\u0007T\u202eitle","subtitle":"Approve\rDeny ok\b\bNO",
      "body":"A\u001b]52;c;SGVsbG8=\u0007B \u001b[2J\u001b[H \u009b2J\u009d0;x\u009c before\u0000after %s%n \u2066q\u2069 \u200e\u200f\u061c"},
      "category":"message"}}
      """#, into: session)
    for view in 0..<3 {
      if view == 1 { session.send(.command(.longPress)) }
      if view == 2 { session.send(.command(.openCenter)) }
      let grid = session.frame().grid
      for cell in grid.cells {
        #expect(!cell.text.unicodeScalars.contains(where: TerminalTextTests.isForbidden))
      }
      let ansi = grid.ansiText(depth: .trueColor).text
      let withoutSGR = ansi.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
      #expect(
        !withoutSGR.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || (0x80...0x9F).contains($0.value) })
    }
    session.send(.key(.escape))
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("␛]0;pwned␇T‹RLO›itle"))
    #expect(text.contains("Approve␍Deny ok␈␈NO"))
    #expect(text.contains("before␀after"))
  }

  @Test func bodyTallerThanTheBudgetIsClippedWithTheOverflowInPoints() throws {
    // Title (headline, 22 pt) + 20 body lines (22 pt each) = 462 pt.
    let body = (1...20).map { "line \($0)" }.joined(separator: "\\n")
    let json = #"{"aps":{"alert":{"title":"Tall","body":"\#(body)"}}}"#
    for (device, shown, over) in [(DeviceProfile.Kind.iphone, 13, 142), (.ipad, 15, 110)] {
      let session = try Fixtures.session(device: device, size: (80, 40))
      try Fixtures.push(json, into: session)
      session.send(.command(.longPress))
      let text = session.frame().grid.text
      #expect(text.contains("line \(shown)"))
      #expect(!text.contains("line \(shown + 1)"))
      #expect(text.contains("\(over) pt over the \(Int(DeviceProfile.profile(device).contentBudget)) pt budget"))
    }
  }
}
