import Testing
import UNTermTestSupport

@testable import UNTermRender

@Suite("Cell grid")
struct CellGridTests {
  @Test func wideClustersAreNeverSplitAtTheClipEdge() {
    var grid = CellGrid(width: 8, height: 1)
    grid.write("|", x: 0, y: 0, style: .plain)
    grid.write("|", x: 7, y: 0, style: .plain)
    grid.write("中文字", x: 1, y: 0, style: .plain, clip: Rect(x: 1, y: 0, width: 5, height: 1))
    expectScreen(grid, ["|中文  |"])
  }

  @Test func overwritingHalfAWideClusterBlanksTheOtherHalf() {
    var grid = CellGrid(width: 6, height: 1)
    grid.write("中文", x: 0, y: 0, style: .plain)
    grid.write("x", x: 1, y: 0, style: .plain)
    expectScreen(grid, [" x文"])
    grid.write("y", x: 2, y: 0, style: .plain)
    expectScreen(grid, [" xy"])
  }

  @Test func loneCombiningMarkGetsADottedCircle() {
    var grid = CellGrid(width: 4, height: 1)
    grid.write("\u{301}a", x: 0, y: 0, style: .plain)
    expectScreen(grid, ["◌́a"])
  }

  @Test(arguments: ["ক্ষমা করো", "প্রজ্ঞা দাস", "یہ ایک اطلاع ہے", "明日の会議は10時", "👨👩👧 👍🏽 🇯🇵 ❤️"])
  func bordersStayAlignedWithHardScripts(_ text: String) {
    var grid = CellGrid(width: 12, height: 1)
    grid.write("│", x: 0, y: 0, style: .plain)
    grid.write(text, x: 1, y: 0, style: .plain, clip: Rect(x: 1, y: 0, width: 10, height: 1))
    grid.write("│", x: 11, y: 0, style: .plain)
    let line = grid.line(0)
    #expect(line.hasPrefix("│") && line.hasSuffix("│"))
    #expect(DisplayWidth.of(line) == 12)
  }

  @Test func writesOutsideTheGridAreIgnored() {
    var grid = CellGrid(width: 3, height: 2)
    grid.write("abcdef", x: -2, y: 0, style: .plain)
    grid.write("zz", x: 0, y: 5, style: .plain)
    grid.fill(Rect(x: -1, y: -1, width: 100, height: 100), style: .plain)
    #expect(grid.lines.count == 2)
    _ = CellGrid(width: 0, height: 0).text
  }
}

@Suite("Cell grid with unsanitized text")
struct CellGridRobustnessTests {
  /// The sanitizer runs first everywhere, but the grid itself must never trap on raw text.
  @Test func rawControlsNeverCrash() {
    var grid = CellGrid(width: 10, height: 1)
    grid.write("a\u{1B}b\u{0}c\u{301}\u{9B}", x: 0, y: 0, style: .plain)
    #expect(grid.width == 10)
  }
}
