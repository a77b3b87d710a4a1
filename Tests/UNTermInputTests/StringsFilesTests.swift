import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// The app's strings as Xcode writes them, and as a hostile file might not: every format
/// parsed strictly, with one-line errors that name the line and column.
@Suite("Strings files")
struct StringsFilesTests {
  private func parse(_ text: String) -> ([StringsFile.Entry], [Diagnostic]) {
    parse(Array(text.utf8))
  }

  private func parse(_ bytes: [UInt8]) -> ([StringsFile.Entry], [Diagnostic]) {
    var sink = DiagnosticSink(file: "Localizable.strings")
    let entries = StringsFile.parse(bytes, sink: &sink)
    return (entries, sink.diagnostics)
  }

  @Test func readsEntriesCommentsAndEscapes() {
    let (entries, findings) = parse(
      #"""
      /* A comment
         over two lines */
      "GREETING" = "Hello, %@!";   // after the entry
      "QUOTE" = "She said \"hi\"\n\tand left\\";
      "EMOJI" = "\U263A \UD83D\UDE00";
      unquoted_key = unquoted.value;
      "ALONE";
      'single' = "quotes";
      "OCTAL" = "\101";
      """#)
    #expect(findings.isEmpty)
    let byKey = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    #expect(byKey["GREETING"] == "Hello, %@!")
    #expect(byKey["QUOTE"] == "She said \"hi\"\n\tand left\\")
    #expect(byKey["EMOJI"] == "☺ 😀")
    #expect(byKey["unquoted_key"] == "unquoted.value")
    #expect(byKey["ALONE"] == "ALONE")
    #expect(byKey["single"] == "quotes")
    #expect(byKey["OCTAL"] == "A")
    #expect(entries.first?.position == SourcePosition(line: 3, column: 1))
  }

  @Test func readsUTF16WithAByteOrderMark() {
    let text = "\"বার্তা\" = \"پیغام\";\n"
    let little: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let big: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    for bytes in [little, big] {
      let (entries, findings) = parse(bytes)
      #expect(findings.isEmpty)
      #expect(entries.first?.key == "বার্তা")
      #expect(entries.first?.value == "پیغام")
    }
  }

  @Test(arguments: [
    ("\"A\" = \"x\"\n\"B\" = \"y\";", "2:1", "expected ';' after the value of \"A\", not '\"'"),
    ("\"A\" \"x\";", "1:5", "expected '=' after the key \"A\", not '\"'"),
    ("\"A\" = \"never closed;\n", "1:7", "unterminated string: expected a closing \""),
    ("/* open\n\"A\" = \"x\";", "1:1", "unterminated comment: expected */"),
    ("\"A\" = \"\\U12\";", "1:8", "\\U must be followed by four hexadecimal digits"),
    ("\"A\" = \"\\UD83D\";", "1:8", "a \\U escape leaves a lone high surrogate"),
    ("\"A\" = \"\\0\";", "1:8", "an octal escape for NUL is not allowed"),
    ("\"A\" = ;", "1:7", "expected a value in double quotes after '=', not ';'"),
    ("= \"x\";", "1:1", "expected a key in double quotes, not '='"),
  ])
  func syntaxErrorsNameTheLineAndColumn(_ text: String, _ place: String, _ message: String) {
    let (entries, findings) = parse(text)
    #expect(entries.isEmpty)
    #expect(findings.count == 1)
    #expect(findings.first?.severity == .error)
    #expect(findings.first?.position.description == place)
    #expect(findings.first?.message.text == message)
  }

  @Test func invalidEncodingsAreRefusedWithTheirPlace() {
    let (_, bad) = parse([0x22, 0x41, 0x22, 0x0A, 0x3D, 0xC3, 0x28])
    #expect(bad.first?.message == "invalid UTF-8")
    #expect(bad.first?.position.description == "2:2")
    let (_, utf16) = parse([0x22, 0x00, 0x41, 0x00])
    #expect(utf16.first?.message.contains("UTF-16 without a byte-order mark") == true)
    let (_, nul) = parse(Array("\"A\" = \"x\0\";".utf8))
    #expect(nul.first?.message == "a NUL byte in the file")
  }

  @Test func aDuplicateKeyIsAWarningAndTheLaterValueWins() {
    let (entries, findings) = parse("\"A\" = \"first\";\n\"A\" = \"second\";\n")
    #expect(entries.count == 2)
    #expect(findings.map(\.code) == [.duplicateStringKey])
    #expect(findings.first?.position.description == "2:1")
  }
}

/// Apple's XML and binary property lists (`.stringsdict`, compiled `.strings`).
@Suite("Property lists")
struct PropertyListTests {
  static let stringsdict = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>MESSAGES</key>
      <dict>
        <key>NSStringLocalizedFormatKey</key>
        <string>%@ sent %#@count@</string>
        <key>count</key>
        <dict>
          <key>NSStringFormatSpecTypeKey</key>
          <string>NSStringPluralRuleType</string>
          <key>NSStringFormatValueTypeKey</key>
          <string>d</string>
          <key>one</key>
          <string>%d message &amp; a <![CDATA[<hug>]]></string>
          <key>other</key>
          <string>%d messages</string>
        </dict>
      </dict>
    </dict>
    </plist>
    """

  @Test func readsAStringsdict() throws {
    let root = try PropertyList.parse(Array(Self.stringsdict.utf8))
    var sink = DiagnosticSink(file: "Localizable.stringsdict")
    let members = try #require(root.dictionary)
    let entry = try #require(StringsDictEntry.read(members[0].key, members[0].value, file: "x", &sink))
    #expect(sink.diagnostics.isEmpty)
    #expect(entry.format == "%@ sent %#@count@")
    #expect(entry.formatted(["Ana", "1"], locale: "en", device: "iphone") == "Ana sent 1 message & a <hug>")
    #expect(entry.formatted(["Ana", "4"], locale: "en", device: "iphone") == "Ana sent 4 messages")
  }

  @Test(arguments: [
    (
      "<plist><dict><key>A</key><string>x</string><key>A</key><string>y</string></dict></plist>", "1:44",
      "duplicate key \"A\" in a dictionary"
    ),
    (
      "<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><string>&a;</string></plist>", "1:17",
      "a DOCTYPE with an internal subset (entity definitions) is not allowed in a property list"
    ),
    ("<plist><string>&bogus;</string></plist>", "1:16", "unknown or invalid entity &bogus;"),
    ("<plist><string>never closed</plist>", "1:28", "expected </string>, not </plist>"),
    ("<plist><dict><string>x</string></dict></plist>", "1:14", "expected <key> in a dictionary, not <string>"),
    ("<plist><integer>12x</integer></plist>", "1:8", "\"12x\" is not an integer"),
    ("<plist><bogus/></plist>", "1:8", "<bogus> is not a property-list element"),
    ("<plist><string>a</string></plist> trailing", "1:35", "unexpected content after the property list"),
  ])
  func xmlErrorsNameTheLineAndColumn(_ text: String, _ place: String, _ message: String) {
    do {
      _ = try PropertyList.parse(Array(text.utf8))
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.place.description == place)
      #expect(error.message == message)
    }
  }

  /// Lines end at LF, CR LF or a lone CR, as every finding counts them: the same error is at the
  /// same place whatever the line ends, and so is a bad UTF-8 byte (after a Bengali key).
  @Test func linesEndAtLFCRLFOrALoneCR() {
    for end in ["\n", "\r\n", "\r"] {
      let bad = "<plist>\n<dict>\n  <key>A</key>\n  <integer>12x</integer>\n</dict>\n</plist>\n"
      let utf8 = Array("<plist>\n<dict>\n  <key>ক্ষ".replacingOccurrences(of: "\n", with: end).utf8) + [0xE0, 0x41]
      for (bytes, place, message) in [
        (Array(bad.replacingOccurrences(of: "\n", with: end).utf8), "4:3", "\"12x\" is not an integer"),
        (utf8, "3:11", "the property list is not valid UTF-8: invalid UTF-8 sequence at byte 0xE0"),
      ] {
        do {
          _ = try PropertyList.parse(bytes)
          Issue.record("expected an error")
        } catch {
          #expect(error.place.description == place, "\(end.debugDescription)")
          #expect(error.message == message)
        }
      }
    }
  }

  @Test func deepNestingIsRefused() {
    let text =
      "<plist>" + String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40) + "</plist>"
    #expect(throws: PlistError.self) { try PropertyList.parse(Array(text.utf8)) }
  }

