import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// One table of keys (`KeyBindings`) drives the update, the keys overlay, the status bar,
/// `unterm help keys` and the README's key table.
@Suite("Key bindings")
struct KeyBindingTests {
  let message = #"{"aps":{"alert":{"title":"Ana Lima","body":"Are we still on for 8?"},"category":"message"}}"#

  @Test func theOverlayListsEveryKeyThatWorks() throws {
    let session = try Fixtures.session(size: (80, 24))
    try Fixtures.push(message, into: session)
    session.send(.key(.character("?")))
    expectScreen(
      session.frame().grid,
      [
        " ╭─────────╭─ Keys ─────────────────────────────────────────────────╮",
        " │ App     │ 1–9 0       choose an action (0 = tenth)               │",
        " │ Ana Lima│ ↑ ↓ k j     move between notifications or actions      │",
        " │ Are we s│ Space l     long-press: expanded view with actions     │",
        " │ ▾ Reply │ ⏎           tap: open, fan out a stack; choose; send   │",
        " ╰─────────│ x           clear (a collapsed stack: all of it)       │",
        "           │ p           play / pause media                         │",
        "           │ Esc         close / hide the banner / cancel           │",
        "           │ s           show less: collapse the stack              │",
        "           │ Tab         the buttons of an interactive extension    │",
        "           │ PgUp PgDn   a page of the list; scroll the view        │",
        "           │ Home End    first / last notification; in a field too  │",
        "           │ c           show or hide the notification list         │",
        "           │ L F         lock or unlock; F: cycle Focus modes       │",
        "           │ d           switch iPhone / iPad                       │",
        "           │ t g         next theme / language (says which)         │",
        "           │ h o         app to the background; o: offline / online │",
        "           │ ?           show these keys                            │",
        "           │ q Ctrl-C    quit (Ctrl-C even in a text field)         │",
        "           │ type        type into a reply or the passcode          │",
        "           │ ← → ⇧ ⌫ Del move, select (⇧), delete (text field)      │",
        "     1 in N│ any key     close this overlay                         │",
        "           ╰────────────────────────────────────────────────────────╯",
        " iPhone · Unlocked │ any key close",
      ])
    // Every row of the table is on that screen, so a new key shows up without touching the view.
    let screen = session.frame().grid.text
    for binding in KeyBindings.all {
      #expect(screen.contains(binding.label) && screen.contains(binding.help), "\(binding.label) is not listed")
    }
    session.send(.key(.character("x")))  // any key closes, and does nothing else
    #expect(!session.state.isHelpVisible)
    #expect(session.state.store.deliveredCount == 1)
  }

  @Test func aShortScreenSaysHowManyKeysAreCutAndWhereToReadThem() throws {
    let session = try Fixtures.session(size: (60, 14))
    session.send(.key(.character("?")))
    expectScreen(
      session.frame().grid,
      [
        " ╭─ Keys ─────────────────────────────────────────────────╮",
        " │ 1–9 0       choose an action (0 = tenth)               │",
        " │ ↑ ↓ k j     move between notifications or actions      │",
        " │ Space l     long-press: expanded view with actions     │",
        " │ ⏎           tap: open, fan out a stack; choose; send   │",
        " │ x           clear (a collapsed stack: all of it)       │",
        " │ p           play / pause media                         │",
        " │ Esc         close / hide the banner / cancel           │",
        " │ s           show less: collapse the stack              │",
        " │ Tab         the buttons of an interactive extension    │",
        " │ PgUp PgDn   a page of the list; scroll the view        │",
        " │ ⋯ 11 more: unterm help keys                            │",
        " ╰────────────────────────────────────────────────────────╯",
        " iPhone · Unlocked │ any key close",
      ])
  }

  @Test func everyRowFitsTheOverlayUncut() {
    for binding in KeyBindings.all {
      #expect(DisplayWidth.of(binding.label) <= 11, "\(binding.label)")
      #expect(DisplayWidth.of(binding.help) <= 42, "\(binding.help) is cut in the overlay")
      #expect(!binding.entries.isEmpty)
    }
  }

  @Test func noKeyMeansTwoThingsInOneContext() {
    for context in KeyContext.allCases {
      var seen: [KeyPattern: KeyAction] = [:]
      for binding in KeyBindings.all {
        for entry in binding.entries where entry.contexts.contains(context) {
          if let other = seen[entry.pattern] {
            Issue.record("\(entry.pattern.label) in \(context): both \(other) and \(entry.action)")
          }
          seen[entry.pattern] = entry.action
        }
      }
    }
  }

