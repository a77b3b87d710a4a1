import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension Renderer {
  /// One drawable row of content.
  enum ContentRow {
    case text(TextLine, Role)
    /// One row of an image; `caption` is drawn on the middle row (the media button).
    case image(ImageReference, row: Int, rows: Int, caption: String?)
    case media(UNNotificationAttachment, playing: Bool, elapsed: TimeInterval)
    case progress(Double)
    case button(String, enabled: Bool, focused: Bool, index: Int)
    case marker(String)
    case blank
  }

  /// The rows of a budgeted content area, top to bottom. With a media button, the system's
  /// play/pause control is drawn over the first image.
  func expandRows(_ content: BudgetedContent, media: ExtensionView? = nil, focus: Int? = nil) -> [ContentRow] {
    var rows: [ContentRow] = []
    var mediaDrawn = false
    var buttonIndex = 0
    for placed in content.placed {
      let index = buttonIndex
      if case .button = placed.block.kind { buttonIndex += 1 }
      guard placed.visibleRows > 0 else { continue }
      switch placed.block.kind {
      case .text(let lines, let role, _):
        rows += lines.prefix(placed.visibleRows).map { .text($0, role) }
      case .image(let image):
        var caption: String?
        if let media, media.mediaButton != .none, !mediaDrawn {
          mediaDrawn = true
          if media.mediaButton == .default || !media.isPlaying {
            caption = media.isPlaying ? "❚❚ Pause · p" : "▶ Play · p"
          }
        }
        rows += (0..<placed.visibleRows).map {
          .image(image, row: $0, rows: placed.block.rows, caption: caption)
        }
      case .media(let attachment, let playing, let elapsed):
        rows.append(.media(attachment, playing: playing, elapsed: elapsed))
        rows += Array(repeating: .blank, count: max(0, placed.visibleRows - 1))
      case .spacer:
        rows += Array(repeating: .blank, count: placed.visibleRows)
      case .progress(let value):
        rows.append(.progress(value))
        rows += Array(repeating: .blank, count: max(0, placed.visibleRows - 1))
      case .button(let title, _, let enabled):
        rows.append(.button(title, enabled: enabled, focused: focus == index, index: index))
        rows += Array(repeating: .blank, count: max(0, placed.visibleRows - 1))
      }
    }
    return rows
  }

  func drawContentRow(_ canvas: inout Canvas, _ row: ContentRow, x: Int, y: Int, width: Int, clip: Rect) {
    switch row {
    case .text(let line, let role):
      canvas.line(line, x: x, y: y, width: width, role: role, clip: clip)
    case .image(let image, let index, let total, let caption):
      defer {
        if let caption, index == total / 2 {
          let text = " \(caption) "
          canvas.text(text, x: x + max(0, (width - DisplayWidth.of(text)) / 2), y: y, role: .button, clip: clip)
        }
      }
      if let art = images?.art(of: image, columns: width, rows: total) {
        for column in 0..<min(width, art.columns) {
          let pixels = art.cells[index * art.columns + column]
          canvas.grid.write(
            "▀", x: x + column, y: y,
            style: Style(foreground: pixels.top, background: pixels.bottom, attributes: .picture), clip: clip)
        }
      } else {
        canvas.fill(Rect(x: x, y: y, width: width, height: 1).intersection(clip), role: .mediaArt)
        if index == total / 2 - (caption == nil ? 0 : 1) {
          let label =
            "▨ \(image.attachment?.format.displayName ?? "image") · \(TerminalText.sanitize(image.label, multiline: false))"
          let text = TextLayout.truncate(label, width: width)
          canvas.text(text, x: x + max(0, (width - DisplayWidth.of(text)) / 2), y: y, role: .mediaArt, clip: clip)
        }
      }
    case .media(let attachment, let playing, let elapsed):
      // Time played on the session's clock, over the clip's length; it stops at the end.
      let length = mediaDuration(of: attachment)
      let played = Self.clock(min(elapsed, length ?? .infinity), rounding: .down)
      let button = playing ? "❚❚ Pause" : "▶ Play"
      let name = TerminalText.sanitize(attachment.url.lastPathComponent, multiline: false)
      let label =
        "\(button) \(played) / \(length.map { Self.clock($0) } ?? "--:--") · \(attachment.format.displayName) · \(name)"
      canvas.text(TextLayout.truncate(label, width: width), x: x, y: y, role: .accent, clip: clip)
    case .progress(let value):
      let clamped = min(1, max(0, value.isFinite ? value : 0))
      let percent = " \(Int(saturating: (clamped * 100).rounded()))%"
      let barWidth = max(1, width - DisplayWidth.of(percent))
      let filled = Int(saturating: (Double(barWidth) * clamped).rounded())
      canvas.text(String(repeating: "━", count: filled), x: x, y: y, role: .accent, clip: clip)
      canvas.text(String(repeating: "─", count: barWidth - filled), x: x + filled, y: y, role: .secondary, clip: clip)
      canvas.text(percent, x: x + barWidth, y: y, role: .secondary, clip: clip)
    case .button(let title, let enabled, let focused, let index):
      let label = "[ \(TerminalText.sanitize(title, multiline: false)) ]"
      let text = TextLayout.truncate(label, width: width)
      canvas.text(text, x: x, y: y, role: focused ? .actionSelected : enabled ? .button : .secondary, clip: clip)
      if enabled { canvas.hit(Rect(x: x, y: y, width: DisplayWidth.of(text), height: 1), .extensionButton(index)) }
    case .marker(let label):
      let padded = " \(label) "
      let side = max(0, (width - DisplayWidth.of(padded)) / 2)
      let line =
        String(repeating: "╌", count: side) + padded
        + String(repeating: "╌", count: max(0, width - side - DisplayWidth.of(padded)))
      canvas.text(TextLayout.truncate(line, width: width), x: x, y: y, role: .overflow, clip: clip)
    case .blank:
      break
    }
  }
}
