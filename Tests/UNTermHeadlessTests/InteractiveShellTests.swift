import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermShell
@testable import UNTermState
@testable import UserNotificationsModel

/// The interactive loop itself — keys in, frames out, pastes, resizes, suspend, posted work —
/// run on the in-memory terminal with its virtual clock, reading the screen it shows.
@Suite("The interactive loop on an in-memory terminal", .serialized, .hangGuard)
struct InteractiveShellTests {
  /// A session with the sample categories and one message, a terminal, and a shell on both.
  private struct Rig {
    let session: Session
    let terminal: InMemoryTerminal
    let shell: InteractiveShell
    var responses: [UNNotificationResponse] = []

    init(
      width: Int = 80, height: Int = 24, payloads: [String] = ["message.json"],
      configure: (inout SessionConfiguration) -> Void = { _ in }
    ) throws {
      session = try Fixtures.session(size: (width, height), configure: configure)
      for name in payloads {
        try session.push(try Payload.load(Fixtures.sample(name), categories: session.state.store.categories))
      }
      session.finishServiceExtensions(within: 5)
      let terminal = InMemoryTerminal(width: width, height: height, now: Fixtures.now)
      self.terminal = terminal
      shell = InteractiveShell(session: session, depth: .palette256, clock: { terminal.now })
    }

    /// Runs the loop until the queued input is used up (the terminal then hangs up).
    func run() -> Int32? { shell.run(on: terminal) }

    var screen: [String] { terminal.screen.lines }
  }

  @Test("Keys in, frames out: a reply typed, edited with Home and End, sent; q quits")
  func replyThroughTheLoop() throws {
    let rig = try Rig()
    nonisolated(unsafe) var sent: [String] = []
    rig.session.onResponse = { response, _ in
      sent.append((response as? UNTextInputNotificationResponse)?.userText ?? response.actionIdentifier)
    }
    rig.terminal.type(" ", after: 0.1)
    rig.terminal.type("1", after: 0.1)
    rig.terminal.type("hi", after: 0.1)
    rig.terminal.press(.home, after: 0.1)
    rig.terminal.type("X", after: 0.1)
    rig.terminal.press(.end, .function(5), .insert, .modified(.left, .control), .modified(.character("1"), .alt))
    rig.terminal.type("!", after: 0.1)
    rig.terminal.press(.enter, after: 0.1)
    rig.terminal.type("q", after: 0.1)
    #expect(rig.run() == nil)
    #expect(sent == ["Xhi!"])
    #expect(!rig.terminal.hasPendingInput)
    #expect(rig.screen.contains { $0.contains("✓ reply · req-1") })
  }

  @Test("A paste goes into the reply field as text, control characters shown, and sent as pasted")
  func pasteIntoTheReplyField() throws {
    let rig = try Rig()
    nonisolated(unsafe) var sent: [String] = []
    rig.session.onResponse = { response, _ in
      sent.append((response as? UNTextInputNotificationResponse)?.userText ?? response.actionIdentifier)
    }
    rig.terminal.type(" ", after: 0.1)
    rig.terminal.type("1", after: 0.1)
    rig.terminal.type("ok", after: 0.1)
    rig.terminal.input([.paste(" \u{1B}[31mred\r1")], after: 0.1)
    rig.terminal.input([], after: 0.1)
    #expect(rig.run() == nil)
    #expect(rig.screen.contains { $0.contains("ok ␛[31mred␍1") })
    rig.terminal.press(.enter)
    rig.terminal.type("q", after: 0.1)
    #expect(rig.run() == nil)
    #expect(sent == ["ok \u{1B}[31mred\r1"])
  }

  @Test("A paste outside a text field does nothing: no action chosen, nothing cleared")
  func pasteOutsideAField() throws {
    let rig = try Rig()
    nonisolated(unsafe) var sent: [String] = []
    rig.session.onResponse = { response, _ in sent.append(response.actionIdentifier) }
    rig.terminal.input([.paste("x")], after: 0.1)
    rig.terminal.type(" ", after: 0.1)
    rig.terminal.input([.paste("1")], after: 0.1)
    rig.terminal.input([.paste("x")], after: 0.1)
    #expect(rig.run() == nil)
    #expect(sent.isEmpty)
    #expect(rig.session.state.store.deliveredCount == 1)
    #expect(rig.session.state.expanded?.reply == nil)
    #expect(rig.screen.contains { $0.contains("1  Reply") })
  }

  @Test("Idle, nothing is redrawn: one frame, then a wait with no timeout but the label's")
  func idleDrawsOnce() throws {
    let rig = try Rig(payloads: [])
    #expect(rig.run() == nil)
    #expect(rig.terminal.counters.presents == 1)
    #expect(rig.terminal.waits == [-1])
    expectScreen(rig.terminal.screen, Array(rig.session.frame().grid.lines))
  }

