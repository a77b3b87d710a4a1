import Foundation
import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// Draws the emulator's state as a grid of cells: the one view function every front end and
/// test uses. Pure: the same state gives the same frame. It also answers the update's layout
/// questions (`ScreenLayout`) from the same geometry it draws with.
package struct Renderer: ScreenLayout {
  package var theme: Theme
  package var timeZone: DisplayTimeZone
  package var images: (any ImageProvider)?
  /// How paths in the activity pane are written: relative to the script's folder or the
  /// working directory, so a screen does not depend on where the project lives.
  package var paths = PathDisplay.absolute
  /// What an empty center says under "No notifications": the ways in that are listening (the
  /// interactive session's push socket and inbox). None where nothing listens — `render`,
  /// `run`, the harness — so a printed screen never offers a way in it does not have.
  package var deliveryHints: [String] = []
  /// How right-to-left text is put in the cells of what this renderer draws, when not as the
  /// session shows it (`CenterState.bidi`, what the terminal or the device shows): `logical`
  /// for an output that is not a terminal (a file, a pipe, a snapshot, a picture), whose reader
  /// reorders it (issue 25.3).
  package var bidi: BidiMode?

  /// The smallest screen the layout works in; smaller screens say so.
  package static let minimumWidth = 24
  package static let minimumHeight = 8
  /// Columns the side pane needs to be shown.
  package static let paneMinimumWidth = 24

  package init(
    theme: Theme, timeZone: DisplayTimeZone = .utc, images: (any ImageProvider)? = nil
  ) {
    self.theme = theme
    self.timeZone = timeZone
    self.images = images
  }

  /// The length of an audio or movie attachment, for the update's player.
  package func mediaDuration(of attachment: UNNotificationAttachment) -> TimeInterval? {
    (images as? any MediaDurationProviding)?.duration(of: attachment)
  }

  /// The screen for a state.
  ///
  /// - Parameter bidi: how right-to-left text is put in the cells for this frame, when not as
  ///   `self.bidi` or the state says: a script's checks are always in logical order.
  package func render(_ state: CenterState, bidi: BidiMode? = nil) -> Frame {
    var canvas = Canvas(
      frame: Frame(grid: CellGrid(width: state.screenWidth, height: state.screenHeight, fill: theme[.screen])),
      theme: theme, bidi: bidi ?? self.bidi ?? state.bidi, direction: state.paragraphDirection)
    let width = state.screenWidth
    let height = state.screenHeight
    guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
      drawTooSmall(&canvas, state)
      return canvas.frame
    }
    let area = deviceArea(state)
    if state.isListShown {
      // An expanded view or the passcode prompt covers the list, as on iOS: no card shows
      // around or under it.
      if state.overlay == nil { drawList(&canvas, state, area: area) }
    } else {
      if state.overlay == nil {
        drawHome(&canvas, state, area: area)
        drawHomeActivities(&canvas, state, area: area)
      }
      if state.isBannerShown, let banner = state.banner {
        drawBanner(&canvas, state, banner.notification, area: area)
      }
    }
    switch state.overlay {
    case .expanded(let e):
      drawExpanded(&canvas, state, e, area: area)
    case .passcode(let prompt, let returnTo):
      if let returnTo { drawExpanded(&canvas, state, returnTo, area: area) }
      drawPasscode(&canvas, state, prompt, area: area)
    case nil:
      break
    }
    if let pane = paneArea(state) { drawPane(&canvas, state, area: pane) }
    if state.isHelpVisible { drawHelp(&canvas, state) }
    drawStatus(&canvas, state)
    return canvas.frame
  }

  /// Where the notifications are drawn: the device's column.
  package func deviceArea(_ state: CenterState) -> Rect {
    let cardWidth = Projection.cardColumns(state.device, screenWidth: state.screenWidth)
    let height = state.screenHeight - 1
    if state.screenWidth - cardWidth - 3 >= Self.paneMinimumWidth {
      return Rect(x: 1, y: 0, width: cardWidth, height: height)
    }
    return Rect(x: (state.screenWidth - cardWidth) / 2, y: 0, width: cardWidth, height: height)
  }

  /// The responses and activity pane beside the device, when there is room.
  package func paneArea(_ state: CenterState) -> Rect? {
    let device = deviceArea(state)
    let x = device.maxX + 2
    let width = state.screenWidth - x - 1
    guard device.x == 1, width >= Self.paneMinimumWidth - 2 else { return nil }
    return Rect(x: x, y: 0, width: width, height: state.screenHeight - 1)
  }

  private func drawTooSmall(_ canvas: inout Canvas, _ state: CenterState) {
    let lines = [
      "Terminal too small", "\(state.screenWidth)×\(state.screenHeight); need",
      "\(Self.minimumWidth)×\(Self.minimumHeight)",
    ]
    for (i, line) in lines.enumerated() where i < state.screenHeight {
      canvas.text(TextLayout.truncate(line, width: state.screenWidth), x: 0, y: i, role: .warning)
    }
  }

  // MARK: - Home

  private func drawHome(_ canvas: inout Canvas, _ state: CenterState, area: Rect) {
    let count = state.store.deliveredCount
    var lines: [String]
    if count == 0 {
      // An empty center says how to fill it.
      lines = ["No notifications"] + deliveryHints
    } else {
      lines = ["\(count) in Notification Center · c to open"]
    }
    // Near the bottom, so a banner never hides it.
    var y = max(area.y, area.maxY - lines.count - (state.appState == .foreground ? 2 : 1))
    for line in lines {
      let text = TextLayout.truncate(line, width: area.width)
      canvas.text(text, x: area.x + max(0, (area.width - DisplayWidth.of(text)) / 2), y: y, role: .secondary)
      y += 1
    }
    if state.appState == .foreground {
      let open = TextLayout.truncate(
        "\(TerminalText.sanitize(state.appName, multiline: false)) is open", width: area.width)
      canvas.text(open, x: area.x + max(0, (area.width - DisplayWidth.of(open)) / 2), y: y, role: .secondary)
    }
  }

  // MARK: - Shared pieces

  /// The header row of a card: app name (and interruption level) left, time right.
  ///
  /// `title` stands for the app name (a content extension's title); `note` follows it (the
  /// expanded view's "↻ newer"). When the row is too narrow, the name gives way first, shortened
  /// with an ellipsis, so the time, the note and the interruption-level and Focus tags stay.
  func drawHeader(
    _ canvas: inout Canvas, _ state: CenterState, _ notification: UNNotification, x: Int, y: Int,
    width: Int, trailing: String? = nil, title: String? = nil, note: String? = nil
  ) {
    let time = DisplayedNotification.relativeTime(of: notification.date, now: state.now, timeZone: timeZone)
    let right = trailing.map { "\(time)  \($0)" } ?? time
    let rightWidth = DisplayWidth.of(right)
    let name = title ?? TerminalText.sanitize(state.appName(for: notification), multiline: false)
    // A communication notification names its sender, with the avatar's initials, before the
    // app, unless previews are hidden (the sender would give the content away).
    var prefix = ""
    if title == nil, let sender = notification.request.content.communicationSender, !state.arePreviewsHidden {
      func clean(_ text: String) -> String { TerminalText.sanitize(text, multiline: false) }
      let group = sender.groupName.map { " in \(clean($0))" } ?? ""
      prefix = "[\(clean(sender.initials))] \(clean(sender.displayName))\(group) · "
    }
    var suffix = note.map { " · " + $0 } ?? ""
    if let label = DisplayedNotification.levelLabel(notification.request.content) {
      suffix += " · " + label
    }
    // A Focus delivered it without banner or sound: the card says so, and which Focus.
    if let focus = state.silenced[notification.request.identifier] {
      suffix += " · Silenced (" + TerminalText.sanitize(focus, multiline: false) + ")"
    }
    let available = max(0, width - rightWidth - 1)
    let nameRoom = available - DisplayWidth.of(prefix) - DisplayWidth.of(suffix)
    // The name shortened to the room the rest leaves, when that keeps a column of it and the
    // ellipsis; else (a very narrow card) the whole row is cut at its end.
    let shortened =
      nameRoom >= 2 && DisplayWidth.of(name) > nameRoom ? TextLayout.truncate(name, width: nameRoom) : name
    let clip = Rect(x: x, y: y, width: width, height: 1)
    let whole = prefix + shortened + suffix
    if canvas.direction != .preferRightToLeft, DisplayWidth.of(whole) <= available {
      // The sender, the name and the tags are separate labels on iOS, laid out in the device's
      // (left-to-right) order: each is a paragraph of its own, so an Urdu name does not turn
      // the whole row around and put the tags before it.
      var column = x
      for piece in [prefix, shortened, suffix] where !piece.isEmpty {
        column = canvas.text(piece, x: column, y: y, role: .appName, clip: clip)
      }
    } else {
      canvas.text(TextLayout.truncate(whole, width: available), x: x, y: y, role: .appName, clip: clip)
    }
    if rightWidth < width {
      canvas.text(right, x: x + width - rightWidth, y: y, role: .time)
    }
  }

  /// The summary line under a collapsed stack: the leading notification's category's
  /// `categorySummaryFormat`, else iOS's default "N more notifications".
  ///
  /// The notifications behind the leading card are summarized: `%u` is their count, each
  /// weighing its `summary-arg-count` (a notification standing for several items), and `%@` their
  /// `summary-arg`s, distinct, newest first, joined as "A and B" / "A, B and C" (iOS collects
  /// them). Never the title: with no `summary-arg`, `%@` is empty, so a payload that forgot it
  /// shows. While previews are hidden the arguments are content and are not shown: a format
  /// with `%@` gives way to the default.
  func summary(for key: NotificationStore.GroupKey, _ state: CenterState) -> String? {
    let members = state.store.members(of: key)
    if let scheduled = state.summaries[key] {
      // A Scheduled Summary: its name and how many it holds, the featured one leading.
      let n = members.count
      return "\(scheduled.title) · \(n) notification\(n == 1 ? "" : "s")"
    }
    guard members.count > 1, let leading = members.first else { return nil }
    let behind = members.dropFirst().map(\.request.content)
    guard state.stackSummary == .ios12 else {
      // Current iOS: the cards behind the newest one, each a notification; no summary text.
      return behind.count == 1 ? "1 more notification" : "\(behind.count) more notifications"
    }
    // iOS 12 to 14: the category's summary, each notification weighing its summary-arg-count.
    let count = behind.reduce(0) { $0 + max(1, $1.summaryArgumentCount) }
    let category = state.category(of: leading)
    // The format as the app localized it; while previews are hidden one that shows `%@` gives way
    // to the default.
    guard state.localization.hasSummary(category),
      !(state.arePreviewsHidden && state.localization.summaryTakesArgument(category))
    else {
      return count == 1 ? "1 more notification" : "\(count) more notifications"
    }
    var arguments: [String] = []
    for content in behind where !content.summaryArgument.isEmpty && !arguments.contains(content.summaryArgument) {
      arguments.append(content.summaryArgument)
    }
    let text = state.localization.summary(category, count: count, argument: ListFormat.and(arguments)) ?? ""
    return TerminalText.sanitize(text.trimmingCharacters(in: .whitespaces), multiline: false)
  }
}

