import UNTermRender

#if canImport(Glibc)
  import Glibc
#endif

/// Counts the bytes ncurses sends for each frame, by running the real drawing code against a
/// temporary file instead of a terminal: for benchmarks and tests, no tty needed.
///
/// ncurses 6 writes with `write(2)` on the output descriptor, so the file's growth is exactly
/// what a terminal would receive.
package final class CursesOutputMeter {
  private let terminal: CursesTerminal
  private let file: Int32
  private var counted: Int

  /// Bytes written while opening (terminal set-up strings), before any frame.
  package let setupBytes: Int

  /// Opens a measuring screen.
  ///
  /// - Parameters:
  ///   - width: Columns.
  ///   - height: Rows.
  ///   - terminalType: The terminfo entry whose sequences are counted.
  ///   - explicitBidi: Whether the terminal is asked to leave bidi to UNTerm (`--bidi visual`).
  /// - Throws: `CursesTerminalError` when the type is unknown or a terminal is already open.
  package init(width: Int, height: Int, terminalType: String = "xterm-256color", explicitBidi: Bool = false)
    throws(CursesTerminalError)
  {
    file = Posix.anonymousTemporaryFile(template: "/tmp/unterm-curses-meter-XXXXXX")
    guard file >= 0 else { throw .systemCallFailed("mkstemp", errno: Posix.lastError) }
    let input = Posix.open("/dev/null", flags: O_RDONLY)
    defer { if input >= 0 { Posix.close(input) } }
    guard input >= 0 else {
      Posix.close(file)
      throw .systemCallFailed("open /dev/null", errno: Posix.lastError)
    }
    var options = CursesTerminal.Options()
    options.mouse = false
    options.bracketedPaste = false
    options.explicitBidi = explicitBidi
    do {
      terminal = try CursesTerminal(
        input: input, output: file, terminalType: terminalType, options: options,
        ownsSignals: false,
        size: (width, height))
    } catch {
      Posix.close(file)
      throw error
    }
    counted = Posix.fileSize(file)
    setupBytes = counted
  }

  deinit {
    terminal.close()
    Posix.close(file)
  }

  /// Presents a frame and returns the bytes it took.
  package func present(_ frame: Frame, depth: ColorDepth) -> Int {
    terminal.present(frame, depth: depth)
    let size = Posix.fileSize(file)
    defer { counted = size }
    return size - counted
  }

  /// Every byte written so far, set-up included: what a terminal would have received.
  package var output: [UInt8] {
    Posix.contents(of: file)
  }

  /// Tells curses the window changed size, as a SIGWINCH does (`resizeterm`, which reports
  /// `KEY_RESIZE` even when the size is the same), and returns the input that follows.
  package func windowChanged(width: Int, height: Int) -> [InputEvent] {
    Curses.resizeTerminal(rows: Int32(height), columns: Int32(width))
    return terminal.nextInput(timeoutMilliseconds: 0, extraFD: nil)
  }

  /// Makes the next frame a full repaint, optionally clearing the screen first.
  package func requestFullRepaint(clearingTerminal: Bool = false) {
    terminal.requestFullRepaint(clearingTerminal: clearingTerminal)
  }

  /// Closes the screen early (it also closes when the meter is released).
  package func close() {
    terminal.close()
  }
}
