import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// Mutated strings files, property lists and String Catalogs: every parser finishes with a
/// result or a finding, never a crash or a hang. A new seed each run, printed with any failure
/// (`UNTERM_TEST_SEED` replays it).
@Suite("Strings parsers on mutated input")
struct StringsParsersRandomTests {
  /// The run's seed (`UNTERM_TEST_SEED` replays one).
  static let seed = TestSeed()

  private func mutations(of bytes: [UInt8], count: Int, _ generator: inout SeededGenerator) -> [[UInt8]] {
    let interesting: [UInt8] = [
      0x00, 0x22, 0x3B, 0x3D, 0x5C, 0x2F, 0x2A, 0x3C, 0x3E, 0x26, 0xFF, 0xD8, 0x0F, 0x7F, 0x80,
    ]
    return (0..<count).map { _ in
      var copy = bytes
      for _ in 0..<Int.random(in: 1...6, using: &generator) where !copy.isEmpty {
        let at = Int.random(in: 0..<copy.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: copy[at] = interesting.randomElement(using: &generator) ?? 0
        case 1: copy.remove(at: at)
        case 2: copy.insert(UInt8.random(in: 0...255, using: &generator), at: at)
        default: copy = Array(copy.prefix(at))
        }
      }
      return copy
    }
  }

  @Test func mutatedFilesLoadOrSayWhereTheyBreak() throws {
    var generator = Self.seed.generator
    let strings = Array(
      try Data(contentsOf: Fixtures.samples.appendingPathComponent("Localization/ur.lproj/Localizable.strings")))
    let dict = Array(
      try Data(contentsOf: Fixtures.samples.appendingPathComponent("Localization/en.lproj/Localizable.stringsdict")))
    let binary = Array(
      try PropertyListSerialization.data(
        fromPropertyList: [
          "A": "x", "B": ["NSStringLocalizedFormatKey": "%#@n@", "n": ["other": "y"]], "C": [1, 2.5, true],
        ],
        format: .binary, options: 0))
    let catalog = Array(
      #"{"sourceLanguage":"en","strings":{"K":{"localizations":{"bn":{"stringUnit":{"state":"translated","value":"%#@a@"},"substitutions":{"a":{"argNum":1,"formatSpecifier":"lld","variations":{"plural":{"other":{"stringUnit":{"value":"%arg"}}}}}}}}}}}"#
        .utf8)
    // Lines end at LF, CR LF or a lone CR, as every finding counts them.
    func lineCount(_ input: [UInt8]) -> Int {
      1
        + input.indices.filter { i in
          input[i] == 0x0A || (input[i] == 0x0D && (i + 1 == input.count || input[i + 1] != 0x0A))
        }.count
    }
    /// A finding points inside the file it is about, in one line.
    func checkPlace(_ diagnostic: Diagnostic, _ input: [UInt8]) {
      let lines = lineCount(input)
      let p = diagnostic.location.position
      #expect(p.line >= 1 && p.line <= lines && p.column >= 1, "\(diagnostic.formatted) — \(Self.seed)")
      #expect(!diagnostic.formatted.contains("\n"), "\(Self.seed)")
    }
    for input in mutations(of: strings, count: 300, &generator) {
      // Either entries or an error, never both: the first error stops the file.
      var sink = DiagnosticSink(file: "x.strings")
      let entries = StringsFile.parse(input, sink: &sink)
      #expect(!(sink.hasErrors && !entries.isEmpty), "\(Self.seed)")
      for diagnostic in sink.diagnostics { checkPlace(diagnostic, input) }
    }
    for input in mutations(of: dict, count: 300, &generator) + mutations(of: binary, count: 300, &generator) {
      do {
        let root = try PropertyList.parse(input)
        guard let members = root.dictionary else { continue }
        var sink = DiagnosticSink(file: "x.stringsdict")
        for member in members {
          // A plural entry that loads has its "other" form.
          if let entry = StringsDictEntry.read(member.key, member.value, file: "x", &sink) {
            #expect(entry.variables.values.allSatisfy { $0.forms[.other] != nil }, "\(Self.seed)")
          }
        }
        for diagnostic in sink.diagnostics { checkPlace(diagnostic, input) }
      } catch {
        // An error names a place inside the file.
        switch error.place {
        case .offset(let offset): #expect(offset >= 0 && offset <= input.count, "\(Self.seed)")
        case .position(let p):
          #expect(p.line >= 1 && p.line <= lineCount(input), "\(error.message) at \(p) — \(Self.seed)")
        }
      }
    }
    for input in mutations(of: catalog, count: 300, &generator) {
      var strings = AppStrings()
      var sink = DiagnosticSink(file: "x.xcstrings")
      strings.addCatalog(input, file: "x.xcstrings", &sink)
      for diagnostic in sink.diagnostics { checkPlace(diagnostic, input) }
      // Whatever loaded formats without a specifier left over for a variable it defines.
      for table in strings.tables.values {
        for entry in table.entries.values {
          let text = entry.formatted(["1", "2"], locale: "bn", device: "iphone")
          for name in entry.variables.keys { #expect(!text.contains("%#@\(name)@"), "\(Self.seed)") }
        }
      }
    }
  }
}
