import Foundation
import UNTermHeadless
import UNTermInput

/// What 100,000 delivered notifications hold: the peak memory of a process that delivers them
/// into a session and browses the list, against the same process with none, and the bytes per
/// notification that makes.
enum StoreFigures {
  struct Result {
    var count: Int
    var peakMiB: Double
    var emptyPeakMiB: Double
    var textMiB: Double
    var seconds: Double

    var bytesPerNotification: Double { (peakMiB - emptyPeakMiB) * 1_048_576 / Double(count) }
  }

  static let goalMiB = 60.0

  /// In the child (`unterm-bench store-child N`): deliver, open the list, draw it and move the
  /// focus through it, as a user would.
  static func child(_ count: Int) throws {
    let session = try Workload.session(count)
    _ = session.frame()
    for i in 0..<200 {
      session.send(.key(i < 100 ? .down : .end))
      _ = session.frame()
    }
    Console.line("\(session.state.store.deliveredCount)")
  }

  static func run(count: Int = 100_000, runs: Int = 3) throws -> Result {
    let bench = Measure.binaries.appendingPathComponent("unterm-bench").path
    var full: [Measure.Run] = []
    var empty: [Measure.Run] = []
    for _ in 0..<runs {
      full.append(try Measure.child([bench, "store-child", String(count)], keepOutput: true))
      empty.append(try Measure.child([bench, "store-child", "0"], keepOutput: true))
    }
    guard full.allSatisfy({ $0.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(count) }) else {
      throw BenchError("the store child did not deliver \(count) notifications")
    }
    let text = (0..<count).reduce(0) { $0 + Workload.textBytes($1) }
    return Result(
      count: count, peakMiB: Measure.median(full.map(\.peakMiB)), emptyPeakMiB: Measure.median(empty.map(\.peakMiB)),
      textMiB: Double(text) / 1_048_576, seconds: Measure.median(full.map(\.millis)) / 1000)
  }
}

extension StoreFigures {
  static func show(_ r: Result) {
    Console.line("")
    Console.line(
      "\(r.count) delivered notifications in a session, the list open and browsed (a child process, median of 3)")
    line(
      format:
        "  peak memory %.1f MiB (%.1f MiB with none): %.0f bytes a notification; their text alone %.1f MiB   goal ≤ %.0f MiB",
      r.peakMiB, r.emptyPeakMiB, r.bytesPerNotification, r.textMiB, goalMiB)
  }

  static func row(_ r: Result) -> SummaryRow {
    SummaryRow(
      what: "\(r.count) delivered notifications, peak (bytes a notification)",
      measured: Summary.format("%.1f MiB (%.0f B)", r.peakMiB, r.bytesPerNotification),
      floor: Summary.format("text %.1f MiB", r.textMiB), ratio: Summary.format("%.1f×", r.peakMiB / r.textMiB),
      goal: Summary.format("≤ %.0f MiB", goalMiB), met: r.peakMiB <= goalMiB)
  }
}
