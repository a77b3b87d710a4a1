import Foundation
import UNTermInput
import UNTermState
import UserNotificationsModel

extension Renderer {
  func drawPasscode(_ canvas: inout Canvas, _ state: CenterState, _ prompt: CenterState.PasscodePrompt, area: Rect) {
    let width = min(area.width, 34)
    let rect = Rect(
      x: area.x + (area.width - width) / 2, y: area.y + max(0, area.height / 2 - 4), width: width, height: 8)
    canvas.box(rect, role: .accent)
    let inner = width - 4
    func center(_ text: String, _ y: Int, _ role: Role) {
      let t = TextLayout.truncate(text, width: inner)
      canvas.text(t, x: rect.x + 2 + max(0, (inner - DisplayWidth.of(t)) / 2), y: y, role: role)
    }
    center("Enter Passcode", rect.y + 1, .title)
    let purpose: String
    switch prompt.intent {
    case .unlock: purpose = "to unlock \(state.device.displayName)"
    case .action(let id, let actionID):
      let n = state.store.delivered(id) ?? state.expanded?.notification
      let title = n.flatMap { state.category(of: $0)?.actions.first { $0.identifier == actionID }?.title } ?? actionID
      purpose = "to use “\(TerminalText.sanitize(title, multiline: false))”"
    case .open(let id):
      let name = state.store.delivered(id).map { state.appName(for: $0) } ?? state.appName
      purpose = "to open \(TerminalText.sanitize(name, multiline: false))"
    case .expand: purpose = "to see the notification"
    }
    center(purpose, rect.y + 2, .secondary)
    let typed = prompt.field.text.count
    let dots = String(repeating: "● ", count: min(typed, inner / 2)) + "_"
    center(dots, rect.y + 4, .field)
    if prompt.wrongAttempts > 0 {
      center("Wrong passcode · try again", rect.y + 5, .error)
    }
    center("⏎ unlock · Esc cancel", rect.y + 6, .secondary)
    let x = rect.x + 2 + max(0, (inner - DisplayWidth.of(dots)) / 2) + DisplayWidth.of(dots) - 1
    canvas.frame.cursor = (x, rect.y + 4)
  }

  /// The keys overlay: every row of the key table (`KeyBindings`), its keys and what they do.
  func drawHelp(_ canvas: inout Canvas, _ state: CenterState) {
    let rows = KeyBindings.all
    let width = min(state.screenWidth - 2, 58)
    let height = min(state.screenHeight - 1, rows.count + 2)
    let rect = Rect(
      x: (state.screenWidth - width) / 2, y: max(0, (state.screenHeight - 1 - height) / 2), width: width, height: height
    )
    canvas.box(rect, role: .accent)
    // The title sits in the top border, so every row fits a 24-line terminal.
    canvas.text(" Keys ", x: rect.x + 2, y: rect.y, role: .title, clip: rect)
    // On a short screen the last row says how many are cut and where to read them all.
    let room = max(0, rect.height - 2)
    let shown = rows.count > room ? max(0, room - 1) : rows.count
    for (i, binding) in rows.prefix(shown).enumerated() {
      canvas.text(TextLayout.pad(binding.label, width: 11), x: rect.x + 2, y: rect.y + 1 + i, role: .statusKey)
      canvas.text(TextLayout.truncate(binding.help, width: width - 16), x: rect.x + 14, y: rect.y + 1 + i, role: .body)
    }
    if shown < rows.count, room > 0 {
      let more = "⋯ \(rows.count - shown) more: unterm help keys"
      canvas.text(TextLayout.truncate(more, width: width - 4), x: rect.x + 2, y: rect.y + 1 + shown, role: .secondary)
    }
  }

