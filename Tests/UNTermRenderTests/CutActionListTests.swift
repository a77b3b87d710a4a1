import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermState

/// On a screen too short for every action, the expanded view shows the selected action and a
/// row saying how many more are above or below (QA: at 30×10 the list stopped at Decline with
/// nothing to say that Open Calendar and Dismiss were below), and content cut to its first row
/// keeps the row that says how much more there is.
@Suite("A cut action list says what it hides")
struct CutActionListTests {
  /// A meeting invitation: four actions and Dismiss.
  private let meeting = #"""
    {"aps":{"alert":{"title":"Design review","body":"Today 15:00–15:30 · Room 4. Priya invited you."},"category":"meeting-invite"}}
    """#

  private func opened(_ size: (Int, Int)) throws -> Session {
    let session = try Fixtures.session(size: size)
    try Fixtures.push(meeting, into: session)
    session.send(.command(.longPress))
    return session
  }

  @Test func theTopOfACutListSaysHowManyMoreAreBelow() throws {
    let session = try opened((30, 10))
    defer { session.detach() }
    expectScreen(
      session.frame().grid,
      [
        " ╭──────────────────────────╮",
        " │ App               now  ✕ │",
        " ├──────────────────────────┤",
        " │ Design review            │",
        " │ ⋯ 2 more rows · PgDn     │",
        " ├──────────────────────────┤",
        " │ 1  Accept                │",
        " │ ⋯ 4 more · ↓             │",
        " ╰──────────────────────────╯",
        " iPhone · Unlocked │ ? keys",
      ])
  }

  @Test func movingDownKeepsTheSelectionInViewWithAMarkerEachSide() throws {
    let session = try opened((30, 12))
    defer { session.detach() }
    func actionRows() -> [String] { Array(session.frame().grid.lines[6..<10]) }
    #expect(
      actionRows() == [
        " │ 1  Accept                │", " │ 2  Maybe                 │", " │ 3  ⚠ Decline             │",
        " │ ⋯ 2 more · ↓             │",
      ])
    // The first down selects Accept; at Decline the list is still at its top.
    for _ in 0..<3 { session.send(.key(.down)) }
    #expect(
      actionRows() == [
        " │ 1  Accept                │", " │ 2  Maybe                 │", " │›3  ⚠ Decline             │",
        " │ ⋯ 2 more · ↓             │",
      ])
    // Open Calendar: the end of the list, the two above it hidden.
    session.send(.key(.down))
    #expect(
      actionRows() == [
        " │ ⋯ 2 more · ↑             │", " │ 3  ⚠ Decline             │", " │›4  Open Cal… (opens app) │",
        " │ x  Dismiss               │",
      ])
    session.send(.key(.down))
    #expect(actionRows().last == " │›x  Dismiss               │")
  }

  /// The window over `count` rows in `rows` rows: which are shown, and how many hide each side.
  @Test(arguments: [
    // Everything fits.
    (5, 5, 0, 0..<5, 0, 0), (3, 8, 2, 0..<3, 0, 0),
    // The top: the rest below.
    (5, 3, 0, 0..<2, 0, 3), (5, 3, 1, 0..<2, 0, 3),
    // The middle: a marker each side.
    (5, 3, 2, 2..<3, 2, 2), (7, 4, 3, 2..<4, 2, 3),
    // The end: the rest above.
    (5, 3, 3, 3..<5, 3, 0), (5, 3, 4, 3..<5, 3, 0),
    // Two rows: the selected one and one marker; one row: the selected one alone.
    (5, 2, 0, 0..<1, 0, 4), (5, 2, 2, 2..<3, 0, 2), (5, 2, 4, 4..<5, 4, 0), (5, 1, 3, 3..<4, 0, 0),
    // No rows; a selection out of range is held to the list.
    (5, 0, 2, 0..<0, 0, 0), (5, 3, 9, 3..<5, 3, 0),
  ])
  func theWindow(count: Int, rows: Int, selected: Int, shown: Range<Int>, above: Int, below: Int) {
    let window = Renderer.ActionWindow(count: count, rows: rows, selected: selected)
    #expect(window == Renderer.ActionWindow(shown: shown, above: above, below: below))
    // Never more rows than there are, the selected one always among them when there is a row.
    #expect(window.shown.count + (window.above > 0 ? 1 : 0) + (window.below > 0 ? 1 : 0) <= rows)
    if rows > 0 { #expect(window.shown.contains(min(selected, count - 1))) }
  }
}
