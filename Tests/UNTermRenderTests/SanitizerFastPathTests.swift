import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermRender

/// Both sanitizers let most text through without taking it apart scalar by scalar (a start-up
/// cost): `TerminalText` printable ASCII, `SafeText` text with nothing it changes (line feeds
/// included when multiline). Whatever the shortcut takes must come out exactly as the scalar
/// loop would give it. A new seed each run, printed with any failure (`UNTERM_TEST_SEED`
/// replays it).
@Suite("Sanitizers: the shortcut gives what the scalar loop gives")
struct SanitizerFastPathTests {
  static let seed = TestSeed()

  /// The edges of the shortcuts: empty, only spaces, only line feeds, CR LF, tabs, DEL, the
  /// last and first non-ASCII scalars, separators, controls.
  static let edges = [
    "", " ", "   ", "a", "\n", "\n\n", "a\n", "\na", " \n ", "\r\n", "a\r\nb", "a\rb", "a\tb", "\t", "x\u{7F}",
    "~", "\u{80}", "é", "\u{A0}", "\u{2028}", "a\u{2029}b", "\u{1B}[31m", "\u{0}", "\u{9B}", "\u{202E}abc",
    "\u{061C}", "\u{200B}", "\u{FE0F}", "❤\u{FE0F}", "Jenna: see you at 9:30?\nRoom 4B",
  ]

  /// Pieces of notification text: ASCII (often alone, so the shortcut is taken), line breaks,
  /// and what must not be let through (controls, bidi controls, separators) or must be kept
  /// whole (Urdu, Bengali, joiners, emoji, CJK).
  static let asciiPieces = ["Jenna", "Room 4B", " ", "  ", "9:30", "50%", "(ok)", "~", "\n", "!", "a", "{}"]
  static let otherPieces = [
    "عائشہ", "سلام", "پیغامات", "ক্ষমা", "আমন্ত্রণ", "র\u{200D}্য", "می\u{200C}خواهم", "😀", "👍🏽", "👨‍👩‍👧",
    "❤\u{FE0F}", "今日", "\u{202E}", "\u{2066}", "\u{200E}", "\u{061C}", "\u{1B}[2J", "\u{0}", "\u{7}", "\r", "\r\n",
    "\t", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}", "\u{200B}", "\u{FE0F}", "\u{301}",
  ]

  static func randomText(_ generator: inout SeededGenerator) -> String {
    let asciiOnly = Bool.random(using: &generator)
    return (0..<Int.random(in: 0...12, using: &generator)).map { _ in
      let pieces = asciiOnly || Int.random(in: 0..<4, using: &generator) > 0 ? asciiPieces : otherPieces
      return pieces.randomElement(using: &generator) ?? ""
    }.joined()
  }

  static func cases() -> [String] {
    var generator = seed.generator
    return edges + (0..<2000).map { _ in randomText(&generator) }
  }

  @Test func terminalTextShortcutMatchesTheScalarLoop() {
    for text in Self.cases() {
      for multiline in [true, false] {
        let quick = TerminalText.sanitize(text, multiline: multiline)
        let slow = TerminalText.sanitizeEachScalar(text, multiline: multiline)
        #expect(
          quick == slow,
          "\(text.debugDescription) multiline \(multiline): \(quick.debugDescription) ≠ \(slow.debugDescription), \(Self.seed)"
        )
      }
    }
  }

  @Test func safeTextShortcutMatchesTheScalarLoop() {
    for text in Self.cases() {
      for multiline in [true, false] {
        let quick = SafeText(sanitizing: text, multiline: multiline).text
        let slow = SafeText.sanitizeEachScalar(text, multiline: multiline)
        #expect(
          quick == slow,
          "\(text.debugDescription) multiline \(multiline): \(quick.debugDescription) ≠ \(slow.debugDescription), \(Self.seed)"
        )
      }
    }
  }

  /// The shortcut is taken where it should be: ASCII text and a screen's rows come back as
  /// they are, line feeds and all; text that is only line feeds is still named, not blank.
  @Test func shortcutsKeepWhatTheyShould() {
    #expect(TerminalText.sanitize("Room 4B\nat 9:30") == "Room 4B\nat 9:30")
    #expect(TerminalText.sanitize("Room 4B\nat 9:30", multiline: false) == "Room 4B at 9:30")
    #expect(TerminalText.sanitize("\n\n") == "⏎⏎")
    let rows = "╭──────╮\n│ Jenna │\n╰──────╯"
    #expect(SafeText(sanitizing: rows, multiline: true).text == rows)
    #expect(SafeText(sanitizing: rows, multiline: false).text == "╭──────╮␊│ Jenna │␊╰──────╯")
    #expect(SafeText(sanitizing: "a\r\nb", multiline: true).text == "a\nb")
  }

  /// A cluster's width by its one byte, by its scalars otherwise: CR LF (one cluster of two
  /// ASCII bytes) has none, as its scalars have none.
  @Test func asciiClusterWidths() {
    #expect(DisplayWidth.of(Character("a")) == 1)
    #expect(DisplayWidth.of(Character(" ")) == 1)
    #expect(DisplayWidth.of(Character("\u{7F}")) == 0)
    #expect(DisplayWidth.of(Character("\n")) == 0)
    #expect(DisplayWidth.of(Character("\r\n")) == 0)
    #expect(DisplayWidth.of(Character("e\u{301}")) == 1)
    #expect(DisplayWidth.of(Character("今")) == 2)
  }
}
