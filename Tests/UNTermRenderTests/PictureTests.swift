import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender

/// SVG and HTML pictures of the grid: every run at its column, wide clusters two cells, the
/// theme's colours, payload text inert.
@Suite("Pictures")
struct PictureTests {
  /// The `<text>` elements of a picture as (column, cells, text).
  private func placed(_ svg: String) throws -> [(Int, Int, String)] {
    try PictureReader(svg).all("text").compactMap { element in
      guard let x = element.attributes["x"].flatMap(Int.init),
        let length = element.attributes["textLength"].flatMap(Int.init)
      else { return nil }
      return ((x - 8) / 8, length / 8, element.text)
    }
  }

  @Test func runsSitAtTheirColumnsAndWideClustersTakeTwoCells() throws {
    var grid = CellGrid(width: 12, height: 1)
    grid.write("ab 日本 │x", x: 1, y: 0, style: .plain)
    let runs = try placed(grid.svg(title: "t"))
    #expect(runs.map(\.0) == [1, 4, 6, 9])
    #expect(runs.map(\.1) == [2, 2, 2, 2])
    #expect(runs.map(\.2) == ["ab", "日", "本", "│x"])
    let svg = grid.svg(title: "t")
    #expect(svg.contains(##"textLength="16" lengthAdjust="spacingAndGlyphs" fill="#e6e6e6">日</text>"##))
  }

  @Test func runsBreakWhereTheStyleChanges() throws {
    var grid = CellGrid(width: 10, height: 1)
    grid.write("│", x: 0, y: 0, style: Style(foreground: .indexed(245)))
    grid.write("hi", x: 2, y: 0, style: Style(attributes: .bold))
    grid.write("│", x: 9, y: 0, style: Style(foreground: .indexed(245)))
    let svg = grid.svg(title: "t")
    #expect(try placed(svg).map(\.0) == [0, 2, 9])
    #expect(svg.contains(##"<text x="8" y="20" textLength="8" fill="#8a8a8a">│</text>"##))
    #expect(svg.contains(##"textLength="16" fill="#e6e6e6" font-weight="bold">hi</text>"##))
  }

  /// The picture of real screens reads back, row by row, as the terminal's lines: Bengali
  /// conjuncts, Urdu, CJK with emoji, and a hostile payload's placeholders.
  @Test(arguments: ["message-bengali.json", "message-urdu.json", "cjk-emoji.json", "hostile"])
  func picturesReadLikeTheScreen(_ name: String) throws {
    let session = try Fixtures.session()
    if name == "hostile" {
      try Fixtures.push(Fixtures.hostilePayload, into: session)
    } else {
      try session.push(try Payload.load(Fixtures.sample(name), categories: session.state.store.categories))
    }
    for view in ["banner", "expanded", "center"] {
      if view == "expanded" { session.send(.command(.longPress)) }
      if view == "center" {
        session.send(.key(.escape))
        session.send(.command(.openCenter))
      }
      let grid = session.frame().grid
      let svg = grid.svg(title: name)
      let reader = try PictureReader(svg)
      #expect(reader.rows == grid.lines, "\(name) \(view)")
    }
  }

