import Testing

@testable import UNTermCurses

@Suite("Refusing to open a terminal")
struct CursesTerminalErrorTests {
  @Test("Pipes, missing and dumb TERM are refused before ncurses is touched")
  func precheck() {
    let ok = ["TERM": "xterm-256color"]
    #expect(
      CursesTerminalError.precheck(environment: ok, inputIsTerminal: true, outputIsTerminal: true)
        == nil)
    #expect(
      CursesTerminalError.precheck(environment: ok, inputIsTerminal: false, outputIsTerminal: true)
        == .notATerminal(stream: "standard input"))
    #expect(
      CursesTerminalError.precheck(environment: ok, inputIsTerminal: true, outputIsTerminal: false)
        == .notATerminal(stream: "standard output"))
    #expect(
      CursesTerminalError.precheck(environment: [:], inputIsTerminal: true, outputIsTerminal: true)
        == .terminalTypeUnset)
    #expect(
      CursesTerminalError.precheck(
        environment: ["TERM": ""], inputIsTerminal: true, outputIsTerminal: true)
        == .terminalTypeUnset)
    #expect(
      CursesTerminalError.precheck(
        environment: ["TERM": "dumb"], inputIsTerminal: true, outputIsTerminal: true)
        == .terminalCannotAddressCursor("dumb"))
  }

  @Test("Messages say what to do")
  func messages() {
    #expect(CursesTerminalError.terminalTypeUnset.description.contains("TERM"))
    #expect(CursesTerminalError.unknownTerminalType("vt9000").description.contains("vt9000"))
    #expect(
      CursesTerminalError.notATerminal(stream: "standard output").description.contains(
        "not a terminal"))
  }
}
