import Testing
import UNTermRender
import UNTermState

@testable import UNTermCurses

#if canImport(Glibc)
  import Glibc
#endif

/// The parser on its own, fed what `wget_wch` would return: no terminal.
@Suite("Putting key sequences together")
struct KeySequenceParserTests {
  private func parse(_ text: String, keys: [Int: Key] = [:], end: Bool = true) -> [InputEvent] {
    var parser = KeySequenceParser()
    for (index, scalar) in text.unicodeScalars.enumerated() {
      if let key = keys[index] {
        parser.feed(.key(key, sequence: []))
      } else {
        parser.feed(.character(scalar.value))
      }
    }
    if end { parser.endOfInput() }
    return parser.take()
  }

  @Test("Esc alone, Esc twice, Esc then a key is Alt and the key")
  func escapes() {
    #expect(parse("\u{1B}") == [.key(.escape)])
    #expect(parse("\u{1B}\u{1B}") == [.key(.escape), .key(.escape)])
    #expect(parse("\u{1B}é") == [.key(.modified(.character("é"), .alt))])
    #expect(parse("\u{1B}\r") == [.key(.modified(.enter, .alt))])
    #expect(parse("\u{1B}\u{1B}x") == [.key(.escape), .key(.modified(.character("x"), .alt))])
    #expect(parse("\u{1B}_", keys: [1: .modified(.up, .shift)]) == [.key(.modified(.up, [.shift, .alt]))])
    #expect(parse("\u{1B}\u{3}") == [.key(.escape), .key(.interrupt)])
  }

  @Test("ESC [ and ESC O with nothing after them are Alt-[ and Alt-O")
  func introducersAlone() {
    #expect(parse("\u{1B}[") == [.key(.modified(.character("["), .alt))])
    #expect(parse("\u{1B}O") == [.key(.modified(.character("O"), .alt))])
  }

  @Test("An unfinished sequence waits, then is dropped; a key cuts it short")
  func unfinished() {
    var parser = KeySequenceParser()
    for scalar in "\u{1B}[12;".unicodeScalars { parser.feed(.character(scalar.value)) }
    parser.endOfInput()
    #expect(parser.isIncomplete)
    #expect(parser.take().isEmpty)
    parser.flush()
    #expect(!parser.isIncomplete)
    #expect(parser.take().isEmpty)
    #expect(parse("\u{1B}[12_", keys: [4: .up]) == [.key(.up)])
    #expect(parse("\u{1B}[12\u{8}") == [.key(.backspace)])
  }

  @Test("A sequence longer than any terminal sends is swallowed whole, without keeping it")
  func tooLong() {
    let long = "\u{1B}[" + String(repeating: "1;", count: 100) + "~x"
    #expect(parse(long) == [.key(.character("x"))])
  }

  @Test("Ctrl-Z suspends outside a paste and is text inside one")
  func controlZ() {
    #expect(parse("\u{1A}") == [.suspend])
    #expect(parse("\u{1B}[200~\u{1A}\u{3}\u{1B}[201~") == [.paste("\u{1A}\u{3}")])
  }

  @Test("A paste keeps the text exactly: an end marker cut short, keys decoded inside it")
  func pastes() {
    #expect(parse("\u{1B}[200~a\u{1B}[20b\u{1B}\u{1B}[201~") == [.paste("a\u{1B}[20b\u{1B}")])
    #expect(
      parse("\u{1B}[200~a_b\u{1B}[201~", keys: [7: .home]).first == .paste("ab"),
      "a key without its sequence adds nothing")
    var parser = KeySequenceParser()
    for scalar in "\u{1B}[200~x".unicodeScalars { parser.feed(.character(scalar.value)) }
    parser.feed(.key(.home, sequence: Array("\u{1B}[1~".utf8)))
    parser.feed(.event(.resize(width: 1, height: 2)))
    for scalar in "y\u{1B}[201~".unicodeScalars { parser.feed(.character(scalar.value)) }
    #expect(parser.take() == [.resize(width: 1, height: 2), .paste("x\u{1B}[1~y")])
  }

  @Test("A paste is cut at the limit and an unfinished one is delivered on flush")
  func pasteLimits() {
    var parser = KeySequenceParser()
    for scalar in "\u{1B}[200~".unicodeScalars { parser.feed(.character(scalar.value)) }
    for _ in 0..<(KeySequenceParser.pasteLimit + 10) { parser.feed(.character(0x61)) }
    parser.feed(.character(0x1B))
    #expect(parser.isInPaste)
    parser.flush()
    let events = parser.take()
    guard case .paste(let text) = events.first else {
      Issue.record("no paste: \(events)")
      return
    }
    #expect(text.unicodeScalars.count == KeySequenceParser.pasteLimit)
  }

  @Test("Events pass through in order and end a lone Esc")
  func eventsInOrder() {
    var parser = KeySequenceParser()
    parser.feed(.character(0x1B))
    parser.feed(.event(.resize(width: 3, height: 4)))
    parser.feed(.character(0x61))
    parser.endOfInput()
    #expect(parser.take() == [.key(.escape), .resize(width: 3, height: 4), .key(.character("a"))])
  }
}

@Suite("Terminal modes left by other programs")
struct TerminalModesUnitTests {
  private func raw() -> termios {
    var modes = termios()
    modes.c_lflag = tcflag_t(ICANON | ECHO | ISIG)
    cfmakeraw(&modes)
    return modes
  }

  @Test("Raw modes are clearly raw; modes with either line editing or echo are not")
  func judging() {
    #expect(TerminalModes.isClearlyRaw(raw()))
    var echoing = raw()
    echoing.c_lflag |= tcflag_t(ECHO)
    #expect(!TerminalModes.isClearlyRaw(echoing))
    var canonical = raw()
    canonical.c_lflag |= tcflag_t(ICANON)
    #expect(!TerminalModes.isClearlyRaw(canonical))
  }

  @Test("Repairing gives sane cooked modes and the usual control characters")
  func repairing() {
    var modes = raw()
    TerminalModes.makeSaneCooked(&modes)
    #expect(!TerminalModes.isClearlyRaw(modes))
    let lflags = tcflag_t(ICANON | ECHO | ISIG | IEXTEN | ECHOE | ECHOK | ECHOCTL | ECHOKE)
    #expect(modes.c_lflag & lflags == lflags)
    #expect(modes.c_iflag & tcflag_t(ICRNL | IXON | BRKINT) == tcflag_t(ICRNL | IXON | BRKINT))
    #expect(modes.c_oflag & tcflag_t(OPOST | ONLCR) == tcflag_t(OPOST | ONLCR))
    let cc = withUnsafeBytes(of: modes.c_cc) { Array($0) }
    #expect(cc[Int(VINTR)] == 3 && cc[Int(VERASE)] == 0x7F && cc[Int(VEOF)] == 4 && cc[Int(VMIN)] == 1)
  }
}
