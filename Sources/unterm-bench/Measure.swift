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

  /// Runs a program to its end, its stderr discarded.
  ///
  /// The child is made with fork, not posix_spawn: Linux carries a process's peak memory across
  /// exec, and posix_spawn's child shares this process's memory until then, so it would report
  /// the benchmark's own peak. A forked child starts from this process's current size, so the
  /// figures that need a child's peak are taken while this process is small (before the list
  /// figures hold 100,000 notifications), and freed memory is given back (`mallopt`).
  static func child(_ arguments: [String], keepOutput: Bool = false) throws -> Run {
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard devNull >= 0 else { throw BenchError("cannot open /dev/null") }
    defer { close(devNull) }
    var pipeEnds: [Int32] = [-1, -1]
    if keepOutput { guard pipe(&pipeEnds) == 0 else { throw BenchError("cannot make a pipe") } }
    let start = DispatchTime.now().uptimeNanoseconds
    let pid = fork()
    if pid == 0 {
      // Only async-signal-safe calls between fork and exec.
      dup2(keepOutput ? pipeEnds[1] : devNull, 1)
      dup2(devNull, 2)
      execv(arguments[0], &argv)
      _exit(127)
    }
    guard pid > 0 else { throw BenchError("cannot start \(arguments[0])") }
    var output = [UInt8]()
    if keepOutput {
      close(pipeEnds[1])
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = read(pipeEnds[0], &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        output += buffer[0..<n]
      }
      close(pipeEnds[0])
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    guard status == 0 else {
      throw BenchError("\(arguments.joined(separator: " ")) failed (status \(status))")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    return Run(
      millis: elapsed, cpuMillis: cpu, maxRSSKiB: usage.ru_maxrss, output: String(decoding: output, as: UTF8.self))
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

  static func note(_ text: String) { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
