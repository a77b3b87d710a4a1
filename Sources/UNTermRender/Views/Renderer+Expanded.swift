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

  /// The expanded card: border, header, divider, content, [divider, actions + Dismiss | reply],
  /// border.
  func drawExpanded(_ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, area: Rect) {
    let inner = area.width - 4
    guard inner > 4 else { return }
    let content = expandedContent(state, e, inner: inner)
    let geometry = ExpandedGeometry(contentRows: content.rows.count, state, e, area: area)
    let shown = ShownContent(content.rows, geometry, scroll: e.scroll)
    let bottomRows = geometry.bottomRows
    let height = 4 + shown.rows.count + shown.indicator + (bottomRows > 0 ? 1 + bottomRows : 0)
    let rect = Rect(x: area.x, y: area.y, width: area.width, height: min(height, area.height))
    drawExpandedHeader(&canvas, state, e, rect: rect, inner: inner, title: content.headerTitle)
    var y = drawExpandedContent(&canvas, shown, e.notification, rect: rect, inner: inner)
    guard bottomRows > 0 else { return }
    canvas.divider(rect, y: y, role: .cardBorder)
    y += 1
    drawExpandedBottom(&canvas, state, e, rows: bottomRows, rect: rect, y: y, inner: inner)
  }

  /// The content rows the card shows, scrolled when they do not fit, and whether a row under
  /// them says how many more there are.
  private struct ShownContent {
    var rows: [ContentRow]
    var scroll = 0
    /// Rows below those shown.
    var moreRows = 0
    /// 1 when the scroll indicator row is drawn, else 0.
    var indicator: Int

    init(_ all: [ContentRow], _ geometry: ExpandedGeometry, scroll wanted: Int) {
      rows = all
      if all.count > geometry.available {
        scroll = min(wanted, geometry.scrollLimit)
        moreRows = all.count - scroll - geometry.shown
        rows = Array(all[scroll..<(scroll + geometry.shown)])
      }
      indicator = (moreRows > 0 || scroll > 0) && geometry.available >= 2 ? 1 : 0
    }
  }

  /// The card's border, the header with its ✕, and the divider under it.
  private func drawExpandedHeader(
    _ canvas: inout Canvas, _ state: CenterState, _ e: CenterState.Expanded, rect: Rect, inner: Int, title: String?
  ) {
    canvas.box(rect, role: .cardBorder)
    canvas.frame.regions[.card] = rect
    // The view follows the newer notification of its thread: the header says so.
    let note = e.movedToNewer ? "↻ newer" : nil
    drawHeader(
      &canvas, state, e.notification, x: rect.x + 2, y: rect.y + 1, width: inner, trailing: "✕", title: title,
      note: note)
    canvas.hit(Rect(x: rect.maxX - 3, y: rect.y + 1, width: 2, height: 1), .close)
    canvas.divider(rect, y: rect.y + 2, role: .cardBorder)
  }

  /// The content rows under the header, then the scroll indicator; returns the row after them.
  private func drawExpandedContent(
    _ canvas: inout Canvas, _ shown: ShownContent, _ notification: UNNotification, rect: Rect, inner: Int
  ) -> Int {
    var y = rect.y + 3
    let clip = rect.inset(dx: 1, dy: 1)
    canvas.hit(
      Rect(x: rect.x, y: y, width: rect.width, height: shown.rows.count), .notification(notification.request.identifier)
    )
    for row in shown.rows {
      if case .marker(let label) = row {
        canvas.frame.overflowMarks.append(OverflowMark(card: rect, row: y, label: label))
      }
      drawContentRow(&canvas, row, x: rect.x + 2, y: y, width: inner, clip: clip)
      y += 1
    }
    if shown.indicator > 0 {
      let moreRows = shown.moreRows
      let text = moreRows > 0 ? "⋯ \(moreRows) more row\(moreRows == 1 ? "" : "s") · PgDn" : "⋯ top · PgUp"
      canvas.text(text, x: rect.x + 2, y: y, role: .secondary, clip: clip)
      y += 1
    }
    return y
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
}
