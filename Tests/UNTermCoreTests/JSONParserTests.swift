import Testing

@testable import UNTermCore

@Suite("Strict JSON parser")
struct JSONParserTests {
  private func parse(_ text: String) throws(JSONParser.Failure) -> JSONNode {
    try JSONParser.parse(Array(text.utf8))
  }

  @Test(arguments: [
    "{}", "[]", #"{"a":[1,2,{"b":null}]}"#, #"{"a":"\u00e9\ud83d\ude00"}"#, "  {\"a\" : true }  ",
    "-0", "1e5", "0.5", #""\u0000""#, #"{"a":"\/"}"#,
  ])
  func acceptsValidDocuments(_ text: String) throws {
    _ = try parse(text)
  }

  /// In the spirit of JSONTestSuite's n_ files: every one is rejected, none crashes.
  @Test(arguments: [
    "", " ", "{", "[", "{]", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}", "[01]", "[1.]", "[.5]",
    "[1e]", "[-]", "[+1]", "[NaN]", "[Infinity]", "[tru]", "[nul]", "\"abc", "[\"a\nb\"]",
    "[\"\\x\"]", "[\"\\u12\"]", "{\"a\" 1}", "[1 2]", "[] []", "{\"a\":1}x", "\u{0}",
    "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "[1,,2]", "[,1]", "{,}",
    "{\"a\":1,\"a\":2}", "[\"\t\"]",
  ])
  func rejectsInvalidDocuments(_ text: String) {
    #expect(throws: JSONParser.Failure.self) { try parse(text) }
  }

  @Test func reportsLineAndColumn() {
    do {
      _ = try parse("{\n  \"aps\": {\n    \"badge\": 1,\n  }\n}")
      Issue.record("expected an error")
    } catch {
      #expect(error.position == SourcePosition(line: 4, column: 3))
      #expect(error.kind == .syntax)
    }
  }

  @Test func duplicateKeysAreRejectedWithBothPlaces() {
    do {
      _ = try parse(#"{"aps":{"alert":"A","alert":"B"}}"#)
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .duplicateKey)
      #expect(error.path.description == "aps.alert")
    }
  }

  @Test(arguments: [33, 513, 100_000])
  func deepNestingIsRejectedByThePreScan(depth: Int) {
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    do {
      _ = try parse(text)
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .depth)
    }
  }

  @Test func nestingAtTheLimitIsAccepted() throws {
    let text = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    _ = try parse(text)
  }

  @Test func invalidUTF8AndOverlongFormsAreRejected() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22],
      [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x22],
    ] {
      #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
    }
  }

  @Test func aByteOrderMarkIsSkippedAndUTF16IsRefused() throws {
    _ = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]) }
  }

  @Test func numbersKeepTheirText() throws {
    let node = try parse("[123456789012345678901234567890, 1e400, -0]")
    let numbers = node.array?.compactMap(\.number)
    #expect(numbers?.map(\.text) == ["123456789012345678901234567890", "1e400", "-0"])
    #expect(numbers?[0].integer == nil)
    #expect(numbers?[1].double == nil)
  }

  @Test func controlCharactersSurviveEscaped() throws {
    let node = try parse(#""A\u0000B\u001b]52;c;QQ==\u0007C""#)
    #expect(node.string?.unicodeScalars.count == 16)
  }

  @Test func randomInputNeverCrashes() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("{}[],:\"\\0123456789.eE+-truefalsn \n\tu".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xED]
    for _ in 0..<3_000 {
      let length = Int.random(in: 0..<64, using: &generator)
      let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
      _ = try? JSONParser.parse(bytes)
    }
  }
}
