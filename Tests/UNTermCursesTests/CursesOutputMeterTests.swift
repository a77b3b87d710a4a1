import Foundation
import Testing
import UNTermRender

@testable import UNTermCurses

extension NcursesTests {
  /// ncurses drawing for real, into a temporary file instead of a terminal: no tty needed.
  @Suite("ncurses output, measured")
  struct CursesOutputMeterTests {
    private func frame(_ lines: [String], width: Int = 40, height: Int = 6, style: Style = .plain)
      -> Frame
    {
      var grid = CellGrid(width: width, height: height)
      for (y, line) in lines.enumerated() { grid.write(line, x: 0, y: y, style: style) }
      return Frame(grid: grid)
    }

    private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
      let bytes = Array(needle.utf8)
      guard bytes.count <= haystack.count else { return false }
      return (0...(haystack.count - bytes.count)).contains {
        Array(haystack[$0..<($0 + bytes.count)]) == bytes
      }
    }

    @Test("In visual bidi mode the terminal is asked for explicit mode first and given it back last")
    func explicitBidiMode() throws {
      let meter = try CursesOutputMeter(width: 40, height: 6, explicitBidi: true)
      _ = meter.present(frame(["ﮧﺸﺋﺎﻋ"]), depth: .none)
      let drawn = meter.output
      let on = Array("\u{1B}[8l".utf8)
      let off = Array("\u{1B}[8h".utf8)
      #expect(contains(drawn, "\u{1B}[8l"))
      #expect(!contains(drawn, "\u{1B}[8h"))
      // Before the first cell of text is drawn.
      let text = Array("ﮧﺸﺋﺎﻋ".utf8)
      let firstOn = (0...(drawn.count - on.count)).first { Array(drawn[$0..<($0 + on.count)]) == on }
      let firstText = (0...(drawn.count - text.count)).first { Array(drawn[$0..<($0 + text.count)]) == text }
      #expect((firstOn ?? .max) < (firstText ?? .max))
      meter.close()
      #expect(Array(meter.output.suffix(off.count)) == off)
      let plain = try CursesOutputMeter(width: 40, height: 6)
      _ = plain.present(frame(["abc"]), depth: .none)
      plain.close()
      #expect(!contains(plain.output, "\u{1B}[8l") && !contains(plain.output, "\u{1B}[8h"))
    }

    @Test("A full paint costs bytes, an identical frame none, one changed cell a few")
    func bytesPerFrame() throws {
      let meter = try CursesOutputMeter(width: 40, height: 6)
      let lines = ["┌──────┐", "│ক্ষমা│", "│中文 👍🏽│", "└──────┘"]
      let first = meter.present(frame(lines), depth: .palette256)
      let same = meter.present(frame(lines), depth: .palette256)
      let changed = meter.present(frame(lines + ["x"]), depth: .palette256)
      #expect(first > 30)
      #expect(same == 0)
      #expect(changed > 0 && changed < 20)
      let output = meter.output
      #expect(output.count == meter.setupBytes + first + same + changed)
      for text in ["ক্ষ", "中文", "👍", "🏽", "┌──────┐"] {
        #expect(contains(output, text), "\(text) reaches the terminal as UTF-8")
      }
    }

