import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermState
@testable import UserNotificationsUI

/// Dynamic Type (issue 13.3): Apple's table of point sizes and leadings, and what the user's
/// text size does to heights, to letters per line, and to the budget check.
@Suite("Dynamic Type")
struct DynamicTypeTests {
  @Test func theTableIsApplesForEverySizeAndStyle() {
    #expect(UNTextStyle.dynamicTypeTable.count == DynamicTypeSize.allCases.count)
    for row in UNTextStyle.dynamicTypeTable { #expect(row.count == UNTextStyle.allCases.count) }
    // Spot checks against the HIG's tables, one per table.
    #expect(UNTextStyle.body.metrics(at: .xSmall) == TypeMetrics(pointSize: 14, leading: 19))
    #expect(UNTextStyle.body.metrics(at: .large) == TypeMetrics(pointSize: 17, leading: 22))
    #expect(UNTextStyle.title1.metrics(at: .xxxLarge) == TypeMetrics(pointSize: 34, leading: 41))
    #expect(UNTextStyle.subheadline.metrics(at: .xxxLarge) == TypeMetrics(pointSize: 21, leading: 28))
    #expect(UNTextStyle.caption2.metrics(at: .accessibility3) == TypeMetrics(pointSize: 29, leading: 35))
    #expect(UNTextStyle.body.metrics(at: .accessibility5) == TypeMetrics(pointSize: 53, leading: 62))
    // The contract's default line heights are the table's Large column.
    #expect(UNTextStyle.allCases.map(\.lineHeight) == [34, 28, 25, 22, 22, 21, 20, 18, 16, 13])
    // Every style grows, never shrinks, from one size to the next.
    for style in UNTextStyle.allCases {
      let sizes = DynamicTypeSize.allCases.map { style.metrics(at: $0) }
      for (a, b) in zip(sizes, sizes.dropFirst()) {
        #expect(a.pointSize <= b.pointSize && a.leading <= b.leading, "\(style)")
      }
    }
  }

  @Test func largerTextWrapsSoonerAndEachLineIsTaller() {
    let text = "Are we still on for 8? I booked the table at the place near the station."
    let large = ContentBlock.text(text, role: .body, style: .body, size: .large, width: 41, name: "body")
    let ax5 = ContentBlock.text(text, role: .body, style: .body, size: .accessibility5, width: 41, name: "body")
    let small = ContentBlock.text(text, role: .body, style: .body, size: .xSmall, width: 41, name: "body")
    // 41 columns at 17 pt are 13 at 53 pt (41 × 17 / 53 = 13.1).
    #expect(Projection.textColumns(41, style: .body, size: .accessibility5) == 13)
    #expect(large.rows == 2 && large.points == 44)
    // "Are we still", "on for 8? I", "booked the", "table at the", "place near", "the station.": 6 lines of 62 pt.
    #expect(ax5.rows == 6 && ax5.points == 6 * 62, "\(ax5.kind)")
    // A terminal cannot draw smaller letters: xSmall wraps as Large, each line 19 pt.
    #expect(small.rows == 2 && small.points == 38)
    guard case .text(let lines, _, _) = ax5.kind else {
      Issue.record("not text")
      return
    }
    #expect(lines.allSatisfy { DisplayWidth.of($0.text) <= 13 }, "\(lines)")
  }

  @Test func aBudgetCutsTextAtItsLeading() {
    let block = ContentBlock.text(
      String(repeating: "word ", count: 40), role: .body, style: .body, size: .accessibility2, width: 41, name: "body")
    // 40 pt a line: 320 pt hold 8 lines.
    let content = BudgetedContent(blocks: [block], budget: 320)
    #expect(content.placed.first?.visibleRows == 8)
    #expect(content.overflow == block.points - 320)
  }

  @Test func theBannerAndTheListFollowTheTextSize() throws {
    let json =
      #"{"aps":{"alert":{"title":"Ana Lima","body":"Are we still on for 8? I booked the table at the place near the station."}}}"#
    let session = try Fixtures.session(categories: false, size: (60, 14)) { $0.textSize = .accessibility3 }
    defer { session.detach() }
    try Fixtures.push(json, into: session)
    // 41 columns at 17 pt are 17 at 40 pt: the banner's four lines hold that much.
    expectScreen(
      session.frame().grid,
      [
        "       ╭───────────────────────────────────────────╮",
        "       │ App                                   now │",
        "       │ Ana Lima                                  │",
        "       │ Are we still on                           │",
        "       │ for 8? I booked                           │",
        "       │ the table at the…                         │",
        "       ╰───────────────────────────────────────────╯",
        "",
        "",
        "",
        "",
        "           1 in Notification Center · c to open",
        "",
        " iPhone · Unlocked · Text AX3 │ Space actions  ? keys",
      ])
    session.send(.command(.openCenter))
    let card = session.frame().lines(of: .card) ?? []
    // The list card's two lines: the title, and as much of the body as 17 columns hold.
    #expect(card.dropFirst(2).first == "┃ Ana Lima                                  ┃", "\(card)")
    #expect(card.dropFirst(3).first == "┃ Are we still on…                          ┃", "\(card)")
  }
}
