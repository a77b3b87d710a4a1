import Foundation
import Testing
import UNTermInput
import UNTermRender

@testable import UNTermCurses
@testable import UNTermState

extension NcursesTests {
  /// Every key arrives as the key the user pressed, whatever `TERM` says and whichever of the
  /// usual terminals sends it: the bytes below are what xterm (both cursor-key modes), tmux and
  /// screen, rxvt and the Linux console send, fed through ncurses as a terminal would.
  @Suite("Keys decoded from terminfo")
  struct KeyDecodingTests {
    static let terminalTypes = ["xterm", "xterm-256color", "screen-256color", "tmux-256color", "linux", "vt100"]

    static let escape = "\u{1B}"

    /// A key, the bytes a terminal sends for it, and which terminals send those.
    struct Sent: CustomTestStringConvertible, Sendable {
      var bytes: String
      var key: Key
      var from: String
      var testDescription: String {
        "\(key) as \(bytes.replacingOccurrences(of: "\u{1B}", with: "ESC ")) (\(from))"
      }
    }

    static let sent: [Sent] = {
      let e = escape
      var list: [Sent] = [
        Sent(bytes: e + "[1~", key: .home, from: "tmux, screen, Linux console"),
        Sent(bytes: e + "OH", key: .home, from: "xterm"),
        Sent(bytes: e + "[H", key: .home, from: "xterm, normal cursor mode"),
        Sent(bytes: e + "[7~", key: .home, from: "rxvt"),
        Sent(bytes: e + "[4~", key: .end, from: "tmux, screen, Linux console"),
        Sent(bytes: e + "OF", key: .end, from: "xterm"),
        Sent(bytes: e + "[F", key: .end, from: "xterm, normal cursor mode"),
        Sent(bytes: e + "[8~", key: .end, from: "rxvt"),
        Sent(bytes: e + "[2~", key: .insert, from: "all"),
        Sent(bytes: e + "[3~", key: .delete, from: "all"),
        Sent(bytes: e + "[5~", key: .pageUp, from: "all"),
        Sent(bytes: e + "[6~", key: .pageDown, from: "all"),
        Sent(bytes: e + "OA", key: .up, from: "xterm, application mode"),
        Sent(bytes: e + "[A", key: .up, from: "normal cursor mode"),
        Sent(bytes: e + "OD", key: .left, from: "xterm, application mode"),
        Sent(bytes: e + "[C", key: .right, from: "normal cursor mode"),
        Sent(bytes: e + "[1;2A", key: .modified(.up, .shift), from: "xterm, tmux"),
        Sent(bytes: e + "[1;5D", key: .modified(.left, .control), from: "xterm, tmux"),
        Sent(bytes: e + "[1;3C", key: .modified(.right, .alt), from: "xterm, tmux"),
        Sent(bytes: e + "[1;6B", key: .modified(.down, [.control, .shift]), from: "xterm, tmux"),
        Sent(bytes: e + "[1;5H", key: .modified(.home, .control), from: "xterm, tmux"),
        Sent(bytes: e + "[3;5~", key: .modified(.delete, .control), from: "xterm, tmux"),
        Sent(bytes: e + "[5;3~", key: .modified(.pageUp, .alt), from: "xterm, tmux"),
        Sent(bytes: e + "[a", key: .modified(.up, .shift), from: "rxvt"),
        Sent(bytes: e + "Od", key: .modified(.left, .control), from: "rxvt"),
        Sent(bytes: e + "[Z", key: .modified(.tab, .shift), from: "all"),
        Sent(bytes: e + "x", key: .modified(.character("x"), .alt), from: "Alt sends Esc"),
        Sent(bytes: e + "1", key: .modified(.character("1"), .alt), from: "Alt sends Esc"),
        Sent(bytes: e + e + "[A", key: .modified(.up, .alt), from: "Alt sends Esc"),
      ]
      for (n, final) in zip(1...4, ["P", "Q", "R", "S"]) {
        list.append(Sent(bytes: e + "O" + final, key: .function(n), from: "xterm, tmux, screen"))
      }
      for (n, final) in zip(1...5, ["A", "B", "C", "D", "E"]) {
        list.append(Sent(bytes: e + "[[" + final, key: .function(n), from: "Linux console"))
      }
      for (n, code) in zip(1...4, [11, 12, 13, 14]) {
        list.append(Sent(bytes: e + "[\(code)~", key: .function(n), from: "rxvt"))
      }
      for (n, code) in zip(5...12, [15, 17, 18, 19, 20, 21, 23, 24]) {
        list.append(Sent(bytes: e + "[\(code)~", key: .function(n), from: "all"))
      }
      return list
    }()

    @Test("Each key, under each TERM", arguments: terminalTypes)
    func everyKey(_ terminalType: String) throws {
      let terminal = try PipeTerminal(terminalType: terminalType)
      for key in Self.sent {
        terminal.type(key.bytes)
        let events = terminal.next()
        #expect(events == [.key(key.key)], "\(terminalType): \(key.testDescription)")
      }
    }