  func drawPane(_ canvas: inout Canvas, _ state: CenterState, area: Rect) {
    canvas.fill(area, role: .pane)
    var y = area.y
    canvas.text("Responses", x: area.x, y: y, role: .paneTitle)
    y += 1
    if state.responses.isEmpty {
      canvas.text(TextLayout.truncate("none yet", width: area.width), x: area.x + 1, y: y, role: .secondary)
      y += 1
    }
    let half = area.y + max(4, area.height / 2)
    for entry in state.responses.reversed() {
      guard y < half else { break }
      let id = TerminalText.sanitize(shortIdentifier(entry.actionIdentifier), multiline: false)
      // ✓ only once the log has the record (or there is no log); … while it is being written.
      let mark: String
      var role = Role.body
      switch entry.recording {
      case .notLogged, .recorded: mark = "✓"
      case .pending: mark = "…"
      case .notRecorded: (mark, role) = ("✗", .error)
      }
      let line = "\(mark) \(id) · \(TerminalText.sanitize(entry.requestIdentifier, multiline: false))"
      canvas.text(TextLayout.truncate(line, width: area.width), x: area.x, y: y, role: role)
      y += 1
      if let text = entry.userText, y < half {
        let quoted = "“" + TerminalText.sanitize(text, multiline: false) + "”"
        canvas.text(TextLayout.truncate(quoted, width: area.width - 2), x: area.x + 2, y: y, role: .secondary)
        y += 1
      }
      if case .notRecorded(let reason) = entry.recording {
        let why = "not in the log: " + TerminalText.sanitize(reason, multiline: false)
        for line in TextLayout.wrap(why, width: area.width - 2, maxLines: 2) where y < half {
          canvas.text(line, x: area.x + 2, y: y, role: .error)
          y += 1
        }
      }
    }
    canvas.frame.regions[.responses] = Rect(x: area.x, y: area.y, width: area.width, height: y - area.y)
    y += 1
    guard y < area.maxY else { return }
    canvas.frame.regions[.activity] = Rect(x: area.x, y: y, width: area.width, height: area.maxY - y)
    canvas.text("Activity", x: area.x, y: y, role: .paneTitle)
    y += 1
    // A file `--watch` could not reload stays on top until it loads again.
    for problem in state.fileProblems {
      let hidden = state.arePreviewsHidden ? Self.hiddenNotice : nil
      let text = TerminalText.sanitize(paths.apply(problem.line(hiding: hidden)), multiline: false)
      for line in TextLayout.wrap(text, width: area.width, maxLines: 4) where y < area.maxY {
        canvas.text(line, x: area.x, y: y, role: .error)
        y += 1
      }
    }
    for notice in state.notices.reversed() {
      guard y < area.maxY else { break }
      let role: Role = notice.kind == .error ? .error : notice.kind == .warning ? .warning : .secondary
      // A line that may quote a notification's content waits until previews show again.
      let shown = notice.revealsContent && state.arePreviewsHidden ? Self.hiddenNotice : paths.apply(notice.text)
      let text = TerminalText.sanitize(shown, multiline: false)
      let lines = TextLayout.lines(text, width: area.width, maxLines: 4, direction: state.paragraphDirection)
      for line in lines where y < area.maxY {
        canvas.line(line, x: area.x, y: y, width: nil, role: role)
        y += 1
      }
    }
  }

  /// What the activity pane shows for a line that may quote content while previews are hidden.
  static let hiddenNotice = "‹hidden while previews are hidden›"

  /// Apple's system identifiers are long; the pane shows them as `default` and `dismiss`.
  func shortIdentifier(_ id: String) -> String {
    switch id {
    case UNNotificationDefaultActionIdentifier: return "default (tap)"
    case UNNotificationDismissActionIdentifier: return "dismiss"
    default: return id
    }
  }

  /// One thing the status bar says: its full form, a shorter one, and how much it matters when
  /// the bar is too narrow for everything (the lowest `rank` is dropped first).
  struct StatusItem {
    var full: String
    var short: String?
    var rank: Int
  }

  /// The status bar's items in the order shown. Ranks, lowest dropped first: the default states
  /// (unlocked, iPhone) say least, then the badges (other apps' before the default app's) and
  /// the app being open, then the summary time, the text size, the device language, the Focus
  /// and "Offline", and "Locked" last. `hintRank` is the last key hint's ("? keys"): kept over the default
  /// states, given up before a mode.
  func statusItems(_ state: CenterState) -> [StatusItem] {
    var items = [
      StatusItem(full: state.device.displayName, short: nil, rank: state.device.kind == .iphone ? 3 : 5)
    ]
    items.append(state.isLocked ? StatusItem(full: "Locked", rank: 10) : StatusItem(full: "Unlocked", rank: 0))
    if state.isOffline { items.append(StatusItem(full: "Offline", rank: 9)) }
    if state.focus.isOn {
      let name = TerminalText.sanitize(state.focus.displayName, multiline: false)
      let short: String
      switch state.focus {
      case .doNotDisturb: short = "DND"
      default: short = "Focus"
      }
      items.append(StatusItem(full: name, short: DisplayWidth.of(short) < DisplayWidth.of(name) ? short : nil, rank: 9))
    }
    if let next = state.nextSummaryTime {
      let time = "Summary \(state.time(of: next))"
      items.append(
        state.held.isEmpty
          ? StatusItem(full: time, rank: 6)
          : StatusItem(full: time + " (\(state.held.count) held)", short: time, rank: 6))
    }
    if state.textSize != .default {
      let name = state.textSize.displayName
      let short = "Text \(state.textSize.rawValue)"
      items.append(StatusItem(full: "Text \(name)", short: short.count < name.count + 5 ? short : nil, rank: 7))
    }
    if state.store.badge > 0 { items.append(StatusItem(full: "badge \(state.store.badge)", rank: 1)) }
    items += otherAppsBadges(state)
    if state.appState == .foreground { items.append(StatusItem(full: "app open", rank: 2)) }
    // The device language, once the app's strings give `g` something to switch.
    if !state.localization.strings.isEmpty {
      items.append(StatusItem(full: TerminalText.sanitize(state.localization.locale, multiline: false), rank: 8))
    }
    return items
  }

