import Foundation
import Testing
import UNTermState
import UNTermTestSupport

@testable import UNTermRender

@Suite("The in-memory terminal")
struct InMemoryTerminalTests {
  private func frame(_ lines: [String], width: Int = 8, style: Style = .plain) -> Frame {
    var grid = CellGrid(width: width, height: lines.count)
    for (y, line) in lines.enumerated() { grid.write(line, x: 0, y: y, style: style) }
    return Frame(grid: grid)
  }

  @Test("It shows what the diffs wrote: wide clusters replaced, split and moved stay exact")
  func screenFollowsFrames() {
    let terminal = InMemoryTerminal(width: 8, height: 2, now: Fixtures.now)
    let frames = [
      ["ab中cd", "ক্ষমা"], ["a中bcd", "ক্ষমা x"], ["a中中d", "xক্ষমা"], ["abcdefgh", "👍🏽 🇯🇵"], ["中", "🇯🇵👍🏽"],
      ["中", "🇯🇵👍🏽"],
    ]
    for lines in frames {
      let next = frame(lines)
      terminal.present(next, depth: .palette256)
      #expect(terminal.screen == next.grid, "\(lines)")
    }
    #expect(terminal.counters.presents == frames.count)
    #expect(terminal.counters.fullRepaints == 1)
    #expect(terminal.counters.framesWithChanges == frames.count - 1)
  }

  @Test("Counts what a frame costs: nothing for an identical one, one cell for one change")
  func counting() {
    let terminal = InMemoryTerminal(width: 8, height: 2, now: Fixtures.now)
    terminal.present(frame(["hello", "world"]), depth: .palette256)
    let first = terminal.counters
    #expect(first.cellsWritten == 16)
    #expect(first.bytes == frame(["hello", "world"]).grid.terminalUpdate(from: nil, depth: .palette256).utf8.count)
    terminal.present(frame(["hello", "world"]), depth: .palette256)
    #expect(terminal.counters.bytes == first.bytes)
    terminal.present(frame(["hello", "wOrld"]), depth: .palette256)
    #expect(terminal.counters.cellsWritten == first.cellsWritten + 1)
    terminal.requestFullRepaint(clearingTerminal: true)
    terminal.present(frame(["hello", "wOrld"]), depth: .palette256)
    #expect(terminal.counters.fullRepaints == 2)
  }

  @Test("Input arrives on a virtual clock; a resize changes the size when read; then it hangs up")
  func input() {
    let terminal = InMemoryTerminal(width: 8, height: 2, now: Fixtures.now)
    terminal.press(.up, after: 1)
    terminal.resize(width: 4, height: 3, after: 2)
    #expect(terminal.nextInput(timeoutMilliseconds: 500, extraFD: nil).isEmpty)
    #expect(terminal.now == Fixtures.now.addingTimeInterval(0.5))
    #expect(terminal.nextInput(timeoutMilliseconds: -1, extraFD: nil) == [.key(.up)])
    #expect(terminal.now == Fixtures.now.addingTimeInterval(1))
    #expect(terminal.size == (8, 2))
    #expect(terminal.nextInput(timeoutMilliseconds: 5000, extraFD: nil) == [.resize(width: 4, height: 3)])
    #expect(terminal.size == (4, 3))
    #expect(terminal.now == Fixtures.now.addingTimeInterval(3))
    #expect(terminal.nextInput(timeoutMilliseconds: 10, extraFD: nil) == [.hangup])
    #expect(terminal.waits == [500, -1, 5000, 10])
  }

  @Test("A frame of another size than the terminal is clipped to it")
  func clipping() {
    let terminal = InMemoryTerminal(width: 4, height: 1, now: Fixtures.now)
    terminal.present(frame(["ab中d", "zz"], width: 6), depth: .palette256)
    #expect(terminal.screen.lines == ["ab中"])
  }
}
