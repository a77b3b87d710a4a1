import Foundation
import UserNotificationsModel

/// What the update needs to know about how the screen is laid out, asked of the view as a pure
/// function of the state, so the update never depends on a frame having been drawn.
///
/// The renderer answers it (`Renderer` conforms); a state handled without one scrolls freely.
package protocol ScreenLayout {
  /// The furthest the expanded view's content can scroll (0 when it all fits), or `nil` when no
  /// expanded view is drawn.
  func expandedScrollLimit(_ state: CenterState) -> Int?

  /// The expanded view's content rows on screen at once: what PgUp and PgDn move by (at least
  /// one), or `nil` when no expanded view is drawn.
  func expandedPageRows(_ state: CenterState) -> Int?

  /// An audio or movie attachment's length in seconds, when its container says (the player
  /// stops there).
  func mediaDuration(of attachment: UNNotificationAttachment) -> TimeInterval?
}

extension ScreenLayout {
  package func mediaDuration(of attachment: UNNotificationAttachment) -> TimeInterval? { nil }
}
