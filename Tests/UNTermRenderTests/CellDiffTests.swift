import Testing

@testable import UNTermRender

@Suite("Which cells a frame writes")
struct CellDiffTests {
  private func grid(_ lines: [String], width: Int = 8) -> CellGrid {
    var grid = CellGrid(width: width, height: lines.count)
    for (y, line) in lines.enumerated() { grid.write(line, x: 0, y: y, style: .plain) }
    return grid
  }

  private func positions(_ list: [(Int, Int)]) -> [CellPosition] {
    list.map { CellPosition(x: $0.0, y: $0.1) }
  }

  @Test("No previous grid, or another size: every cluster, continuations skipped")
  func full() {
    let next = grid(["a中b"], width: 5)
    #expect(CellDiff.changes(from: nil, to: next) == positions([(0, 0), (1, 0), (3, 0), (4, 0)]))
    #expect(
      CellDiff.changes(from: grid(["a中b"], width: 6), to: next) == CellDiff.allCells(of: next))
  }

  @Test("An identical grid writes nothing")
  func identical() {
    #expect(CellDiff.changes(from: grid(["hello", "ক্ষমা"]), to: grid(["hello", "ক্ষমা"])).isEmpty)
  }

  @Test("One changed character writes one cell")
  func oneCell() {
    #expect(
      CellDiff.changes(from: grid(["hello", "world"]), to: grid(["hello", "wOrld"]))
        == positions([(1, 1)]))
  }

  @Test("A style change alone is a change")
  func style() {
    let before = grid(["ab"])
    var after = before
    after.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.adding(.bold) }
    #expect(CellDiff.changes(from: before, to: after) == positions([(1, 0)]))
  }

  @Test("A wide character replacing two narrow ones is written once, at its first column")
  func narrowToWide() {
    #expect(CellDiff.changes(from: grid(["abcd"]), to: grid(["a中d"])) == positions([(1, 0)]))
  }

  @Test("Two narrow characters replacing a wide one are both written")
  func wideToNarrow() {
    #expect(
      CellDiff.changes(from: grid(["a中d"]), to: grid(["abcd"])) == positions([(1, 0), (2, 0)]))
  }

  @Test("A wide character shifted by one column writes the cells it now covers")
  func shifted() {
    #expect(
      CellDiff.changes(from: grid(["中xy"]), to: grid(["x中y"])) == positions([(0, 0), (1, 0)]))
  }

  @Test("A change only in a continuation cell rewrites its cluster")
  func continuationOnly() {
    let before = grid(["a中b"])
    var after = before
    after.restyle(Rect(x: 2, y: 0, width: 1, height: 1)) { $0.adding(.underline) }
    #expect(CellDiff.changes(from: before, to: after) == positions([(1, 0)]))
  }

  @Test("A Bengali cluster of width 3 changing is one write; the next cluster is its own")
  func bengali() {
    #expect(CellDiff.changes(from: grid(["ক্ষ্ম x"]), to: grid(["ক্ষ্ব x"])) == positions([(0, 0)]))
    // A vowel sign widens the cluster to 4 columns, so what follows moves too.
    #expect(
      CellDiff.changes(from: grid(["ক্ষ্ম x"]), to: grid(["ক্ষ্মা x"]))
        == positions([(0, 0), (4, 0), (5, 0)]))
    #expect(CellDiff.changes(from: grid(["ক্ষ্ম x"]), to: grid(["ক্ষ্ম y"])) == positions([(4, 0)]))
  }

  @Test("Changes come row by row, left to right")
  func order() {
    let changes = CellDiff.changes(from: grid(["ab", "cd", "ef"]), to: grid(["aB", "Cd", "eF"]))
    #expect(changes == positions([(1, 0), (0, 1), (1, 2)]))
  }

  @Test("The ANSI text writes the clusters the diff names: a restyled right half redraws its cluster")
  func ansiFollowsTheDiff() {
    let before = grid(["中x"])
    var after = before
    after.restyle(Rect(x: 1, y: 0, width: 2, height: 1)) { $0.adding(.reverse) }
    #expect(CellDiff.changes(from: before, to: after) == positions([(0, 0), (2, 0)]))
    #expect(after.terminalUpdate(from: before, depth: .palette256) == "\u{1B}[1;1H\u{1B}[0m中\u{1B}[0;7mx\u{1B}[0m")
    #expect(after.terminalUpdate(from: after, depth: .palette256).isEmpty)
  }
}
