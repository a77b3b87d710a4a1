import UserNotificationsModel

/// The notification list's geometry in rows, shared by the state machine (which keeps the focus
/// in view) and the renderer (which draws from the top entry down).
///
/// Each notification is a card of `cardHeight` rows. A group shows only its leading card with a
/// summary row under it, unless it is fanned out (a tap on it, or the focus on one of its older
/// members): then every member is shown, under a "Show less" row. Every function here walks at
/// most a screenful of entries.
package enum ListLayout {
  /// Rows of a notification card: top border, header, two lines of text, bottom border.
  package static let cardHeight = 5
  /// Rows above the first card: the list's title and a blank row, and the Live Activities'
  /// Lock Screen views between them, as iOS puts them above the notifications.
  package static func headerHeight(_ state: CenterState) -> Int { 2 + ActivityLayout.lockScreenRows(state) }

  /// Rows available for cards.
  package static func visibleRows(_ state: CenterState) -> Int {
    max(0, state.screenHeight - 1 - headerHeight(state))
  }

  /// Whether a group shows all its members: it is fanned out (a tap), or the focus is on one of
  /// its older members.
  package static func isGroupExpanded(_ key: NotificationStore.GroupKey, _ state: CenterState) -> Bool {
    if state.fannedOutGroup == key && state.store.count(of: key) > 1 { return true }
    guard let focus = state.listFocus, state.store.groupKey(ofDelivered: focus) == key else {
      return false
    }
    return state.store.leading(of: key)?.request.identifier != focus
  }

  /// Whether the "Show less" row is drawn above this entry: the leading card of a fanned-out
  /// stack.
  package static func hasShowLessRow(_ id: String, _ state: CenterState) -> Bool {
    guard let key = state.store.groupKey(ofDelivered: id), state.store.count(of: key) > 1,
      isGroupExpanded(key, state)
    else { return false }
    return state.store.leading(of: key)?.request.identifier == id
  }

  /// The first entry shown: the newest group's leading notification.
  package static func first(_ state: CenterState) -> String? {
    state.store.newestGroup.flatMap { state.store.leading(of: $0) }?.request.identifier
  }

  /// The entry a drawn entry is shown as: an older member of a collapsed group shows as the
  /// group's leading card.
  package static func displayed(_ id: String, _ state: CenterState) -> String? {
    guard let key = state.store.groupKey(ofDelivered: id) else { return nil }
    if isGroupExpanded(key, state) { return id }
    return state.store.leading(of: key)?.request.identifier
  }

  /// Rows an entry takes.
  package static func height(of id: String, _ state: CenterState) -> Int {
    guard let key = state.store.groupKey(ofDelivered: id) else { return 0 }
    if isGroupExpanded(key, state) { return cardHeight + (hasShowLessRow(id, state) ? 1 : 0) }
    // A stack, and a Scheduled Summary of any size, has its summary row below the card.
    return state.store.count(of: key) > 1 || state.summaries[key] != nil ? cardHeight + 1 : cardHeight
  }

  /// The entry drawn below another.
  package static func displayNext(after id: String, _ state: CenterState) -> String? {
    let store = state.store
    guard let key = store.groupKey(ofDelivered: id) else { return nil }
    if isGroupExpanded(key, state), let older = store.member(after: id) {
      return older.request.identifier
    }
    return store.group(after: key).flatMap { store.leading(of: $0) }?.request.identifier
  }

  /// The notification the focus moves to going down: into the stack, then the next group.
  package static func focusNext(after id: String, _ state: CenterState) -> String? {
    let store = state.store
    if let older = store.member(after: id) { return older.request.identifier }
    guard let key = store.groupKey(ofDelivered: id) else { return nil }
    return store.group(after: key).flatMap { store.leading(of: $0) }?.request.identifier
  }

  /// The notification the focus moves to going up.
  package static func focusPrevious(before id: String, _ state: CenterState) -> String? {
    let store = state.store
    if let newer = store.member(before: id) { return newer.request.identifier }
    guard let key = store.groupKey(ofDelivered: id) else { return nil }
    return store.group(before: key).flatMap { store.leading(of: $0) }?.request.identifier
  }

  /// Whether `a` is drawn above `b`.
  package static func precedes(_ a: String, _ b: String, _ state: CenterState) -> Bool {
    guard let x = state.store.listOrder(of: a), let y = state.store.listOrder(of: b) else {
      return false
    }
    return (x.group, x.member) < (y.group, y.member)
  }

  /// Moves `listTop` so the focused card is fully in view, walking at most a screenful.
  static func scrollToFocus(_ state: inout CenterState) {
    let rows = visibleRows(state)
    guard let focus = state.listFocus, state.store.delivered(focus) != nil else {
      state.listTop = first(state)
      return
    }
    var top = state.listTop.flatMap { displayed($0, state) } ?? first(state)
    guard var current = top else { return }
    if precedes(focus, current, state) || focus == current {
      state.listTop = focus
      return
    }
    // Walk down from the top to the focus; if the focus ends below the window, move the top
    // down as far as needed.
    var used = 0
    var window: [(String, Int)] = []
    while true {
      let h = height(of: current, state)
      window.append((current, h))
      used += h
      if current == focus { break }
      guard let next = displayNext(after: current, state) else { break }
      current = next
      if used > rows * 4 + cardHeight * 4 {
        // The focus is far below (a jump): start the window at the focus.
        state.listTop = focus
        return
      }
    }
    while used > rows, window.count > 1 {
      used -= window.removeFirst().1
    }
    top = window.first?.0
    state.listTop = top
  }

  /// How many entries PgDn and PgUp move the focus: as many as the list shows whole at once,
  /// from its top entry down, each with its own height (a stack's summary row, a "Show less"
  /// row), and at least one — a page is what the screen shows, at every size.
  static func page(_ state: CenterState) -> Int {
    let rows = visibleRows(state)
    guard var current = state.listTop.flatMap({ displayed($0, state) }) ?? first(state) else { return 1 }
    var used = 0
    var shown = 0
    while shown < 10_000 {
      used += height(of: current, state)
      if used > rows { break }
      shown += 1
      guard let next = displayNext(after: current, state) else { break }
      current = next
    }
    return max(1, shown)
  }

  /// The last entry of the list, for End.
  package static func last(_ state: CenterState) -> String? {
    state.store.oldestGroup.flatMap { state.store.leading(of: $0) }?.request.identifier
  }
}
