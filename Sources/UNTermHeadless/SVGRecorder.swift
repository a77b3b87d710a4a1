import Foundation
import UNTermBidi
import UNTermInput
import UNTermRender
import UNTermScript
import UserNotificationsModel

/// `unterm run --svg FILE`: an animated SVG of the scripts as they play, as VHS and asciinema
/// users expect of a demo tool (issue 26.5). Each change of screen is a frame — the picture
/// `render --format svg` draws, with the step's caption — shown from its moment on the demo's
/// pace (`RecordingPace`: the virtual clock's waits, `--speed`) until the next, the whole
/// looping. Self-contained: frames switch by CSS animations, no script, nothing fetched.
package final class SVGRecorder: ScriptObserver {
  private let path: String
  private var pace: RecordingPace
  private let style: PictureStyle
  private var frames: [(time: Double, picture: String, width: Int, height: Int)] = []
  private var title = "unterm run"

  /// How long the last frame stays before the demo starts again, in seconds.
  package static let hold = 2.0

  package init(path: String, speed: Double, style: PictureStyle = PictureStyle()) {
    self.path = path
    pace = RecordingPace(speed: speed)
    self.style = style
  }

  private func frame(_ session: Session, caption: String?) {
    // A picture for a browser: right-to-left text in logical order, each line whole.
    let frame = Caption.frame(session, caption: caption, bidi: .logical)
    let picture = frame.grid.svg(
      style: style, marks: [], bidiSpans: frame.bidiSpans, title: caption ?? title, standalone: false)
    // A step that changes nothing to see adds no frame: the one shown stays longer.
    if let last = frames.last, last.picture == picture { return }
    frames.append((pace.time, picture, frame.grid.width, frame.grid.height))
  }

  package func scriptWillStart(_ script: SessionScript, session: Session) {
    if frames.isEmpty { title = "unterm run \((script.file as NSString).lastPathComponent)" }
    frame(session, caption: nil)
  }

  package func lineWillRun(_ line: SessionScript.Line, session: Session) { pace.willRun(line) }

  package func lineDidRun(_ line: SessionScript.Line, session: Session) {
    guard pace.didRun(line) else { return }
    frame(session, caption: line.caption)
  }

  package func delivered(_ notification: UNNotification, session: Session) {}
  package func responded(_ response: UNNotificationResponse, session: Session) {}

  package func scriptDidFinish(_ result: ScriptResult, session: Session) {
    pace.finish()
    frame(session, caption: result.passed ? "✓ \((result.file as NSString).lastPathComponent)" : "✗ failed")
  }

  /// The animated picture of every frame so far.
  package var document: String {
    let total = (frames.last?.time ?? 0) + Self.hold
    let width = frames.map { $0.width * style.cellWidth + 2 * style.padding }.max() ?? 0
    let height = frames.map { $0.height * style.cellHeight + 2 * style.padding }.max() ?? 0
    func percent(_ time: Double) -> String { String(format: "%.3f%%", total > 0 ? time / total * 100 : 0) }
    var css = ".frame{visibility:hidden;animation-duration:\(String(format: "%.3f", total))s;"
    css += "animation-timing-function:step-end;animation-iteration-count:infinite}"
    for (index, frame) in frames.enumerated() {
      let start = frame.time
      let end = index + 1 < frames.count ? frames[index + 1].time : total
      var keys = index == 0 ? "0%{visibility:visible}" : "0%{visibility:hidden}\(percent(start)){visibility:visible}"
      if index + 1 < frames.count { keys += "\(percent(end)){visibility:hidden}" }
      css += "#f\(index){animation-name:k\(index)}@keyframes k\(index){\(keys)}"
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\""
    out += " height=\"\(height)\" role=\"img\" data-frames=\"\(frames.count)\""
    out += " data-duration=\"\(String(format: "%.3f", total))\">"
    out += "<title>\(Markup.escape(title))</title><style>\(css)</style>"
    for (index, frame) in frames.enumerated() {
      out += "<g class=\"frame\" id=\"f\(index)\" data-start=\"\(String(format: "%.3f", frame.time))\">"
      out += frame.picture + "</g>"
    }
    return out + "</svg>\n"
  }

  /// Writes the picture, whole or not at all.
  package func write() throws(UNTermError) {
    let text = document
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw UNTermError(.cannotCreate, file: path, "cannot write the animated picture")
    }
  }
}
