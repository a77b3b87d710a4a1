import Testing
import UNTermRender
import UNTermState

@testable import UNTermCurses

@Suite("Curses key decoding")
struct CursesKeyDecoderTests {
  typealias Code = CursesKeyDecoder.Code

  @Test("The shim's codes are ncurses' numbers")
  func codesMatchCursesHeader() {
    #expect(Code.ok == 0)
    #expect(Code.err == -1)
    #expect(Code.keyCodeYes == 0o400)
    #expect(Code.down == 0o402)
    #expect(Code.up == 0o403)
    #expect(Code.left == 0o404)
    #expect(Code.right == 0o405)
    #expect(Code.home == 0o406)
    #expect(Code.backspace == 0o407)
    #expect(Code.deleteCharacter == 0o512)
    #expect(Code.pageDown == 0o522)
    #expect(Code.pageUp == 0o523)
    #expect(Code.enter == 0o527)
    #expect(Code.end == 0o550)
    #expect(Code.mouse == 0o631)
    #expect(Code.resize == 0o632)
  }

  @Test(
    "Function keys",
    arguments: [
      (Code.up, Key.up), (Code.down, .down), (Code.left, .left), (Code.right, .right),
      (Code.home, .home), (Code.end, .end), (Code.pageDown, .pageDown), (Code.pageUp, .pageUp),
      (Code.deleteCharacter, .delete), (Code.backspace, .backspace), (Code.enter, .enter),
    ])
  func functionKeys(code: UInt32, key: Key) {
    #expect(CursesKeyDecoder.decode(status: Code.keyCodeYes, code: code) == .key(key))
  }

  @Test(
    "Control bytes",
    arguments: [
      (UInt32(3), Key.interrupt), (8, .backspace), (127, .backspace), (9, .tab), (10, .enter),
      (13, .enter), (27, .escape),
    ])
  func controlBytes(code: UInt32, key: Key) {
    #expect(CursesKeyDecoder.decode(status: Code.ok, code: code) == .key(key))
  }

  @Test(
    "Printable characters, ASCII and beyond",
    arguments: ["a", "Z", " ", "~", "ক", "্", "ی", "中", "😀", "é"])
  func printable(_ text: String) throws {
    let scalar = try #require(text.unicodeScalars.first)
    #expect(
      CursesKeyDecoder.decode(status: Code.ok, code: scalar.value)
        == .key(.character(Character(scalar))))
  }

  @Test(
    "Other control codes, C1 codes and surrogates are ignored",
    arguments: [UInt32(0), 1, 26, 28, 31, 0x80, 0x9B, 0x9F, 0xD800])
  func ignored(_ code: UInt32) {
    #expect(CursesKeyDecoder.decode(status: Code.ok, code: code) == nil)
  }

  @Test("A resize is reported without a size; the terminal fills it in")
  func resize() {
    #expect(
      CursesKeyDecoder.decode(status: Code.keyCodeYes, code: Code.resize)
        == .resize(width: 0, height: 0))
  }

  @Test("Mouse codes, unknown keys and ERR decode to nothing")
  func nothing() {
    #expect(CursesKeyDecoder.decode(status: Code.keyCodeYes, code: Code.mouse) == nil)
    #expect(CursesKeyDecoder.decode(status: Code.keyCodeYes, code: 0o777) == nil)  // KEY_MAX
    #expect(CursesKeyDecoder.decode(status: Code.err, code: 65) == nil)
  }

  // MARK: - Assembling bursts

  private func assemble(_ events: [InputEvent]) -> [InputEvent] {
    var assembler = CursesInputAssembler()
    for event in events { assembler.append(event) }
    return assembler.events
  }

  private func characters(_ text: String) -> [InputEvent] {
    text.unicodeScalars.map { .key(.character(Character($0))) }
  }

  /// A one-cluster string as a key event; the compiler's literal check predates the Indic
  /// conjunct rule (GB9c) the runtime applies, so `"ক্ষ" as Character` does not compile.
  private func typed(_ cluster: String) -> InputEvent {
    #expect(cluster.count == 1)
    return .key(.character(cluster.first ?? " "))
  }

  @Test("Code points typed in one burst join into grapheme clusters")
  func joinsClusters() {
    #expect(assemble(characters("ক্ষ")) == [typed("ক্ষ")])
    #expect(assemble(characters("👍🏽")) == [.key(.character("👍🏽"))])
    #expect(assemble(characters("e\u{301}")) == [.key(.character("é"))])
    #expect(assemble(characters("🇯🇵🇺🇸")) == [.key(.character("🇯🇵")), .key(.character("🇺🇸"))])
    #expect(assemble(characters("ab")) == [.key(.character("a")), .key(.character("b"))])
    #expect(assemble(characters("যা")) == [typed("যা")])
  }

  @Test("Only characters join; other events separate them")
  func keysSeparate() {
    let events: [InputEvent] = [.key(.character("ক")), .key(.left), .key(.character("\u{9CD}"))]
    #expect(assemble(events) == events)
  }

  @Test("Back-to-back resizes keep the last size")
  func resizesCoalesce() {
    let events: [InputEvent] = [
      .resize(width: 10, height: 2), .resize(width: 1, height: 1), .key(.up),
      .resize(width: 80, height: 24),
    ]
    #expect(
      assemble(events) == [.resize(width: 1, height: 1), .key(.up), .resize(width: 80, height: 24)])
  }
}
