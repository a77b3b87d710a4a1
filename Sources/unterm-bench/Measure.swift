import CMediaFixtures
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How a benchmark measures: medians, child processes with their CPU time and peak memory, and
/// a description of the machine.
enum Measure {
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  /// One finished child process: wall time, CPU time (user + system, which load on a shared
  /// machine disturbs far less than wall time) and peak resident memory.
  struct Run {
    var millis: Double
    var cpuMillis: Double
    var maxRSSKiB: Int
    /// What it printed on stdout (when asked to keep it).
    var output = ""

    var peakMiB: Double { Double(maxRSSKiB) / 1024 }
  }

  /// Runs a program to its end under `unterm-peak` (built beside this benchmark), which reports
  /// the program's own CPU time and peak memory; the program's stderr is discarded.
  ///
  /// Not measured from here: Linux carries a process's peak memory across exec, so a child
  /// forked from this process would report at least this process's size (and one made with
  /// posix_spawn shares its memory until exec). `unterm-peak` is a small C program: the command
  /// it forks starts from its few hundred KB.
  static func child(_ arguments: [String], keepOutput: Bool = false) throws -> Run {
    let helper = [try sibling("unterm-peak")] + arguments
    var argv = helper.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard devNull >= 0 else { throw BenchError("cannot open /dev/null") }
    defer { close(devNull) }
    var outEnds: [Int32] = [-1, -1]
    var errEnds: [Int32] = [-1, -1]
    if keepOutput { guard pipe(&outEnds) == 0 else { throw BenchError("cannot make a pipe") } }
    guard pipe(&errEnds) == 0 else { throw BenchError("cannot make a pipe") }
    let start = DispatchTime.now().uptimeNanoseconds
    let pid = fork()
    if pid == 0 {
      // Only async-signal-safe calls between fork and exec.
      dup2(keepOutput ? outEnds[1] : devNull, 1)
      dup2(errEnds[1], 2)
      execv(helper[0], &argv)
      _exit(127)
    }
    guard pid > 0 else { throw BenchError("cannot start \(arguments[0])") }
    if keepOutput { close(outEnds[1]) }
    close(errEnds[1])
    // The program's stderr is small (a few lines at most): it waits in its pipe while stdout
    // is read to its end.
    let output = keepOutput ? readAll(outEnds[0]) : []
    let errors = String(decoding: readAll(errEnds[0]), as: UTF8.self)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    guard let line = errors.split(separator: "\n").last(where: { $0.hasPrefix("unterm-peak: ") }) else {
      throw BenchError("no figures from unterm-peak for \(arguments.joined(separator: " "))")
    }
    var fields: [String: Int] = [:]
    for pair in line.dropFirst("unterm-peak: ".count).split(separator: " ") {
      let parts = pair.split(separator: "=")
      if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
    }
    guard status == 0, fields["status"] == 0, let peak = fields["peak_kib"], let cpu = fields["cpu_us"] else {
      throw BenchError("\(arguments.joined(separator: " ")) failed (\(line))")
    }
    return Run(
      millis: elapsed, cpuMillis: Double(cpu) / 1000, maxRSSKiB: peak, output: String(decoding: output, as: UTF8.self))
  }

  /// Everything a descriptor gives until its end; closes it.
  private static func readAll(_ fd: Int32) -> [UInt8] {
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return out }
      out += buffer[0..<n]
    }
  }

  /// Freed large blocks go back to the system at once, so forked children start small.
  static func returnFreedMemory() {
    cmf_return_freed_memory()
  }

  /// CPU seconds (user + system) this process has used so far.
  static func ownCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// CPU seconds used by this process's finished children so far.
  static func childCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// This process's resident memory in KiB (VmRSS).
  static func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// The folder this benchmark's binary is in, where `unterm` and `unterm-floor` are built too.
  static var binaries: URL {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent()
  }

  /// A program built beside this one, or an error that says how to build it.
  static func sibling(_ name: String) throws -> String {
    let path = binaries.appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchError(
        "no \(name) beside unterm-bench in \(binaries.path); build it the same way (Scripts/bench.sh does)")
    }
    return path
  }

  /// The date, the machine's processors and model, and its load: figures mean little without them.
  static var machine: String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }.flatMap { $0.split(separator: ":").last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let load =
      (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
      .joined(separator: " ") ?? "?"
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return "\(formatter.string(from: Date())), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) × \(model), load average \(load)"
  }

}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
