import Foundation
import UNTermBidi
import UNTermInput
import UNTermRender
import UNTermScript
import UserNotificationsModel

/// Draws a script line's caption (`SessionScript.Line.caption`, declared with each command in
/// `ScriptCommand.declarations`) over a frame, for `--live` and casts.
package enum Caption {
  /// A frame with the caption drawn over the status line, right-to-left text put in the cells
  /// as the terminal (or the picture) that shows it needs (`bidi`).
  package static func frame(_ session: Session, caption: String?, bidi: BidiMode) -> Frame {
    var frame = session.frame(bidi: bidi)
    guard let caption, frame.grid.height > 0 else { return frame }
    let y = frame.grid.height - 1
    let style = Style(foreground: .ansi(0), background: .ansi(11), attributes: .bold)
    frame.grid.fill(Rect(x: 0, y: y, width: frame.grid.width, height: 1), style: style)
    frame.grid.write(" ▶ " + TerminalText.sanitize(caption, multiline: false), x: 0, y: y, style: style)
    frame.bidiSpans.removeAll { $0.row == y }
    return frame
  }

  /// The same, the cells only.
  package static func grid(_ session: Session, caption: String?, bidi: BidiMode) -> CellGrid {
    frame(session, caption: caption, bidi: bidi).grid
  }

  /// A full-screen redraw as terminal output.
  package static func screen(_ grid: CellGrid, depth: ColorDepth) -> SafeText {
    "\u{1B}[H\(grid.ansiText(depth: depth, lineSeparator: "\u{1B}[K\r\n"))\u{1B}[K"
  }
}

/// The pace of a demo recording (a cast, an animated SVG): each step a moment, a wait its time
/// (at most 3 s), divided by `--speed`; the virtual clock's own time never makes a demo drag.
package struct RecordingPace: Sendable {
  package static let stepDuration = 0.8
  package let speed: Double
  /// Seconds from the recording's start.
  package private(set) var time = 0.0

  package init(speed: Double) { self.speed = speed }

  /// Before a line runs: a wait takes its time.
  package mutating func willRun(_ line: SessionScript.Line) {
    if case .wait(let seconds) = line.command { time += min(seconds, 3) / speed }
  }

  /// After a line ran: whether it makes a frame (a captioned line or an action; an expectation
  /// without a caption changes nothing to see), and the step's moment if so.
  package mutating func didRun(_ line: SessionScript.Line) -> Bool {
    guard line.caption != nil || !line.isExpectation else { return false }
    time += Self.stepDuration / speed
    return true
  }

  /// The last frame's moment, when a script ends.
  package mutating func finish() { time += Self.stepDuration / speed }
}

/// Tells several observers about every step, in order (`--live` with `--cast` and `--svg`).
package final class ScriptObservers: ScriptObserver {
  private let observers: [any ScriptObserver]

  package init(_ observers: [any ScriptObserver]) { self.observers = observers }

  package func scriptWillStart(_ script: SessionScript, session: Session) {
    for o in observers { o.scriptWillStart(script, session: session) }
  }
  package func lineWillRun(_ line: SessionScript.Line, session: Session) {
    for o in observers { o.lineWillRun(line, session: session) }
  }
  package func lineDidRun(_ line: SessionScript.Line, session: Session) {
    for o in observers { o.lineDidRun(line, session: session) }
  }
  package func delivered(_ notification: UNNotification, session: Session) {
    for o in observers { o.delivered(notification, session: session) }
  }
  package func responded(_ response: UNNotificationResponse, session: Session) {
    for o in observers { o.responded(response, session: session) }
  }
  package func scriptDidFinish(_ result: ScriptResult, session: Session) {
    for o in observers { o.scriptDidFinish(result, session: session) }
  }
}

/// Writes an asciicast v2 recording of scripts as they run, with a marker at each delivery and
/// each response. Time follows a demo's pace: each step takes a moment, waits take their time.
package final class CastWriter: ScriptObserver {
  private let handle: FileHandle
  private var pace: RecordingPace
  private var wroteHeader = false
  private var size = (0, 0)
  /// How right-to-left text is recorded: as a terminal without bidi shows it (asciinema's
  /// players have none), unless `--bidi terminal` says the recording is for one that reorders.
  private let bidi: BidiMode

  package init(path: String, speed: Double, bidi: BidiSetting = .auto) throws {
    self.bidi = bidi == .terminal ? .logical : .visual
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CocoaError(.fileWriteNoPermission)
    }
    try handle.truncate(atOffset: 0)
    self.handle = handle
    pace = RecordingPace(speed: speed)
  }

  package func close() { try? handle.close() }

  /// One event. Its text is safe for a terminal before it is JSON-escaped: a player writes
  /// output events to the terminal, and shows markers.
  private func emit(_ kind: String, _ data: SafeText) {
    let line = JSONWriter.write(
      .array([.double((pace.time * 1000).rounded() / 1000), .string(kind), .string(data.text)]))
    handle.write(Data((line + "\n").utf8))
  }

  private func frame(_ session: Session, caption: String?) {
    let state = session.state
    if (state.screenWidth, state.screenHeight) != size {
      if wroteHeader { emit("r", "\(state.screenWidth)x\(state.screenHeight)") }
      size = (state.screenWidth, state.screenHeight)
    }
    emit("o", "\u{1B}[2J" + Caption.screen(Caption.grid(session, caption: caption, bidi: bidi), depth: .palette256))
  }

  package func scriptWillStart(_ script: SessionScript, session: Session) {
    if !wroteHeader {
      // The size the first frame is drawn at (the runner starts a script at its first `size`).
      size = (session.state.screenWidth, session.state.screenHeight)
      let header: JSONWriter.Value = .object([
        ("version", .int(2)), ("width", .int(size.0)), ("height", .int(size.1)),
        ("timestamp", .int(Int(saturating: Date().timeIntervalSince1970))), ("idle_time_limit", .int(3)),
        ("title", .string(SafeText("unterm run \((script.file as NSString).lastPathComponent)").text)),
        ("env", .object([("TERM", .string("xterm-256color")), ("SHELL", .string("/bin/sh"))])),
      ])
      handle.write(Data((JSONWriter.write(header) + "\n").utf8))
      wroteHeader = true
      emit("o", "\u{1B}[?25l")
    }
    emit("m", "script \(script.file)")
    frame(session, caption: nil)
  }

  package func lineWillRun(_ line: SessionScript.Line, session: Session) { pace.willRun(line) }

  package func lineDidRun(_ line: SessionScript.Line, session: Session) {
    guard pace.didRun(line) else { return }
    frame(session, caption: line.caption)
  }

  package func delivered(_ notification: UNNotification, session: Session) {
    let title =
      notification.request.content.title.isEmpty
      ? notification.request.content.body : notification.request.content.title
    emit("m", "delivery \(notification.request.identifier): \(title.prefix(60))")
  }

  package func responded(_ response: UNNotificationResponse, session: Session) {
    var text: SafeText = "response \(response.actionIdentifier) (\(response.notification.request.identifier))"
    if let userText = (response as? UNTextInputNotificationResponse)?.userText {
      text += " “\(userText)”"
    }
    emit("m", text)
  }

  package func scriptDidFinish(_ result: ScriptResult, session: Session) {
    pace.finish()
    frame(session, caption: result.passed ? "✓ \(result.file)" : "✗ \(result.file)")
  }
}

