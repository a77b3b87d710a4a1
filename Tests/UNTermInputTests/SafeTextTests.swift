import Foundation
import Testing
import UNTermInput

@Suite("Display-safe text: the sanitizer every output takes")
struct SafeTextTests {
  /// Every scalar a terminal acts on, with what the sanitizer shows for it on one line.
  static var controls: [(UInt32, String)] {
    var out: [(UInt32, String)] = []
    for value in UInt32(0)..<0x20 where value != 0x09 && value != 0x0A {
      out.append((value, String(Character(Unicode.Scalar(0x2400 + value) ?? "?"))))
    }
    out.append((0x7F, "␡"))
    for value in UInt32(0x80)...0x9F { out.append((value, "‹\(String(value, radix: 16, uppercase: true))›")) }
    let bidi: [(UInt32, String)] = [
      (0x061C, "ALM"), (0x200E, "LRM"), (0x200F, "RLM"), (0x202A, "LRE"), (0x202B, "RLE"), (0x202C, "PDF"),
      (0x202D, "LRO"), (0x202E, "RLO"), (0x2066, "LRI"), (0x2067, "RLI"), (0x2068, "FSI"), (0x2069, "PDI"),
    ]
    return out + bidi.map { ($0.0, "‹\($0.1)›") }
  }

  private static func scalar(_ value: UInt32) -> String {
    Unicode.Scalar(value).map { String(Character($0)) } ?? ""
  }

  @Test func everyControlBecomesAVisiblePlaceholder() {
    for (value, placeholder) in Self.controls {
      let text = SafeText(sanitizing: "a" + Self.scalar(value) + "b").text
      #expect(text == "a\(placeholder)b", "U+\(String(value, radix: 16, uppercase: true))")
    }
  }

  @Test func oneLineStaysOneLineAndMultilineKeepsItsBreaks() {
    #expect(SafeText(sanitizing: "a\nb\r\nc\u{2028}d\te").text == "a␊b␍␊c␊d e")
    #expect(SafeText(sanitizing: "a\nb\r\nc\u{2028}d\te", multiline: true).text == "a\nb\nc\nd e")
    #expect(SafeText(sanitizing: "a\rb", multiline: true).text == "a␍b")
    let multi = SafeText(sanitizing: "one\ntwo", multiline: true)
    #expect(multi.oneLine.text == "one␊two")
  }

  @Test func ordinaryTextIsUnchanged() {
    for text in [
      "plain ASCII, punctuation: {}[]\"'\\/", "ক্ষমা প্রজ্ঞা", "یہ ایک اطلاع ہے", "مرحبا gpt-5", "漢字かな", "👨‍👩‍👧 ❤️ 👍🏽 🇺🇸",
      "e\u{301}", "zero\u{200B}width", "Ⅻ ␛ ‹RLO›",
    ] {
      #expect(SafeText(sanitizing: text).text == text)
      #expect(SafeText(sanitizing: text, multiline: true).text == text)
    }
  }

  @Test func interpolationSanitizesValuesAndKeepsTheProgramsOwnText() throws {
    let name = "k\u{1B}]0;pwned\u{07}"
    let path = JSONPath([.key("aps"), .key(name)])
    let number = 42
    let already: SafeText = "␛ kept \("\u{1B}")"
    let text: SafeText = "\u{1B}[1m\(name) \(name.dropFirst()) \(path) \(number) \(already)\u{1B}[0m"
    #expect(text.text == "\u{1B}[1mk␛]0;pwned␇ ␛]0;pwned␇ aps[\"k␛]0;pwned␇\"] 42 ␛ kept ␛\u{1B}[0m")
    struct Failure: Error { var detail = "bad\u{9B}2J" }
    let error: any Error = Failure()
    let described: SafeText = "\(error)"
    #expect(!described.text.unicodeScalars.contains { $0.value == 0x9B })
    let optional: String? = "x\u{7}"
    #expect(SafeText("\(optional)").text == "x␇")
  }

  @Test func joinedAndShortenedTextStaysSafe() {
    let parts: [SafeText] = ["a", "\("b\u{1B}")", "c"]
    #expect(parts.joined(separator: ", ").text == "a, b␛, c")
    #expect(SafeText(sanitizing: "abcdef").prefix(3).text == "abc…")
    #expect(OneLine.quote("x\u{1B}[2J") == "\"x␛[2J\"")
  }

  @Test func theXMLEscaperIsAnotherMaker() {
    let text = SafeText(xmlEscaping: "<b a=\"1\">Tom & Jerry's\u{1B}]0;x\u{07}\u{9B}\u{202E}</b>\tok\n")
    #expect(
      text.text == "&lt;b a=&quot;1&quot;&gt;Tom &amp; Jerry&#39;s\u{FFFD}]0;x\u{FFFD}\u{FFFD}‹RLO›&lt;/b&gt;\tok\n")
    #expect(SafeText(xmlEscaping: "ক্ষমা 👍🏽").text == "ক্ষমা 👍🏽")
  }

  @Test func theJSONWriterMakesSafeText() {
    let json = JSONWriter.safeText(.object([("k\u{1B}", .string("\u{9B}\u{202E}\n"))]))
    #expect(json.text == #"{"k\u001b":"\u009b\u202e\n"}"#)
  }

  @Test func errorsAreOneSafeLineAndReadAsBeforeForOrdinaryInput() {
    let badge = DiagnosticLocation(SourcePosition(line: 3, column: 14), path: JSONPath([.key("aps"), .key("badge")]))
    let plain = UNTermError(.dataError, file: "a.json", at: badge, "the badge must not be negative")
    #expect(plain.line == "a.json:3:14: error: the badge must not be negative [aps.badge]")
    #expect(plain.description == "a.json:3:14: error: the badge must not be negative [aps.badge]")
    #expect(UNTermError(.usage, "bad").line == "error: bad")
    #expect(UNTermError(.noInput, file: "a.json", "no such file").line == "a.json: error: no such file")
    #expect(UNTermError(.dataError, file: "s.session", at: .line(4), "bad").line == "s.session:4:1: error: bad")
    let hostile = UNTermError(
      .dataError, file: "a\u{1B}]0;x\u{7}.json",
      at: DiagnosticLocation(SourcePosition(line: 1, column: 2), path: JSONPath([.key("aps"), .key("\u{9B}2J\n")])),
      SafeText(sanitizing: "one\ntwo\u{202E}", multiline: true))
    #expect(hostile.line == "a␛]0;x␇.json:1:2: error: one␊two‹RLO› [aps.‹9B›2J␊]")
    let diagnostic = Diagnostic(
      file: "b\u{7}.json",
      location: DiagnosticLocation(
        SourcePosition(line: 1, column: 9), path: JSONPath([.key("aps"), .key("\u{1B}[2J")])),
      code: .unknownApsKey, message: "iOS ignores unknown key \("\u{1B}[2J")")
    #expect(
      diagnostic.formatted == "b␇.json:1:9: warning[unknown-aps-key]: iOS ignores unknown key ␛[2J [aps[\"␛[2J\"]]")
  }
}
