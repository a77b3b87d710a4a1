import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension Renderer {
  /// The content blocks of the system's expanded view: the attachment, then title, subtitle and
  /// the full body.
  ///
  /// `prefix` goes before each text block's name in QA reports (`default body`, under a content
  /// extension's view).
  func defaultContentBlocks(
    _ notification: UNNotification, _ state: CenterState, width: Int, includeAttachment: Bool = true,
    prefix: String = ""
  ) -> [ContentBlock] {
    let shown = DisplayedNotification(notification, in: state)
    var blocks: [ContentBlock] = []
    if includeAttachment, !shown.isHidden, let attachment = notification.request.content.attachments.first {
      let playback = state.expanded?.playback ?? CenterState.Playback()
      blocks.append(
        attachmentBlock(
          attachment, state, width: width, playing: playback.startedAt != nil,
          elapsed: playback.elapsed(at: state.now)))
    }
    blocks += ExtensionLayout.defaultContent(
      title: shown.title, subtitle: shown.subtitle, body: shown.body, textSize: state.textSize, columns: width,
      direction: state.paragraphDirection, prefix: prefix)
    return blocks
  }

  /// An attachment as the expanded view shows it: images and movies full width, keeping their
  /// aspect (16:9 when unknown); audio as a player line; an image the decoder cannot draw as a
  /// one-line placeholder with the reason.
  func attachmentBlock(
    _ attachment: UNNotificationAttachment, _ state: CenterState, width: Int, playing: Bool = false,
    elapsed: TimeInterval = 0
  ) -> ContentBlock {
    let name = "attachment \(TerminalText.sanitize(attachment.url.lastPathComponent, multiline: false))"
    switch attachment.format.kind {
    case .audio, .movie:
      // Frames are not decoded: audio and movies get the system's player line.
      return ContentBlock(
        kind: .media(attachment, playing: playing, elapsed: elapsed), name: name, points: 44, rows: 1)
    case .image:
      if let unavailable = unavailableImageLine(attachment) {
        return .text(
          unavailable, role: .secondary, style: .footnote, size: state.textSize, width: width, maxLines: 1, name: name)
      }
      let image = ImageReference(attachment: attachment, path: nil, label: attachment.url.lastPathComponent)
      let aspect = images?.aspectRatio(of: image) ?? 9.0 / 16.0
      return .sized(.image(image), name: name, points: (state.device.notificationWidth * aspect).rounded())
    }
  }

  /// The expanded view's content rows and header title, before scrolling.
  private func expandedContent(_ state: CenterState, _ e: CenterState.Expanded, inner: Int) -> (
    rows: [ContentRow], headerTitle: String?
  ) {
    let notification = e.notification
    var rows: [ContentRow] = []
    var headerTitle: String?
    // While previews are hidden the custom view would reveal the content: it is never drawn
    // then, even if one was loaded.
    if let view = e.extensionView, !state.arePreviewsHidden {
      // The custom view at the top, held to the budget, then the system's default content
      // below it unless the extension hides it, held to what the view leaves of the budget.
      let measured = ExtensionLayout.measure(
        view, for: notification, device: state.device, textSize: state.textSize, columns: inner, images: images,
        direction: state.paragraphDirection,
        defaultContent: defaultContentBlocks(
          notification, state, width: inner, includeAttachment: false, prefix: "default "))
      rows += expandRows(measured.content, media: view, focus: view.buttonFocus)
      rows += expandRows(measured.defaultContent)
      if measured.overflow > 0 { rows.append(.marker(overflowLabel(measured.overflow, budget: measured.budget))) }
      if view.attributes.overridesDefaultTitle, let title = view.title, !title.isEmpty {
        headerTitle = TerminalText.sanitize(title, multiline: false)
      }
    } else {
      let content = BudgetedContent(
        blocks: defaultContentBlocks(notification, state, width: inner), budget: state.device.contentBudget)
      rows = expandRows(content)
      if content.overflow > 0 { rows.append(.marker(overflowLabel(content.overflow, budget: content.budget))) }
    }
    return (rows, headerTitle)
  }

  /// How the expanded card divides its height: content keeps at least one row, two when it has
  /// more (one and the scroll indicator); on a short screen the actions are cut rather than
  /// drawn outside the card, with a row saying how many more, and tall content scrolls.
  private struct ExpandedGeometry {
    /// Rows for the actions (or the reply field) below the content.
    var bottomRows: Int
    /// Rows for the content, the scroll indicator included.
    var available: Int
    /// Content rows shown when the content scrolls (one row goes to the indicator).
    var shown: Int
    /// The furthest the content can scroll; 0 when it fits.
    var scrollLimit: Int

    init(contentRows: Int, _ state: CenterState, _ e: CenterState.Expanded, area: Rect) {
      let wanted = e.reply != nil ? 4 : state.actions(for: e).count + 1
      let room = max(0, area.height - 4)
      // Content that does not fit in one row keeps two where it can: its first row and the row
      // that says how much more there is (cut to one row, the rest went unmentioned). The
      // actions or the reply field keep one row whenever there is any: a field being typed
      // into, or the selected action, always shows.
      let minimumContent = contentRows > 1 ? 2 : 1
      let anyBottom = room - 2 > 0 && wanted > 0
      bottomRows = anyBottom ? max(1, min(wanted, room - 1 - minimumContent)) : 0
      available = max(0, room - (bottomRows > 0 ? 1 + bottomRows : 0))
      shown = available >= 2 ? available - 1 : available
      scrollLimit = contentRows > available ? contentRows - shown : 0
    }
  }

  /// How far the open expanded view can scroll, from the same layout `render` draws: the
  /// update asks it when PgUp or PgDn is pressed.
  package func expandedScrollLimit(_ state: CenterState) -> Int? {
    guard state.screenWidth >= Self.minimumWidth, state.screenHeight >= Self.minimumHeight,
      case .expanded(let e) = state.overlay
    else { return nil }
    let area = deviceArea(state)
    let inner = area.width - 4
    guard inner > 4 else { return nil }
    let rows = expandedContent(state, e, inner: inner).rows
    return ExpandedGeometry(contentRows: rows.count, state, e, area: area).scrollLimit
  }

  package func expandedPageRows(_ state: CenterState) -> Int? {
    guard state.screenWidth >= Self.minimumWidth, state.screenHeight >= Self.minimumHeight,
      case .expanded(let e) = state.overlay
    else { return nil }
    let area = deviceArea(state)
    let inner = area.width - 4
    guard inner > 4 else { return nil }
    let rows = expandedContent(state, e, inner: inner).rows
    let geometry = ExpandedGeometry(contentRows: rows.count, state, e, area: area)
    return max(1, rows.count > geometry.available ? geometry.shown : geometry.available)
  }

  func drawExpanded(_ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, area: Rect) {
    let notification = e.notification
    let inner = area.width - 4
    guard inner > 4 else { return }
    let content = expandedContent(state, e, inner: inner)
    var rows = content.rows
    let headerTitle = content.headerTitle
    // The view follows the newer notification of its thread: the header says so.
    let headerNote = e.movedToNewer ? "↻ newer" : nil
    let actions = state.actions(for: e)
    // The card: border, header, divider, content, [divider, actions + Dismiss | reply], border.
    let geometry = ExpandedGeometry(contentRows: rows.count, state, e, area: area)
    let bottomRows = geometry.bottomRows
    let available = geometry.available
    var moreRows = 0
    var scroll = 0
    if rows.count > available {
      let shown = geometry.shown
      scroll = min(e.scroll, geometry.scrollLimit)
      moreRows = rows.count - scroll - shown
      rows = Array(rows[scroll..<(scroll + shown)])
    }
    let indicator = (moreRows > 0 || scroll > 0) && available >= 2 ? 1 : 0
    let height = 4 + rows.count + indicator + (bottomRows > 0 ? 1 + bottomRows : 0)
    let rect = Rect(x: area.x, y: area.y, width: area.width, height: min(height, area.height))
    canvas.box(rect, role: .cardBorder)
    canvas.frame.regions[.card] = rect
    drawHeader(
      &canvas, state, notification, x: rect.x + 2, y: rect.y + 1, width: inner, trailing: "✕", title: headerTitle,
      note: headerNote)
    canvas.hit(Rect(x: rect.maxX - 3, y: rect.y + 1, width: 2, height: 1), .close)
    canvas.divider(rect, y: rect.y + 2, role: .cardBorder)
    var y = rect.y + 3
    let clip = rect.inset(dx: 1, dy: 1)
    canvas.hit(
      Rect(x: rect.x, y: y, width: rect.width, height: rows.count), .notification(notification.request.identifier))
    for row in rows {
      if case .marker(let label) = row {
        canvas.frame.overflowMarks.append(OverflowMark(card: rect, row: y, label: label))
      }
      drawContentRow(&canvas, row, x: rect.x + 2, y: y, width: inner, clip: clip)
      y += 1
    }
    if indicator > 0 {
      let text = moreRows > 0 ? "⋯ \(moreRows) more row\(moreRows == 1 ? "" : "s") · PgDn" : "⋯ top · PgUp"
      canvas.text(text, x: rect.x + 2, y: y, role: .secondary, clip: clip)
      y += 1
    }
    guard bottomRows > 0 else { return }
    canvas.divider(rect, y: y, role: .cardBorder)
    y += 1
    if let reply = e.reply {
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
      return
    }
    // On a short screen the list is cut: the selected row stays in view, and a row says how
    // many more are above or below.
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

  /// A duration as a player shows it: `0:32`, `1:05:09` (held to 0…9999 hours: a file's
  /// header can claim any length); `rounding` `.down` for time played.
  package static func clock(
    _ seconds: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  ) -> String {
    guard seconds.isFinite else { return "--:--" }
    let total = min(9999 * 3600, max(0, Int(saturating: seconds.rounded(rounding))))
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
  }

  /// The marker drawn where content is clipped at the budget.
  func overflowLabel(_ overflow: Double, budget: Double) -> String {
    "\(Int(saturating: overflow.rounded(.up))) pt over the \(Int(saturating: budget)) pt budget"
  }

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
