import Foundation
import UNTermState
import UserNotificationsModel

/// The text a notification shows right now: sanitized, with previews hidden on a locked device
/// as iOS hides them.
package struct DisplayedNotification {
  package var title: String
  package var subtitle: String
  package var body: String
  /// Whether the body is the hidden-previews placeholder.
  package var isHidden: Bool

  package init(_ notification: UNNotification, in state: CenterState) {
    let category = state.category(of: notification)
    // Localized fields in the device language now, so `g` changes them at once.
    let text = state.text(of: notification)
    if state.arePreviewsHidden {
      let options = category?.options ?? []
      title = options.contains(.hiddenPreviewsShowTitle) ? text.title : ""
      subtitle = options.contains(.hiddenPreviewsShowSubtitle) ? text.subtitle : ""
      body =
        state.localization.placeholder(category, count: state.store.threadCount(of: notification)) ?? "Notification"
      isHidden = true
    } else {
      title = text.title
      subtitle = text.subtitle
      body = text.body
      isHidden = false
    }
    title = TerminalText.sanitize(title, multiline: false)
    subtitle = TerminalText.sanitize(subtitle, multiline: false)
    body = TerminalText.sanitize(body)
  }

  /// The time a notification shows: `now`, `5m ago`, `2h ago`, or the date.
  package static func relativeTime(of date: Date, now: Date, timeZone: DisplayTimeZone) -> String {
    let seconds = now.timeIntervalSince(date)
    if seconds < 60 { return "now" }
    if seconds < 3600 { return "\(Int(saturating: seconds / 60))m ago" }
    if seconds < 86400 { return "\(Int(saturating: seconds / 3600))h ago" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone.zone
    let parts = calendar.dateComponents([.month, .day], from: date)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.day ?? 1)"
  }

  /// The label an interruption level adds to the header.
  package static func levelLabel(_ content: UNNotificationContent) -> String? {
    switch content.interruptionLevel {
    case .timeSensitive: return "Time Sensitive"
    case .critical: return "Critical"
    default: return content.sound?.isCritical == true ? "Critical" : nil
    }
  }
}
