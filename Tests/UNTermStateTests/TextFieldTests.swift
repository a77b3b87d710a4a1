import Testing
import UNTermBidi

@testable import UNTermState

/// Cursor positions are written with `│` in the expected strings.
@Suite("Text field editing by grapheme cluster")
struct TextFieldTests {
  private func marked(_ field: TextField) -> String {
    field.textBeforeCursor + "│" + String(field.text.dropFirst(field.cursor))
  }

  @Test func insertsAndDeletesWholeClusters() {
    var field = TextField()
    field.insert("ক্ষমা করো")
    #expect(marked(field) == "ক্ষমা করো│")
    field.deleteBackward()  // রো is one cluster
    #expect(marked(field) == "ক্ষমা ক│")
    field.moveToStart()
    field.deleteForward()  // so is the conjunct ক্ষ
    #expect(marked(field) == "│মা ক")
  }

  @Test func combiningKeystrokesMergeIntoOneCluster() {
    var field = TextField()
    for key in ["ক", "্", "ষ"] { field.insert(key) }
    #expect(field.text == "ক্ষ")
    #expect(field.cursor == field.text.count)
    field.moveLeft()
    #expect(marked(field) == "│ক্ষ")
  }

  @Test(arguments: ["👨‍👩‍👧", "👍🏽", "🇯🇵", "é", "中"])
  func oneBackspaceRemovesOneCluster(_ cluster: String) {
    var field = TextField(text: "a" + cluster + "b")
    field.moveLeft()
    field.deleteBackward()
    #expect(field.text == "ab")
  }

  @Test func movesAndInsertsInTheMiddle() {
    var field = TextField(text: "یہ اطلاع")
    field.moveToStart()
    field.moveRight()
    field.moveRight()
    field.insert(" ایک")
    #expect(field.text == "یہ ایک اطلاع")
    field.moveToEnd()
    #expect(field.cursor == field.text.count)
    field.moveRight()
    #expect(field.cursor == field.text.count)
  }

  /// Where the caret is drawn, in display units from the left.
  private func caret(_ field: TextField) -> Int {
    TextField.caretColumn(of: field, in: BidiParagraph(field.text))
  }

  @Test func arrowsMoveTheCaretOnScreenInRightToLeftText() {
    // سلام shows as م ا ل س from the left; the caret at the logical end is at the left edge.
    var field = TextField(text: "سلام")
    #expect(caret(field) == 0)
    field.moveOnScreen(right: false, extend: false, mode: .visual)
    #expect(field.cursor == 4, "nothing is left of the left edge")
    field.moveOnScreen(right: true, extend: false, mode: .visual)
    #expect(field.cursor == 3 && caret(field) == 1, "→ moves one cluster right on screen: back in logical order")
    field.deleteBackward()
    #expect(field.text == "سلم", "Backspace deletes the cluster the caret touches: ا, to its right")
    #expect(caret(field) == 1)
  }

  @Test func arrowsWalkAMixedLineInDisplayOrder() {
    // "abc ابج" shows as "abc جبا": → walks the caret across every place on screen, left to
    // right. Where the runs meet, position 4 has two places: after the space (col 4) and at
    // the right end, leaning on ا (col 7).
    var field = TextField(text: "abc ابج")
    field.moveToStart()
    var steps = [(field.cursor, caret(field))]
    for _ in 0..<8 {
      field.moveOnScreen(right: true, extend: false, mode: .visual)
      steps.append((field.cursor, caret(field)))
    }
    #expect(steps.map(\.1) == [0, 1, 2, 3, 4, 5, 6, 7, 7])
    #expect(steps.map(\.0) == [0, 1, 2, 3, 4, 6, 5, 4, 4])
    field.moveOnScreen(right: false, extend: false, mode: .visual)
    field.moveOnScreen(right: false, extend: false, mode: .visual)
    field.moveOnScreen(right: false, extend: false, mode: .visual)
    #expect(caret(field) == 4)
    #expect(field.cursor == 7, "coming from the right, col 4 is the end of the Arabic run")
    field.insert("د")
    #expect(field.text == "abc ابجد")
  }

  @Test func shiftArrowsSelectOnScreenAndTypingReplacesTheSelection() {
    var field = TextField(text: "سلام")
    field.moveOnScreen(right: true, extend: true, mode: .visual)
    field.moveOnScreen(right: true, extend: true, mode: .visual)
    #expect(field.selection == 2..<4, "the two clusters at the left of the screen: ام")
    field.insert("ی")
    #expect(field.text == "سلی")
    #expect(field.selection == nil)
    field.moveToStart(extend: true)
    field.deleteBackward()
    #expect(field.text.isEmpty)
  }

  @Test func anArrowCollapsesASelectionToItsEdgeOnThatSide() {
    var field = TextField(text: "hello")
    field.moveOnScreen(right: false, extend: true, mode: .visual)
    field.moveOnScreen(right: false, extend: true, mode: .visual)
    #expect(field.selection == 3..<5)
    field.moveOnScreen(right: false, extend: false, mode: .visual)
    #expect(field.selection == nil && field.cursor == 3)
  }

  @Test func inTerminalModeArrowsMoveInLogicalOrder() {
    // The terminal reorders what UNTerm writes, so the caret follows the logical order.
    var field = TextField(text: "سلام")
    field.moveOnScreen(right: false, extend: false, mode: .logical)
    #expect(field.cursor == 3)
    field.moveOnScreen(right: false, extend: true, mode: .logical)
    #expect(field.selection == 2..<3)
  }
}