    @Test("Keys typed in one burst stay apart", arguments: terminalTypes)
    func burst(_ terminalType: String) throws {
      let terminal = try PipeTerminal(terminalType: terminalType)
      terminal.type("a" + Self.sent.map(\.bytes).joined() + "b")
      var events: [InputEvent] = []
      while events.count < Self.sent.count + 2 {
        let more = terminal.next()
        if more.isEmpty { break }
        events += more
      }
      #expect(events == [.key(.character("a"))] + Self.sent.map { .key($0.key) } + [.key(.character("b"))])
    }

    @Test(
      "A sequence no terminal entry binds is swallowed whole",
      arguments: [
        "[99~", "[1;9Z", "[I", "[O", "[?1;2c", "[200;5u", "OX", "O5P", "[[Z", "[<0;1;1M", "[12;34;56;78;90;12t",
      ])
    func unknownSequences(_ tail: String) throws {
      for type in ["xterm-256color", "tmux-256color", "linux"] {
        var options = CursesTerminal.Options()
        options.mouse = false
        let terminal = try PipeTerminal(terminalType: type, options: options)
        terminal.type("a" + Self.escape + tail + "b")
        #expect(terminal.next() == [.key(.character("a")), .key(.character("b"))], "\(type): ESC \(tail)")
      }
    }

    @Test("Esc alone is the Esc key, twice is twice")
    func escapeAlone() throws {
      let terminal = try PipeTerminal(terminalType: "tmux-256color")
      terminal.type(Self.escape)
      #expect(terminal.next() == [.key(.escape)])
      terminal.type(Self.escape + Self.escape)
      #expect(terminal.next() == [.key(.escape), .key(.escape)])
    }

    @Test("A sequence split across reads is put together")
    func splitSequence() throws {
      let terminal = try PipeTerminal(terminalType: "xterm-256color")
      terminal.type(Self.escape + "[9")
      #expect(terminal.next(timeout: 0).isEmpty)
      terminal.type("9~x")
      #expect(terminal.next() == [.key(.character("x"))])
    }

    @Test("Ctrl-Z asks to suspend; Ctrl-C is an interrupt")
    func controlKeys() throws {
      let terminal = try PipeTerminal()
      terminal.type("\u{1A}\u{3}")
      #expect(terminal.next() == [.suspend, .key(.interrupt)])
    }

    // MARK: - Bracketed paste

    @Test("A bracketed paste is one event holding exactly the text, control characters and all")
    func paste() throws {
      let terminal = try PipeTerminal()
      let text = "Hi ক্ষমা 中文\u{1}\u{1A}\u{3}\r\t\(Self.escape)x 1~ \(Self.escape)[20~"
      terminal.type("a" + Self.escape + "[200~" + text + Self.escape + "[201~" + "b")
      #expect(terminal.next() == [.key(.character("a")), .paste(text), .key(.character("b"))])
    }

    @Test("A paste arriving in pieces is one event")
    func pasteInPieces() throws {
      let terminal = try PipeTerminal()
      terminal.type(Self.escape + "[200~first half, ")
      #expect(terminal.next(timeout: 20).isEmpty)
      terminal.type("second half" + Self.escape + "[20")
      #expect(terminal.next(timeout: 20).isEmpty)
      terminal.type("1~")
      #expect(terminal.next() == [.paste("first half, second half")])
    }

    @Test("A paste whose end never comes is delivered when the input pauses")
    func pasteWithoutEnd() throws {
      let terminal = try PipeTerminal()
      terminal.type(Self.escape + "[200~lost end")
      var events: [InputEvent] = []
      for _ in 0..<4 where events.isEmpty { events = terminal.next(timeout: 1000) }
      #expect(events == [.paste("lost end")])
      terminal.type("q")
      #expect(terminal.next() == [.key(.character("q"))])
    }

    @Test("Bracketed paste is turned on where terminfo has it, and off on close")
    func pasteMode() throws {
      let on = Array("\u{1B}[?2004h".utf8)
      let off = Array("\u{1B}[?2004l".utf8)
      for (type, expected) in [("xterm-256color", true), ("tmux-256color", true), ("linux", false), ("vt100", false)] {
        let terminal = try PipeTerminal(terminalType: type)
        #expect(terminal.written.contains(on) == expected, "\(type)")
        terminal.terminal.close()
        let written = terminal.written
        #expect(written.contains(off) == expected, "\(type)")
        if expected, let start = written.firstRange(of: on), let end = written.lastRange(of: off) {
          #expect(start.lowerBound < end.lowerBound)
        }
      }
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func contains(_ part: [UInt8]) -> Bool { firstRange(of: part) != nil }

  fileprivate func lastRange(of part: [UInt8]) -> Range<Int>? {
    guard part.count <= count else { return nil }
    for start in stride(from: count - part.count, through: 0, by: -1)
    where Array(self[start..<(start + part.count)]) == part {
      return start..<(start + part.count)
    }
    return nil
  }
}
