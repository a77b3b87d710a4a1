import Foundation
import UNTermHeadless
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// How much faster than real time a script runs: the release `unterm run` (beside this
/// benchmark) plays a session of 2,000 text replies, each to a new push of the Messages
/// sample, checked with `expect response`, with 30 s of virtual waiting after each — 16 h 40 min
/// of a user's time. The floor is 1,000× real time: the virtual clock must never make a
/// script wait, and the work of a reply must stay small.
enum ScriptFigures {
  static let replies = 2_000
  static let waitSeconds = 30
  static let goal = 1_000.0

  static func run(runs: Int = 5) throws -> SummaryRow {
    guard let samples = Resources.samples else { throw BenchError("SamplePayloads/ not found (set UNTERM_HOME)") }
    let unterm = try Measure.sibling("unterm")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-bench-script-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in ["categories.json", "message.json"] {
      try FileManager.default.copyItem(
        at: samples.appendingPathComponent(file), to: folder.appendingPathComponent(file))
    }
    let script = folder.appendingPathComponent("replies.session")
    try session().write(to: script, atomically: true, encoding: .utf8)

    let results = try (0..<runs).map { _ in try Measure.child([unterm, "run", script.path]) }
    let wall = Measure.median(results.map(\.millis))
    let cpu = Measure.median(results.map(\.cpuMillis))
    let scripted = Double(replies * waitSeconds)
    let speed = scripted / (wall / 1000)
    Console.line("")
    Console.line(
      "a script of \(replies) text replies with \(waitSeconds) s waits (\(Int(scripted) / 3600) h \(Int(scripted) % 3600 / 60) min of script time), `unterm run`, median of \(runs):"
    )
    let figures = Summary.format(
      "  %.0f ms wall, %.0f ms CPU, peak %.1f MiB: %.0f× real time (goal ≥ %.0f×)", wall, cpu,
      Measure.median(results.map(\.peakMiB)), speed, goal)
    Console.line("\(figures)")
    return SummaryRow(
      what: "a script of \(replies) replies with \(waitSeconds) s waits (`unterm run`)",
      measured: Summary.format("%.0f ms wall, %.0f ms CPU", wall, cpu),
      floor: "\(Int(scripted)) s of script time", ratio: Summary.format("%.0f× real time", speed),
      goal: Summary.format("≥ %.0f×", goal), met: speed >= goal, metOnCPU: scripted / (cpu / 1000) >= goal)
  }

  /// The session: the Messages sample's categories, then per reply a push, a long-press, the
  /// Reply action, typed text, Send, the delegate's response checked, and the wait.
  static func session() -> String {
    var lines = [
      "# Made by unterm-bench: \(replies) replies, each checked, with \(waitSeconds) s waits.",
      "categories categories.json",
      "categories com.example.messages=categories.json",
    ]
    for index in 1...replies {
      lines += [
        "push message.json as chat-\(index)",
        "longpress",
        "action reply",
        "type \"Reply \(index)\"",
        "send",
        "expect response reply \"Reply \(index)\"",
        "wait \(waitSeconds)s",
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
