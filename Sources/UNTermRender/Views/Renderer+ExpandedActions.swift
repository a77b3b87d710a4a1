import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension Renderer {
  /// Under the content's divider, `rows` rows from `y`: the reply field while a reply is being
  /// typed, else the actions and Dismiss.
  func drawExpandedBottom(
    _ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, rows bottomRows: Int, rect: Rect, y: Int,
    inner: Int
  ) {
    let clip = rect.inset(dx: 1, dy: 1)
    guard let reply = e.reply else {
      drawActionList(&canvas, state, e, rows: bottomRows, rect: rect, y: y, clip: clip)
      return
    }
    if bottomRows >= 4 {
      drawReply(&canvas, state, e, reply, x: rect.x + 2, y: y, width: inner)
    } else {
      // No room for the field's box: one row, "› " and the text, scrolled to the caret as the
      // full field scrolls.
      canvas.text("› ", x: rect.x + 2, y: y, role: .field, clip: clip)
      drawFieldText(
        &canvas, state, reply.field, x: rect.x + 4, y: y, width: inner - 2,
        clip: clip.intersection(
          Rect(x: rect.x + 4, y: y, width: max(0, inner - 2), height: 1)))
    }
  }

  /// The actions and Dismiss, one a row. On a short screen the list is cut: the selected row
  /// stays in view, and a row says how many more are above or below.
  private func drawActionList(
    _ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, rows bottomRows: Int, rect: Rect, y: Int,
    clip: Rect
  ) {
    let actions = state.actions(for: e)
    var y = y
    let window = ActionWindow(count: actions.count + 1, rows: bottomRows, selected: e.selection ?? 0)
    if window.above > 0 {
      canvas.text("⋯ \(window.above) more · ↑", x: rect.x + 2, y: y, role: .secondary, clip: clip)
      y += 1
    }
    for (row, i) in window.shown.enumerated() {
      if i < actions.count {
        drawAction(
          &canvas, actions[i], index: i, selected: e.selection == i, locked: state.isLocked, x: rect.x + 1, y: y + row,
          width: rect.width - 2)
      } else {
        drawDismiss(&canvas, selected: e.selection == actions.count, x: rect.x + 1, y: y + row, width: rect.width - 2)
      }
    }
    if window.below > 0 {
      canvas.text(
        "⋯ \(window.below) more · ↓", x: rect.x + 2, y: y + window.shown.count, role: .secondary, clip: clip)
    }
  }

  /// Which rows of the action list (the actions, then Dismiss) a cut list shows in `rows`
  /// rows: the selected one always, and a marker row on each side that hides some, while there
  /// are at least three rows (two: the selected row and one marker; one: the selected row).
  struct ActionWindow: Equatable {
    /// The rows shown, by index.
    var shown: Range<Int>
    /// How many are hidden above and below.
    var above: Int
    var below: Int

    init(shown: Range<Int>, above: Int, below: Int) {
      (self.shown, self.above, self.below) = (shown, above, below)
    }

    init(count: Int, rows: Int, selected: Int) {
      let selected = min(max(0, selected), max(0, count - 1))
      guard count > rows else {
        (shown, above, below) = (0..<count, 0, 0)
        return
      }
      guard rows >= 2 else {
        shown = rows == 1 ? selected..<(selected + 1) : 0..<0
        (above, below) = (0, 0)
        return
      }
      let last = rows - 1
      if selected < last {
        // The top of the list, with a marker for the rest below.
        (shown, above) = (0..<last, 0)
      } else if selected >= count - last {
        // The end of the list, with a marker for the rest above.
        (shown, above) = ((count - last)..<count, count - last)
      } else if rows >= 3 {
        // The middle: a marker each side, the selected row last of the rows between.
        let first = selected - (rows - 2) + 1
        (shown, above) = (first..<(selected + 1), first)
      } else {
        // Two rows in the middle: the selected row, and the marker for the rows below it.
        (shown, above) = (selected..<(selected + 1), 0)
      }
      below = count - shown.upperBound
    }
  }

  private func drawAction(
    _ canvas: inout Canvas, _ action: UNNotificationAction, index: Int, selected: Bool, locked: Bool, x: Int, y: Int,
    width: Int
  ) {
    let key = index == 9 ? "0" : String(index + 1)
    // Every option is marked in text, so it reads the same without colour (`--color never`,
    // snapshots, `expect screen`): a destructive action by "⚠" before its title (a tag would
    // leave a title with every option no room on an iPhone), the others by tags.
    // "unlock" says the passcode will be asked, so only while the device is locked: an
    // authentication-required or foreground action then asks it (issue 25.10).
    var tags: [String] = []
    if locked && !action.options.isDisjoint(with: [.authenticationRequired, .foreground]) { tags.append("unlock") }
    if action.options.contains(.foreground) { tags.append("opens app") }
    if action is UNTextInputNotificationAction { tags.append("reply") }
    var tagText = tags.isEmpty ? "" : "(" + tags.joined(separator: ", ") + ")"
    let role: Role = action.options.contains(.destructive) ? .destructive : .action
    let rowRect = Rect(x: x, y: y, width: width, height: 1)
    if selected { canvas.fill(rowRect, role: .actionSelected) }
    let marker = selected ? "›" : " "
    let mark = action.options.contains(.destructive) ? Self.destructiveMark : ""
    let fullTitle = mark + TerminalText.sanitize(action.title, multiline: false)
    // The title comes first: on a row too narrow for both, the tags give way rather than leave
    // the title fewer than 8 columns (or less than all of a shorter one) — or draw over it.
    let room = max(1, width - 5)
    if !tagText.isEmpty, room - DisplayWidth.of(tagText) - 1 < min(DisplayWidth.of(fullTitle), 8) { tagText = "" }
    let titleWidth = tagText.isEmpty ? room : room - DisplayWidth.of(tagText) - 1
    let title = TextLayout.truncate(fullTitle, width: titleWidth)
    canvas.text("\(marker)\(key) ", x: x, y: y, role: selected ? .actionSelected : .secondary)
    canvas.text(title, x: x + 4, y: y, role: selected ? .actionSelected : role)
    if !tagText.isEmpty {
      canvas.text(
        tagText, x: x + width - 1 - DisplayWidth.of(tagText), y: y, role: selected ? .actionSelected : .secondary)
    }
    canvas.hit(rowRect, .action(index))
  }

  /// What marks a destructive action's title, in every theme and without colour.
  static let destructiveMark = "⚠ "

  /// The Dismiss button under the actions: an explicit dismissal, like `x` and the header's ✕.
  private func drawDismiss(_ canvas: inout Canvas, selected: Bool, x: Int, y: Int, width: Int) {
    let rowRect = Rect(x: x, y: y, width: width, height: 1)
    if selected { canvas.fill(rowRect, role: .actionSelected) }
    canvas.text("\(selected ? "›" : " ")x  Dismiss", x: x, y: y, role: selected ? .actionSelected : .secondary)
    canvas.hit(rowRect, .close)
  }

  private func drawReply(
    _ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, _ reply: CenterState.Reply, x: Int, y: Int,
    width: Int
  ) {
    let action =
      state.actions(for: e).first { $0.identifier == reply.actionIdentifier } as? UNTextInputNotificationAction
    let title = TerminalText.sanitize(action?.title ?? reply.actionIdentifier, multiline: false)
    canvas.text(TextLayout.truncate(title, width: width), x: x, y: y, role: .secondary)
    var button = TerminalText.sanitize(action?.textInputButtonTitle ?? "", multiline: false)
    if button.isEmpty { button = "Send" }
    button = TextLayout.truncate(button, width: max(4, width / 3))
    let buttonWidth = DisplayWidth.of(button) + 4
    let fieldWidth = max(4, width - buttonWidth - 1)
    let field = Rect(x: x, y: y + 1, width: fieldWidth, height: 3)
    canvas.box(field, role: .accent, fill: .field)
    let buttonRect = Rect(x: x + fieldWidth + 1, y: y + 1, width: buttonWidth, height: 3)
    // A theme that gives the button a background of its own (high-contrast's black on cyan)
    // gets a filled button; its border would vanish on the card otherwise.
    canvas.box(buttonRect, role: .button, fill: theme[.button].background == .terminalDefault ? .card : .button)
    canvas.text(button, x: buttonRect.x + 2, y: buttonRect.y + 1, role: .button)
    canvas.hit(buttonRect, .send)
    let textWidth = fieldWidth - 4
    let text = reply.field.text
    if text.isEmpty {
      let placeholder = TerminalText.sanitize(action?.textInputPlaceholder ?? "", multiline: false)
      canvas.text(
        TextLayout.truncate(placeholder, width: textWidth), x: field.x + 2, y: field.y + 1, role: .fieldPlaceholder,
        over: .field)
      canvas.frame.cursor = (field.x + 2, field.y + 1)
      return
    }
    drawFieldText(
      &canvas, state, reply.field, x: field.x + 2, y: field.y + 1, width: textWidth, clip: field.inset(dx: 1, dy: 1))
  }

  /// A text field's text on one row `width` columns wide, in display order, with the caret.
  /// Right-to-left text sits at the right; text longer than the row scrolls so the caret stays
  /// in view.
  private func drawFieldText(
    _ canvas: inout Canvas, _ state: CenterState, _ field: TextField, x: Int, y: Int, width: Int, clip: Rect
  ) {
    guard width > 0 else { return }
    let layout = FieldLayout(field, mode: canvas.bidi, direction: state.paragraphDirection)
    let caret = layout.caretColumn
    var offset = layout.isRightToLeft && layout.width <= width ? width - layout.width : 0
    if layout.width > width { offset = -max(0, caret - (width - 1)) }
    let style = theme[.field]
    var selected = style
    selected.attributes.formSymmetricDifference(.reverse)
    for unit in layout.units {
      let column = offset + unit.column
      guard column >= 0, column + unit.width <= width else { continue }
      canvas.grid.write(unit.text, x: x + column, y: y, style: unit.isSelected ? selected : style, clip: clip)
    }
    canvas.frame.cursor = (x + min(width, max(0, offset + caret)), y)
  }
}

