import Foundation
import UNTermHeadless
import UNTermInput
import UNTermShell

#if canImport(Glibc)
  import Glibc
#endif

// Declared in <stdlib.h> only for _XOPEN_SOURCE, so not visible through Swift's Glibc module.
@_silgen_name("posix_openpt") private func openPseudoTerminal(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantPseudoTerminal(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockPseudoTerminal(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func pseudoTerminalName(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?

/// Save-to-redraw latency of `--watch`: the `unterm` built beside this binary runs
/// `render --watch` (through a pipe) and the interactive session (on a pseudo-terminal, the
/// expanded view open); the payload is saved 100 times by rename, as editors save, and each
/// latency is from just before the rename to the moment the new title has arrived in the
/// output. Saves are paced apart, so each is its own burst: the figure includes the watcher's
/// quiet period (`FileWatcher.Timing`), which is there to read a file an editor writes in steps once.
enum WatchFigures {
  static let saves = 100

  static func run() throws {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let unterm = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("unterm").path
    Console.line(
      "--watch, save (by rename) to redraw, over \(saves) saves (the watcher waits \(Int(FileWatcher.Timing().quiet * 1000)) ms of quiet; goal under 100 ms):"
    )
    guard FileManager.default.isExecutableFile(atPath: unterm), let samples = Resources.samples else {
      Console.line("  (no unterm beside \(exe), or no SamplePayloads/: build both — swift build -c release)")
      return
    }
    let folder = try FileManager.default.url(
      for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["categories.json", "message.json"] {
      try FileManager.default.copyItem(
        at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    let payload = folder.appendingPathComponent("message.json").path
    // The sample is the Messages app's: its categories are registered for that app.
    let categories = "com.example.messages=" + folder.appendingPathComponent("categories.json").path
    let template = try String(contentsOfFile: payload, encoding: .utf8)
    // The first screen has the title the first save does not (see `title`).
    try template.replacingOccurrences(of: "\"title\": \"Ana Lima\"", with: "\"title\": \"\(title(1))\"").write(
      toFile: payload, atomically: true, encoding: .utf8)

    let render = try measure(
      unterm, ["render", "--watch", "--color", "never", "--size", "80x24", "--categories", categories, payload],
      pseudoTerminal: false, payload: payload, template: template)
    report("render --watch     ", render)
    let interactive = try measure(
      unterm,
      ["--watch", "--categories", categories, "--socket", folder.appendingPathComponent("s.sock").path, payload],
      pseudoTerminal: true, payload: payload, template: template)
    report("interactive --watch", interactive)
  }

  private static func report(_ name: String, _ latencies: [Double]) {
    guard !latencies.isEmpty else {
      Console.line("  \(name): no redraw seen")
      return
    }
    let sorted = latencies.sorted()
    let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
    line(
      format: "  %@  median %5.1f ms   p95 %5.1f ms   max %5.1f ms   (%d saves)", name, sorted[sorted.count / 2] * 1000,
      p95 * 1000, sorted[sorted.count - 1] * 1000, sorted.count)
  }

  /// Titles of one length whose characters all differ from the other's at every column, so a
  /// terminal update (which writes only changed cells) carries the whole new title; saves
  /// alternate between them.
  private static func title(_ i: Int) -> String {
    i % 2 == 0 ? "QWERTYUIOPASDF" : "zxcvbnmlkjhgfd"
  }

  /// Starts the program, waits for its first screen, then saves `saves` times; each latency is
  /// in seconds.
  private static func measure(
    _ unterm: String, _ arguments: [String], pseudoTerminal: Bool, payload: String, template: String
  ) throws -> [Double] {
    let program = try Program(unterm, arguments, pseudoTerminal: pseudoTerminal)
    defer { program.stop() }
    guard program.waitFor(title(1), after: 0, timeout: 10) != nil else { return program.failed("its first screen") }
    if pseudoTerminal {
      // Open the expanded view, where the title stays (a banner retires after 5 s).
      let mark = program.count
      program.send(" ")
      guard program.waitFor("Reply", after: mark, timeout: 10) != nil else {
        return program.failed("the expanded view")
      }
    }
    var latencies: [Double] = []
    for i in 0..<saves {
      let name = title(i)
      let text = template.replacingOccurrences(of: "\"title\": \"Ana Lima\"", with: "\"title\": \"\(name)\"")
      let temporary = (payload as NSString).deletingLastPathComponent + "/.message.json.swp"
      try text.write(toFile: temporary, atomically: false, encoding: .utf8)
      let mark = program.count
      let start = DispatchTime.now().uptimeNanoseconds
      guard rename(temporary, payload) == 0 else { throw POSIXError(.EIO) }
      guard let seen = program.waitFor(name, after: mark, timeout: 5) else { continue }
      latencies.append(Double(seen - start) / 1e9)
      // Apart from the next save, so each save is a burst of its own.
      usleep(60_000)
      program.drain()
    }
    return latencies
  }
}

/// The program measured, its output read as it comes (a pipe, or a pseudo-terminal's master).
private final class Program {
  private var pid: pid_t = 0
  private let reader: Int32
  private var keep: [Int32] = []
  private var output: [UInt8] = []

  init(_ executable: String, _ arguments: [String], pseudoTerminal: Bool) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = environment["LANG"] ?? "C.UTF-8"
    environment["NO_COLOR"] = nil
    if pseudoTerminal {
      let master = openPseudoTerminal(O_RDWR | O_NOCTTY)
      guard master >= 0, grantPseudoTerminal(master) == 0, unlockPseudoTerminal(master) == 0,
        let name = pseudoTerminalName(master)
      else { throw POSIXError(.ENODEV) }
      let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
      guard slave >= 0 else { throw POSIXError(.ENODEV) }
      var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
      for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
      posix_spawn_file_actions_addclose(&actions, master)
      reader = master
      keep = [slave]
      environment["TERM"] = "xterm-256color"
    } else {
      var fds: [Int32] = [-1, -1]
      guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addclose(&actions, fds[0])
      reader = fds[0]
      keep = [fds[1]]
    }
    _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in env { free(pointer) } }
    let status = posix_spawn(&pid, executable, &actions, nil, argv, &env)
    guard status == 0 else { throw POSIXError(.ENOENT) }
    for descriptor in keep { close(descriptor) }
  }

  var count: Int { output.count }

  /// Says on stderr what did not come, with the end of the output (escaped); no latencies.
  func failed(_ what: String) -> [Double] {
    let tail = String(decoding: output.suffix(300), as: UTF8.self).unicodeScalars.map {
      $0.value < 0x20 || $0.value == 0x7F ? "\\x" + String($0.value, radix: 16) : String($0)
    }.joined()
    Console.line("  \(what) did not come; the output ended: \(tail)", to: .standardError)
    return []
  }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(reader, $0.baseAddress, $0.count) }
  }

  /// Reads what has come so far.
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
      guard n > 0 else { return }
      output += buffer.prefix(n)
    }
  }

  /// Waits (polling the descriptor, not sleeping) until `text` is in the output past `mark`;
  /// the uptime in nanoseconds when it was read, or `nil` on the timeout.
  func waitFor(_ text: String, after mark: Int, timeout: TimeInterval) -> UInt64? {
    let wanted = Array(text.utf8)
    let limit = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < limit {
      drain()
      if output[min(mark, output.count)...].firstRange(of: wanted) != nil {
        return DispatchTime.now().uptimeNanoseconds
      }
      var descriptor = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 100)
    }
    return nil
  }

  func stop() {
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
    pid = 0
    close(reader)
  }
}
