import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermState

/// A page is what the screen shows (issue 25.5): PgDn and PgUp move the expanded view, a tall
/// extension view and the list by the rows actually visible (at least one), so at no size is a
/// row skipped.
@Suite("PgUp and PgDn move by what the screen shows", .hangGuard)
struct PagingTests {
  /// The content rows of the open expanded view: between the header's divider and the next
  /// divider, without the "⋯ N more rows" line.
  private func contentRows(_ session: Session) -> [String] {
    let lines = session.frame().lines(of: .card) ?? []
    guard let start = lines.firstIndex(where: { $0.hasPrefix("├") }) else { return [] }
    let rest = lines[(start + 1)...]
    let end = rest.firstIndex(where: { $0.hasPrefix("├") || $0.hasPrefix("╰") }) ?? rest.endIndex
    return rest[..<end].filter { !$0.contains("⋯") }
  }

  private func expandedSession(
    _ size: (Int, Int), payload: String = "long-body.json", extensions: [String] = []
  ) throws -> Session {
    let session = try Fixtures.session(size: size) { $0.extensionFiles = extensions }
    try session.push(
      try Payload.load(Fixtures.sample(payload), categories: session.state.store.registry), identifier: "n")
    session.send(.command(.longPress))
    return session
  }

  /// Pages down to the end and back up, and checks every row of the content was on screen on
  /// the way down, in order, and each page moved by the rows it showed.
  private func expectNoRowSkipped(_ size: (Int, Int), payload: String = "long-body.json", extensions: [String] = [])
    throws
  {
    let tall = try expandedSession((size.0, 200), payload: payload, extensions: extensions)
    let all = contentRows(tall)
    #expect(all.count > 3, "\(size): \(all)")
    let session = try expandedSession(size, payload: payload, extensions: extensions)
    var seen = contentRows(session)
    var pages = 0
    while session.state.expanded?.scroll ?? 0 < session.renderer.expandedScrollLimit(session.state) ?? 0, pages < 500 {
      let before = session.state.expanded?.scroll ?? 0
      let shown = contentRows(session).count
      session.send(.key(.pageDown))
      let after = session.state.expanded?.scroll ?? 0
      #expect(after > before && after - before <= max(1, shown), "\(size): \(before) → \(after), \(shown) shown")
      // The rows that came into view continue where the last page ended.
      let page = contentRows(session)
      seen += page.suffix(after - before)
      pages += 1
    }
    #expect(seen == all, "\(size): paging down skipped or repeated rows")
    var up = 0
    while session.state.expanded?.scroll ?? 0 > 0, up < 500 {
      let before = session.state.expanded?.scroll ?? 0
      session.send(.key(.pageUp))
      #expect((session.state.expanded?.scroll ?? 0) < before)
      up += 1
    }
    #expect(session.state.expanded?.scroll == 0)
  }

  @Test(arguments: [(40, 12), (24, 8), (30, 9), (47, 14), (80, 24), (60, 10)])
  func theExpandedViewPagesByItsVisibleRows(_ columns: Int, _ rows: Int) throws {
    try expectNoRowSkipped((columns, rows))
  }

  /// The report's case: at 40×12 the card shows two content rows, so each PgDn moves two (it
  /// moved six, past the headline and the body) and PgUp comes back the same way.
  @Test func at40By12EachPageIsTheTwoRowsShown() throws {
    let session = try expandedSession((40, 12))
    #expect(
      contentRows(session) == ["│ Release notes 4.2                  │", "│ This release reworks how           │"])
    session.send(.key(.pageDown))
    #expect(session.state.expanded?.scroll == 2)
    #expect(
      contentRows(session) == ["│ notifications are grouped and      │", "│ summarized. Threads now keep their │"])
    session.send(.key(.pageDown))
    session.send(.key(.pageUp))
    #expect(session.state.expanded?.scroll == 2)
  }

  @Test(arguments: [(40, 12), (80, 16)])
  func aTallExtensionViewPagesByItsVisibleRows(_ columns: Int, _ rows: Int) throws {
    try expectNoRowSkipped(
      (columns, rows), payload: "chat-thread.json", extensions: [Fixtures.sample("extension-chat-card.json")])
  }

  /// The list moves its focus by the entries it shows whole at once: three stacks (six rows
  /// each) on 80×24, where five-row cards would have made it four and skipped one.
  @Test func theListPagesByTheEntriesItShows() throws {
    let session = try Fixtures.session(size: (80, 24))
    for thread in 1...6 {
      for n in 1...2 {
        try Fixtures.push(
          #"{"aps":{"alert":{"title":"T\#(thread) \#(n)","body":"b"},"thread-id":"t\#(thread)"}}"#, into: session,
          as: "t\(thread)-\(n)")
      }
    }
    session.send(.command(.openCenter))
    #expect(session.state.listFocus == "t6-2")
    #expect(ListLayout.page(session.state) == 3)
    session.send(.key(.pageDown))
    // Three steps of the focus, the first into the open stack.
    #expect(session.state.listFocus == "t5-1", "\(session.state.listFocus ?? "")")
    session.resize(width: 40, height: 8)
    #expect(ListLayout.page(session.state) == 1)
  }
}
