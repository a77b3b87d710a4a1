import Foundation
import UNTermHeadless
import UNTermInput

/// What a start costs: `unterm render --view expanded` of one sample payload and `unterm
/// --version`, each against the floor program (`unterm-floor`, built beside this benchmark the
/// same way), which reads and parses the same payload with Foundation and prints its title.
/// Runs alternate, so a change in the machine's load hits both sides alike; the time is CPU time
/// (user + system, from `wait4`), which other processes on a shared machine disturb far less than
/// wall time; the memory is the child's peak resident set.
enum StartupFigures {
  struct Side {
    var cpuMillis: Double
    var wallMillis: Double
    var peakMiB: Double

    init(_ runs: [Measure.Run]) {
      cpuMillis = Measure.median(runs.map(\.cpuMillis))
      wallMillis = Measure.median(runs.map(\.millis))
      peakMiB = Measure.median(runs.map(\.peakMiB))
    }
  }

  struct Result {
    var render: Side
    var version: Side
    var floor: Side
  }

  static let goalRatio = 1.5

  static func run(runs: Int = 15) throws -> Result {
    guard let samples = Resources.samples else { throw BenchError("SamplePayloads/ not found (set UNTERM_HOME)") }
    let unterm = try Measure.sibling("unterm")
    let floor = try Measure.sibling("unterm-floor")
    let payload = samples.appendingPathComponent("message.json").path
    let render = [unterm, "render", "--view", "expanded", "--size", "80x24", "--color", "never", payload]
    let version = [unterm, "--version"]
    let bare = [floor, payload]
    var renders: [Measure.Run] = []
    var versions: [Measure.Run] = []
    var floors: [Measure.Run] = []
    // One warm-up round (page cache), then alternate.
    for round in 0...runs {
      let r = try Measure.child(render)
      let v = try Measure.child(version)
      let f = try Measure.child(bare)
      if round > 0 {
        renders.append(r)
        versions.append(v)
        floors.append(f)
      }
    }
    return Result(render: Side(renders), version: Side(versions), floor: Side(floors))
  }

  static func show(_ result: Result, runs: Int = 15) {
    Console.line("")
    Console.line(
      "start-up, median of \(runs) alternating runs (wall time, which the goal is judged by; CPU time = user + system of the process, judged beside it)"
    )
    Console.line("                                     CPU time    wall time   peak memory")
    for (name, side) in [
      ("unterm render --view expanded", result.render), ("unterm --version", result.version),
      ("unterm-floor (read + parse)", result.floor),
    ] {
      line(
        format: "  %@ %7.2f ms   %7.2f ms   %7.1f MiB", name.padding(toLength: 33, withPad: " ", startingAt: 0),
        side.cpuMillis, side.wallMillis, side.peakMiB)
    }
  }
}

extension StartupFigures {
  static func rows(_ r: Result) -> [SummaryRow] {
    let wallRatio = r.render.wallMillis / r.floor.wallMillis
    let cpuRatio = r.render.cpuMillis / r.floor.cpuMillis
    let memoryRatio = r.render.peakMiB / r.floor.peakMiB
    let versionWall = r.version.wallMillis / r.floor.wallMillis
    let versionCPU = r.version.cpuMillis / r.floor.cpuMillis
    return [
      SummaryRow(
        what: "unterm render --view expanded of one sample, start to exit",
        measured: Summary.format(
          "%.2f ms wall, %.2f ms CPU, %.1f MiB", r.render.wallMillis, r.render.cpuMillis, r.render.peakMiB),
        floor: Summary.format("%.2f ms, %.2f ms, %.1f MiB", r.floor.wallMillis, r.floor.cpuMillis, r.floor.peakMiB),
        ratio: Summary.format("%.2f×, %.2f×, %.2f×", wallRatio, cpuRatio, memoryRatio), goal: "≤ 1.5×, ≤ 1.5×",
        met: wallRatio <= goalRatio && memoryRatio <= goalRatio, metOnCPU: cpuRatio <= goalRatio),
      SummaryRow(
        what: "unterm --version",
        measured: Summary.format("%.2f ms wall, %.2f ms CPU", r.version.wallMillis, r.version.cpuMillis),
        floor: Summary.format("%.2f ms, %.2f ms", r.floor.wallMillis, r.floor.cpuMillis),
        ratio: Summary.format("%.2f×, %.2f×", versionWall, versionCPU),
        goal: "≤ 1.5×", met: versionWall <= goalRatio, metOnCPU: versionCPU <= goalRatio),
    ]
  }
}
