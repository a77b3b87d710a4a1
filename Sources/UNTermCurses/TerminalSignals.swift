#if canImport(Glibc)
  import Glibc
#endif

/// Gives the terminal back when a signal ends the process while curses has the screen.
///
/// Handlers are async-signal-safe: they never call ncurses, Swift allocation or locks. They
/// write bytes computed before the handlers went in (sgr0, op, mouse off, rmkx, cnorm, rmcup
/// from terminfo) and put back the termios saved before `newterm`, then:
///
/// * **SIGINT, SIGTERM, SIGHUP, SIGQUIT**: reset the signal to its default action and raise it
///   again, so the parent sees "killed by signal N" (SA_RESETHAND semantics). With polite
///   termination on, the *first* such signal is only recorded (`pendingSignal`) and wakes the
///   input wait; the loop then closes the terminal and calls `CursesTerminal.terminate(with:)`.
///   A second signal takes the immediate path. A signal whose disposition was SIG_IGN when the
///   terminal opened (`nohup`) stays ignored.
/// * **SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE**: call the previous handler (the
///   Swift runtime's backtracer, when enabled), so its report lands on a restored terminal, then
///   die of the signal with its default action, so core dumps still happen. They run on an
///   alternate stack, so a stack overflow is covered too.
/// * **SIGWINCH**: wakes the input wait, then calls ncurses' own handler, which makes the next
///   `wget_wch` return `KEY_RESIZE`.
/// * **SIGTSTP**: turns bracketed paste off, calls ncurses' handler (which does `endwin`, stops,
///   and repaints on SIGCONT), and turns paste back on once the process continues, so the shell
///   never receives paste brackets meant for UNTerm. In raw mode Ctrl-Z does not send SIGTSTP;
///   `CursesTerminal` raises it itself.
enum TerminalSignals {
  static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
  static let crashSignals: [Int32] = [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE]

  /// Prepares the shared state, so the handlers never run lazy initialisation.
  static func prepare() {
    precondition(signalState.byteCount.pointee >= 0)
  }

  /// The read end of the pipe the handlers write to when they want the input wait to return.
  static var wakeDescriptor: Int32 { signalState.wakeRead.pointee }

  /// Records the descriptors and modes the handlers restore; call with the signals blocked.
  static func setTerminal(output: Int32, input: Int32, modes: termios?) {
    let state = signalState
    state.outputFD.pointee = output
    state.inputFD.pointee = input
    if let modes {
      state.savedModes.pointee = modes
      state.hasModes.pointee = true
    } else {
      state.hasModes.pointee = false
    }
  }

  /// Records the copies of standard output and error to put back on fds 1 and 2 before anything
  /// else is restored (-1: none), while a program's own output is captured; a crash's backtrace
  /// then reaches the real standard error.
  static func setStandardStreams(output: Int32, error: Int32) {
    signalState.standardOutput.pointee = output
    signalState.standardError.pointee = error
  }

  /// Replaces the bytes written on restore; call with the signals blocked.
  static func setRestoreBytes(_ bytes: [UInt8]) {
    let state = signalState
    let count = min(bytes.count, SignalState.byteCapacity)
    state.byteCount.pointee = 0
    for i in 0..<count { state.bytes[i] = bytes[i] }
    state.byteCount.pointee = count
  }

  /// Replaces the bytes the SIGTSTP handler writes before stopping (`off`) and after continuing
  /// (`on`); call with the signals blocked.
  static func setPasteBytes(on: [UInt8], off: [UInt8]) {
    let state = signalState
    for (bytes, buffer, count) in [(on, state.pasteOn, state.pasteOnCount), (off, state.pasteOff, state.pasteOffCount)]
    {
      let n = min(bytes.count, SignalState.pasteCapacity)
      count.pointee = 0
      for i in 0..<n { buffer[i] = bytes[i] }
      count.pointee = n
    }
  }

  /// Whether a handler should restore the terminal (off while suspended and after close).
  static func setActive(_ active: Bool) {
    signalState.active.pointee = active
  }

