import Testing
import UNTermTestSupport

@testable import UNTermInput

@Suite("Strict JSON parser")
struct JSONParserTests {
  private func parse(_ text: String) throws(JSONParser.Failure) -> JSONNode {
    try JSONParser.parse(Array(text.utf8))
  }

  /// A parsed value written back as compact JSON, members in their order.
  private func canonical(_ node: JSONNode) -> String {
    switch node.value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return n.text
    case .string(let s): return JSONWriter.quote(s)
    case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
    case .object(let object):
      return "{" + object.members.map { JSONWriter.quote($0.key) + ":" + canonical($0.value) }.joined(separator: ",")
        + "}"
    }
  }

  @Test(arguments: [
    ("{}", "{}"), ("[]", "[]"), (#"{"a":[1,2,{"b":null}]}"#, #"{"a":[1,2,{"b":null}]}"#),
    (#"{"a":"\u00e9\ud83d\ude00"}"#, #"{"a":"é😀"}"#), ("  {\"a\" : true }  ", #"{"a":true}"#), ("-0", "-0"),
    ("1e5", "1e5"), ("0.5", "0.5"), (#""\u0000""#, #""\u0000""#), (#"{"a":"\/"}"#, #"{"a":"/"}"#),
  ])
  func acceptsValidDocuments(_ text: String, _ expected: String) throws {
    #expect(canonical(try parse(text)) == expected)
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
    var node = try parse(text)
    var depth = 1
    while let inner = node.array?.first {
      node = inner
      depth += 1
    }
    #expect(depth == 32)
    #expect(node.array?.isEmpty == true)
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
    #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)).object?.members.isEmpty == true)
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

  /// Random bytes from JSON's alphabet: a document that parses writes back to one that parses
  /// the same; one that does not gets an error inside the input — never a crash.
  @Test func randomInputGetsAVerdict() {
    let seed = TestSeed()
    var generator = seed.generator
    let alphabet = Array("{}[],:\"\\0123456789.eE+-truefalsn \n\tu".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xED]
    for _ in 0..<3_000 {
      let length = Int.random(in: 0..<64, using: &generator)
      let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
      do {
        let node = try JSONParser.parse(bytes)
        let written = canonical(node)
        #expect((try? parse(written)).map(canonical) == written, "\(seed): \(bytes)")
      } catch {
        let lines = bytes.filter { $0 == 0x0A }.count + 1
        #expect(error.position.line >= 1 && error.position.line <= lines, "\(seed): \(bytes)")
        #expect(error.position.column >= 1 && error.position.column <= bytes.count + 1, "\(seed): \(bytes)")
        #expect(!error.message.isEmpty, "\(seed)")
      }
    }
  }
}
