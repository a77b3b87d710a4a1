import Testing

@testable import UNTermRender

/// The hostile strings of terminal-safety.md §8 items 1–8: each renders visibly, and no control,
/// C1 or bidi-control character survives sanitizing.
@Suite("Sanitizer")
struct TerminalTextTests {
  static let hostile: [(String, String)] = [
    ("osc52", "A\u{1B}]52;c;SGVsbG8=\u{07}B"),
    ("clear", "x\u{1B}[2J\u{1B}[H\u{1B}]0;title\u{07}y"),
    ("c1", "X\u{9B}2JY\u{9D}0;pwned\u{9C}Z"),
    ("cr", "Approve\rDeny"),
    ("bs", "ok\u{8}\u{8}NO"),
    ("bidi", "ab\u{202E}CBA\u{2066}q\u{2069}\u{200E}\u{200F}\u{61C}"),
    ("nul", "before\u{0}after"),
    ("invisible", "\u{200B}\u{200D}\u{FE0F}"),
    ("format", "%s%s%n%x"),
    ("del", "a\u{7F}b"),
  ]

  static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 && scalar != "\n" || (0x7F...0x9F).contains(scalar.value)
      || TerminalText.isBidiControl(scalar)
  }

  @Test(arguments: hostile.map(\.1))
  func noControlSurvives(_ text: String) {
    let safe = TerminalText.sanitize(text)
    #expect(!safe.unicodeScalars.contains(where: Self.isForbidden), "\(safe.debugDescription)")
    #expect(DisplayWidth.of(safe) > 0)
  }

  @Test func controlsBecomeVisiblePlaceholders() {
    #expect(TerminalText.sanitize("A\u{1B}]52;c;SGVsbG8=\u{07}B") == "A␛]52;c;SGVsbG8=␇B")
    #expect(TerminalText.sanitize("Approve\rDeny") == "Approve␍Deny")
    #expect(TerminalText.sanitize("ok\u{8}\u{8}NO") == "ok␈␈NO")
    #expect(TerminalText.sanitize("before\u{0}after") == "before␀after")
    #expect(TerminalText.sanitize("X\u{9B}2J") == "X‹9B›2J")
    #expect(TerminalText.sanitize("ab\u{202E}CBA") == "ab‹RLO›CBA")
    #expect(TerminalText.sanitize("%s%n") == "%s%n")
  }

  @Test func lineBreaksStayBreaksAndTabsBecomeSpaces() {
    #expect(TerminalText.sanitize("a\r\nb\nc\u{2028}d\te") == "a\nb\nc\nd e")
    #expect(TerminalText.sanitize("a\nb", multiline: false) == "a b")
  }

  @Test func joinersAreKeptBetweenLettersButNotBetweenEmoji() {
    let persian = "می\u{200C}خواهم"
    #expect(TerminalText.sanitize(persian) == persian)
    let bengali = "র\u{200D}্য"
    #expect(TerminalText.sanitize(bengali) == bengali)
    #expect(TerminalText.sanitize("👨‍👩‍👧") == "👨👩👧")
  }

  @Test func invisibleOnlyTextIsNamed() {
    #expect(TerminalText.sanitize("\u{200B}\u{200D}\u{FE0F}") == "‹ZWSP›‹ZWJ›‹VS16›")
  }
}

@Suite("Sanitizer and emoji presentation")
struct EmojiPresentationTests {
  /// Terminals disagree on ❤️'s width; the text presentation is one column everywhere.
  @Test func variationSelector16AfterANarrowCharacterIsDropped() {
    #expect(TerminalText.sanitize("❤️ ✔️ 😀\u{FE0F}") == "❤ ✔ 😀\u{FE0F}")
    #expect(DisplayWidth.of(TerminalText.sanitize("I ❤️ it")) == 6)
  }
}
