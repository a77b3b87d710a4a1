/// Why the curses terminal could not be opened.
package enum CursesTerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Standard input or output is a pipe or file, not a terminal.
  case notATerminal(stream: String)
  /// `TERM` is not set.
  case terminalTypeUnset
  /// `TERM` names a terminal without cursor addressing (`dumb`, or no `cup` capability).
  case terminalCannotAddressCursor(String)
  /// `TERM` names a type with no terminfo entry.
  case unknownTerminalType(String)
  /// Neither the environment's locale nor C.UTF-8 uses UTF-8.
  case noUTF8Locale(codeset: String)
  /// Another `CursesTerminal` is open; ncurses drives one screen at a time here.
  case alreadyOpen
  /// A system call failed while setting up.
  case systemCallFailed(String, errno: Int32)

  package var description: String {
    switch self {
    case .notATerminal(let stream):
      return "\(stream) is not a terminal; run in a terminal, or use a headless mode"
    case .terminalTypeUnset:
      return "TERM is not set; set it to your terminal's type (for example xterm-256color)"
    case .terminalCannotAddressCursor(let type):
      return "the terminal type '\(type)' cannot move the cursor; use a full-screen terminal"
    case .unknownTerminalType(let type):
      return "unknown terminal type '\(type)' (no terminfo entry); set TERM to a known type"
        + " such as xterm-256color, or install ncurses-term"
    case .noUTF8Locale(let codeset):
      return "no UTF-8 locale available (the character set is \(codeset)); set LANG=C.UTF-8"
    case .alreadyOpen:
      return "a curses terminal is already open in this process"
    case .systemCallFailed(let call, let errno):
      return "\(call) failed (errno \(errno))"
    }
  }

  /// The reason a terminal cannot be opened, judged before ncurses is touched, or `nil`.
  ///
  /// - Parameters:
  ///   - environment: The process environment (`TERM` is read).
  ///   - inputIsTerminal: Whether standard input is a terminal.
  ///   - outputIsTerminal: Whether standard output is a terminal.
  package static func precheck(
    environment: [String: String], inputIsTerminal: Bool, outputIsTerminal: Bool
  ) -> CursesTerminalError? {
    if !inputIsTerminal { return .notATerminal(stream: "standard input") }
    if !outputIsTerminal { return .notATerminal(stream: "standard output") }
    guard let type = environment["TERM"], !type.isEmpty else { return .terminalTypeUnset }
    if type == "dumb" { return .terminalCannotAddressCursor(type) }
    return nil
  }
}
