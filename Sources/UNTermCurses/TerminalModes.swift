#if canImport(Glibc)
  import Glibc
#endif

/// Judging and repairing the terminal modes UNTerm inherits.
///
/// A program killed with SIGKILL cannot restore its terminal, so the next one may start in raw
/// mode. Restoring those modes on quit would leave the shell without echo or line editing, so
/// modes that are clearly raw are replaced by sane cooked ones, as `stty sane` sets them.
package enum TerminalModes {
  /// Whether modes are clearly raw: neither canonical input nor echo, as no shell runs them.
  package static func isClearlyRaw(_ modes: termios) -> Bool {
    modes.c_lflag & tcflag_t(ICANON) == 0 && modes.c_lflag & tcflag_t(ECHO) == 0
  }

  /// Makes modes sane and cooked: what `stty sane` sets (line editing, echo, signals, output
  /// processing, CR to NL, the usual control characters), plus XON/XOFF flow control as a
  /// fresh terminal has it. Speed, character size and parity are kept.
  package static func makeSaneCooked(_ modes: inout termios) {
    modes.c_iflag |= tcflag_t(BRKINT | ICRNL | IMAXBEL | IXON)
    modes.c_iflag &= ~tcflag_t(IGNBRK | INLCR | IGNCR | IXOFF | IUCLC | IXANY | ISTRIP)
    modes.c_oflag |= tcflag_t(OPOST | ONLCR)
    modes.c_oflag &= ~tcflag_t(OLCUC | OCRNL | ONOCR | ONLRET | OFILL | OFDEL)
    modes.c_oflag &= ~tcflag_t(NLDLY | CRDLY | TABDLY | BSDLY | VTDLY | FFDLY)
    modes.c_cflag |= tcflag_t(CREAD)
    modes.c_lflag |= tcflag_t(ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE)
    modes.c_lflag &= ~tcflag_t(ECHONL | NOFLSH | XCASE | TOSTOP | ECHOPRT | FLUSHO | EXTPROC)
    let characters: [(Int32, UInt8)] = [
      (VINTR, 0x03), (VQUIT, 0x1C), (VERASE, 0x7F), (VKILL, 0x15), (VEOF, 0x04), (VEOL, 0), (VEOL2, 0),
      (VSTART, 0x11), (VSTOP, 0x13), (VSUSP, 0x1A), (VREPRINT, 0x12), (VWERASE, 0x17), (VLNEXT, 0x16),
      (VDISCARD, 0x0F), (VMIN, 1), (VTIME, 0),
    ]
    withUnsafeMutableBytes(of: &modes.c_cc) { cc in
      for (index, value) in characters where Int(index) < cc.count { cc[Int(index)] = value }
    }
  }
}