  /// Whether the first termination signal is only recorded.
  static func setPolite(_ polite: Bool) {
    signalState.polite.pointee = polite
  }

  /// The termination signal recorded in polite mode, or 0.
  static var pendingSignal: Int32 { signalState.pending.pointee }

  /// Forgets a recorded signal.
  static func clearPendingSignal() {
    signalState.pending.pointee = 0
  }

  /// Installs the termination handlers, keeping ignored signals ignored.
  static func installTermination() {
    for signal in terminationSignals {
      install(signal, flags: 0) { action in
        action.__sigaction_handler.sa_handler = terminationHandler
      }
    }
  }

  /// Installs the crash handlers, on an alternate stack.
  static func installCrash() {
    Posix.ensureAlternateSignalStack(size: 64 * 1024)
    for signal in crashSignals {
      install(signal, flags: SA_SIGINFO | SA_ONSTACK | Int32(bitPattern: SA_RESETHAND)) { action in
        action.__sigaction_handler.sa_sigaction = crashHandler
      }
    }
  }

  /// Puts a wake-up in front of the current SIGWINCH handler (ncurses', after `newterm`).
  static func installWindowChange() {
    install(SIGWINCH, flags: SA_SIGINFO, keepIgnored: false) { action in
      action.__sigaction_handler.sa_sigaction = windowChangeHandler
    }
  }

  /// Puts a handler in front of ncurses' SIGTSTP handler, when ncurses installed one.
  static func installStop() {
    guard stopDisposition() == .handled else { return }
    install(SIGTSTP, flags: SA_SIGINFO | Int32(SA_RESTART), keepIgnored: true) { action in
      action.__sigaction_handler.sa_sigaction = stopHandler
    }
  }

  /// Puts back every disposition this type replaced.
  static func uninstallAll() {
    let state = signalState
    for signal in terminationSignals + crashSignals + [SIGWINCH, SIGTSTP] where state.installed[Int(signal)] {
      Posix.setAction(signal, state.previous + Int(signal), previous: nil)
      state.installed[Int(signal)] = false
    }
  }

  /// Resets a signal to its default action and raises it, ending the process the way the
  /// signal would have.
  static func terminate(with signal: Int32) -> Never {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = nil  // SIG_DFL
    Posix.clearMask(&action)
    Posix.setAction(signal, &action, previous: nil)
    Posix.setBlocked([signal], false)
    Posix.raiseSignal(signal)
    // Only reached if the signal's default action does not end the process.
    Posix.exitProcess(128 + signal)
  }

  /// What SIGTSTP would do now.
  enum StopDisposition {
    case defaultAction, ignored, handled
  }

  /// What SIGTSTP would do now: stop the process, nothing, or run a handler (ncurses').
  static func stopDisposition() -> StopDisposition {
    var current = sigaction()
    Posix.setAction(SIGTSTP, nil, previous: &current)
    if current.sa_flags & SA_SIGINFO != 0 { return .handled }
    switch handlerBits(current.__sigaction_handler.sa_handler) {
    case 0: return .defaultAction
    case 1: return .ignored
    default: return .handled
    }
  }

  /// Runs `body` (a `newterm`) with SIGINT and SIGTERM ignored, so ncurses, which only catches
  /// them while they have their default action, leaves them alone for the rest of the process.
  static func withoutNcursesTerminationHandlers<T>(_ body: () -> T) -> T {
    var ignore = sigaction()
    Posix.clearMask(&ignore)
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    var savedInterrupt = sigaction()
    var savedTerminate = sigaction()
    Posix.setAction(SIGINT, &ignore, previous: &savedInterrupt)
    Posix.setAction(SIGTERM, &ignore, previous: &savedTerminate)
    defer {
      Posix.setAction(SIGINT, &savedInterrupt, previous: nil)
      Posix.setAction(SIGTERM, &savedTerminate, previous: nil)
    }
    return body()
  }

