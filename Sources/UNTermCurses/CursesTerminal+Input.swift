#if canImport(Glibc)
  import Glibc
#endif

extension CursesTerminal {
  /// At most this many codes are read per call, so a flood of input cannot starve drawing.
  static let maxCodesPerRead = 4096

  /// Waits for input and returns what arrived.
  ///
  /// Waits with `poll` on the terminal, the signal wake-up pipe and `extraFD` for at most
  /// `timeoutMilliseconds` (negative: no limit), then reads everything waiting with `wget_wch`
  /// in no-delay mode. Code points typed in one burst that form one grapheme cluster come back
  /// as one `.character`. Returns an empty array on timeout.
  ///
  /// * `.resize` follows ncurses' `KEY_RESIZE`, with the new size; the next `present` repaints
  ///   everything.
  /// * `.mouse` reports presses and releases; a long press is the caller's to time.
  /// * `.wake` comes alone, when only `extraFD` was readable; the caller drains it (the
  ///   descriptor stays readable until then, so nothing is lost if input came too).
  /// * `.signal` comes when polite termination recorded a signal, on every call until the
  ///   caller closes.
  /// * `.hangup` comes when the terminal's input is gone.
  /// * Ctrl-Z stops the process (see `Options.suspendOnControlZ`) and is not reported.
  package func nextInput(timeoutMilliseconds: Int32, extraFD: Int32?) -> [InputEvent] {
    guard isOpen, !isSuspended else { return [] }
    var events = readAvailable()
    if events.isEmpty && pendingSignal == nil {
      let wakeDescriptor = ownsSignals ? TerminalSignals.wakeDescriptor : -1
      var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)]
      descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
      descriptors.append(pollfd(fd: extraFD ?? -1, events: Int16(POLLIN), revents: 0))
      let ready = Posix.poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds)
      if ready > 0 && descriptors[1].revents != 0 { Posix.drain(wakeDescriptor) }
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

  /// Reads every code waiting, without blocking.
  private func readAvailable() -> [InputEvent] {
    var assembler = CursesInputAssembler()
    for _ in 0..<Self.maxCodesPerRead {
      let (status, code) = Curses.read(window)
      if status == CursesKeyDecoder.Code.err { break }
      if status == CursesKeyDecoder.Code.keyCodeYes && code == CursesKeyDecoder.Code.mouse {
        for report in Curses.takeMouseEvents() {
          for event in CursesMouseDecoder.decode(
            buttonState: report.buttonState, x: report.x, y: report.y)
          {
            assembler.append(.mouse(event))
          }
        }
      } else if status == CursesKeyDecoder.Code.keyCodeYes && code == CursesKeyDecoder.Code.resize {
        requestFullRepaint()
        let size = Curses.size(of: window)
        assembler.append(.resize(width: size.width, height: size.height))
      } else if status == CursesKeyDecoder.Code.ok && code == 26 {
        if options.suspendOnControlZ { suspendForJobControl() }
      } else if let event = CursesKeyDecoder.decode(status: status, code: code) {
        assembler.append(event)
      }
    }
    return assembler.events
  }
}
