import Testing
import UNTermRender

@testable import UNTermCurses

@Suite("Splitting clusters into cchar runs")
struct CellRunsTests {
  /// Runs written as `offset:scalars` with scalars in hex, for readable expectations.
  private func shape(_ runs: [CellRun]) -> [String] {
    runs.map { run in
      "\(run.offset)+\(run.width):"
        + run.scalars.map { String($0.value, radix: 16) }.joined(separator: ",")
    }
  }

  @Test("Plain and wide characters are one run")
  func single() {
    #expect(shape(CellRuns.split("a")) == ["0+1:61"])
    #expect(shape(CellRuns.split("中")) == ["0+2:4e2d"])
    #expect(shape(CellRuns.split("😀")) == ["0+2:1f600"])
  }

  @Test("Combining marks ride with their base")
  func combining() {
    #expect(shape(CellRuns.split("e\u{301}")) == ["0+1:65,301"])
    #expect(shape(CellRuns.split("❤️")) == ["0+1:2764,fe0f"])
  }

  @Test("A Bengali conjunct is a run per spacing letter, the virama riding with the first")
  func bengali() {
    #expect(shape(CellRuns.split("ক্ষ")) == ["0+1:995,9cd", "1+1:9b7"])
    #expect(shape(CellRuns.split("প্র")) == ["0+1:9aa,9cd", "1+1:9b0"])
  }

  @Test("A width-3 Bengali cluster from the grid is three runs covering its three columns")
  func bengaliWidthThree() throws {
    var grid = CellGrid(width: 10, height: 1)
    grid.write("ক্ষ্ম", x: 0, y: 0, style: .plain)
    let cell = grid[0, 0]
    #expect(cell.text == "ক্ষ্ম")
    #expect(cell.width == 3)
    let runs = CellRuns.layout(cell.text, width: Int(cell.width))
    #expect(runs.map(\.offset) == [0, 1, 2])
    #expect(shape(runs) == ["0+1:995,9cd", "1+1:9b7,9cd", "2+1:9ae"])
  }

  @Test("Emoji sequences split at every wide scalar, joiners ride along")
  func emoji() {
    #expect(shape(CellRuns.split("👍🏽")) == ["0+2:1f44d", "2+2:1f3fd"])
    #expect(shape(CellRuns.split("👨‍👩‍👧")) == ["0+2:1f468,200d", "2+2:1f469,200d", "4+2:1f467"])
    #expect(shape(CellRuns.split("🇯🇵")) == ["0+1:1f1ef", "1+1:1f1f5"])
  }

  @Test("At most CCHARW_MAX scalars per run; extra marks are dropped")
  func limit() {
    #expect(CellRuns.maxScalars == 5)
    let runs = CellRuns.split("a" + String(repeating: "\u{301}", count: 7))
    #expect(runs.count == 1)
    #expect(runs[0].scalars.count == 5)
  }

  @Test("Controls are dropped, a leading mark has nothing to join, unprintables become U+FFFD")
  func hostile() {
    #expect(shape(CellRuns.split("\u{1B}[2Jx")) == ["0+1:5b", "1+1:32", "2+1:4a", "3+1:78"])
    #expect(shape(CellRuns.split("\u{301}a")) == ["0+1:61"])
    #expect(shape(CellRuns.split("a\u{9B}b")) == ["0+1:61", "1+1:62"])
    #expect(shape(CellRuns.split("\u{E0080}")).first?.hasSuffix(":fffd") == true)
  }

  @Test("Layout fills exactly the cell's width")
  func layout() {
    // Runs wider than the cell are dropped, missing columns become spaces.
    #expect(shape(CellRuns.layout("👍🏽", width: 2)) == ["0+2:1f44d"])
    #expect(shape(CellRuns.layout("a", width: 2)) == ["0+1:61", "1+1:20"])
    #expect(shape(CellRuns.layout("", width: 1)) == ["0+1:20"])
    #expect(CellRuns.layout("", width: 0).isEmpty)
    #expect(shape(CellRuns.layout("ক্ষ", width: 2)) == ["0+1:995,9cd", "1+1:9b7"])
  }

  @Test(
    "Every cluster the grid writes is covered exactly by its runs",
    arguments: ["ক্ষ প্রজ্ঞা", "یہ ایک اطلاع ہے", "通知センター", "👍🏽 🇯🇵 ❤️ 👨‍👩‍👧", "é Å ñ", "ক্ষমা করো"])
  func coverage(_ text: String) {
    var grid = CellGrid(width: 60, height: 1)
    grid.write(text, x: 0, y: 0, style: .plain)
    for x in 0..<grid.width where !grid[x, 0].isContinuation {
      let cell = grid[x, 0]
      let runs = CellRuns.layout(cell.text, width: Int(cell.width))
      #expect(runs.reduce(0) { $0 + $1.width } == Int(cell.width), "cluster \(cell.text)")
      #expect(runs.allSatisfy { $0.scalars.count <= CellRuns.maxScalars })
    }
  }
}