/// A grid being drawn, with the theme to style it and the hit regions so far.
struct Canvas {
  var frame: Frame
  let theme: Theme
  /// Who reorders right-to-left text: in `visual` mode every line is drawn in display order.
  let bidi: BidiMode
  /// How a line finds its direction (the device language's preference).
  var direction: BidiParagraph.Direction = .auto

  /// The frame's cells. Writing through it changes them in place: a plain `set` would copy
  /// the whole grid for every cell an image's art writes.
  var grid: CellGrid {
    get { frame.grid }
    _modify { yield &frame.grid }
  }

  /// Writes one line of sanitized text in logical order, in a role's style, on top of the
  /// background already there. In `visual` mode a line holding right-to-left text is put in
  /// display order first, as a paragraph of its own.
  @discardableResult
  mutating func text(_ text: String, x: Int, y: Int, role: Role, clip: Rect? = nil, over background: Role? = nil) -> Int
  {
    var shown = text
    guard text.unicodeScalars.contains(where: { $0.value >= 0x0590 }) else {
      return put(shown, x: x, y: y, role: role, clip: clip, over: background)
    }
    let paragraph = BidiParagraph(text, direction: direction)
    if bidi == .visual { shown = paragraph.visualLine(0..<paragraph.clusters.count) }
    let end = put(shown, x: x, y: y, role: role, clip: clip, over: background)
    if Self.holdsRightToLeft(text) {
      noteSpan(x: x, end: end, y: y, rightToLeft: paragraph.isRightToLeft, clip: clip)
    }
    return end
  }