  @Test("A burst of 100 resizes within a second repaints a few times, and ends at the last size")
  func resizeBurst() throws {
    let rig = try Rig()
    for i in 0..<100 {
      let (width, height) = i % 2 == 0 ? (100, 30) : (90, 28)
      rig.terminal.resize(width: width + i % 7, height: height, after: 0.01)
    }
    rig.terminal.input([], after: 1)
    let before = rig.terminal.counters
    #expect(rig.run() == nil)
    let repaints = rig.terminal.counters.fullRepaints - before.fullRepaints
    print("100 resizes: \(repaints) full repaints, \(rig.terminal.counters.bytes) bytes")
    #expect(repaints >= 1 && repaints <= 5, "\(repaints) full repaints")
    #expect(rig.terminal.screen.width == 90 + 99 % 7 && rig.terminal.screen.height == 28)
    expectScreen(rig.terminal.screen, rig.session.frame().grid.lines)
  }

  @Test("Resizes to the size the screen already has repaint nothing")
  func sameSizeResizes() throws {
    let rig = try Rig()
    rig.terminal.press(.character("c"), after: 0.1)
    rig.terminal.input([], after: 0.1)
    #expect(rig.run() == nil)
    let settled = rig.terminal.counters
    for _ in 0..<100 { rig.terminal.resize(width: 80, height: 24, after: 0.01) }
    #expect(rig.run() == nil)
    #expect(rig.terminal.counters.presents > settled.presents)
    #expect(rig.terminal.counters.fullRepaints == settled.fullRepaints)
    #expect(rig.terminal.counters.framesWithChanges == settled.framesWithChanges)
    #expect(rig.terminal.counters.bytes == settled.bytes)
  }

  @Test("Ctrl-Z suspends through the terminal, and the loop carries on")
  func suspend() throws {
    let rig = try Rig()
    rig.terminal.input([.suspend], after: 0.1)
    rig.terminal.type("c", after: 0.1)
    rig.terminal.type("q", after: 0.1)
    #expect(rig.run() == nil)
    #expect(rig.terminal.counters.suspensions == 1)
    #expect(rig.session.state.hasQuit)
  }

  @Test("Work posted from another thread wakes the loop and is drawn")
  func postedWork() throws {
    let rig = try Rig(payloads: [])
    let session = rig.session
    let payload = try Payload.load(Fixtures.sample("meeting.json"), categories: session.state.store.categories)
    Thread.detachNewThread {
      session.queue.post { _ = try? session.push(payload) }
    }
    #expect(Eventually.wait { !session.queue.isEmpty }, "the other thread never posted")
    rig.terminal.input([.wake], after: 0.5)
    #expect(rig.run() == nil)
    #expect(rig.screen.joined().contains("Design review"))
  }

  @Test("A termination signal ends the loop and is handed back")
  func signal() throws {
    let rig = try Rig()
    rig.terminal.input([.signal(SIGTERM)], after: 0.1)
    #expect(rig.run() == SIGTERM)
  }

  @Test("Every frame the terminal shows is the frame rendered: the one diff leaves nothing stale")
  func screensMatchFrames() throws {
    let rig = try Rig(payloads: ["message.json", "message-bengali.json", "cjk-emoji.json", "meeting.json"])
    for key: Key in [.character("c"), .down, .down, .character(" "), .escape, .up, .character("d"), .character("t")] {
      rig.terminal.press(key, after: 0.1)
    }
    rig.terminal.resize(width: 70, height: 20, after: 0.1)
    rig.terminal.press(.down, after: 0.5)
    #expect(rig.run() == nil)
    #expect(rig.terminal.screen == rig.session.frame().grid)
  }

  // MARK: - Golden screens with style

  private func styledGolden(
    _ name: String, payloads: [String], keys: [Key], size: (Int, Int) = (80, 24), bundle: String? = nil
  ) throws {
    let theme = try StyleNotation.themeFile()
    defer { try? FileManager.default.removeItem(atPath: theme) }
    let rig = try Rig(width: size.0, height: size.1, payloads: payloads) {
      $0.theme = theme
      if let bundle { $0.bundle = bundle }
    }
    for key in keys { rig.terminal.press(key, after: 0.1) }
    #expect(rig.run() == nil)
    expectGolden(StyleNotation.render(rig.terminal.screen), named: name)
  }

  /// Messages is the session's own app here, so its badge is the one the list's title and the
  /// status bar show in the badge's colours.
  @Test("Styled golden: the focused card in the list")
  func focusedCard() throws {
    try styledGolden(
      "focused-card.iphone.center.styled", payloads: ["meeting.json", "message.json"],
      keys: [.character("c"), .down], bundle: "com.example.messages")
  }

  @Test("Styled golden: a destructive action, and the selected one")
  func destructiveAction() throws {
    try styledGolden("message.iphone.expanded.styled", payloads: ["message.json"], keys: [.character(" "), .down])
  }

  @Test("Styled golden: the overflow marker of a view over its budget")
  func overflowMarker() throws {
    try styledGolden("long-body.iphone.expanded.styled", payloads: ["long-body.json"], keys: [.character(" ")])
  }
}
