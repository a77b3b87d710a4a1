// curses-probe: opens the curses terminal, draws a test card of scripts that are hard to lay out
// (Bengali conjuncts, Urdu, CJK, emoji with modifiers and flags) inside borders, and echoes the
// decoded input events on the last row until `q`.
//
//   curses-probe            interactive (needs a terminal)
//   curses-probe --polite   reports SIGTERM & co. as events and closes before dying of them
//   curses-probe --crash    traps after the first frame (checks the crash restore)
//   curses-probe --measure  prints the bytes ncurses sends for a full paint and small changes
//                           (80×24 xterm-256color; no terminal needed)

import Foundation
import UNTermCurses
import UNTermInput
import UNTermRender

#if canImport(Glibc)
  import Glibc
#endif

/// Re-executes the probe with `SWIFT_BACKTRACE` set when it is not: the Swift runtime reads it
/// at launch, and its defaults would prompt on, and print into, the curses screen after a crash.
func ensureBacktraceSettings() {
  guard getenv("SWIFT_BACKTRACE") == nil else { return }
  setenv("SWIFT_BACKTRACE", "interactive=no,output-to=stderr", 1)
  let arguments = CommandLine.arguments
  var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
  argv.append(nil)
  _ = execv("/proc/self/exe", &argv)
  // execv returned: carry on with the setting in the environment for child processes only.
}

/// The test card at a size, with the events seen so far and the typed text.
func testCard(width: Int, height: Int, typed: String, status: String, counter: Int) -> Frame {
  var grid = CellGrid(width: width, height: height)
  guard width > 0, height > 0 else { return Frame(grid: grid) }
  let border = Style(foreground: .ansi(6))
  let label = Style(foreground: .indexed(244))
  let statusRow = height - 1
  let boxBottom = max(0, statusRow - 1)

  // Borders around everything but the status row.
  if height >= 3 && width >= 2 {
    grid.write("┌" + String(repeating: "─", count: width - 2) + "┐", x: 0, y: 0, style: border)
    for y in 1..<boxBottom {
      grid.write("│", x: 0, y: y, style: border)
      grid.write("│", x: width - 1, y: y, style: border)
    }
    grid.write(
      "└" + String(repeating: "─", count: width - 2) + "┘", x: 0, y: boxBottom, style: border)
  }
  let inner = Rect(x: 1, y: 1, width: width - 2, height: max(0, boxBottom - 1))

  let title = Style(
    foreground: .rgb(255, 255, 255), background: .rgb(0, 95, 135), attributes: [.bold])
  grid.fill(Rect(x: 1, y: 1, width: width - 2, height: 1), style: title)
  grid.write(
    " UNTerm curses probe · q quits · frame \(counter)", x: 1, y: 1, style: title, clip: inner)

  let rows: [(String, String)] = [
    ("Bengali", "ক্ষ প্রজ্ঞা | ক্ষমা করো"),
    ("Urdu", "یہ ایک اطلاع ہے |"),
    ("CJK", "通知センター｜中文｜한국어"),
    ("Emoji", "👍🏽 🇯🇵 ❤️ 👨‍👩‍👧 ✓ |"),
    ("Combining", "é (e+◌́) · Å · ñ |"),
  ]
  var y = 2
  for (name, text) in rows where y < inner.maxY {
    let end = grid.write(
      name.padding(toLength: 10, withPad: " ", startingAt: 0), x: 2, y: y, style: label, clip: inner
    )
    grid.write(text, x: end, y: y, style: .plain, clip: inner)
    y += 1
  }
  if y < inner.maxY {
    var x = grid.write("Colours   ", x: 2, y: y, style: label, clip: inner)
    let swatches: [(String, Style)] = [
      ("ansi", Style(foreground: .ansi(1))),
      ("256", Style(foreground: .indexed(208))),
      ("rgb", Style(foreground: .rgb(0, 170, 170))),
      ("bold", Style(attributes: [.bold])),
      ("dim", Style(attributes: [.dim])),
      ("italic", Style(attributes: [.italic])),
      ("under", Style(attributes: [.underline])),
      ("rev", Style(attributes: [.reverse])),
    ]
    for (name, style) in swatches {
      x = grid.write(name, x: x, y: y, style: style, clip: inner)
      x = grid.write(" ", x: x, y: y, style: .plain, clip: inner)
    }
    y += 1
  }
  var cursor: (x: Int, y: Int)?
  if y < inner.maxY {
    let start = grid.write("Typed     ", x: 2, y: y, style: label, clip: inner)
    let end = grid.write(typed, x: start, y: y, style: Style(attributes: [.underline]), clip: inner)
    if end < inner.maxX { cursor = (end, y) }
  }

  // Status row, with a character in the bottom-right cell on purpose.
  let statusStyle = Style(foreground: .ansi(0), background: .ansi(7))
  grid.fill(Rect(x: 0, y: statusRow, width: width, height: 1), style: statusStyle)
  grid.write(
    status, x: 0, y: statusRow, style: statusStyle,
    clip: Rect(x: 0, y: statusRow, width: width - 1, height: 1))
  grid.write("◢", x: width - 1, y: statusRow, style: statusStyle)
  return Frame(grid: grid, hits: [], cursor: cursor)
}