  /// A binary property list as Foundation writes it.
  private func binary(_ object: Any) throws -> [UInt8] {
    Array(try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
  }

  @Test func readsABinaryStringsFile() throws {
    let bytes = try binary(["GREETING": "Hello %@", "URDU": "سلام %@", "COUNT": ["NSStringLocalizedFormatKey": "%d"]])
    #expect(PropertyList.isBinary(bytes))
    let root = try PropertyList.parse(bytes)
    let members = Dictionary(try #require(root.dictionary).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(members["GREETING"]?.string == "Hello %@")
    #expect(members["URDU"]?.string == "سلام %@")
    #expect(members["COUNT"]?.dictionary?.first?.value.string == "%d")
  }

  @Test func hostileBinaryListsAreRefused() throws {
    let good = try binary(["A": ["B": "c"]])
    // Every truncation fails cleanly.
    for length in stride(from: 0, to: good.count, by: 3) {
      #expect(throws: PlistError.self) { try PropertyList.parse(Array(good.prefix(length))) }
    }
    // An offset table pointing past the objects.
    var badOffset = good
    badOffset[badOffset.count - 9] = 0xFF
    #expect(throws: PlistError.self) { try PropertyList.parse(badOffset) }
    // An array that contains itself: bplist00, [a1 (array of one: object 0)], offset table, trailer.
    var cyclic: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00]
    let table = cyclic.count
    cyclic += [0x08]
    cyclic +=
      [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
      + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    #expect {
      try PropertyList.parse(cyclic)
    } throws: { error in
      (error as? PlistError)?.message.contains("contains itself") == true
    }
    // An array that claims a billion members.
    var huge: [UInt8] = Array("bplist00".utf8) + [0xAF, 0x13, 0x3B, 0x9A, 0xCA, 0x00]
    let hugeTable = huge.count
    huge += [0x08]
    huge +=
      [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
      + [0, 0, 0, 0, 0, 0, 0, UInt8(hugeTable)]
    #expect(throws: PlistError.self) { try PropertyList.parse(huge) }
  }

  @Test func sharedObjectsCannotMultiplyWithoutBound() {
    // Object 0 is an array of 15 references to object 1, which is an array of 15 references to
    // object 2 … 30 levels deep: 15^30 visits if read naively.
    let levels = 30
    var bytes: [UInt8] = Array("bplist00".utf8)
    var offsets: [Int] = []
    for level in 0..<levels {
      offsets.append(bytes.count)
      bytes.append(0xAF)
      bytes += [0x10, 15]
      bytes += Array(repeating: UInt8(level + 1), count: 15)
    }
    offsets.append(bytes.count)
    bytes.append(0x09)
    let table = bytes.count
    bytes += offsets.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    bytes += [0, 0, 0, 0, 0, 0, 2, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(levels + 1)] + [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
    #expect {
      try PropertyList.parse(bytes)
    } throws: { error in
      (error as? PlistError)?.message.contains("more than") == true
    }
  }
}
