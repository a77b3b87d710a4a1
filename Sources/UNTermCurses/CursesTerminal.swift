import Foundation
import UNTermRender
import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// The real terminal, driven through ncursesw: draws frames, reads keys and mouse buttons, and
/// gives the terminal back on every way out.
///
/// Open it once per process, and use it from one thread only: ncurses as Debian builds it is
/// not reentrant, so every ncurses call stays on the thread that opened the terminal, and none
/// is made from a signal handler.
///
/// What opening does: `setlocale` from the environment (falling back to C.UTF-8 for the
/// character type), `newterm` on the tty (never `initscr`, which exits the process when the
/// terminal type is unknown), raw mode (Ctrl-C arrives as `.interrupt`), no echo, no newline
/// translation, keypad codes, an Esc delay of 25 ms, default colours, a hidden cursor, mouse
/// press and release reports where the terminal has them, and bracketed paste where terminfo
/// says the terminal has it (`BE`).
///
/// Keys are decoded from terminfo: the terminal's own entry, and the sequences of the terminals
/// UNTerm commonly runs in where they do not clash (`TerminfoKeys`); what no entry knows is put
/// together or swallowed by `KeySequenceParser`.
///
/// A terminal that a killed program left raw (no `ICANON`, no `ECHO`) is set to sane cooked
/// modes before curses starts, so quitting restores those rather than the broken ones
/// (`repairedInheritedModes`).
///
/// Ways out, and how each restores the terminal:
/// * `close()` (also run by `deinit`): paste and mouse off, cursor visible, `endwin`, saved
///   termios.
/// * SIGINT, SIGTERM, SIGHUP, SIGQUIT: an async-signal-safe handler writes precomputed
///   terminfo bytes, restores the termios saved before `newterm`, and re-raises the signal so
///   the exit status shows it. With `Options.politeTermination` the first one is reported as
///   `InputEvent.signal` instead, so the loop can finish its log and close normally.
/// * Crashes (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE; Swift traps are SIGILL on
///   x86_64 and SIGTRAP on arm64): the same restore, then the previous handler runs.
/// * Ctrl-Z: in raw mode it is byte 26, reported as `.suspend`; `suspendForJobControl()` raises
///   SIGTSTP, and ncurses' handler does `endwin`, stops, and repaints on SIGCONT (bracketed
///   paste is turned off around it).
/// * SIGKILL cannot be caught: `stty sane` or `reset` afterwards.
///
/// Set `SWIFT_BACKTRACE=interactive=no,output-to=stderr` before the process starts: the Swift
/// runtime reads it at launch, and its defaults would prompt on, and print a backtrace into,
/// the curses screen. An executable can `setenv` it and re-exec itself when it is unset.
package final class CursesTerminal: TerminalBackend {
  /// How the terminal behaves.
  package struct Options: Sendable {
    /// Report mouse presses and releases, where the terminal can.
    package var mouse = true
    /// Report the first SIGINT/SIGTERM/SIGHUP/SIGQUIT as `InputEvent.signal` instead of
    /// restoring and dying at once; a second one still ends the process.
    package var politeTermination = false
    /// Turn on bracketed paste where the terminal has it, so a paste arrives as `.paste`.
    package var bracketedPaste = true
    /// How long to wait after Esc for the rest of an escape sequence.
    package var escapeDelayMilliseconds: Int32 = 25
    /// Ask the terminal to show cells as written (BDSM reset) while open, because UNTerm puts
    /// right-to-left text in display order itself (`--bidi visual`).
    package var explicitBidi = false

    package init() {}
  }

  nonisolated(unsafe) private static var isAnyOpen = false

  let screen: Curses.Screen
  let window: Curses.Window
  private let outputStream: Curses.File
  private let inputStream: Curses.File
  /// The descriptor ncurses reads keys from.
  let inputDescriptor: Int32
  private let terminalInput: Int32
  private let savedModes: termios?
  let ownsSignals: Bool
  let options: Options

  /// The colours the terminal offers.
  package let palette: CursesPalette
  /// Whether colour -1 means "the terminal's own colour" (`use_default_colors` worked).
  package let usesDefaultColors: Bool
  /// Whether mouse reports were turned on.
  package let hasMouse: Bool
  /// Whether the terminal is still in use (`close()` not yet called).
  package private(set) var isOpen = true
  /// Whether `suspend()` handed the terminal back for now.
  package private(set) var isSuspended = false
  /// Whether the terminal was left raw (no `ICANON`, no `ECHO`) by an earlier program and was
  /// set to sane cooked modes, which quitting restores.
  package let repairedInheritedModes: Bool

  /// The key for each ncurses key code (see `TerminfoKeys`).
  let keyTable: [UInt32: TerminfoKeys.Binding]
  /// Escape sequences, Alt keys and pastes being put together across reads.
  var parser = KeySequenceParser()
  /// The descriptor ncurses writes to.
  let outputDescriptor: Int32
  /// The bytes that turn bracketed paste on and off, when it was turned on.
  let pasteMode: (on: [UInt8], off: [UInt8])?

  // State kept between frames (see CursesTerminal+Present.swift).
  var previousGrid: CellGrid?
  var previousWindowSize = (width: 0, height: 0)
  var previousDepth: ColorDepth?
  var needsFullRepaint = true
  var clearsTerminalBeforeNextPresent = false
  var pairs: [Int64: Int32] = [:]
  let maxPairs: Int
  var pairTableOverflowed = false
  var cursorVisibility: Int32 = -1
  /// Scratch space for one `cchar_t`'s wide characters and the terminating 0.
  let characters: UnsafeMutablePointer<wchar_t>

  /// Opens the terminal on standard input and output.
  ///
  /// - Throws: `CursesTerminalError` when standard input or output is not a terminal, `TERM`
  ///   is unset, `dumb` or unknown to terminfo, or no UTF-8 locale exists. Nothing is printed
  ///   and the process never exits; the caller decides what to say.
  package convenience init(options: Options = Options()) throws(CursesTerminalError) {
    let environment = ProcessInfo.processInfo.environment
    if let problem = CursesTerminalError.precheck(
      environment: environment, inputIsTerminal: Posix.isTerminal(STDIN_FILENO),
      outputIsTerminal: Posix.isTerminal(STDOUT_FILENO))
    {
      throw problem
    }
    try self.init(
      input: STDIN_FILENO, output: STDOUT_FILENO, terminalType: environment["TERM"] ?? "",
      options: options, ownsSignals: true, size: nil)
  }

  /// Opens curses on any pair of descriptors.
  ///
  /// - Parameters:
  ///   - input: Where keys are read.
  ///   - output: Where the screen is written; a regular file works (see `CursesOutputMeter`).
  ///   - terminalType: The terminfo name.
  ///   - options: Behaviour.
  ///   - ownsSignals: Whether to install the restore handlers (only for a real terminal).
  ///   - size: A size to force, for output that is not a terminal.
  init(
    input: Int32, output: Int32, terminalType: String, options: Options, ownsSignals: Bool,
    size: (width: Int, height: Int)?
  ) throws(CursesTerminalError) {
    guard !Self.isAnyOpen else { throw .alreadyOpen }
    try Self.useUTF8Locale()
    let streams = try Self.openStreams(input: input, output: output)
    let handled = TerminalSignals.terminationSignals + [SIGWINCH]
    let (savedModes, repaired) = Self.repairInheritedModes(input)
    // Read while no screen is open: loading another type's description makes it current.
    let companions = TerminfoKeys.companionSequences()
    if ownsSignals {
      Self.prepareSignals(
        output: streams.outputCopy, input: input, modes: savedModes, polite: options.politeTermination,
        blocking: handled)
    }
    let (screen, window) = try Self.openScreen(
      type: terminalType, streams: streams, ownsSignals: ownsSignals, blocked: handled)

    keyTable = Self.configureInput(window, escapeDelay: options.escapeDelayMilliseconds, companions: companions)
    (palette, usesDefaultColors, maxPairs) = Self.startColors()
    hasMouse = options.mouse && Self.enableMouse()
    if Curses.setCursorVisibility(0) { cursorVisibility = 0 }
    pasteMode = options.bracketedPaste ? Self.pasteSequences() : nil
    if let size {
      Curses.resizeTerminal(rows: Int32(size.height), columns: Int32(size.width))
      Curses.discardInput()  // the KEY_RESIZE resizeterm queued: nobody resized anything
    }

    self.screen = screen
    self.window = window
    self.outputStream = streams.output
    self.inputStream = streams.input
    self.inputDescriptor = streams.inputCopy
    self.outputDescriptor = streams.outputCopy
    self.repairedInheritedModes = repaired
    self.terminalInput = input
    self.savedModes = savedModes
    self.ownsSignals = ownsSignals
    self.options = options
    characters = UnsafeMutablePointer<wchar_t>.allocate(capacity: CellRuns.maxScalars + 1)
    characters.initialize(repeating: 0, count: CellRuns.maxScalars + 1)
    Self.isAnyOpen = true

    writeOpeningModes()
    if ownsSignals { armSignals(unblocking: handled) }
  }

  deinit {
    close()
    characters.deallocate()
  }

  /// Gives the terminal back for good; safe to call more than once.
  ///
  /// Mouse reports off, cursor visible, `endwin`, the termios saved at opening, and signal
  /// dispositions as they were.
  package func close() {
    guard isOpen else { return }
    isOpen = false
    let handled = TerminalSignals.terminationSignals + [SIGWINCH]
    if ownsSignals { Posix.setBlocked(handled, true) }
    // Every frame ended with doupdate, which flushes: nothing of ncurses' is waiting.
    if let pasteMode, !isSuspended { Posix.writeAll(outputDescriptor, pasteMode.off) }
    if hasMouse { _ = Curses.setMouseMask(0) }
    _ = Curses.setCursorVisibility(1)
    Curses.endWindows()
    if options.explicitBidi { Posix.writeAll(outputDescriptor, RestoreSequence.explicitBidiOff) }
    Curses.deleteScreen(screen)
    Curses.closeStream(outputStream)
    Curses.closeStream(inputStream)
    if ownsSignals {
      if var modes = savedModes { Posix.setTerminalModes(terminalInput, &modes) }
      TerminalSignals.setActive(false)
      TerminalSignals.uninstallAll()
      Posix.setBlocked(handled, false)
    }
    Self.isAnyOpen = false
  }

  /// Hands the terminal back for a while (to run a shell command, say): `endwin`.
  package func suspend() {
    guard isOpen, !isSuspended else { return }
    if ownsSignals { TerminalSignals.setActive(false) }
    if let pasteMode { Posix.writeAll(outputDescriptor, pasteMode.off) }
    Curses.endWindows()
    if options.explicitBidi { Posix.writeAll(outputDescriptor, RestoreSequence.explicitBidiOff) }
    isSuspended = true
  }

  /// Takes the terminal again after `suspend()` and repaints it.
  package func resume() {
    guard isOpen, isSuspended else { return }
    if options.explicitBidi { Posix.writeAll(outputDescriptor, RestoreSequence.explicitBidiOn) }
    Curses.refresh(window)
    if let pasteMode { Posix.writeAll(outputDescriptor, pasteMode.on) }
    isSuspended = false
    if ownsSignals { TerminalSignals.setActive(true) }
  }

  /// The termination signal that arrived in polite mode, if any.
  package var pendingSignal: Int32? {
    guard ownsSignals else { return nil }
    let signal = TerminalSignals.pendingSignal
    return signal == 0 ? nil : signal
  }

  /// While a program's standard output and error are captured (pipes on fds 1 and 2), these
  /// are the descriptors to put back if the process dies of a signal, so a crash's report still
  /// reaches the real standard error; -1 and -1 when capture ends.
  package static func restoreStandardStreamsOnSignal(output: Int32, error: Int32) {
    TerminalSignals.setStandardStreams(output: output, error: error)
  }

  /// Ends the process with a signal's default action (after `close()`), so the exit status
  /// shows the signal.
  package static func terminate(with signal: Int32) -> Never {
    TerminalSignals.terminate(with: signal)
  }

  /// The current size of the screen in cells.
  package var size: (width: Int, height: Int) {
    guard isOpen else { return (0, 0) }
    return Curses.size(of: window)
  }

  /// Stops the process the way Ctrl-Z does in a cooked terminal, and returns once it continues,
  /// the terminal taken back and repainted. Nothing happens when SIGTSTP is ignored (a shell
  /// without job control).
  package func suspendForJobControl() {
    guard isOpen, !isSuspended else { return }
    switch TerminalSignals.stopDisposition() {
    case .ignored:
      return
    case .handled:
      // ncurses' handler (behind ours, which turns bracketed paste off and on around it):
      // endwin, stop, then repaint on SIGCONT.
      if !ownsSignals, let pasteMode { Posix.writeAll(outputDescriptor, pasteMode.off) }
      Posix.raiseSignal(SIGTSTP)
      if !ownsSignals, let pasteMode { Posix.writeAll(outputDescriptor, pasteMode.on) }
    case .defaultAction:
      suspend()
      Posix.raiseSignal(SIGTSTP)
      resume()
    }
  }
}
