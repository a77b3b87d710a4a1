import Foundation
import UNTermCurses
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel

// The figures of issue 14, each beside its floor and its goal, then a summary table of them all:
// what a start costs against a bare Swift program (`startup`), what image attachments add to
// `unterm render` (`images`), the memory 100,000 delivered notifications hold (`store`), a list
// frame's cost and bytes with 10 and with 100,000 notifications (`list`), what `unterm sheet`
// costs for the sample payloads (`sheet`), the save-to-redraw latency of `--watch` (`watch`), and
// how much faster than real time a script of 2,000 replies runs (`scripts`).
// Run: Scripts/bench.sh [PART] (builds unterm, unterm-floor and unterm-bench statically in
// release, as installed, then runs this), or `unterm-bench [PART] [COUNT ...]` on such a build.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "store-child", arguments.count == 2, let count = Int(arguments[1]) {
  do {
    try StoreFigures.child(count)
    exit(0)
  } catch {
    Console.line("unterm-bench store-child: \(error)", to: .standardError)
    exit(1)
  }
}

/// The parts of the benchmark; `unterm-bench PART` runs one, `unterm-bench` all of them.
enum Part: String, CaseIterable {
  case startup, images, store, list, sheet, watch, scripts
}

let only = arguments.first.flatMap(Part.init(rawValue:))
if let first = arguments.first, only == nil, Int(first) == nil {
  Console.line(
    "usage: unterm-bench [\(Part.allCases.map(\.rawValue).joined(separator: "|"))] [COUNT ...]", to: .standardError)
  exit(64)
}
let counts = arguments.compactMap { Int($0) }
let sizes = counts.isEmpty ? [10, 100_000] : counts

func runs(_ part: Part) -> Bool { only == nil || only == part }

func makeSession(_ count: Int) throws -> Session { try Workload.session(count) }

func median(_ values: [Double]) -> Double { Measure.median(values) }

struct CursesFigures {
  var full: Int
  var step: Int
  var identical: Int
  var openStack: Int
}

struct Figures {
  var count: Int
  var frameMicros: Double
  var keyMicros: Double
  /// Median over interleaved rounds of this count's frame time against the first count's.
  var frameRatio: Double
  var fullPaintBytes: Int
  var focusStepBytes: Int
  var identicalBytes: Int
  /// The focus step's changed-cell minimum: each changed cluster written once, a cursor move
  /// before each run of them and a style sequence where the style changes (what
  /// `terminalUpdate` writes, so `focusStepBytes` is this figure).
  var minimumStepBytes: Int { focusStepBytes }
  /// How many clusters the focus step changes.
  var changedCells: Int
  /// A step into a stack, which opens it, as `terminalUpdate` writes it: that step's minimum.
  var openStackBytes: Int
  /// The same, as ncurses writes them (`nil` when no terminfo entry is available).
  var curses: CursesFigures?
}

/// A line of figures on stdout.
func line(format: String, _ arguments: any CVarArg...) {
  Console.line("\(String(format: format, arguments: arguments))")
}

/// How a list frame's time is taken: `rounds` turns, each `perRound` frames on every session one
/// after the other, so a slow moment of a shared host falls on every count alike; the frame-cost
/// ratio is the median of the rounds' ratios, not a ratio of two medians taken seconds apart.
let rounds = 41
let perRound = 20

/// Frame and key times of each session (medians over every round) and, for each session, the
/// median over rounds of its round median divided by the first session's.
func timeFrames(_ sessions: [Session]) -> (frame: [Double], key: [Double], ratio: [Double]) {
  var frameTimes = Array(repeating: [Double](), count: sessions.count)
  var keyTimes = frameTimes
  var roundRatios = frameTimes
  for round in 0..<rounds {
    let key: Key = round % 2 == 0 ? .down : .up
    var roundMedians: [Double] = []
    for (index, session) in sessions.enumerated() {
      var times: [Double] = []
      for _ in 0..<perRound {
        let k0 = DispatchTime.now().uptimeNanoseconds
        session.send(.key(key))
        let k1 = DispatchTime.now().uptimeNanoseconds
        let frame = session.frame()
        let k2 = DispatchTime.now().uptimeNanoseconds
        keyTimes[index].append(Double(k1 - k0) / 1000)
        times.append(Double(k2 - k1) / 1000)
        _ = frame
      }
      frameTimes[index] += times
      roundMedians.append(median(times))
    }
    for index in sessions.indices { roundRatios[index].append(roundMedians[index] / max(roundMedians[0], 0.001)) }
  }
  return (frameTimes.map(median), keyTimes.map(median), roundRatios.map(median))
}

