import Foundation
import Testing
import UNTermTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The real `unterm` binary on a pseudo-terminal (no tmux): what it leaves the terminal as.
@Suite("Terminal modes on a pseudo-terminal", .serialized, .hangGuard)
struct TerminalModesTests {
  private func start(_ pty: PseudoTerminal, in dir: URL) throws {
    try pty.start(
      Fixtures.unterm,
      [] + Fixtures.sampleCategoriesArguments + [
        "--socket", dir.appendingPathComponent("s.sock").path,
        Fixtures.sample("message.json"),
      ],
      environment: [
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": dir.path, "PATH": "/usr/bin:/bin",
        "SWIFT_BACKTRACE": "enable=no", "XDG_RUNTIME_DIR": dir.path,
      ])
    try pty.waitFor("Lima")
  }

  private static let on = Array("\u{1B}[?2004h".utf8)
  private static let off = Array("\u{1B}[?2004l".utf8)

  @Test("A terminal a killed program left raw is left cooked and echoing on quit")
  func rawTerminalIsRepaired() throws {
    let dir = try Fixtures.temporaryDirectory()
    let pty = try PseudoTerminal { cfmakeraw(&$0) }
    #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == 0)
    try start(pty, in: dir)
    pty.send("q")
    let status = try pty.waitForExit()
    #expect(status == 0)
    let modes = pty.modes
    for (flag, name) in [(ICANON, "icanon"), (ECHO, "echo"), (ISIG, "isig"), (ECHOE, "echoe"), (IEXTEN, "iexten")] {
      #expect(modes.c_lflag & tcflag_t(flag) != 0, "\(name) is off")
    }
    #expect(modes.c_iflag & tcflag_t(ICRNL) != 0, "icrnl is off")
    #expect(modes.c_oflag & tcflag_t(OPOST | ONLCR) == tcflag_t(OPOST | ONLCR), "opost onlcr are off")
  }

  @Test("A cooked terminal is given back exactly as it was, odd settings included")
  func cookedTerminalIsKept() throws {
    let dir = try Fixtures.temporaryDirectory()
    let pty = try PseudoTerminal {
      $0.c_lflag &= ~tcflag_t(ECHOCTL)
      withUnsafeMutableBytes(of: &$0.c_cc) { $0[Int(VERASE)] = 0x08 }
    }
    let before = pty.modes
    try start(pty, in: dir)
    pty.send("q")
    #expect(try pty.waitForExit() == 0)
    let after = pty.modes
    #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_oflag == before.c_oflag)
    let erase = withUnsafeBytes(of: after.c_cc) { $0[Int(VERASE)] }
    #expect(erase == 0x08)
  }

  @Test("Bracketed paste is on while UNTerm runs and off after quitting and after SIGTERM")
  func pasteModeIsTurnedOff() throws {
    for ending in ["q", "SIGTERM"] {
      let dir = try Fixtures.temporaryDirectory()
      let pty = try PseudoTerminal()
      try start(pty, in: dir)
      #expect(pty.output.firstRange(of: Self.on) != nil, "\(ending): paste mode was not turned on")
      if ending == "q" { pty.send("q") } else { pty.signal(SIGTERM) }
      try pty.waitForExit()
      let output = pty.output
      let lastOn = output.indices.last { output[$0...].starts(with: Self.on) }
      let lastOff = output.indices.last { output[$0...].starts(with: Self.off) }
      #expect(lastOff != nil && lastOff ?? 0 > lastOn ?? 0, "\(ending): paste mode left on")
    }
  }
}