  /// Keys the old help left out, each doing what the table says where it says.
  @Test func theKeysTheOldHelpMissedWork() throws {
    let session = try Fixtures.session(size: (80, 24))
    for i in 1...3 {
      let json = #"{"aps":{"alert":"Message \#(i)","category":"message","thread-id":"t\#(i)"}}"#
      try Fixtures.push(json, into: session, as: "m\(i)")
    }
    session.send(.command(.openCenter))
    #expect(session.state.listFocus == "m3")
    session.send(.key(.end))
    #expect(session.state.listFocus == "m1")
    session.send(.key(.home))
    #expect(session.state.listFocus == "m3")
    // In a text field Home and End move the cursor instead.
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.type("bc")))
    session.send(.key(.home))
    session.send(.key(.character("a")))
    session.send(.key(.end))
    session.send(.key(.character("d")))
    #expect(session.state.expanded?.reply?.field.text == "abcd")
    #expect(session.state.listFocus == "m3")
    // A key the table does not bind here does nothing: p outside the expanded view.
    session.send(.key(.escape))
    session.send(.key(.escape))
    let before = session.frame().grid.text
    session.send(.key(.character("p")))
    #expect(session.frame().grid.text == before)
  }

  @Test func theStatusBarShowsTheTablesHintsForEachContext() throws {
    let session = try Fixtures.session(size: (200, 24))
    func hints() -> [String] { KeyBindings.hints(for: session.state).map { "\($0.keys) \($0.text)" } }
    func status() -> String { session.frame().grid.lines.last ?? "" }
    try Fixtures.push(message, into: session)
    #expect(hints() == ["Space actions", "⏎ open", "x clear", "Esc hide", "c list", "L lock", "? keys"])
    try Fixtures.push(message, into: session)
    session.send(.command(.openCenter))
    // Two notifications of one app stack: a tap fans the stack out, x clears the group.
    #expect(hints() == ["↑↓ move", "Space actions", "⏎ expand", "x clear all", "c close list", "L lock", "? keys"])
    session.send(.key(.enter))
    #expect(
      hints() == ["↑↓ move", "Space actions", "⏎ open", "x clear", "s show less", "c close list", "L lock", "? keys"])
    session.send(.command(.longPress))
    #expect(hints() == ["1-3 action", "↑↓ select", "⏎ open", "x clear", "Esc close", "? keys"])
    session.send(.key(.down))
    #expect(hints() == ["1-3 action", "↑↓ select", "⏎ choose", "x clear", "Esc close", "? keys"])
    session.send(.command(.chooseAction("reply")))
    #expect(hints() == ["type reply", "⏎ send", "Esc cancel"])
    session.send(.key(.escape))
    session.send(.command(.lock))
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    #expect(hints() == ["type passcode", "⏎ unlock", "Esc cancel"])
    // What the status bar draws is exactly these hints.
    #expect(status().hasSuffix("│ type passcode  ⏎ unlock  Esc cancel"))
    // Each hint belongs to a row whose keys work in the context it is shown in.
    let context = session.state.keyContext
    for binding in KeyBindings.all where binding.hint?(session.state, context) != nil {
      #expect(binding.contexts.contains(context), "\(binding.label) hints where it does not work")
    }
  }

  @Test func theStatusBarOffersPlayPauseForMedia() throws {
    let session = try Fixtures.session(size: (200, 30))
    try session.push(try Payload.load(Fixtures.sample("voice-memo.json")))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    #expect(KeyBindings.hints(for: session.state).map(\.keys).contains("p"))
  }

  /// The keys reference (Docs/reference/keys.md) is the table, row for row.
  @Test func theKeysReferenceIsTheTable() throws {
    let page = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Docs/reference/keys.md"), encoding: .utf8)
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex(of: "| key | does |"), "no key table in Docs/reference/keys.md")
    let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
    let readmeRows = rows.map { row -> [String] in
      row.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let tableRows = KeyBindings.all.map { [$0.markdownKeys, $0.about] }
    for (i, row) in tableRows.enumerated() where i >= readmeRows.count || readmeRows[i] != row {
      Issue.record("The keys reference, row \(i + 1): want | \(row.joined(separator: " | ")) |")
    }
    for row in readmeRows.dropFirst(tableRows.count) {
      Issue.record("The keys reference has a row the table lacks: | \(row.joined(separator: " | ")) |")
    }
    if readmeRows != tableRows {
      print("Docs/reference/keys.md should read (Scripts/gen-docs.sh):\n\(KeyBindings.markdownTable)")
    }
  }

  @Test func tSaysWhichThemeIsNowActive() throws {
    let session = try Fixtures.session(size: (80, 24))
    let next = try #require(session.state.themeNames.dropFirst().first)
    session.send(.key(.character("t")))
    #expect(session.state.themeName == next)
    #expect(session.frame().grid.text.contains("Theme: \(next)"))
    // Round the cycle and back to the first.
    for _ in 1..<session.state.themeNames.count { session.send(.key(.character("t"))) }
    #expect(session.state.themeName == "default")
    #expect(session.state.notices.last?.text == "Theme: default")
  }
}
