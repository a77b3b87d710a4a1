import Testing

@testable import UNTermCore

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
}
