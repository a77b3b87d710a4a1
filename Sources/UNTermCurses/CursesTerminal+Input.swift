import UNTermRender
import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

extension CursesTerminal {
  /// At most this many codes are read per call, so a flood of input cannot starve drawing.
  static let maxCodesPerRead = 4096
  /// How long a bracketed paste may pause before what arrived of it is taken as the whole.
  static let pastePauseMilliseconds: Int32 = 500

  /// Waits for input and returns what arrived.
  ///
  /// Waits with `poll` on the terminal, the signal wake-up pipe and `extraFD` for at most
  /// `timeoutMilliseconds` (negative: no limit), then reads everything waiting with `wget_wch`
  /// in no-delay mode. Key codes go through the terminfo table (`TerminfoKeys`), and what ncurses
  /// leaves in pieces through `KeySequenceParser` (Alt keys, sequences no entry binds, pastes,
  /// Esc). Code points typed in one burst that form one grapheme cluster come back as one
  /// `.character`. Returns an empty array on timeout.
  ///
  /// An escape sequence cut short waits at most the Esc delay for its rest, a paste at most
  /// `pastePauseMilliseconds` between pieces, even when the caller would wait longer.
  ///
  /// * `.resize` follows ncurses' `KEY_RESIZE`, with the size now (which may be the size it
  ///   already was: a SIGWINCH does not promise a change).
  /// * `.mouse` reports presses and releases; a long press is the caller's to time.
  /// * `.paste` is a whole bracketed paste; `.suspend` is Ctrl-Z (see `suspendForJobControl()`).
  /// * `.wake` comes alone, when only `extraFD` was readable; the caller drains it (the
  ///   descriptor stays readable until then, so nothing is lost if input came too).
  /// * `.signal` comes when polite termination recorded a signal, on every call until the
  ///   caller closes.
  /// * `.hangup` comes when the terminal's input is gone.
  package func nextInput(timeoutMilliseconds: Int32, extraFD: Int32?) -> [InputEvent] {
    guard isOpen, !isSuspended else { return [] }
    var events = readAvailable()
    if events.isEmpty && pendingSignal == nil {
      let gap =
        parser.isIncomplete
        ? (parser.isInPaste ? Self.pastePauseMilliseconds : options.escapeDelayMilliseconds) : nil
      let timeout = gap.map { timeoutMilliseconds < 0 ? $0 : min($0, timeoutMilliseconds) } ?? timeoutMilliseconds
      let wakeDescriptor = ownsSignals ? TerminalSignals.wakeDescriptor : -1
      var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)]
      descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
      descriptors.append(pollfd(fd: extraFD ?? -1, events: Int16(POLLIN), revents: 0))
      let ready = Posix.poll(&descriptors, timeoutMilliseconds: timeout)
      if ready > 0 && descriptors[1].revents != 0 { Posix.drain(wakeDescriptor) }
      if ready == 0, let gap, timeout == gap {
        // The rest of a sequence or a paste never came.
        parser.flush()
      }
      events = readAvailable()
      if ready > 0 && events.isEmpty {
        let lost = Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)
        if descriptors[0].revents & lost != 0 {
          events = [.hangup]
        } else if descriptors[2].revents != 0 && pendingSignal == nil {
          events = [.wake]
        }
      }
    }
    if let signal = pendingSignal { events.append(.signal(signal)) }
    return events
  }

  /// Reads every code waiting, without blocking, and returns the events completed so far.
  private func readAvailable() -> [InputEvent] {
    var reachedEnd = false
    for _ in 0..<Self.maxCodesPerRead {
      let (status, code) = Curses.read(window)
      if status == CursesKeyDecoder.Code.err {
        reachedEnd = true
        break
      }
      if status == CursesKeyDecoder.Code.keyCodeYes && code == CursesKeyDecoder.Code.mouse && !hasMouse {
        // A mouse report UNTerm never asked for: ncurses matched only its start (`kmous`);
        // the parser swallows it with the rest.
        for byte in Curses.stringCapability("kmous") ?? [] { parser.feed(.character(UInt32(byte))) }
      } else if status == CursesKeyDecoder.Code.keyCodeYes && code == CursesKeyDecoder.Code.mouse {
        for report in Curses.takeMouseEvents() {
          for event in CursesMouseDecoder.decode(buttonState: report.buttonState, x: report.x, y: report.y) {
            parser.feed(.event(.mouse(event)))
          }
        }
      } else if status == CursesKeyDecoder.Code.keyCodeYes && code == CursesKeyDecoder.Code.resize {
        let size = Curses.size(of: window)
        parser.feed(.event(.resize(width: size.width, height: size.height)))
      } else if status == CursesKeyDecoder.Code.keyCodeYes {
        if let binding = keyTable[code] {
          parser.feed(.key(binding.key, sequence: binding.sequence))
        } else if let key = CursesKeyDecoder.standardKey(code) {
          parser.feed(.key(key, sequence: []))
        }
      } else {
        parser.feed(.character(code))
      }
    }
    if reachedEnd { parser.endOfInput() }
    var assembler = CursesInputAssembler()
    for event in parser.take() { assembler.append(event) }
    return assembler.events
  }
}
