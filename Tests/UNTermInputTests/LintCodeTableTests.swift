import Testing

@testable import UNTermInput

/// The lint codes' table is a list of values, so the compiler cannot check that it covers every
/// code; this does.
@Suite("The lint code table")
struct LintCodeTableTests {
  @Test func everyCodeHasExactlyOneRowInDeclarationOrder() {
    #expect(LintCode.table.map(\.code) == LintCode.allCases)
  }

  @Test func everyRowSaysWhatWasFoundAndWhatToDo() {
    for info in LintCode.table {
      #expect(!info.summary.isEmpty && !info.help.isEmpty, "\(info.code.rawValue)")
      #expect(info.summary.hasSuffix("."), "\(info.code.rawValue): \(info.summary)")
    }
  }

  @Test func aRefusalAPNsMakesIsNamedInTheSummary() {
    #expect(LintCode.payloadTooLarge.apnsReason == .payloadTooLarge)
    #expect(LintCode.payloadTooLarge.summary.hasSuffix("APNs: 413 PayloadTooLarge."))
  }
}