  static let hintRank = 4

  /// Other apps' badges, after the default app's: `Messages badge 2`, by app name. Every app has
  /// its own app-icon badge on iOS, on the home screen the emulator does not have; the status bar
  /// stands in for it. They rank with the default app's badge and, coming after it, are given up
  /// before it, the last first. At most as many as a bar this wide could hold are made.
  func otherAppsBadges(_ state: CenterState) -> [StatusItem] {
    let store = state.store
    let others = store.badges.filter { $0.key != store.defaultApp }
      .map { (name: TerminalText.sanitize(state.appName(ofBundle: $0.key), multiline: false), app: $0.key, $0.value) }
      .sorted { ($0.name, $0.app) < ($1.name, $1.app) }
    return others.prefix(max(1, state.screenWidth / 12)).map { name, _, badge in
      StatusItem(full: "\(TextLayout.truncate(name, width: Self.badgeNameWidth)) badge \(badge)", rank: 1)
    }
  }

  /// The most columns an app's name takes in the status bar: longer ones end in an ellipsis.
  static let badgeNameWidth = 16

  func drawStatus(_ canvas: inout Canvas, _ state: CenterState) {
    let y = state.screenHeight - 1
    canvas.fill(Rect(x: 0, y: y, width: state.screenWidth, height: 1), role: .statusBar)
    var x = 0
    if case .failing = state.logHealth {
      // Responses are not being recorded: said first, so even a screen too narrow for the
      // Responses pane shows it, until a record is written again.
      x = canvas.text(" ✗ log failing", x: x, y: y, role: .error, over: .statusBar)
      x = canvas.text(" ·", x: x, y: y, role: .statusBar)
    }
    // Too narrow for it all, the bar gives things up in steps, never cutting one in the middle:
    // the key hints between the first and the last, then each item's shorter form (the least
    // important first), then whole items, the least important first (the last hint among them).
    var items = statusItems(state)
    var list = hints(state)
    func hintsWidth(_ items: [(String, String)]) -> Int {
      items.reduce(0) { $0 + DisplayWidth.of($1.0) + 1 + DisplayWidth.of($1.1) + 2 }
    }
    func width() -> Int {
      let left = items.reduce(0) { $0 + 3 + DisplayWidth.of($1.full) } - (items.isEmpty ? 0 : 2)
      // " │ " then the hints, each followed by two spaces (the last may touch the edge).
      return x + left + (list.isEmpty ? 0 : 3 + hintsWidth(list) - 1)
    }
    let room = state.screenWidth
    while list.count > 1 && width() > room { list.remove(at: list.count - 2) }
    for index in items.indices.sorted(by: { items[$0].rank < items[$1].rank }) where width() > room {
      if let short = items[index].short {
        items[index].full = short
        items[index].short = nil
      }
    }
    while width() > room {
      // The least important goes first; of equal ones, the last (another app's badge before
      // the default app's).
      let lowest = items.indices.min { (items[$0].rank, $1) < (items[$1].rank, $0) }
      if !list.isEmpty, lowest.map({ items[$0].rank > Self.hintRank }) ?? true {
        list.removeAll()
      } else if let lowest {
        items.remove(at: lowest)
      } else {
        break
      }
    }
    let left = items.map { " " + $0.full }.joined(separator: " ·")
    x = canvas.text(left, x: x, y: y, role: .statusBar)
    guard !list.isEmpty else { return }
    x = canvas.text(" │", x: x, y: y, role: .statusBar) + 1
    for (key, meaning) in list {
      // The key takes its own role's background when the theme gives one (a chip), so a
      // theme's key colour never meets the bar's colour (high-contrast's white on white).
      x = canvas.text(key, x: x, y: y, role: .statusKey) + 1
      x = canvas.text(meaning, x: x, y: y, role: .statusBar) + 2
    }
  }

  /// The keys that matter now, for the status line: the key table's hints for this state.
  func hints(_ state: CenterState) -> [(String, String)] {
    KeyBindings.hints(for: state).map { ($0.keys, $0.text) }
  }
}
