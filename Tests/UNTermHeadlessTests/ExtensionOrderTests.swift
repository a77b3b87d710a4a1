import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermState

/// A content extension's view sits at the top of the expanded notification and the system's
/// title, subtitle and body below it, as on iOS (issue 25.2): on the screen `render` prints,
/// in lint's budget report, and in the design sheet.
@Suite("A content extension's view above the default content", .hangGuard)
struct ExtensionOrderTests {
  private func folder(spacer: Int = 48, hidden: Bool = false) throws -> URL {
    let dir = try Fixtures.temporaryDirectory()
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }
    try write(
      "ext.json",
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"order","UNNotificationExtensionInitialContentSizeRatio":0.2,"UNNotificationExtensionDefaultContentHidden":\#(hidden)},"view":{"elements":[{"label":"Map of {{userInfo.city}}","style":"title3"},{"spacer":\#(spacer)},{"label":"Rider: {{userInfo.rider}}","style":"footnote"}]}}"#
    )
    try write(
      "cats.json", #"{"categories":[{"identifier":"order","actions":[{"identifier":"track","title":"Track"}]}]}"#)
    try write(
      "order.json",
      #"{"aps":{"alert":{"title":"Order 4711","subtitle":"Dabba","body":"Your rider is two streets away"},"category":"order"},"city":"Dhaka","rider":"Rahim"}"#
    )
    return dir
  }

  private func unterm(_ arguments: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments, directory: dir.path)
  }

  @Test func renderDrawsTheViewThenTheDefaultContent() throws {
    let dir = try folder()
    let out = try unterm(
      [
        "render", "--categories", "cats.json", "--extension", "ext.json", "--view", "expanded", "--size", "60x18",
        "--now", "2026-01-01T00:00:00Z", "order.json",
      ], in: dir)
    #expect(out.status == 0, "\(out.stderr)")
    let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0).replacing(/\ +$/, with: "")
    }
    #expect(
      Array(lines.prefix(15)) == [
        "       ╭───────────────────────────────────────────╮",
        "       │ App                                now  ✕ │",
        "       ├───────────────────────────────────────────┤",
        "       │ Map of Dhaka                              │",
        "       │                                           │",
        "       │                                           │",
        "       │                                           │",
        "       │ Rider: Rahim                              │",
        "       │                                           │",
        "       │ Order 4711                                │",
        "       │ Dabba                                     │",
        "       │ Your rider is two streets away            │",
        "       ├───────────────────────────────────────────┤",
        "       │ 1  Track                                  │",
        "       │ x  Dismiss                                │",
      ], "\(out.stdout)")
  }

  @Test func hiddenDefaultContentLeavesTheViewAlone() throws {
    let dir = try folder(hidden: true)
    let out = try unterm(
      ["render", "--categories", "cats.json", "--extension", "ext.json", "--view", "expanded", "order.json"], in: dir)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.contains("Map of Dhaka"))
    #expect(!out.stdout.contains("Your rider"))
    #expect(!out.stdout.contains("Order 4711"))
  }

  /// The budget holds the view and the default content under it, so what it cuts first is the
  /// default content at the bottom, never the view's top.
  @Test func lintCountsTheDefaultContentAndCutsItFirst() throws {
    let dir = try folder(spacer: 260)
    let out = try unterm(["lint", "--categories", "cats.json", "--extension", "ext.json", "order.json"], in: dir)
    let notes = out.stdout.split(separator: "\n").map(String.init)
    let iphone = try #require(notes.first { $0.contains("note[extension-size]: iphone:") }, "\(out.stdout)")
    #expect(
      iphone
        == "ext.json:1:175: note[extension-size]: iphone: initial 71.8 pt (359 × 0.2), preferred 303 pt + 80 pt of default content below it, budget 320 pt, 63 pt over; cut: default title, default subtitle, default body with order.json [view]",
      "\(out.stdout)")
    let finding = try #require(notes.first { $0.contains("[extension-overflow]") }, "\(out.stdout)")
    #expect(finding.contains("the view and the default content below it are 383 pt tall, 63 pt over"), "\(finding)")
  }

  @Test func theSheetReportsTheDefaultContentBelowTheView() throws {
    let dir = try folder()
    let out = try unterm(
      [
        "sheet", "--categories", "cats.json", "--extension", "ext.json", "--views", "expanded", "--out", "s.html",
        "order.json",
      ], in: dir)
    #expect(out.status == 0, "\(out.stderr)")
    let html = try String(contentsOf: dir.appendingPathComponent("s.html"), encoding: .utf8)
    #expect(html.contains("<dt>Default content below it</dt><dd>80 pt</dd>"))
    let view = try #require(html.range(of: "Map of Dhaka"))
    let title = try #require(html.range(of: "Order 4711", range: view.upperBound..<html.endIndex))
    #expect(view.upperBound <= title.lowerBound)
  }
}
