import Foundation
import Testing
import UNTermBidi
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// Random mixes of Urdu, Arabic, English, Bengali, digits, emoji, CJK and hostile controls, laid
/// out at random widths and walked with the arrows. A new seed each run, printed with any
/// failure (`UNTERM_TEST_SEED` replays it).
@Suite("Bidi layout on random text")
struct BidiRandomTests {
  static let seed = TestSeed()

  /// Pieces a notification is made of, hostile ones included.
  static let pieces = [
    "سلام", "مرحبا", "پیغامات", "ملاقات", "بِسْمِ", "لا", "اللّٰهِ", "عائشہ", "gpt-5", "Room", "4B", "Jenna", "hello",
    "12", "9:30", "1,250.50", "٣", "۲۰۲۶", "-5", "50%", "(", ")", "[", "]", "«", "»", "،", "۔", "!", "?", "ক্ষমা",
    "আমন্ত্রণ", "খেলতে", "😀", "👍🏽", "今日", "\u{202E}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2069}", "\u{202C}",
    "\u{200F}", "\u{200E}", "\u{061C}", "\u{1B}[31m", "\u{0}", "\u{200B}", " ", " ", " ", "  ", "\n",
  ]

  private func randomText(_ generator: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...24, using: &generator)).map { _ in
      Self.pieces.randomElement(using: &generator) ?? ""
    }.joined()
  }

  private static let controls: Set<UInt32> = [
    0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0x1B,
  ]

  @Test func everyLineFitsKeepsItsTextAndNoControlReachesTheScreen() {
    var generator = Self.seed.generator
    for _ in 0..<400 {
      let safe = TerminalText.sanitize(randomText(&generator))
      let width = Int.random(in: 1...40, using: &generator)
      let direction: BidiParagraph.Direction = Bool.random(using: &generator) ? .auto : .preferRightToLeft
      let lines = TextLayout.lines(safe, width: width, direction: direction)
      let context = "\(safe.debugDescription) at \(width) — \(Self.seed)"
      for line in lines {
        // A cluster is never split: one wider than the line stands alone (and is clipped).
        let fits = DisplayWidth.of(line.text) <= width || line.text.count == 1
        #expect(fits, "\(line.text.debugDescription) \(context)")
        #expect(DisplayWidth.of(line.visual) <= max(width, DisplayWidth.of(line.text)), "\(context)")
        #expect(!line.visual.unicodeScalars.contains { Self.controls.contains($0.value) }, "\(context)")
        // A placeholder the line holds is drawn whole and unmirrored.
        for placeholder in ["‹RLO›", "‹LRO›", "‹LRI›", "‹RLI›", "‹PDI›", "‹PDF›", "‹RLM›", "‹LRM›", "‹ALM›"]
        where line.text.contains(placeholder) {
          #expect(line.visual.contains(placeholder), "\(line.visual.debugDescription) \(context)")
        }
      }
      // Nothing lost, nothing doubled: the lines hold every cluster but the spaces at breaks.
      let kept = lines.map(\.text).joined().filter { $0 != " " }
      #expect(kept == safe.filter { $0 != " " && $0 != "\n" }, "\(context)")
    }
  }

  @Test func eachLinesOrderIsAPermutationOfItsClusters() {
    var generator = Self.seed.generator
    for _ in 0..<400 {
      let safe = TerminalText.sanitize(randomText(&generator), multiline: false)
      let paragraph = BidiParagraph(safe, direction: Bool.random(using: &generator) ? .auto : .preferRightToLeft)
      let count = paragraph.clusters.count
      let start = Int.random(in: 0...count, using: &generator)
      let end = Int.random(in: start...count, using: &generator)
      let order = paragraph.visualOrder(of: start..<end)
      #expect(order.sorted() == Array(start..<end), "\(safe.debugDescription) \(start)..<\(end) — \(Self.seed)")
    }
  }

  @Test func theArrowsVisitEveryPlaceOnScreenOnceInOrder() {
    var generator = Self.seed.generator
    for _ in 0..<200 {
      var field = TextField(text: randomText(&generator).replacingOccurrences(of: "\n", with: " "))
      let direction: BidiParagraph.Direction = Bool.random(using: &generator) ? .auto : .preferRightToLeft
      let paragraph = BidiParagraph(field.text, direction: direction)
      let count = paragraph.clusters.count
      let context = "\(field.text.debugDescription) — \(Self.seed)"
      // Walk to the left end, then right to the right end: every column once, one step at a time.
      for _ in 0...count { field.moveOnScreen(right: false, extend: false, mode: .visual, direction: direction) }
      var column = TextField.caretColumn(of: field, in: paragraph)
      #expect(column == 0, "\(context)")
      for _ in 0..<count {
        field.moveOnScreen(right: true, extend: false, mode: .visual, direction: direction)
        let next = TextField.caretColumn(of: field, in: paragraph)
        #expect(next == column + 1, "\(context)")
        column = next
      }
      field.moveOnScreen(right: true, extend: false, mode: .visual, direction: direction)
      #expect(TextField.caretColumn(of: field, in: paragraph) == count, "nothing right of the text: \(context)")
      // What the field draws agrees: its units cover the columns once, the caret among them.
      let layout = FieldLayout(field, mode: .visual, direction: direction)
      #expect(layout.caretColumn == layout.width, "\(context)")
      var expected = 0
      for unit in layout.units {
        #expect(unit.column == expected, "\(context)")
        expected += unit.width
      }
    }
  }
}
