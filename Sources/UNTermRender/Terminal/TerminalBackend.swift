/// What the interactive loop needs from a terminal, as ratatui's `Backend` trait: draw a frame,
/// wait for input, hand the terminal over for job control.
///
/// It lives here, beside `CellGrid` and `CellDiff`, in a module that imports no ncurses, so the
/// loop (UNTermShell) can be written and tested against any implementation:
/// * `CursesTerminal` (UNTermCurses) drives the real terminal through ncursesw;
/// * `InMemoryTerminal` keeps the screen as cells, takes scripted input on a virtual clock, and
///   counts what each frame would cost, for unit tests that read the screen.
///
/// Every call comes from the loop's one thread.
package protocol TerminalBackend: AnyObject {
  /// The screen's size in cells, as the terminal reports it now.
  var size: (width: Int, height: Int) { get }

  /// Draws a frame, writing only the clusters `CellDiff` says changed since the last one (all of
  /// them after a change of size or `requestFullRepaint`).
  func present(_ frame: Frame, depth: ColorDepth)

  /// Makes the next `present` write every cell, clearing the terminal first when asked (Ctrl-L,
  /// or after something else wrote to it).
  func requestFullRepaint(clearingTerminal: Bool)

  /// Waits up to `timeoutMilliseconds` (negative: no limit) for input, a signal, or `extraFD`
  /// to become readable, and returns what arrived, in order; empty on timeout.
  func nextInput(timeoutMilliseconds: Int32, extraFD: Int32?) -> [InputEvent]

  /// Stops the process as Ctrl-Z does in a cooked terminal: gives the terminal back, stops,
  /// and returns once the process continues, with the terminal taken back and repainted.
  func suspendForJobControl()
}
