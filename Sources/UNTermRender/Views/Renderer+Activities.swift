import ActivityKit
import Foundation
import UNTermState

// Live Activities without a view descriptor: the Lock Screen view above the notifications (on
// the Lock Screen and in Notification Center), the Dynamic Island's compact presentation at the
// top of an iPhone's home screen, and, while an alert lights the screen, the expanded island
// (iPhone) or the Lock Screen view as a banner (iPad, which has no Dynamic Island).
extension Renderer {
  /// The Lock Screen views, the most relevant first, in the rows `ActivityLayout` gives them.
  func drawLockScreenActivities(_ canvas: inout Canvas, _ state: CenterState, x: Int, y: Int, width: Int) {
    let budget = ActivityLayout.lockScreenRows(state)
    guard budget > 0 else { return }
    let shown = state.shownActivities
    var row = y
    for record in shown.prefix(ActivityLayout.maxCards) {
      let presentation = ActivityPresentation(record, in: state)
      let rows = min(ActivityLayout.cardRows(presentation), y + budget - row)
      guard rows >= 3 else { break }
      drawActivityCard(&canvas, presentation, rect: Rect(x: x, y: row, width: width, height: rows))
      row += rows
    }
    if shown.count > ActivityLayout.maxCards, row < y + budget {
      let more = shown.count - ActivityLayout.maxCards
      canvas.text(
        TextLayout.truncate("+\(more) more Live \(more == 1 ? "Activity" : "Activities")", width: width), x: x,
        y: row, role: .secondary)
    }
  }

  /// One plain view: its header, then as many lines as its rows hold.
  private func drawActivityCard(_ canvas: inout Canvas, _ presentation: ActivityPresentation, rect: Rect) {
    canvas.box(rect, role: .cardBorder, fill: .card)
    let inner = rect.width - 4
    guard inner > 0 else { return }
    canvas.text(line(presentation.header, inner), x: rect.x + 2, y: rect.y + 1, role: .appName)
    for (i, text) in presentation.lines.prefix(rect.height - 3).enumerated() {
      canvas.text(line(text, inner), x: rect.x + 2, y: rect.y + 2 + i, role: i == 0 ? .title : .body)
    }
  }

  /// On the home screen: the island (an iPhone's), or the lit activity's banner (an iPad's).
  func drawHomeActivities(_ canvas: inout Canvas, _ state: CenterState, area: Rect) {
    if let lit = state.litActivityRecord {
      let presentation = ActivityPresentation(lit, in: state)
      // An iPhone's expanded island and an iPad's banner both take the device's width at the top.
      let rows = min(ActivityLayout.cardRows(presentation), area.height)
      drawActivityCard(&canvas, presentation, rect: Rect(x: area.x, y: area.y, width: area.width, height: rows))
      return
    }
    guard state.device.kind == .iphone, let first = state.shownActivities.first else { return }
    let presentation = ActivityPresentation(first, in: state)
    // The compact island: 230 of the 393 points across, centered at the top.
    let width = max(12, area.width * 230 / 393)
    let side = (width - 5) / 2
    let pill = "( \(line(presentation.leading, side)) ● \(line(presentation.trailing, side)) )"
    let shown = TextLayout.truncate(pill, width: area.width)
    canvas.text(shown, x: area.x + max(0, (area.width - DisplayWidth.of(shown)) / 2), y: area.y, role: .accent)
  }

  private func line(_ text: String, _ width: Int) -> String {
    TextLayout.truncate(TerminalText.sanitize(text, multiline: false), width: width)
  }
}
