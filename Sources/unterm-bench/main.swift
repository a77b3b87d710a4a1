import Foundation
import UNTermCore
import UNTermCurses
import UNTermHeadless
import UNTermRender
import UserNotifications

// Prints what a frame of the notification list costs with 10 and with 100,000 delivered
// notifications, their ratio, and the bytes a terminal receives for a full paint and for
// moving the focus one step: as plain ANSI text and as ncurses writes them, both for the
// clusters the one `CellDiff` names. Run: swift run -c release unterm-bench [COUNT ...]

let counts = CommandLine.arguments.dropFirst().compactMap { Int($0) }
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

func measure(_ count: Int) throws -> Figures {
  let build = Date()
  let session = try makeSession(count)
  let built = Date().timeIntervalSince(build)
  FileHandle.standardError.write(Data("built \(count) notifications in \(String(format: "%.2f", built)) s\n".utf8))
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
  let results = try sizes.map(measure)
  print("notifications   frame (median)   key update (median)   full paint   focus step   identical redraw")
  for r in results {
    print(
      String(
        format: "%13d   %11.1f µs   %16.1f µs   %8d B   %8d B   %14d B", r.count, r.frameMicros, r.keyMicros,
        r.fullPaintBytes, r.focusStepBytes, r.identicalBytes))
  }
  if results.contains(where: { $0.curses != nil }) {
    print("as ncurses writes them (xterm-256color):")
    for r in results {
      guard let c = r.curses else { continue }
      print(
        String(
          format: "%13d   full paint %6d B   focus step %6d B   identical redraw %d B", r.count, c.full, c.step,
          c.identical))
    }
  }
  if let small = results.first, let large = results.last, results.count > 1 {
    print(
      String(
        format: "frame cost ratio %d : %d notifications = %.2f×", large.count, small.count,
        large.frameMicros / small.frameMicros))
    print(
      String(
        format: "key cost ratio   %d : %d notifications = %.2f×", large.count, small.count,
        large.keyMicros / small.keyMicros))
  }
} catch {
  FileHandle.standardError.write(Data("unterm-bench: \(error)\n".utf8))
  exit(1)
}
