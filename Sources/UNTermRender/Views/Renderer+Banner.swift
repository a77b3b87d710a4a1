import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension Renderer {
  /// Body lines a banner shows: iOS shows two to four; UNTerm keeps the banner four text lines
  /// tall, so the body gets what the title and subtitle leave, and never fewer than two.
  static func bannerBodyLines(hasTitle: Bool, hasSubtitle: Bool) -> Int {
    max(2, 4 - (hasTitle ? 1 : 0) - (hasSubtitle ? 1 : 0))
  }

  /// Columns and rows of a banner's attachment thumbnail.
  static let thumbnailSize = (columns: 8, rows: 3)

  /// The attachment a banner shows as a thumbnail: the first visual one not hidden.
  func thumbnailAttachment(_ notification: UNNotification) -> UNNotificationAttachment? {
    notification.request.content.attachments.first {
      !$0.isThumbnailHidden && $0.format.kind != .audio
    }
  }

  /// The one-line placeholder a card shows where an image attachment would be, when the
  /// decoder cannot draw it (corrupt, truncated, too large): `▨ image unavailable — REASON`.
  func unavailableImageLine(_ attachment: UNNotificationAttachment) -> String? {
    guard attachment.format.kind == .image, let validator = images as? any AttachmentValidating,
      let problem = validator.problem(with: attachment)
    else { return nil }
    return "▨ image unavailable — " + TerminalText.sanitize(problem, multiline: false)
  }

  /// Body letters a card keeps beside its thumbnail: with fewer, the thumbnail goes and the
  /// text gets the whole width (on a narrow terminal or at a large text size).
  static let minimumColumnsBesideThumbnail = 8

  /// What a card (banner or list) shows on its right: the thumbnail, or the placeholder line
  /// for an image that cannot be drawn, and the columns its text gets.
  struct CardThumbnail {
    var attachment: UNNotificationAttachment?
    var unavailable: String?
    var textWidth: Int
  }

  /// The one rule banners and list cards share: no thumbnail while the preview is hidden or
  /// the attachment asks for none, a line saying why for an image that cannot be drawn, and
  /// the text before the picture when the card is too narrow for both.
  func cardThumbnail(
    _ notification: UNNotification, _ shown: DisplayedNotification, _ state: CenterState, inner: Int
  ) -> CardThumbnail {
    guard !shown.isHidden, let attachment = thumbnailAttachment(notification) else {
      return CardThumbnail(textWidth: inner)
    }
    // An image that cannot be drawn leaves a line saying so instead of a thumbnail.
    if let unavailable = unavailableImageLine(attachment) {
      return CardThumbnail(unavailable: unavailable, textWidth: inner)
    }
    let textWidth = inner - Self.thumbnailSize.columns - 1
    guard
      Projection.textColumns(textWidth, style: .body, size: state.textSize) >= Self.minimumColumnsBesideThumbnail
    else { return CardThumbnail(textWidth: inner) }
    return CardThumbnail(attachment: attachment, textWidth: textWidth)
  }

  func drawBanner(_ canvas: inout Canvas, _ state: CenterState, _ notification: UNNotification, area: Rect) {
    let shown = DisplayedNotification(notification, in: state)
    let inner = area.width - 4
    let card = cardThumbnail(notification, shown, state, inner: inner)
    let (thumbnail, unavailable, textWidth) = (card.attachment, card.unavailable, card.textWidth)
    guard textWidth > 4 else { return }
    var lines: [(TextLine, Role)] = []
    // At larger text sizes fewer letters fit a line: each style wraps as its size says.
    func columns(_ style: UNTextStyle) -> Int { Projection.textColumns(textWidth, style: style, size: state.textSize) }
    let direction = state.paragraphDirection
    if !shown.title.isEmpty {
      lines.append((TextLayout.line(shown.title, width: columns(.headline), direction: direction), .title))
    }
    if !shown.subtitle.isEmpty {
      lines.append((TextLayout.line(shown.subtitle, width: columns(.subheadline), direction: direction), .subtitle))
    }
    let maxBody = Self.bannerBodyLines(hasTitle: !shown.title.isEmpty, hasSubtitle: !shown.subtitle.isEmpty)
    for line in TextLayout.lines(shown.body, width: columns(.body), maxLines: maxBody, direction: direction)
    where !shown.body.isEmpty {
      lines.append((line, .body))
    }
    if let unavailable { lines.append((TextLayout.line(unavailable, width: textWidth), .secondary)) }
    if thumbnail != nil, lines.count < Self.thumbnailSize.rows {
      lines += Array(
        repeating: (TextLayout.line("", width: textWidth), .body), count: Self.thumbnailSize.rows - lines.count)
    }
    let hint = actionHint(notification, state, width: inner)
    let height = 2 + 1 + lines.count + (hint == nil ? 0 : 1)
    let rect = Rect(x: area.x, y: area.y, width: area.width, height: min(height, area.height))
    canvas.box(rect, role: .cardBorder)
    canvas.frame.regions[.card] = rect
    drawHeader(&canvas, state, notification, x: rect.x + 2, y: rect.y + 1, width: inner)
    for (i, (line, role)) in lines.enumerated() {
      canvas.line(line, x: rect.x + 2, y: rect.y + 2 + i, width: textWidth, role: role, clip: rect.inset(dx: 1, dy: 1))
    }
    if let thumbnail {
      drawThumbnail(
        &canvas, thumbnail,
        rect: Rect(
          x: rect.maxX - 2 - Self.thumbnailSize.columns, y: rect.y + 2, width: Self.thumbnailSize.columns,
          height: Self.thumbnailSize.rows))
    }
    if let hint {
      canvas.text(hint, x: rect.x + 2, y: rect.y + 2 + lines.count, role: .secondary, clip: rect.inset(dx: 1, dy: 1))
    }
    canvas.hit(rect, .notification(notification.request.identifier))
  }

  /// The line telling a banner has actions: the first two titles, as a banner shows no more.
  func actionHint(_ notification: UNNotification, _ state: CenterState, width: Int) -> String? {
    guard let actions = state.category(of: notification)?.actions, !actions.isEmpty else { return nil }
    let titles = actions.prefix(2).map {
      ($0.options.contains(.destructive) ? Self.destructiveMark : "")
        + TerminalText.sanitize($0.title, multiline: false)
    }
    var hint = "▾ " + titles.joined(separator: " · ")
    if actions.count > 2 { hint += " · +\(min(actions.count, 10) - 2) more" }
    return TextLayout.truncate(hint, width: width)
  }

  /// An attachment thumbnail: block art when the image decodes, else a labelled tile.
  func drawThumbnail(_ canvas: inout Canvas, _ attachment: UNNotificationAttachment, rect: Rect) {
    let image = ImageReference(attachment: attachment, path: nil, label: attachment.url.lastPathComponent)
    drawImage(&canvas, image, rect: rect, crop: true)
  }

  /// Draws an image into a rectangle, or a tile naming it when it cannot be decoded.
  func drawImage(_ canvas: inout Canvas, _ image: ImageReference, rect: Rect, crop: Bool = false) {
    guard !rect.isEmpty else { return }
    if let art = images?.art(of: image, columns: rect.width, rows: rect.height, crop: crop) {
      for row in 0..<min(art.rows, rect.height) {
        for column in 0..<min(art.columns, rect.width) {
          let pixels = art.cells[row * art.columns + column]
          canvas.grid.write(
            "▀", x: rect.x + column, y: rect.y + row,
            style: Style(foreground: pixels.top, background: pixels.bottom, attributes: .picture))
        }
      }
      return
    }
    canvas.fill(rect, role: .mediaArt)
    let kind = image.attachment?.format.displayName ?? "image"
    let label = rect.width >= 10 ? "▨ \(kind)" : "▨"
    let lines = [label, TerminalText.sanitize(image.label, multiline: false)]
    for (i, line) in lines.prefix(rect.height).enumerated() where rect.height > 0 {
      let text = TextLayout.truncate(line, width: rect.width)
      canvas.text(
        text, x: rect.x + max(0, (rect.width - DisplayWidth.of(text)) / 2),
        y: rect.y + min(rect.height - 1, rect.height / 2 - (lines.count > 1 && rect.height > 1 ? 1 : 0) + i),
        role: .mediaArt, clip: rect)
    }
  }
}