  private static func install(
    _ signal: Int32, flags: Int32, keepIgnored: Bool = true, configure: (inout sigaction) -> Void
  ) {
    let state = signalState
    var current = sigaction()
    Posix.setAction(signal, nil, previous: &current)
    if keepIgnored && current.sa_flags & SA_SIGINFO == 0
      && handlerBits(current.__sigaction_handler.sa_handler) == 1
    {
      return
    }
    var action = sigaction()
    Posix.clearMask(&action)
    action.sa_flags = flags
    configure(&action)
    if state.installed[Int(signal)] {
      // Already ours: replace the handler but keep the disposition we saved first.
      Posix.setAction(signal, &action, previous: nil)
    } else {
      Posix.setAction(signal, &action, previous: state.previous + Int(signal))
      state.installed[Int(signal)] = true
    }
  }
}

// MARK: - State the handlers read

/// Raw memory the handlers read: allocated once, never freed, written with signals blocked.
struct SignalState {
  static let byteCapacity = 512
  static let pasteCapacity = 32
  static let signalSlots = 65

  let bytes: UnsafeMutablePointer<UInt8>
  let byteCount: UnsafeMutablePointer<Int>
  let outputFD: UnsafeMutablePointer<Int32>
  let inputFD: UnsafeMutablePointer<Int32>
  let savedModes: UnsafeMutablePointer<termios>
  let hasModes: UnsafeMutablePointer<Bool>
  let active: UnsafeMutablePointer<Bool>
  let polite: UnsafeMutablePointer<Bool>
  let pending: UnsafeMutablePointer<Int32>
  let wakeRead: UnsafeMutablePointer<Int32>
  let wakeWrite: UnsafeMutablePointer<Int32>
  let previous: UnsafeMutablePointer<sigaction>
  let installed: UnsafeMutablePointer<Bool>
  let pasteOn: UnsafeMutablePointer<UInt8>
  let pasteOnCount: UnsafeMutablePointer<Int>
  let pasteOff: UnsafeMutablePointer<UInt8>
  let pasteOffCount: UnsafeMutablePointer<Int>
  let standardOutput: UnsafeMutablePointer<Int32>
  let standardError: UnsafeMutablePointer<Int32>

  static func make() -> SignalState {
    func cell<T>(_ value: T) -> UnsafeMutablePointer<T> {
      let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
      pointer.initialize(to: value)
      return pointer
    }
    let pipe = Posix.makePipe()
    if let pipe {
      Posix.makeNonBlocking(pipe.read)
      Posix.makeNonBlocking(pipe.write)
    }
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCapacity)
    bytes.initialize(repeating: 0, count: byteCapacity)
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
    previous.initialize(repeating: sigaction(), count: signalSlots)
    let installed = UnsafeMutablePointer<Bool>.allocate(capacity: signalSlots)
    installed.initialize(repeating: false, count: signalSlots)
    let pasteOn = UnsafeMutablePointer<UInt8>.allocate(capacity: pasteCapacity)
    pasteOn.initialize(repeating: 0, count: pasteCapacity)
    let pasteOff = UnsafeMutablePointer<UInt8>.allocate(capacity: pasteCapacity)
    pasteOff.initialize(repeating: 0, count: pasteCapacity)
    return SignalState(
      bytes: bytes, byteCount: cell(0), outputFD: cell(-1), inputFD: cell(-1),
      savedModes: cell(termios()), hasModes: cell(false), active: cell(false),
      polite: cell(false), pending: cell(0), wakeRead: cell(pipe?.read ?? -1),
      wakeWrite: cell(pipe?.write ?? -1), previous: previous, installed: installed, pasteOn: pasteOn,
      pasteOnCount: cell(0), pasteOff: pasteOff, pasteOffCount: cell(0), standardOutput: cell(-1),
      standardError: cell(-1))
  }
}

nonisolated(unsafe) private let signalState = SignalState.make()

/// The bits of a handler pointer: 0 is SIG_DFL, 1 is SIG_IGN.
private func handlerBits(_ handler: (@convention(c) (Int32) -> Void)?) -> Int {
  guard let handler else { return 0 }
  return unsafeBitCast(handler, to: Int.self)
}

// MARK: - Handlers (async-signal-safe)

