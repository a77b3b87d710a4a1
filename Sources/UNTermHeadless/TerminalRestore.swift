import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Restores the terminal if the process is interrupted while it has the screen: async-signal
/// safe (a precomputed byte string and `write`), then the signal is re-raised so the exit status
/// tells what happened.
package enum TerminalRestore {
  /// Reset attributes, show the cursor, leave the alternate screen, mouse and paste modes off.
  package static let restoreSequence: [UInt8] = Array(
    "\u{1B}[0m\u{1B}[?25h\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?2004l\u{1B}[?1049l".utf8)

  /// The same, with the terminal's own bidi given back first (`CSI 8 h`), for a terminal that
  /// was asked to show cells as written (`CSI 8 l`).
  package static let restoreWithBidiSequence: [UInt8] = Array("\u{1B}[8h".utf8) + restoreSequence

  package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Installs the handler for interrupting signals.
  ///
  /// - Parameter explicitBidi: Whether the terminal was asked to leave bidi to UNTerm.
  package static func install(explicitBidi: Bool = false) {
    // Initialise the lazy globals now: the handler must not run Swift's one-time initialisation.
    precondition(restoreBytes.pointee == 0x1B && restoreCount > 0)
    precondition(restoreWithBidiBytes.pointee == 0x1B && restoreWithBidiCount > 0)
    restoresBidi = explicitBidi
    for signal in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = restoreHandler
      // SA_RESETHAND is 0x80000000, a UInt32: Int32(SA_RESETHAND) would trap.
      action.sa_flags = Int32(bitPattern: SA_RESETHAND)
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    }
  }

  package static func uninstall() {
    for signal in signals { Glibc.signal(signal, SIG_DFL) }
  }
}

nonisolated(unsafe) private let restoreBytes: UnsafeMutablePointer<UInt8> = {
  let bytes = TerminalRestore.restoreSequence
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
  pointer.initialize(from: bytes, count: bytes.count)
  return pointer
}()
private let restoreCount = TerminalRestore.restoreSequence.count
nonisolated(unsafe) private let restoreWithBidiBytes: UnsafeMutablePointer<UInt8> = {
  let bytes = TerminalRestore.restoreWithBidiSequence
  let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
  pointer.initialize(from: bytes, count: bytes.count)
  return pointer
}()
private let restoreWithBidiCount = TerminalRestore.restoreWithBidiSequence.count
/// Set before the handler is installed, only read by it.
nonisolated(unsafe) private var restoresBidi = false

private func restoreHandler(_ signal: Int32) {
  if restoresBidi {
    _ = write(STDOUT_FILENO, restoreWithBidiBytes, restoreWithBidiCount)
  } else {
    _ = write(STDOUT_FILENO, restoreBytes, restoreCount)
  }
  raise(signal)
}
