import Foundation
import UNTermBidi
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

/// A piece of an expanded view's content area, with its height in points and rows.
package struct ContentBlock: @unchecked Sendable {
  package enum Kind: @unchecked Sendable {
    /// Wrapped, sanitized lines of text.
    case text(lines: [TextLine], role: Role, style: UNTextStyle)
    /// An image: an attachment or a file, drawn as block art when it can be decoded.
    case image(ImageReference)
    /// A player line for an audio or movie attachment: playing or not, and seconds played.
    case media(UNNotificationAttachment, playing: Bool, elapsed: TimeInterval)
    /// Empty space.
    case spacer
    /// A progress bar, 0…1.
    case progress(Double)
    /// A button inside a content extension's view.
    case button(title: String, action: String, enabled: Bool)
  }

  package var kind: Kind
  /// What a QA report calls it: `image`, `label "{{title}}"`, …
  package var name: String
  package var points: Double
  package var rows: Int

  package init(kind: Kind, name: String, points: Double, rows: Int) {
    self.kind = kind
    self.name = name
    self.points = points
    self.rows = rows
  }

  /// A text block at the user's text size: wrapped as the size's wider letters wrap, one row
  /// per line, lines × the style's leading at that size in points.
  package static func text(
    _ text: String, role: Role, style: UNTextStyle, size: DynamicTypeSize, width: Int, maxLines: Int? = nil,
    name: String, direction: BidiParagraph.Direction = .auto
  ) -> ContentBlock {
    let safe = TerminalText.sanitize(text)
    let columns = Projection.textColumns(width, style: style, size: size)
    let lines =
      TextLayout.lines(safe, width: columns, maxLines: maxLines, direction: direction)
    return ContentBlock(
      kind: .text(lines: lines, role: role, style: style), name: name,
      points: Double(lines.count) * style.lineHeight(at: size), rows: lines.count)
  }

  /// A non-text block of a height in points (held to 0…`InputNumber.maximumPoints`).
  package static func sized(_ kind: Kind, name: String, points: Double) -> ContentBlock {
    let height = Projection.height(points)
    return ContentBlock(kind: kind, name: name, points: height, rows: Projection.rows(height))
  }
}

/// An image to draw: which attachment or file, and its pixel size when known.
package struct ImageReference: @unchecked Sendable {
  package var attachment: UNNotificationAttachment?
  package var path: String?
  package var label: String

  package init(attachment: UNNotificationAttachment?, path: String?, label: String) {
    self.attachment = attachment
    self.path = path
    self.label = label
  }
}

/// A content area held to a height budget: how much of each block shows, and what was cut.
package struct BudgetedContent: @unchecked Sendable {
  package struct Placed: @unchecked Sendable {
    package var block: ContentBlock
    /// Rows of the block inside the budget.
    package var visibleRows: Int
  }

  package var placed: [Placed]
  /// The content's full height in points.
  package var totalPoints: Double
  /// The budget in points.
  package var budget: Double
  /// The names of blocks cut off wholly or partly.
  package var cut: [String]

  /// Points past the budget.
  package var overflow: Double { max(0, totalPoints - budget) }
  /// Rows shown.
  package var rows: Int { placed.reduce(0) { $0 + $1.visibleRows } }

  /// Lays blocks top to bottom and clips them at `budget` points.
  ///
  /// A text block keeps the lines that end within the budget; an image or a spacer keeps the
  /// whole rows that fit; a one-row control (button, progress, player) shows whole or not at
  /// all. `height`, when given, is the view's own height (an extension's preferred height):
  /// the content is clipped there too, and the overflow is counted from it.
  package init(blocks: [ContentBlock], budget: Double, height: Double? = nil) {
    self.budget = budget
    let limit = min(budget, height ?? .infinity)
    var y = 0.0
    var placed: [Placed] = []
    var cut: [String] = []
    for block in blocks {
      let remaining = max(0, limit - y)
      if block.points <= remaining + 0.0001 {
        placed.append(Placed(block: block, visibleRows: block.rows))
      } else {
        let visible: Int
        switch block.kind {
        case .text:
          // Each line is one leading at the text size the block was laid out at.
          let leading = block.points / Double(max(1, block.rows))
          visible = min(block.rows, Int(saturating: (remaining / leading).rounded(.down)))
        case .image, .spacer:
          visible = min(block.rows, Int(saturating: (remaining / Projection.pointsPerRow).rounded(.down)))
        case .media, .progress, .button:
          visible = 0
        }
        placed.append(Placed(block: block, visibleRows: visible))
        if block.points > 0 { cut.append(visible == 0 ? block.name : "\(block.name) (partly)") }
      }
      y += block.points
    }
    self.placed = placed
    self.totalPoints = height ?? y
    self.cut = cut
  }
}