  @Test func payloadTextIsEscapedAndOpensNoElement() throws {
    var grid = CellGrid(width: 60, height: 2)
    let nasty = "</svg><script>alert('x')</script> & &amp; \"q\" <![CDATA[ ]]>"
    grid.write(nasty, x: 0, y: 0, style: .plain)
    for svg in [grid.svg(title: nasty), grid.svg(title: "t", attributes: [("data-x", nasty)])] {
      let reader = try PictureReader(svg)
      #expect(Set(reader.elements.map(\.name)) == ["svg", "title", "style", "rect", "text"])
      #expect(reader.rows.first == nasty)
    }
    #expect(
      grid.svg(title: "t").contains("&lt;/svg&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &amp;amp;"))
  }

  @Test func charactersXMLForbidsBecomeReplacementCharacters() throws {
    // The sanitizer never lets these into a grid; the picture stays well-formed even so.
    var grid = CellGrid(width: 10, height: 1)
    grid.write("a\u{1}b\u{85}c\u{FFFF}", x: 0, y: 0, style: .plain)
    let reader = try PictureReader(grid.svg(title: "x\u{0}y"))
    // (`write` gives a lone zero-width cluster a dotted circle to stand on.)
    #expect(reader.rows == ["a◌\u{FFFD}b◌\u{FFFD}c\u{FFFD}"])
    #expect(reader.all("title").first?.text == "x\u{FFFD}y")
    #expect(
      Markup.escape("<a href=\"x\">'&'</a>\tok\n") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\tok\n")
  }

  @Test func coloursComeFromTheThemeAtTruecolor() {
    let style = PictureStyle()
    #expect(style.colors(Style(foreground: .indexed(245))).foreground.hex == "#8a8a8a")
    #expect(style.colors(Style(foreground: .rgb(0x0A, 0x84, 0xFF))).foreground.hex == "#0a84ff")
    #expect(style.colors(Style(foreground: .ansi(9))).foreground.hex == "#ff0000")
    #expect(style.colors(Style(background: .indexed(238))).background.hex == "#444444")
    #expect(style.colors(.plain).foreground == style.terminalForeground)
    #expect(style.colors(.plain).background == style.terminalBackground)
    let reversed = style.colors(Style(foreground: .ansi(15), background: .rgb(0x0A, 0x84, 0xFF), attributes: .reverse))
    #expect(reversed.foreground.hex == "#0a84ff")
    #expect(reversed.background.hex == "#ffffff")
    // Dim is drawn at lower intensity: 40% of the way to the background.
    #expect(
      style.colors(Style(foreground: .ansi(15), background: .ansi(0), attributes: .dim)).foreground.hex == "#999999")
  }

  @Test func backgroundsAreRectanglesOverTheirCells() throws {
    var grid = CellGrid(width: 8, height: 2)
    grid.fill(Rect(x: 2, y: 1, width: 3, height: 1), style: Style(background: .rgb(1, 2, 3)))
    let rects = try PictureReader(grid.svg(title: "t")).all("rect")
    #expect(rects.count == 2)
    #expect(rects[1].attributes == ["x": "24", "y": "24", "width": "24", "height": "16", "fill": "#010203"])
  }

  @Test func blockArtIsDrawnAsRectanglesFillingTheirCells() throws {
    var grid = CellGrid(width: 5, height: 1)
    let red = Style(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255))
    grid.write("▀▀", x: 1, y: 0, style: red)
    grid.write("▄", x: 3, y: 0, style: red)
    grid.write("█", x: 4, y: 0, style: Style(foreground: .rgb(0, 255, 0)))
    let reader = try PictureReader(grid.svg(title: "t"))
    #expect(reader.all("text").isEmpty)
    let shapes = reader.all("rect").dropFirst().map {
      [$0.attributes["x"], $0.attributes["y"], $0.attributes["width"], $0.attributes["height"], $0.attributes["fill"]]
    }
    #expect(
      shapes == [
        ["16", "8", "24", "16", "#0000ff"],  // the background of the three art cells
        ["16", "8", "16", "8", "#ff0000"],  // ▀▀: the top halves, merged
        ["32", "16", "8", "8", "#ff0000"],  // ▄: the bottom half
        ["40", "8", "8", "16", "#00ff00"],  // █: the whole cell
      ])
  }

  @Test func theMarginContinuesTheScreensBackground() throws {
    var grid = CellGrid(width: 4, height: 2, fill: Style(background: .rgb(0, 0, 0)))
    grid.fill(Rect(x: 1, y: 1, width: 2, height: 1), style: Style(background: .rgb(0x1C, 0x1C, 0x1E)))
    grid.fill(Rect(x: 3, y: 1, width: 1, height: 1), style: .plain)
    let rects = try PictureReader(grid.svg(title: "t")).all("rect").map { $0.attributes["fill"] }
    // The margin is the screen's black; the card and the one cell at the terminal's own
    // background are painted over it.
    #expect(rects == ["#000000", "#1c1c1e", "#16181d"])
  }

  @Test func aRegionShowsOnlyItsCellsAndDropsACutWideCluster() throws {
    var grid = CellGrid(width: 10, height: 3)
    grid.write("abc日", x: 2, y: 1, style: .plain)
    let svg = grid.svg(region: Rect(x: 2, y: 1, width: 4, height: 1), title: "t")
    let reader = try PictureReader(svg)
    #expect(reader.rows == ["abc"])
    let root = try #require(reader.all("svg").first)
    #expect(root.attributes["width"] == "48")
    #expect(root.attributes["data-column"] == "2")
    #expect(root.attributes["data-rows"] == "1")
  }

  @Test func marksOutlineTheirCellsAndSayWhy() throws {
    let grid = CellGrid(width: 10, height: 4)
    let svg = grid.svg(
      marks: [PictureMark(cells: Rect(x: 1, y: 2, width: 8, height: 1), label: "32 pt over the 320 pt budget")],
      title: "t")
    let mark = try #require(PictureReader(svg).all("rect").last)
    #expect(mark.attributes["class"] == "overflow-mark")
    #expect(mark.attributes["x"] == "15")
    #expect(mark.attributes["y"] == "39")
    #expect(mark.attributes["width"] == "66")
    #expect(try PictureReader(svg).all("title").last?.text == "32 pt over the 320 pt budget")
  }

  @Test func theHTMLPageHoldsThePictureAndForbidsScripts() {
    var grid = CellGrid(width: 10, height: 1)
    grid.write("<b>hi</b>", x: 0, y: 0, style: .plain)
    let page = grid.html(title: "<i>t</i>")
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<title>&lt;i&gt;t&lt;/i&gt;</title>"))
    #expect(page.contains("Content-Security-Policy"))
    #expect(page.contains("default-src 'none'"))
    #expect(page.contains("&lt;b&gt;hi&lt;/b&gt;</text>"))
    #expect(!page.contains("xmlns="))
    #expect(!page.contains("<b>"))
  }

  @Test func theRendererMarksContentClippedAtTheBudget() throws {
    let session = try Fixtures.session(size: (80, 40)) {
      $0.extensionFiles = [Fixtures.sample("extension-media-card.json")]
    }
    try session.push(
      try Payload.load(Fixtures.sample("media-episode.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    let frame = session.frame()
    let mark = try #require(frame.overflowMarks.first)
    #expect(mark.label == "32 pt over the 320 pt budget")
    #expect(frame.grid.line(mark.row).contains("32 pt over the 320 pt budget"))
    #expect(mark.card.x == 1 && mark.card.width == 45)
    session.send(.key(.escape))
    #expect(session.frame().overflowMarks.isEmpty)
  }
}
