import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Declared in <stdlib.h> only for _XOPEN_SOURCE, so not visible through Swift's Glibc module.
@_silgen_name("posix_openpt") private func openPseudoTerminal(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPseudoTerminal(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPseudoTerminal(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func pseudoTerminalName(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?

/// A pseudo-terminal with a program running on it, for tests that need a real tty without tmux:
/// the test holds the master side (what a terminal emulator reads and writes) and keeps the
/// slave open, so its modes can be read after the program has gone.
package final class PseudoTerminal {
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  private let master: Int32
  /// The terminal the program runs on.
  package let slave: Int32
  private var pid: pid_t = 0
  private var exitStatus: Int32?
  /// Everything the program has written so far.
  package private(set) var output: [UInt8] = []

  /// Opens a pseudo-terminal of a size; `configure` may change its modes before anything runs.
  package init(width: Int = 80, height: Int = 24, configure: (inout termios) -> Void = { _ in }) throws {
    master = openPseudoTerminal(O_RDWR | O_NOCTTY)
    guard master >= 0, grantPseudoTerminal(master) == 0, unlockPseudoTerminal(master) == 0,
      let name = pseudoTerminalName(master)
    else {
      throw Failure(description: "cannot open a pseudo-terminal: errno \(errno)")
    }
    slave = open(String(cString: name), O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw Failure(description: "cannot open \(String(cString: name)): errno \(errno)") }
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    var modes = termios()
    tcgetattr(slave, &modes)
    configure(&modes)
    tcsetattr(slave, TCSANOW, &modes)
  }

  deinit {
    if pid > 0 && exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
    }
    close(master)
    close(slave)
  }

  /// The terminal's modes now.
  package var modes: termios {
    var modes = termios()
    tcgetattr(slave, &modes)
    return modes
  }

  /// Starts a program with the terminal as its standard input, output and error — or with
  /// `standardError` (another pseudo-terminal) as its standard error, to tell the two apart.
  package func start(
    _ executable: String, _ arguments: [String], environment: [String: String],
    standardError: PseudoTerminal? = nil
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1] { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
    posix_spawn_file_actions_adddup2(&actions, standardError?.slave ?? slave, 2)
    posix_spawn_file_actions_addclose(&actions, master)
    if let standardError { posix_spawn_file_actions_addclose(&actions, standardError.master) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in env { free(pointer) } }
    let status = Fixtures.withFreshSignals { posix_spawn(&pid, executable, &actions, $0, argv, &env) }
    guard status == 0 else { throw Failure(description: "cannot start \(executable): \(status)") }
  }

  /// Sends bytes as typed.
  package func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Sends a signal to the program.
  package func signal(_ signal: Int32) {
    if pid > 0 { kill(pid, signal) }
  }

  /// Reads what the program wrote, until `text` has appeared: at once when it has, at most
  /// `timeout` (generous: the machine may be busy).
  package func waitFor(_ text: String, timeout: TimeInterval = Eventually.limit) throws {
    let wanted = Array(text.utf8)
    let limit = Date().addingTimeInterval(timeout)
    while Date() < limit {
      readAvailable()
      if output.firstRange(of: wanted) != nil { return }
      usleep(10_000)
    }
    throw Failure(description: "\(text) did not appear; output: \(TerminalBytes.escaped(Array(output.suffix(400))))")
  }

  /// Waits for the program to end (reading its output, and that of the terminal given as its
  /// standard error, meanwhile); the raw `waitpid` status. A program still running after
  /// `timeout` is killed (the test fails, it does not hang).
  @discardableResult
  package func waitForExit(timeout: TimeInterval = Eventually.limit, standardError: PseudoTerminal? = nil) throws
    -> Int32
  {
    if let exitStatus { return exitStatus }
    let limit = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while Date() < limit {
      readAvailable()
      standardError?.readAvailable()
      if waitpid(pid, &status, WNOHANG) == pid {
        readAvailable()
        standardError?.readAvailable()
        exitStatus = status
        return status
      }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    exitStatus = status
    throw Failure(
      description: "the program did not end and was killed; output: \(TerminalBytes.escaped(Array(output.suffix(400))))"
    )
  }

  /// Reads what has been written so far into `output`.
  package func readAvailable() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      guard n > 0 else { return }
      output += buffer.prefix(n)
    }
  }
}
