import Foundation
import Testing
import UNTermInput
import UNTermRender

@testable import UNTermCurses

#if canImport(Glibc)
  import Glibc
#endif

extension NcursesTests {
  /// The whole input path (`poll`, `wget_wch`, keypad and mouse decoding) fed through a pipe as
  /// an xterm would send it: no tty needed.
  @Suite("Reading input through ncurses")
  struct CursesInputTests {
    typealias Harness = PipeTerminal

    @Test("Arrow, editing and control keys as an xterm sends them")
    func keys() throws {
      let harness = try Harness()
      harness.type(
        "\u{1B}OA\u{1B}OB\u{1B}OD\u{1B}OC\u{1B}OH\u{1B}OF\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{7F}\u{8}\r\t\u{3}"
      )
      #expect(
        harness.next() == [
          .key(.up), .key(.down), .key(.left), .key(.right), .key(.home), .key(.end), .key(.pageUp),
          .key(.pageDown), .key(.delete), .key(.backspace), .key(.backspace), .key(.enter),
          .key(.tab),
          .key(.interrupt),
        ])
    }

    @Test("A lone Esc arrives after the escape delay")
    func escape() throws {
      let harness = try Harness()
      harness.type("\u{1B}")
      #expect(harness.next() == [.key(.escape)])
    }

    @Test("UTF-8 text is decoded and joined into clusters")
    func text() throws {
      let harness = try Harness()
      harness.type("aক্ষ👍🏽é")
      let events = harness.next()
      #expect(events.count == 4)
      #expect(events.first == .key(.character("a")))
      #expect(events.dropFirst().first == .key(.character("ক্ষ".first ?? " ")))
      #expect(events.last == .key(.character("é")))
    }

    @Test("SGR mouse reports become presses and releases at 0-based cells")
    func mouse() throws {
      let harness = try Harness()
      try #require(harness.terminal.hasMouse)
      harness.type("\u{1B}[<0;11;6M\u{1B}[<0;11;6m\u{1B}[<2;1;1M\u{1B}[<64;3;4M")
      #expect(
        harness.next() == [
          .mouse(MouseEvent(.press, .left, x: 10, y: 5)),
          .mouse(MouseEvent(.release, .left, x: 10, y: 5)),
          .mouse(MouseEvent(.press, .right, x: 0, y: 0)),
          .mouse(MouseEvent(.press, .wheelUp, x: 2, y: 3)),
        ])
    }

    @Test("Only the extra descriptor: a wake; nothing at all: an empty result after the timeout")
    func wakeAndTimeout() throws {
      let harness = try Harness()
      var byte: UInt8 = 1
      _ = write(harness.wake.write, &byte, 1)
      #expect(harness.next() == [.wake])
      _ = read(harness.wake.read, &byte, 1)
      let start = ContinuousClock.now
      #expect(harness.next(timeout: 50).isEmpty)
      #expect(ContinuousClock.now - start >= .milliseconds(40))
    }

    @Test("The end of input is a hang-up")
    func hangup() throws {
      let harness = try Harness()
      harness.hangUp()
      #expect(harness.next() == [.hangup])
    }
  }
}