/// Plays scripts in the real terminal at a person's pace, with a caption of each step.
package final class LivePlayer: ScriptObserver {
  private let speed: Double
  private let depth: ColorDepth
  private var started = false
  /// Whether the terminal reorders right-to-left text unless asked not to (VTE): the screens
  /// are in display order already, so it is asked to show cells as written while the run plays.
  private let explicitBidi: Bool
  /// How the screens hold right-to-left text for this terminal (`--bidi`, `auto` resolved).
  private let bidi: BidiMode

  package init(speed: Double, bidi setting: BidiSetting = .auto) {
    self.speed = speed
    let environment = ProcessInfo.processInfo.environment
    depth = (environment["NO_COLOR"] ?? "").isEmpty ? ColorDepth.detect(environment: environment) : .none
    bidi = TerminalBidi.mode(setting, environment: environment, controlsTerminal: true)
    explicitBidi = bidi == .visual && TerminalBidi.terminal(environment).honoursExplicitMode
  }

  private func write(_ text: SafeText) {
    Console.write(text)
  }

  private func pause(_ seconds: Double) {
    Thread.sleep(forTimeInterval: max(0, seconds / speed))
  }

  private func show(_ session: Session, caption: String?) {
    write(Caption.screen(Caption.grid(session, caption: caption, bidi: bidi), depth: depth))
  }

  package func scriptWillStart(_ script: SessionScript, session: Session) {
    if !started {
      started = true
      TerminalRestore.install(explicitBidi: explicitBidi)
      write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
      if explicitBidi { write("\u{1B}[8l") }
    }
    show(session, caption: "▶ \((script.file as NSString).lastPathComponent)")
    pause(1)
  }

  package func lineWillRun(_ line: SessionScript.Line, session: Session) {
    guard let caption = line.caption else { return }
    show(session, caption: caption)
    if case .wait(let seconds) = line.command {
      pause(min(seconds, 3))
    } else {
      pause(0.5)
    }
  }

  package func lineDidRun(_ line: SessionScript.Line, session: Session) {
    guard let caption = line.caption else { return }
    show(session, caption: caption)
    pause(0.7)
  }

  package func delivered(_ notification: UNNotification, session: Session) {}

  package func responded(_ response: UNNotificationResponse, session: Session) {}

  package func scriptDidFinish(_ result: ScriptResult, session: Session) {
    show(session, caption: result.passed ? "✓ passed" : "✗ failed")
    pause(1.5)
  }

  /// Gives the terminal back.
  package func finish() {
    guard started else { return }
    if explicitBidi { write("\u{1B}[8h") }
    write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    TerminalRestore.uninstall()
  }
}
