import Foundation
import UNTermCore
import UNTermCurses
import UNTermHeadless
import UNTermRender
import UserNotifications

// Prints what a frame of the notification list costs with 10 and with 100,000 delivered
// notifications, their ratio, and the bytes a terminal receives for a full paint and for
// moving the focus one step: as plain ANSI text and as ncurses writes them, both for the
// clusters the one `CellDiff` names; then what `unterm sheet` costs for the sample payloads, and
// what image attachments add to `unterm render` (ImageFigures), and the save-to-redraw latency
// of `--watch` (WatchFigures).
// Run: swift build -c release && .build/release/unterm-bench [COUNT ...] (or `sheet`, `images`
// or `watch` for those figures alone).

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "store-child" {
  try StoreFigures.child(Int(arguments[1]) ?? 0)
  exit(0)
}
if arguments.first == "store" {
  let r = try StoreFigures.run()
  print(r)
  print(r.bytesPerNotification)
  exit(0)
}
let sheetOnly = arguments.first == "sheet"
let imagesOnly = arguments.first == "images"
let watchOnly = arguments.first == "watch"
let counts = arguments.compactMap { Int($0) }
let sizes = counts.isEmpty ? [10, 100_000] : counts
let frames = 400

func makeSession(_ count: Int) throws -> Session {
  var configuration = SessionConfiguration()
  configuration.categoriesFile = Resources.samples?.appendingPathComponent("categories.json").path
  let session = try SessionFactory.make(configuration, now: Date(timeIntervalSince1970: 1_767_260_460))
  session.resize(width: 80, height: 24)
  for i in 0..<count {
    let content = UNMutableNotificationContent()
    content.title = "Sender \(i % 977)"
    content.body = "Message number \(i): are we still on for tonight? ক্ষমা করো 明日"
    content.threadIdentifier = "thread-\(i % 5_000)"
    content.categoryIdentifier = "message"
    let request = UNNotificationRequest(identifier: "n\(i)", content: content, trigger: nil)
    let notification = UNNotification(request: request, date: session.state.now)
    session.send(.deliver(notification, presentation: [.list, .badge]))
  }
  session.send(.command(.openCenter))
  return session
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

struct Figures {
  var count: Int
  var frameMicros: Double
  var keyMicros: Double
  var fullPaintBytes: Int
  var focusStepBytes: Int
  var identicalBytes: Int
  /// The same three, as ncurses writes them (`nil` when no terminfo entry is available).
  var curses: (full: Int, step: Int, identical: Int)?
}

/// A line of figures on stdout.
func line(format: String, _ arguments: any CVarArg...) {
  Console.line("\(String(format: format, arguments: arguments))")
}

func measure(_ count: Int) throws -> Figures {
  let build = Date()
  let session = try makeSession(count)
  let built = Date().timeIntervalSince(build)
  Console.line("built \(count) notifications in \(String(format: "%.2f", built)) s", to: .standardError)
  var frameTimes: [Double] = []
  var keyTimes: [Double] = []
  for i in 0..<frames {
    let key: Key = (i / 20) % 2 == 0 ? .down : .up
    let k0 = DispatchTime.now().uptimeNanoseconds
    session.send(.key(key))
    let k1 = DispatchTime.now().uptimeNanoseconds
    let frame = session.frame()
    let k2 = DispatchTime.now().uptimeNanoseconds
    keyTimes.append(Double(k1 - k0) / 1000)
    frameTimes.append(Double(k2 - k1) / 1000)
    _ = frame
  }
  session.send(.key(.home))
  let beforeFrame = session.frame()
  let before = beforeFrame.grid
  let full = before.terminalUpdate(from: nil, depth: .palette256).utf8.count
  session.send(.key(.down))
  let afterFrame = session.frame()
  let after = afterFrame.grid
  let step = after.terminalUpdate(from: before, depth: .palette256).utf8.count
  let same = after.terminalUpdate(from: after, depth: .palette256).utf8.count
  var curses: (Int, Int, Int)?
  if let meter = try? CursesOutputMeter(width: 80, height: 24) {
    let cursesFull = meter.present(beforeFrame, depth: .palette256)
    let cursesStep = meter.present(afterFrame, depth: .palette256)
    let cursesSame = meter.present(afterFrame, depth: .palette256)
    meter.close()
    curses = (cursesFull, cursesStep, cursesSame)
  }
  return Figures(
    count: count, frameMicros: median(frameTimes), keyMicros: median(keyTimes), fullPaintBytes: full,
    focusStepBytes: step, identicalBytes: same, curses: curses)
}

do {
  let results = try sheetOnly || imagesOnly || watchOnly ? [] : sizes.map(measure)
  if !results.isEmpty {
    Console.line("notifications   frame (median)   key update (median)   full paint   focus step   identical redraw")
  }
  for r in results {
    line(
      format: "%13d   %11.1f µs   %16.1f µs   %8d B   %8d B   %14d B", r.count, r.frameMicros, r.keyMicros,
      r.fullPaintBytes, r.focusStepBytes, r.identicalBytes)
  }
  if results.contains(where: { $0.curses != nil }) {
    Console.line("as ncurses writes them (xterm-256color):")
    for r in results {
      guard let c = r.curses else { continue }
      line(
        format: "%13d   full paint %6d B   focus step %6d B   identical redraw %d B", r.count, c.full, c.step,
        c.identical)
    }
  }
  if let small = results.first, let large = results.last, results.count > 1 {
    line(
      format: "frame cost ratio %d : %d notifications = %.2f×", large.count, small.count,
      large.frameMicros / small.frameMicros)
    line(
      format: "key cost ratio   %d : %d notifications = %.2f×", large.count, small.count,
      large.keyMicros / small.keyMicros)
  }
  if !imagesOnly && !watchOnly { try sheetFigures() }
  if !sheetOnly && !watchOnly { try ImageFigures.run() }
  if !sheetOnly && !imagesOnly { try WatchFigures.run() }
} catch {
  Console.line("unterm-bench: \(error)", to: .standardError)
  exit(1)
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
  let session = [
    "--categories", samples.appendingPathComponent("categories.json").path,
    "--extension", samples.appendingPathComponent("extension-media-card.json").path,
    "--extension", samples.appendingPathComponent("extension-chat-card.json").path,
  ]
  let runs = 5
  Console.line(
    "unterm sheet --categories … --extension … SamplePayloads/ (2 devices × 2 states × 3 views, default theme):")

  let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  let unterm = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("unterm").path
  if FileManager.default.isExecutableFile(atPath: unterm) {
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
        return
      }
    }
    let bytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
    Console.line("  \(summary.replacingOccurrences(of: out + ": ", with: ""))")
    line(
      format: "  the command:  median %.2f s wall (best %.2f s), %.2f s CPU   goal under 1 s", median(walls),
      walls.min() ?? 0, median(cpus))
    line(format: "  output size:  %.2f MB (%d bytes)   goal under 5 MB", Double(bytes) / 1_048_576, bytes)
  } else {
    Console.line("  (no unterm beside \(exe): build it too — swift build -c release — to time the command itself)")
  }

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