/// Writes the restore bytes and puts back the saved termios, if a terminal is active.
private func restoreTerminal() {
  let state = signalState
  // Captured output goes back to where it belongs first, whether or not a screen is open.
  if state.standardOutput.pointee >= 0 { _ = dup2(state.standardOutput.pointee, STDOUT_FILENO) }
  if state.standardError.pointee >= 0 { _ = dup2(state.standardError.pointee, STDERR_FILENO) }
  state.standardOutput.pointee = -1
  state.standardError.pointee = -1
  guard state.active.pointee else { return }
  state.active.pointee = false
  if state.outputFD.pointee >= 0 && state.byteCount.pointee > 0 {
    Posix.writeAll(state.outputFD.pointee, state.bytes, count: state.byteCount.pointee)
  }
  if state.hasModes.pointee && state.inputFD.pointee >= 0 {
    Posix.setTerminalModes(state.inputFD.pointee, state.savedModes)
  }
}

private func wake() {
  var byte: UInt8 = 1
  let descriptor = signalState.wakeWrite.pointee
  if descriptor >= 0 { Posix.writeAll(descriptor, &byte, count: 1) }
}

private func terminationHandler(_ signal: Int32) {
  let saved = Posix.lastError
  let state = signalState
  if state.polite.pointee && state.active.pointee && state.pending.pointee == 0 {
    state.pending.pointee = signal
    wake()
    Posix.lastError = saved
    return
  }
  restoreTerminal()
  var action = sigaction()
  action.__sigaction_handler.sa_handler = nil  // SIG_DFL
  Posix.clearMask(&action)
  Posix.setAction(signal, &action, previous: nil)
  // Blocked while this handler runs; delivered with the default action when it returns.
  Posix.raiseSignal(signal)
}

private func crashHandler(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  restoreTerminal()
  // Chain: call the previous handler (the Swift runtime's backtracer, say) directly. It may
  // return, as the backtracer does when the signal was sent rather than caused by a fault, so
  // then die of the signal anyway: default action, raised now, delivered (with a core dump)
  // when this handler returns.
  let previous = signalState.previous[Int(signal)]
  if previous.sa_flags & SA_SIGINFO != 0 {
    previous.__sigaction_handler.sa_sigaction?(signal, info, context)
  } else if handlerBits(previous.__sigaction_handler.sa_handler) > 1 {
    previous.__sigaction_handler.sa_handler?(signal)
  }
  var action = sigaction()
  action.__sigaction_handler.sa_handler = nil  // SIG_DFL
  Posix.clearMask(&action)
  Posix.setAction(signal, &action, previous: nil)
  Posix.raiseSignal(signal)
}

private func windowChangeHandler(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  let saved = Posix.lastError
  wake()
  let previous = signalState.previous[Int(signal)]
  if previous.sa_flags & SA_SIGINFO != 0 {
    previous.__sigaction_handler.sa_sigaction?(signal, info, context)
  } else if handlerBits(previous.__sigaction_handler.sa_handler) > 1 {
    previous.__sigaction_handler.sa_handler?(signal)
  }
  Posix.lastError = saved
}

private func stopHandler(
  _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  let saved = Posix.lastError
  let state = signalState
  let active = state.active.pointee
  if active && state.outputFD.pointee >= 0 && state.pasteOffCount.pointee > 0 {
    Posix.writeAll(state.outputFD.pointee, state.pasteOff, count: state.pasteOffCount.pointee)
  }
  // ncurses' handler: endwin, stop; returns once the process continues, screen repainted.
  let previous = state.previous[Int(signal)]
  if previous.sa_flags & SA_SIGINFO != 0 {
    previous.__sigaction_handler.sa_sigaction?(signal, info, context)
  } else if handlerBits(previous.__sigaction_handler.sa_handler) > 1 {
    previous.__sigaction_handler.sa_handler?(signal)
  }
  if active && state.active.pointee && state.outputFD.pointee >= 0 && state.pasteOnCount.pointee > 0 {
    Posix.writeAll(state.outputFD.pointee, state.pasteOn, count: state.pasteOnCount.pointee)
  }
  Posix.lastError = saved
}
