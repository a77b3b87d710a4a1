import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension Renderer {
  func drawList(_ canvas: inout Canvas, _ state: CenterState, area: Rect) {
    let title: String
    if state.isLocked {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone.zone
      let parts = calendar.dateComponents([.hour, .minute], from: state.now)
      title = String(format: "Locked · %d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    } else {
      title = "Notification Center"
    }
    canvas.frame.regions[.list] = area
    canvas.text(
      TextLayout.truncate(title, width: area.width), x: area.x, y: area.y, role: state.isLocked ? .clock : .title)
    // The session's own app's badge (other apps' are on the status bar, by name).
    if state.store.badge > 0 {
      let badge = " \(state.store.badge) "
      let w = DisplayWidth.of(badge)
      if w + DisplayWidth.of(title) + 2 <= area.width {
        canvas.text(badge, x: area.maxX - w, y: area.y, role: .badge)
      }
    }
    drawLockScreenActivities(&canvas, state, x: area.x, y: area.y + 1, width: area.width)
    let top = area.y + ListLayout.headerHeight(state)
    let bottom = area.maxY
    guard var id = state.listTop.flatMap({ ListLayout.displayed($0, state) }) ?? ListLayout.first(state) else {
      let empty = "No notifications"
      canvas.text(empty, x: area.x + max(0, (area.width - DisplayWidth.of(empty)) / 2), y: top + 1, role: .secondary)
      return
    }
    if id != ListLayout.first(state) {
      canvas.text("▲", x: area.maxX - 1, y: area.y + 1, role: .secondary)
    }
    var y = top
    while true {
      var height = ListLayout.height(of: id, state)
      if y + height > bottom {
        // A screen too short for even one entry still shows the first card, cut off.
        guard y == top else {
          if y < bottom { canvas.text("▼", x: area.maxX - 1, y: bottom - 1, role: .secondary) }
          break
        }
        height = min(height, ListLayout.cardHeight)
      }
      guard let notification = state.store.delivered(id) else { break }
      var cardY = y
      if ListLayout.hasShowLessRow(id, state) {
        // A fanned-out stack offers "Show less" above its newest card, as iOS does.
        let summaryTitle = state.store.groupKey(ofDelivered: id).flatMap { state.summaries[$0]?.title }
        let row = TextLayout.truncate(
          (summaryTitle.map { "▴ \($0) · " } ?? "▴ ") + "Show less · s", width: area.width)
        canvas.text(row, x: area.x, y: y, role: .secondary)
        canvas.hit(Rect(x: area.x, y: y, width: DisplayWidth.of(row), height: 1), .showLess)
        cardY += 1
      }
      drawListCard(
        &canvas, state, notification,
        rect: Rect(x: area.x, y: cardY, width: area.width, height: ListLayout.cardHeight))
      if !ListLayout.hasShowLessRow(id, state), height > ListLayout.cardHeight,
        let key = state.store.groupKey(ofDelivered: id), let text = summary(for: key, state)
      {
        let row = TextLayout.truncate(text, width: area.width - 4)
        canvas.text(row, x: area.x + 3, y: y + ListLayout.cardHeight, role: .secondary)
        // The summary row under a stack is part of it: a click there taps the stack, as the card.
        canvas.hit(
          Rect(x: area.x + 3, y: y + ListLayout.cardHeight, width: DisplayWidth.of(row), height: 1),
          .notification(id))
      }
      y += height
      guard let next = ListLayout.displayNext(after: id, state) else { break }
      id = next
    }
  }

  private func drawListCard(_ canvas: inout Canvas, _ state: CenterState, _ notification: UNNotification, rect: Rect) {
    let focused = state.overlay == nil && state.listFocus == notification.request.identifier
    canvas.box(rect, role: focused ? .accent : .cardBorder, heavy: focused, fill: focused ? .cardFocused : .card)
    if focused { canvas.frame.regions[.card] = rect }
    let inner = rect.width - 4
    drawHeader(&canvas, state, notification, x: rect.x + 2, y: rect.y + 1, width: inner)
    let shown = DisplayedNotification(notification, in: state)
    // The thumbnail sits right of the two text lines, under the header, as the banner's does.
    let card = cardThumbnail(notification, shown, state, inner: inner)
    let textWidth = card.textWidth
    var lines: [(TextLine, Role)] = []
    // At larger text sizes fewer letters fit a line: each style wraps as its size says.
    func columns(_ style: UNTextStyle) -> Int { Projection.textColumns(textWidth, style: style, size: state.textSize) }
    let direction = state.paragraphDirection
    if !shown.title.isEmpty {
      let heading = shown.subtitle.isEmpty ? shown.title : "\(shown.title) · \(shown.subtitle)"
      lines.append((TextLayout.line(heading, width: columns(.headline), direction: direction), .title))
      lines += TextLayout.lines(shown.body, width: columns(.body), maxLines: 1, direction: direction).map {
        ($0, .body)
      }
    } else if !shown.subtitle.isEmpty {
      lines.append((TextLayout.line(shown.subtitle, width: columns(.subheadline), direction: direction), .subtitle))
      lines += TextLayout.lines(shown.body, width: columns(.body), maxLines: 1, direction: direction).map {
        ($0, .body)
      }
    } else {
      lines += TextLayout.lines(shown.body, width: columns(.body), maxLines: 2, direction: direction).map {
        ($0, .body)
      }
    }
    // An image that cannot be drawn says so on the card's second line.
    if let unavailable = card.unavailable {
      lines = Array(lines.prefix(1)) + [(TextLayout.line(unavailable, width: inner), .secondary)]
    }
    for (i, (line, role)) in lines.prefix(2).enumerated() {
      canvas.line(
        line, x: rect.x + 2, y: rect.y + 2 + i, width: textWidth, role: role, clip: rect.inset(dx: 1, dy: 1),
        over: focused ? .cardFocused : nil)
    }
    if let thumbnail = card.attachment {
      let size = (columns: Self.thumbnailSize.columns, rows: ListLayout.cardHeight - 3)
      drawThumbnail(
        &canvas, thumbnail,
        rect: Rect(x: rect.maxX - 2 - size.columns, y: rect.y + 2, width: size.columns, height: size.rows)
          .intersection(rect.inset(dx: 1, dy: 1)))
    }
    canvas.hit(rect, .notification(notification.request.identifier))
  }
}