    @Test("Colours and attributes become SGR sequences from terminfo")
    func colours() throws {
      let meter = try CursesOutputMeter(width: 20, height: 2)
      let style = Style(foreground: .rgb(255, 135, 0), background: .ansi(4), attributes: [.bold])
      _ = meter.present(frame(["warn"], width: 20, height: 2, style: style), depth: .trueColor)
      let output = meter.output
      // xterm-256color's terminfo: sgr for bold (with its reset), setaf 208, setab 4 (below 8:
      // the short form), then the text.
      #expect(
        contains(output, "\u{1B}[0;1m\u{1B}[38;5;208m\u{1B}[44mwarn"),
        "\(String(decoding: output, as: UTF8.self).debugDescription)")
    }

    @Test("The bottom-right cell is drawn without trouble, and a full repaint redraws")
    func bottomRight() throws {
      let meter = try CursesOutputMeter(width: 10, height: 2)
      var grid = CellGrid(width: 10, height: 2)
      grid.write("◢", x: 9, y: 1, style: .plain)
      grid.write("中", x: 7, y: 1, style: .plain)
      _ = meter.present(Frame(grid: grid), depth: .palette256)
      #expect(contains(meter.output, "◢") && contains(meter.output, "中"))
      meter.requestFullRepaint(clearingTerminal: true)
      let before = meter.output.count
      let repaint = meter.present(Frame(grid: grid), depth: .palette256)
      let again = Array(meter.output[before...])
      // The screen is cleared and every cell drawn again: both glyphs.
      #expect(again.count == repaint)
      #expect(contains(again, "\u{1B}[H\u{1B}[2J"))
      #expect(contains(again, "◢") && contains(again, "中"))
    }

    @Test("Frames of another size than the screen are clipped, not fatal")
    func wrongSize() throws {
      let meter = try CursesOutputMeter(width: 5, height: 2)
      let start = meter.output.count
      let wide = meter.present(frame(["ক্ষমা করো 中文 👍🏽 long line"], width: 30, height: 4), depth: .palette256)
      #expect(meter.output.count - start == wide)
      #expect(contains(meter.output, "ক্ষ"), "the part that fits is drawn")
      #expect(!contains(meter.output, "long line"), "what is past the screen's edge is not")
      let beforeSmall = meter.output.count
      let small = meter.present(frame(["x"], width: 1, height: 1), depth: .palette256)
      #expect(meter.output.count - beforeSmall == small)
      #expect(contains(Array(meter.output[beforeSmall...]), "x"))
      let before = meter.output.count
      let empty = meter.present(frame([], width: 0, height: 0), depth: .palette256)
      #expect(meter.output.count == before + empty)
    }

    @Test("More colour combinations than the terminal has pairs: no crash, no recycled pairs")
    func pairOverflow() throws {
      // xterm: 8 colours, 64 pairs; 9 × 9 combinations with the default colour.
      let meter = try CursesOutputMeter(width: 81, height: 2, terminalType: "xterm")
      var grid = CellGrid(width: 81, height: 2)
      let colors: [Color] = [.terminalDefault] + (0..<8).map { Color.ansi(UInt8($0)) }
      for (i, pair) in colors.flatMap({ fg in colors.map { (fg, $0) } }).enumerated() {
        grid.write("x", x: i, y: 0, style: Style(foreground: pair.0, background: pair.1))
      }
      #expect(meter.present(Frame(grid: grid), depth: .eight) > 81)
      var calm = CellGrid(width: 81, height: 2)
      calm.write("calm", x: 0, y: 0, style: Style(foreground: .ansi(2)))
      let before = meter.output.count
      _ = meter.present(Frame(grid: calm), depth: .eight)
      // Green on the default background, in a pair of its own: setaf 2 and the text.
      #expect(contains(Array(meter.output[before...]), "\u{1B}[32mcalm"))
    }

    @Test("An unknown terminal type is an error, not an exit; only one screen at a time")
    func errors() throws {
      #expect(throws: CursesTerminalError.unknownTerminalType("no-such-terminal-xyz")) {
        _ = try CursesOutputMeter(width: 10, height: 2, terminalType: "no-such-terminal-xyz")
      }
      #expect(throws: CursesTerminalError.terminalCannotAddressCursor("dumb")) {
        _ = try CursesOutputMeter(width: 10, height: 2, terminalType: "dumb")
      }
      let meter = try CursesOutputMeter(width: 10, height: 2)
      #expect(throws: CursesTerminalError.alreadyOpen) {
        _ = try CursesOutputMeter(width: 10, height: 2)
      }
      meter.close()
      let again = try CursesOutputMeter(width: 10, height: 2)
      again.close()
    }

    @Test("A SIGWINCH to the same size writes nothing; a new size repaints once, on a cleared screen")
    func windowChanges() throws {
      let meter = try CursesOutputMeter(width: 40, height: 6)
      let card = frame(["┌──────┐", "│ক্ষমা│", "└──────┘"])
      _ = meter.present(card, depth: .palette256)
      #expect(contains(meter.output, "│ক্ষমা│"))
      #expect(meter.windowChanged(width: 40, height: 6) == [.resize(width: 40, height: 6)])
      #expect(meter.present(card, depth: .palette256) == 0)
      #expect(meter.windowChanged(width: 30, height: 5) == [.resize(width: 30, height: 5)])
      let before = meter.output.count
      let bigger = frame(["┌──────┐", "│ক্ষমা│", "└──────┘"], width: 30, height: 5)
      _ = meter.present(bigger, depth: .palette256)
      let repainted = Array(meter.output[before...])
      #expect(contains(repainted, "\u{1B}[H\u{1B}[2J"))  // clear, home
      #expect(contains(repainted, "│ক্ষমা│"))
      #expect(meter.present(bigger, depth: .palette256) == 0)
    }

    @Test("Printed for the record: bytes for an 80×24 screen")
    func report() throws {
      let meter = try CursesOutputMeter(width: 80, height: 24)
      var grid = CellGrid(width: 80, height: 24)
      for y in 0..<24 {
        grid.write("row \(y): ক্ষমা করো · یہ ایک اطلاع ہے · 通知 · 👍🏽", x: 0, y: y, style: .plain)
      }
      let full = meter.present(Frame(grid: grid), depth: .palette256)
      grid.write("X", x: 0, y: 5, style: .plain)
      let small = meter.present(Frame(grid: grid), depth: .palette256)
      print(
        "curses bytes, 80×24 xterm-256color: set-up \(meter.setupBytes), full paint \(full), one cell \(small)"
      )
      #expect(small < 40)
    }
  }
}
