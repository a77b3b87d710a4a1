import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// glibc 2.29 and later; declared only with _GNU_SOURCE, so not visible through Swift's Glibc.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func addChangeDirectory(
  _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

/// A program a test runs: started with `posix_spawn` in a process group of its own, with no
/// signal blocked, its output going to files (or a pipe the test reads), and every wait bounded.
/// A program still running when the test gives up on it, or lets go of it, is killed with its
/// whole group and reaped, so a stuck child can neither hang the test run nor outlive it.
///
/// Foundation's `Process` is not used: its `waitUntilExit` can miss the exit of a child on a
/// loaded machine and wait forever, and reading one pipe to its end while the child fills the
/// other deadlocks.
package final class ChildProcess {
  /// A wait that ran out: what the program had written by then.
  package struct Timeout: Error, CustomStringConvertible {
    package var description: String
  }

  /// The longest a test waits for a program that normally takes a second (`unterm`, tmux):
  /// generous, for a CI runner that is busy with other tests.
  package static let defaultLimit: TimeInterval = 120

  package let pid: pid_t
  private let command: String
  private let outputFile: String
  private let errorFile: String
  private let inputFile: String?
  /// The read end of the standard-output pipe (`pipeOutput`), non-blocking.
  package let outputPipe: Int32
  private var status: Int32?
  /// The CPU time (user and system) the program used, once it has ended.
  package private(set) var cpuSeconds: Double = 0

  /// Starts `executable`.
  ///
  /// - Parameters:
  ///   - environment: the whole environment of the program.
  ///   - stdin: what the program reads (nothing: `/dev/null`).
  ///   - pipeOutput: standard output goes to a pipe the test reads (`readOutput`) instead of a
  ///     file; for programs that run until they are stopped.
  package init(
    _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
    stdin: String? = nil, pipeOutput: Bool = false
  ) throws {
    command = ([executable] + arguments).joined(separator: " ")
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-child-\(UUID().uuidString)").path
    outputFile = base + ".out"
    errorFile = base + ".err"
    if let stdin {
      inputFile = base + ".in"
      try Data(stdin.utf8).write(to: URL(fileURLWithPath: base + ".in"))
    } else {
      inputFile = nil
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputFile ?? "/dev/null", O_RDONLY, 0)
    var fds: [Int32] = [-1, -1]
    if pipeOutput {
      guard pipe(&fds) == 0 else { throw Timeout(description: "cannot make a pipe: errno \(errno)") }
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
      posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
      posix_spawn_file_actions_addclose(&actions, fds[1])
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if let directory { _ = addChangeDirectory(&actions, directory) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in env { free(pointer) } }
    var child: pid_t = 0
    let spawned = Fixtures.withFreshSignals(newGroup: true) {
      posix_spawn(&child, executable, &actions, $0, argv, &env)
    }
    if pipeOutput { close(fds[1]) }
    guard spawned == 0 else {
      if pipeOutput { close(fds[0]) }
      throw Timeout(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    pid = child
    outputPipe = pipeOutput ? fds[0] : -1
  }

  deinit {
    kill()
    if outputPipe >= 0 { close(outputPipe) }
    for file in [outputFile, errorFile] + (inputFile.map { [$0] } ?? []) { unlink(file) }
  }

  /// The environment of the test run, without `NO_COLOR` and `CI` (tests ask for those), with
  /// `changes` on top.
  package static func environment(_ changes: [String: String]? = nil) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    environment["CI"] = nil
    for (key, value) in changes ?? [:] { environment[key] = value }
    return environment
  }

  /// Whether the program has ended (reaping it if so).
  package var hasExited: Bool {
    if status != nil { return true }
    var raw: Int32 = 0
    var usage = rusage()
    let done = wait4(pid, &raw, WNOHANG, &usage)
    if done == pid || (done < 0 && errno == ECHILD) {
      status = raw
      cpuSeconds = Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime)
      return true
    }
    return false
  }

  private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

  /// Waits up to `limit` seconds for the program to end; its raw `waitpid` status. A program
  /// still running then is killed with its group, and the wait throws with what it wrote.
  @discardableResult
  package func wait(upTo limit: TimeInterval = defaultLimit) throws -> Int32 {
    let deadline = Date().addingTimeInterval(limit)
    while !hasExited {
      if Date() > deadline {
        kill()
        throw Timeout(
          description:
            "\(command) did not finish within \(Int(limit)) s and was killed; stdout: \(Self.tail(output)); stderr: \(Self.tail(errors))"
        )
      }
      usleep(5_000)
    }
    return status ?? -1
  }

  /// The exit status of a program that exited, or 128 + the signal that ended it.
  package static func exitCode(_ raw: Int32) -> Int32 {
    raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
  }

  /// Sends a signal to the program alone.
  package func signal(_ signal: Int32) {
    if !hasExited { Glibc.kill(pid, signal) }
  }

  /// Kills the program's whole group (helpers it started too) and reaps it.
  package func kill() {
    guard status == nil else { return }
    Glibc.kill(-pid, SIGKILL)
    Glibc.kill(pid, SIGKILL)
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    status = raw
  }

  /// What the program wrote to standard output (a file), so far.
  package var output: String { Self.contents(of: outputFile) }
  /// What the program wrote to standard error, so far.
  package var errors: String { Self.contents(of: errorFile) }

  /// Reads from the output pipe until `enough` holds for what was read, the pipe ends, or
  /// `limit` seconds pass; returns what was read.
  package func readOutput(upTo limit: TimeInterval = defaultLimit, until enough: ([UInt8]) -> Bool) -> [UInt8] {
    var collected: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let deadline = Date().addingTimeInterval(limit)
    while !enough(collected) && Date() < deadline {
      var descriptor = pollfd(fd: outputPipe, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 50)
      let n = buffer.withUnsafeMutableBytes { read(outputPipe, $0.baseAddress, $0.count) }
      if n > 0 {
        collected += buffer.prefix(n)
      } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
        break
      }
    }
    return collected
  }

  private static func contents(of file: String) -> String {
    FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  private static func tail(_ text: String) -> String {
    text.isEmpty ? "(nothing)" : String(text.suffix(600))
  }
}
