import Testing

@testable import UNTermCurses

@Suite("Restore bytes for signal handlers")
struct RestoreSequenceTests {
  private let xterm: [String: String] = [
    "sgr0": "\u{1B}(B\u{1B}[m", "op": "\u{1B}[39;49m", "rmkx": "\u{1B}[?1l\u{1B}>",
    "cnorm": "\u{1B}[?12l\u{1B}[?25h",
    "rmcup": "\u{1B}[?1049l\u{1B}[23;0;0t",
  ]

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test("Capabilities in order: attributes, colours, mouse off, keypad, cursor, screen")
  func order() {
    let withMouse = RestoreSequence.bytes(
      lookup: { xterm[$0].map { Array($0.utf8) } }, mouseEnabled: true)
    #expect(
      text(withMouse)
        == "\u{1B}(B\u{1B}[m\u{1B}[39;49m\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l"
        + "\u{1B}[?1l\u{1B}>\u{1B}[?12l\u{1B}[?25h\u{1B}[?1049l\u{1B}[23;0;0t")
    let withoutMouse = RestoreSequence.bytes(
      lookup: { xterm[$0].map { Array($0.utf8) } }, mouseEnabled: false)
    #expect(!text(withoutMouse).contains("1000l"))
  }

  @Test("Bracketed paste off after the mouse, from BD or xterm's own sequence")
  func pasteOff() {
    let withBD = RestoreSequence.bytes(
      lookup: { $0 == "BD" ? Array("\u{1B}[?2004l".utf8) : xterm[$0].map { Array($0.utf8) } }, mouseEnabled: true,
      pasteEnabled: true)
    #expect(text(withBD).contains("\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?1l"))
    let withoutBD = RestoreSequence.bytes(lookup: { _ in nil }, mouseEnabled: false, pasteEnabled: true)
    #expect(text(withoutBD) == "\u{1B}[?2004l")
    let off = RestoreSequence.bytes(lookup: { xterm[$0].map { Array($0.utf8) } }, mouseEnabled: false)
    #expect(!text(off).contains("2004"))
  }

  @Test("A terminal asked to leave bidi to UNTerm gets its own bidi back last")
  func explicitBidi() {
    let bytes = RestoreSequence.bytes(
      lookup: { xterm[$0].map { Array($0.utf8) } }, mouseEnabled: false, explicitBidi: true)
    #expect(text(bytes).hasSuffix("\u{1B}[?1049l\u{1B}[23;0;0t\u{1B}[8h"))
    #expect(
      !text(RestoreSequence.bytes(lookup: { xterm[$0].map { Array($0.utf8) } }, mouseEnabled: false)).contains("[8h"))
  }

  @Test("Missing capabilities are skipped")
  func missing() {
    #expect(
      text(
        RestoreSequence.bytes(
          lookup: { $0 == "sgr0" ? Array("\u{1B}[0m".utf8) : nil }, mouseEnabled: false))
        == "\u{1B}[0m")
    #expect(RestoreSequence.bytes(lookup: { _ in nil }, mouseEnabled: false).isEmpty)
  }

  @Test("Padding delays are removed, other dollar signs kept")
  func padding() {
    #expect(
      text(RestoreSequence.removingPadding(Array("\u{1B}[?5l$<100/>x".utf8))) == "\u{1B}[?5lx")
    #expect(text(RestoreSequence.removingPadding(Array("a$<2*>b$<1.5>c".utf8))) == "abc")
    #expect(text(RestoreSequence.removingPadding(Array("$5 $<x> $<".utf8))) == "$5 $<x> $<")
  }
}