/// The bytes a terminal receives for a count's list (timings are filled in by `timeFrames`).
func measure(_ count: Int, _ session: Session) -> Figures {
  // From the top: a step between two single notifications, two more, a step onto the stack,
  // and one into it, which opens it. ncurses is shown every frame, as the shell would.
  session.send(.key(.home))
  var frames = [session.frame()]
  for _ in 0..<5 {
    session.send(.key(.down))
    frames.append(session.frame())
  }
  let before = frames[0].grid
  let after = frames[1].grid
  let full = before.terminalUpdate(from: nil, depth: .palette256).utf8.count
  let step = after.terminalUpdate(from: before, depth: .palette256).utf8.count
  let changed = CellDiff.changes(from: before, to: after).count
  let same = after.terminalUpdate(from: after, depth: .palette256).utf8.count
  let open = frames[5].grid.terminalUpdate(from: frames[4].grid, depth: .palette256).utf8.count
  var curses: CursesFigures?
  if let meter = try? CursesOutputMeter(width: 80, height: 24) {
    let written = frames.map { meter.present($0, depth: .palette256) }
    let identical = meter.present(frames[5], depth: .palette256)
    meter.close()
    curses = CursesFigures(full: written[0], step: written[1], identical: identical, openStack: written[5])
  }
  return Figures(
    count: count, frameMicros: 0, keyMicros: 0, frameRatio: 1, fullPaintBytes: full,
    focusStepBytes: step, identicalBytes: same, changedCells: changed, openStackBytes: open, curses: curses)
}

do {
  Console.line("unterm-bench: \(Measure.machine)")
  var rows: [SummaryRow] = []
  // The parts that run child processes come first, while this process is small.
  Measure.returnFreedMemory()
  if runs(.startup) {
    let startup = try StartupFigures.run()
    StartupFigures.show(startup)
    rows += StartupFigures.rows(startup)
  }
  if runs(.images) { rows += try ImageFigures.run() }
  if runs(.store) {
    let store = try StoreFigures.run()
    StoreFigures.show(store)
    rows.append(StoreFigures.row(store))
  }
  if runs(.list) { rows += try listFigures() }
  if runs(.sheet) { try sheetFigures() }
  if runs(.watch) { try WatchFigures.run() }
  if runs(.scripts) { rows.append(try ScriptFigures.run()) }
  Summary.show(rows)
} catch {
  Console.line("unterm-bench: \(error)", to: .standardError)
  exit(1)
}

/// The list with 10 and with 100,000 notifications: the cost of a frame and of a key, and the
/// bytes a terminal receives for a full paint and a focus step.
func listFigures() throws -> [SummaryRow] {
  var sessions: [Session] = []
  for count in sizes {
    let build = Date()
    sessions.append(try makeSession(count))
    let built = Date().timeIntervalSince(build)
    Console.line("built \(count) notifications in \(String(format: "%.2f", built)) s", to: .standardError)
  }
  let times = timeFrames(sessions)
  var results: [Figures] = []
  for (index, session) in sessions.enumerated() {
    var figures = measure(sizes[index], session)
    figures.frameMicros = times.frame[index]
    figures.keyMicros = times.key[index]
    figures.frameRatio = times.ratio[index]
    results.append(figures)
  }
  Console.line("")
  Console.line("notifications   frame (median)   key update (median)   full paint   focus step   identical redraw")
  for r in results {
    line(
      format: "%13d   %11.1f µs   %16.1f µs   %8d B   %8d B   %14d B", r.count, r.frameMicros, r.keyMicros,
      r.fullPaintBytes, r.focusStepBytes, r.identicalBytes)
  }
  var rows: [SummaryRow] = []
  if results.contains(where: { $0.curses != nil }) {
    Console.line("as ncurses writes them (xterm-256color), beside the changed-cell minimum of each step:")
    for r in results {
      guard let c = r.curses else { continue }
      line(
        format:
          "%13d   full paint %6d B   focus step %6d B (%d clusters change; minimum %d B, %.2f×)   step opening a stack %6d B (minimum %d B, %.2f×)   identical redraw %d B",
        r.count, c.full, c.step, r.changedCells, r.minimumStepBytes,
        Double(c.step) / Double(max(1, r.minimumStepBytes)),
        c.openStack, r.openStackBytes, Double(c.openStack) / Double(max(1, r.openStackBytes)), c.identical)
    }
    let cursed = results.compactMap { r in r.curses.map { (r, $0) } }
    for (name, written, minimum) in [
      ("a focus step in the list", { (c: CursesFigures) in c.step }, { (r: Figures) in r.minimumStepBytes }),
      ("a step that opens a stack", { (c: CursesFigures) in c.openStack }, { (r: Figures) in r.openStackBytes }),
    ] {
      let ratios = cursed.map { Double(written($0.1)) / Double(max(1, minimum($0.0))) }
      let steps = cursed.map { written($0.1) }
      rows.append(
        SummaryRow(
          what: "\(name), bytes to the terminal (ncurses, 80×24), "
            + cursed.map { "\($0.0.count)" }.joined(separator: " / "),
          measured: steps.map { "\($0) B" }.joined(separator: " / "),
          floor: cursed.map { "\(minimum($0.0)) B" }.joined(separator: " / "),
          ratio: ratios.map { Summary.format("%.2f×", $0) }.joined(separator: " / "),
          goal: "≤ 1.2×, the same at each count", met: Set(steps).count <= 1 && ratios.allSatisfy { $0 <= 1.2 }))
    }
  }
  if let small = results.first, let large = results.last, results.count > 1 {
    let ratio = large.frameRatio
    line(
      format: "frame cost ratio %d : %d notifications = %.2f× (median of %d interleaved rounds of %d frames each)",
      large.count, small.count, ratio, rounds, perRound)
    line(
      format: "key cost ratio   %d : %d notifications = %.2f×", large.count, small.count,
      large.keyMicros / small.keyMicros)
    rows.append(
      SummaryRow(
        what: "a list frame, \(large.count) notifications against \(small.count)",
        measured: Summary.format("%.1f µs", large.frameMicros), floor: Summary.format("%.1f µs", small.frameMicros),
        ratio: Summary.format("%.2f×", ratio), goal: "≤ 1.2×", met: ratio <= 1.2))
  }
  return rows
}