/// A text field's text as drawn: one unit per cluster of the typed text, sanitized, in display
/// order with the columns they take, and the caret's column, so what is drawn and how the
/// caret moves (`TextField.moveOnScreen`) agree.
struct FieldLayout {
  struct Unit {
    /// The cluster as drawn: sanitized (a control shows as its placeholder), and in `visual`
    /// mode shaped (Arabic joining forms, mirrored brackets; no ligatures, so every cluster
    /// keeps a cell of its own for the caret).
    var text: String
    var column: Int
    var width: Int
    var isSelected: Bool
  }

  var units: [Unit] = []
  /// Columns the whole text takes.
  var width = 0
  var caretColumn = 0
  var isRightToLeft = false

  init(_ field: TextField, mode: BidiMode, direction: BidiParagraph.Direction) {
    let paragraph = BidiParagraph(field.text, direction: direction)
    let count = paragraph.clusters.count
    let shapes =
      mode == .visual ? paragraph.shaped(0..<count, ligatures: false) : paragraph.clusters.map { String($0) }
    let order = mode == .visual ? paragraph.visualOrder(of: 0..<count) : Array(0..<count)
    isRightToLeft = paragraph.isRightToLeft
    // Where each display unit starts, left to right.
    var columns: [Int] = []
    for logical in order {
      let text = TerminalText.sanitize(shapes[logical], multiline: false)
      // The grid gives a cluster without a spacing base a dotted circle: one column.
      let unitWidth = text.reduce(0) { $0 + max(1, DisplayWidth.of($1)) }
      columns.append(width)
      units.append(
        Unit(
          text: text, column: width, width: unitWidth, isSelected: field.selection?.contains(logical) ?? false))
      width += unitWidth
    }
    columns.append(width)
    let caret =
      mode == .visual ? TextField.caretColumn(of: field, in: paragraph) : field.cursor
    caretColumn = columns[min(max(0, caret), columns.count - 1)]
  }
}
