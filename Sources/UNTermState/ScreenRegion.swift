import UNTermInput

/// A part of the screen a script can check or snapshot on its own, so a check about the card is
/// not fooled by a line elsewhere (an older entry in the activity pane, say). The renderer
/// records where it drew each one in its `Frame`.
package enum ScreenRegion: String, CaseIterable, Sendable, Hashable {
  /// The focused card: the expanded view when one is open, else the banner, else the focused
  /// card of the notification list.
  case card
  /// The notification list (Notification Center or the lock screen), when it is shown.
  case list
  /// The Responses part of the side pane.
  case responses
  /// The Activity part of the side pane.
  case activity
  /// The whole screen.
  case screen

  /// What the region is called in a message: "the activity pane".
  package var displayName: String {
    switch self {
    case .card: return "the card"
    case .list: return "the notification list"
    case .responses: return "the responses pane"
    case .activity: return "the activity pane"
    case .screen: return "the screen"
    }
  }

  /// Why the region may be missing from a screen, for a failure message.
  package var absence: String {
    switch self {
    case .card: return "no card, banner or expanded view is on the screen"
    case .list: return "the notification list is not shown"
    case .responses, .activity:
      return "\(displayName) is not on the screen (the side pane needs a wider screen)"
    case .screen: return "there is no screen"
    }
  }

  /// `card|list|responses|activity|screen`, for the grammar and messages.
  package static var names: String { allCases.map(\.rawValue).joined(separator: "|") }
}