/// CPU seconds used by this process's finished children so far.
func childCPU() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_CHILDREN.rawValue, &usage)
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return user + system
}

/// CPU seconds used by this process so far.
func ownCPU() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) / 1e6
}

/// `unterm sheet` over every sample payload on 2 devices × 2 states × 3 views: wall and CPU
/// time (the machine may be shared, so CPU time is the steadier figure) and the file's size.
/// The `unterm` built beside this binary runs the command itself; the sheet is also made in
/// this process, without lint and process start.
func sheetFigures() throws {
  guard let samples = Resources.samples else {
    Console.line("sheet: SamplePayloads/ not found (set UNTERM_HOME)")
    return
  }
  let folder = try FileManager.default.url(
    for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let out = folder.appendingPathComponent("unterm-sheet.html").path
  let runs = 5
  Console.line(
    "unterm sheet --categories … --extension … SamplePayloads/ (2 devices × 2 states × 3 views, default theme):")
  guard try timeSheetCommand(samples: samples, out: out, runs: runs) else { return }
  try timeSheetInProcess(samples: samples, runs: runs)
}

/// Times `runs` runs of the `unterm sheet` built beside this binary, writing to `out`, and
/// prints the median times and the file's size (or why it could not). Returns false when the
/// command failed.
func timeSheetCommand(samples: URL, out: String, runs: Int) throws -> Bool {
  let session = [
    "--categories", samples.appendingPathComponent("categories.json").path,
    "--extension", samples.appendingPathComponent("extension-media-card.json").path,
    "--extension", samples.appendingPathComponent("extension-chat-card.json").path,
  ]
  let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  let unterm = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("unterm").path
  guard FileManager.default.isExecutableFile(atPath: unterm) else {
    Console.line("  (no unterm beside \(exe): build it too — swift build -c release — to time the command itself)")
    return true
  }
  var walls: [Double] = []
  var cpus: [Double] = []
  var summary = ""
  for _ in 0..<runs {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: unterm)
    process.arguments = ["sheet", "--now", "2026-11-29T20:00:00Z", "--out", out] + session + [samples.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    let cpu0 = childCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    cpus.append(childCPU() - cpu0)
    summary = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0 else {
      Console.line("  the command failed (exit \(process.terminationStatus))")
      return false
    }
  }
  let bytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
  Console.line("  \(summary.replacingOccurrences(of: out + ": ", with: ""))")
  line(
    format: "  the command:  median %.2f s wall (best %.2f s), %.2f s CPU   goal under 1 s", median(walls),
    walls.min() ?? 0, median(cpus))
  line(format: "  output size:  %.2f MB (%d bytes)   goal under 5 MB", Double(bytes) / 1_048_576, bytes)
  return true
}

/// Times `runs` makings of the same sheet in this process (no lint, no process start) and
/// prints the median times, with how many payloads and screens it holds and its size.
func timeSheetInProcess(samples: URL, runs: Int) throws {
  var configuration = SessionConfiguration()
  configuration.categoriesFile = samples.appendingPathComponent("categories.json").path
  configuration.extensionFiles = ["extension-media-card.json", "extension-chat-card.json"].map {
    samples.appendingPathComponent($0).path
  }
  let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted()
  let payloads = names.filter {
    ($0.hasSuffix(".json") || $0.hasSuffix(".apns")) && $0 != "categories.json" && !$0.hasPrefix("extension-")
  }.map { samples.appendingPathComponent($0).path }
  var walls: [Double] = []
  var cpus: [Double] = []
  var bytes = 0
  var screens = 0
  for _ in 0..<runs {
    let cpu0 = ownCPU()
    let start = DispatchTime.now().uptimeNanoseconds
    let sheet = try DesignSheet.make(
      payloads: payloads, configuration: configuration, matrix: DesignSheet.Matrix(), findings: [], lintedFiles: 0,
      now: Date(timeIntervalSince1970: 1_764_446_400))
    bytes = sheet.html.utf8.count
    screens = sheet.sections.reduce(0) { $0 + $1.screens.count }
    walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    cpus.append(ownCPU() - cpu0)
  }
  line(
    format: "  in process:   median %.2f s wall, %.2f s CPU for %d payloads, %d screens, %d bytes", median(walls),
    median(cpus), payloads.count, screens, bytes)
}