/// A short name for an event on the status row.
func describe(_ event: InputEvent) -> String {
  switch event {
  case .key(.character(let c)):
    let scalars = c.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " ")
    return "char '\(c)' [\(scalars)]"
  case .key(let key): return "key \(key)"
  case .paste(let text): return "paste \(TerminalText.sanitize(text).prefix(40))"
  case .suspend: return "suspend"
  case .mouse(let m): return "mouse \(m.kind) \(m.button) @\(m.x),\(m.y)"
  case .resize(let w, let h): return "resize \(w)×\(h)"
  case .wake: return "wake"
  case .signal(let s): return "signal \(s)"
  case .hangup: return "hangup"
  }
}

/// Prints the bytes ncurses sends for the test card: a full paint, an identical frame, one
/// typed character, and a resize-style full repaint.
func measure() -> Int32 {
  do {
    let meter = try CursesOutputMeter(width: 80, height: 24)
    let first = meter.present(
      testCard(width: 80, height: 24, typed: "", status: "ready", counter: 1), depth: .palette256)
    let same = meter.present(
      testCard(width: 80, height: 24, typed: "", status: "ready", counter: 1), depth: .palette256)
    let typed = meter.present(
      testCard(width: 80, height: 24, typed: "a", status: "ready", counter: 1), depth: .palette256)
    meter.requestFullRepaint(clearingTerminal: true)
    let repaint = meter.present(
      testCard(width: 80, height: 24, typed: "a", status: "ready", counter: 1), depth: .palette256)
    Console.line("terminal set-up:        \(meter.setupBytes) B")
    Console.line("first full paint:       \(first) B")
    Console.line("identical frame:        \(same) B")
    Console.line("one typed character:    \(typed) B")
    Console.line("cleared full repaint:   \(repaint) B")
    return 0
  } catch {
    Console.line("curses-probe: \(error)", to: .standardError)
    return 1
  }
}

func run() -> Int32 {
  let terminal: CursesTerminal
  do {
    var options = CursesTerminal.Options()
    options.politeTermination = CommandLine.arguments.contains("--polite")
    terminal = try CursesTerminal(options: options)
  } catch {
    Console.line("curses-probe: \(error)", to: .standardError)
    return 1
  }
  var typed = ""
  var history: [String] = ["ready: type, click, resize; q quits"]
  var counter = 0
  var size = terminal.size
  var exitSignal: Int32?
  loop: while true {
    counter += 1
    terminal.present(
      testCard(
        width: size.width, height: size.height, typed: typed,
        status: history.suffix(3).joined(separator: " · "), counter: counter),
      depth: .trueColor)
    if CommandLine.arguments.contains("--crash") {
      preconditionFailure("curses-probe: deliberate crash")
    }
    let events = terminal.nextInput(timeoutMilliseconds: 5000, extraFD: nil)
    for event in events {
      history.append(describe(event))
      switch event {
      case .key(.character("q")): break loop
      case .key(.character(let c)): typed.append(c)
      case .key(.backspace): if !typed.isEmpty { typed.removeLast() }
      case .key(.interrupt): typed = ""
      case .paste(let text): typed += TerminalText.sanitize(text)
      case .suspend: terminal.suspendForJobControl()
      case .resize(let w, let h): size = (w, h)
      case .signal(let s):
        exitSignal = s
        break loop
      case .hangup: break loop
      default: break
      }
    }
  }
  terminal.close()
  if let exitSignal { CursesTerminal.terminate(with: exitSignal) }
  Console.line("curses-probe: last events: \(history.suffix(5).joined(separator: " · "))")
  return 0
}

ensureBacktraceSettings()
exit(CommandLine.arguments.contains("--measure") ? measure() : run())
