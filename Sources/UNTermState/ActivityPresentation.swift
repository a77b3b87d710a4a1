import ActivityKit
import Foundation
import UNTermInput

/// What an activity shows without a view descriptor: a plain layout of the newest alert and the
/// state's fields, so a push can be checked before any view is described. The Lock Screen view
/// and the expanded Dynamic Island show `header` and `lines`; the compact island `leading` and
/// `trailing`. Untrusted text is kept as written: the renderer sanitizes what it draws.
package struct ActivityPresentation: Equatable, Sendable {
  /// The app's name, `Live Activity`, and the state when it is not active (`stale`, `ended`).
  package var header: String
  /// The alert's title and body (when the newest update had one), then `key value` per field.
  package var lines: [String]
  /// The compact island's leading side: the app's name.
  package var leading: String
  /// The compact island's trailing side: the first field's value.
  package var trailing: String

  package init(_ record: ActivityRecord, in state: CenterState) {
    let app = state.appName
    let phase = record.activityState(at: state.now)
    header = "\(app) · Live Activity" + (phase == .active ? "" : " · \(Self.name(of: phase))")
    let fields = Self.fields(record)
    var lines: [String] = []
    if let alert = record.alert {
      let text = [alert.title, alert.body].filter { !$0.isEmpty }.joined(separator: " · ")
      if !text.isEmpty { lines.append(text) }
    }
    lines += fields.map { "\($0.key) \($0.value)" }
    if lines.isEmpty { lines = ["(no content state)"] }
    self.lines = lines
    leading = app
    trailing = fields.first?.value ?? ""
  }

  package static func name(of phase: ActivityState) -> String {
    switch phase {
    case .active: return "active"
    case .stale: return "stale"
    case .ended: return "ended"
    case .dismissed: return "dismissed"
    case .pending: return "pending"
    }
  }

  /// The state's top-level fields as written (in the payload's order where it is known), each
  /// value as short text: a string as is, a number as written, an object or array as `{…}`/`[…]`.
  static func fields(_ record: ActivityRecord) -> [(key: String, value: String)] {
    guard let node = try? JSONParser.parse(Array(record.state)), let object = node.object else { return [] }
    var values: [String: String] = [:]
    for member in object.members { values[member.key] = text(of: member.value) }
    let order = (record.stateKeys ?? []).filter { values[$0] != nil }
    let rest = object.members.map(\.key).filter { !order.contains($0) }
    return (order + rest).map { ($0, values[$0] ?? "") }
  }

  private static func text(of node: JSONNode) -> String {
    switch node.value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return n.text
    case .string(let s): return s
    case .array: return "[…]"
    case .object: return "{…}"
    }
  }
}

/// The Live Activities' rows on screen, shared by the list's layout and the renderer.
package enum ActivityLayout {
  /// Lock Screen views shown at once; more are counted on a line under them.
  package static let maxCards = 2
  /// Lines of a plain Lock Screen view under its header: beyond them it is cut, as iOS cuts a
  /// view past 160 pt.
  package static let maxLines = 2

  /// Rows of one Lock Screen view: its border, header and lines.
  package static func cardRows(_ presentation: ActivityPresentation) -> Int {
    3 + min(presentation.lines.count, maxLines)
  }

  /// Rows the Lock Screen views take above the notifications (at most half the screen).
  package static func lockScreenRows(_ state: CenterState) -> Int {
    let shown = state.shownActivities
    guard !shown.isEmpty else { return 0 }
    let cards = shown.prefix(maxCards).map { cardRows(ActivityPresentation($0, in: state)) }.reduce(0, +)
    return min(cards + (shown.count > maxCards ? 1 : 0), max(0, (state.screenHeight - 3) / 2))
  }
}