  /// Whether text holds a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana,
  /// N'Ko…, their presentation forms, and the historic ones of plane 1).
  static func holdsRightToLeft(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      switch $0.value {
      case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
      default: return false
      }
    }
  }

  /// Keeps where a line in logical order that holds right-to-left letters was drawn, for the
  /// pictures (`Frame.bidiSpans`).
  private mutating func noteSpan(x: Int, end: Int, y: Int, rightToLeft: Bool, clip: Rect?) {
    guard bidi == .logical else { return }
    let area = (clip ?? grid.bounds).intersection(grid.bounds)
    let start = max(x, area.x)
    let stop = min(end, area.maxX)
    guard stop > start, y >= area.y, y < area.maxY else { return }
    frame.bidiSpans.append(BidiSpan(row: y, x: start, cells: stop - start, isRightToLeft: rightToLeft))
  }

  /// Draws a laid-out line in the bidi mode: a line of a right-to-left paragraph is aligned to
  /// the right of `width` columns from `x` (left-aligned when `width` is `nil`).
  @discardableResult
  mutating func line(
    _ line: TextLine, x: Int, y: Int, width: Int?, role: Role, clip: Rect? = nil, over background: Role? = nil
  ) -> Int {
    let shown = line.displayed(bidi)
    var start = x
    if line.isRightToLeft, let width { start = x + max(0, width - DisplayWidth.of(shown)) }
    let end = put(shown, x: start, y: y, role: role, clip: clip, over: background)
    if Self.holdsRightToLeft(shown) {
      noteSpan(x: start, end: end, y: y, rightToLeft: line.isRightToLeft, clip: clip)
    }
    return end
  }

  /// Writes text already in display order.
  @discardableResult
  mutating func put(_ text: String, x: Int, y: Int, role: Role, clip: Rect? = nil, over background: Role? = nil) -> Int
  {
    var style = theme[role]
    if let background {
      style.background = theme[background].background
    } else if style.background == .terminalDefault, x >= 0, y >= 0, x < grid.width, y < grid.height {
      // Text takes the background it is drawn on (a card, the pane) unless its role sets one.
      style.background = grid[x, y].style.background
    }
    return frame.grid.write(text, x: x, y: y, style: style, clip: clip)
  }

  mutating func fill(_ rect: Rect, role: Role) {
    frame.grid.fill(rect, style: theme[role])
  }

  /// Draws a box border; `heavy` marks focus without relying on colour.
  mutating func box(_ rect: Rect, role: Role, heavy: Bool = false, fill fillRole: Role? = .card) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    if let fillRole { fill(rect, role: fillRole) }
    let chars =
      heavy
      ? (tl: "┏", tr: "┓", bl: "┗", br: "┛", h: "━", v: "┃")
      : (tl: "╭", tr: "╮", bl: "╰", br: "╯", h: "─", v: "│")
    var style = theme[role]
    if let fillRole { style.background = theme[fillRole].background }
    let horizontal = String(repeating: chars.h, count: rect.width - 2)
    frame.grid.write(chars.tl + horizontal + chars.tr, x: rect.x, y: rect.y, style: style)
    frame.grid.write(chars.bl + horizontal + chars.br, x: rect.x, y: rect.maxY - 1, style: style)
    for y in (rect.y + 1)..<(rect.maxY - 1) {
      frame.grid.write(chars.v, x: rect.x, y: y, style: style)
      frame.grid.write(chars.v, x: rect.maxX - 1, y: y, style: style)
    }
  }

  /// A horizontal divider across a box, joining its sides.
  mutating func divider(_ rect: Rect, y: Int, role: Role, fill fillRole: Role = .card) {
    var style = theme[role]
    style.background = theme[fillRole].background
    frame.grid.write("├" + String(repeating: "─", count: max(0, rect.width - 2)) + "┤", x: rect.x, y: y, style: style)
  }

  mutating func hit(_ rect: Rect, _ target: HitTarget) {
    frame.hits.append(HitRegion(rect: rect, target: target))
  }
}
