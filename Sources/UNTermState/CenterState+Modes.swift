import Foundation
import UNTermInput
import UserNotificationsModel

/// Focus and Scheduled Summary: how quietly a notification arrives. Called only from
/// `handle(_:)`.
extension CenterState {
  /// What Focus and the summary make of an arriving notification.
  enum Arrival: Equatable {
    /// Held for the next Scheduled Summary.
    case held
    /// Delivered to the list without banner or sound, by the Focus named.
    case silenced(String)
    /// Presented as the options say.
    case presented
  }

  /// How a notification arrives: the summary holds passive and active ones (time-sensitive ones
  /// too when the user turned off their breaking through; critical ones never); a Focus sends
  /// the same ones to the list silently unless their app is allowed. Both filter what the system
  /// presents for an app in the background: in the foreground the app's `willPresent` decides.
  func arrival(of notification: UNNotification, presentation: UNNotificationPresentationOptions) -> Arrival {
    guard !isAppInForeground(for: notification), presentation.showsInList || presentation.showsBanner else {
      return .presented
    }
    let quieted: Bool
    switch notification.request.content.interruptionLevel {
    case .passive, .active: quieted = true
    case .timeSensitive: quieted = !timeSensitiveBreaksThrough
    case .critical: quieted = false
    }
    guard quieted else { return .presented }
    if !summaryTimes.isEmpty { return .held }
    if focus.isOn && !isAllowedByFocus(notification) { return .silenced(focus.displayName) }
    return .presented
  }

  /// Whether the Focus's allow-list names the notification's app, by bundle identifier or by
  /// the name its header shows.
  func isAllowedByFocus(_ notification: UNNotification) -> Bool {
    focusAllowList.contains(app(of: notification)) || focusAllowList.contains(appName(for: notification))
  }

  /// Holds a notification for the next summary. It replaces one of the same identifier, held
  /// or delivered; its badge applies now, as the app's icon is not part of the summary.
  mutating func hold(_ notification: UNNotification, presentation: UNNotificationPresentationOptions) {
    let id = notification.request.identifier
    held.removeAll { $0.request.identifier == id }
    held.append(notification)
    if store.delivered(id) != nil {
      store.removeDelivered([id])
      forgetRemoved()
    }
    if banner?.notification.request.identifier == id { banner = nil }
    if presentation.contains(.badge) { store.applyBadge(of: notification.request) }
    let when = nextSummary.map { " at \(time(of: $0))" } ?? ""
    note(.info, "\(id) is held for the next Scheduled Summary\(when) (\(held.count) held)")
  }

  /// Delivers what the summary held, as one stack in the list: ordered by relevance score, the
  /// highest leading (featured), ties newest first; each keeps the time it arrived.
  mutating func deliverSummary(at date: Date) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone.zone
    let title = DeliveredSummary.title(hour: calendar.component(.hour, from: date))
    let key = NotificationStore.GroupKey(app: DeliveredSummary.stackApp, thread: "\(date.timeIntervalSince1970)")
    // The store puts the last delivered on top: deliver the least relevant first.
    let ordered = held.enumerated().sorted {
      ($0.element.request.content.relevanceScore, $0.offset) < ($1.element.request.content.relevanceScore, $1.offset)
    }.map(\.element)
    for notification in ordered {
      store.deliver(notification, into: key)
      silenced[notification.request.identifier] = nil
    }
    let count = held.count
    held = []
    summaries[key] = DeliveredSummary(title: title, date: date)
    note(.info, "\(title): \(count) notification\(count == 1 ? "" : "s") (Scheduled Summary at \(time(of: date)))")
    if let leading = store.leading(of: key) {
      listFocus = leading.request.identifier
      fannedOutGroup = nil
      listTop = nil
    }
    ListLayout.scrollToFocus(&self)
  }

  /// Turns a Focus on or off; `allow` replaces the allow-list when given.
  mutating func applyFocusMode(_ mode: FocusMode, allow: [String]?) {
    focus = mode
    if case .named(let name) = mode { namedFocus = name }
    if let allow { focusAllowList = allow }
    guard mode.isOn else {
      note(.info, "Focus off: notifications alert as usual")
      return
    }
    let allowed = focusAllowList.isEmpty ? "" : "; allowed: \(focusAllowList.joined(separator: ", "))"
    let breaking =
      timeSensitiveBreaksThrough ? "time-sensitive and critical ones break through" : "only critical ones break through"
    note(.info, "Focus: \(mode.displayName) — notifications arrive silently in the list; \(breaking)\(allowed)")
  }

  /// What `F` turns on next: off → Do Not Disturb → the named Focus, if one was set → off.
  var nextFocusMode: FocusMode {
    switch focus {
    case .off: return .doNotDisturb
    case .doNotDisturb: return namedFocus.map { .named($0) } ?? .off
    case .named: return .off
    }
  }

  /// Sets the summary times; with none, what was held arrives at once as a summary.
  mutating func setSummary(_ times: [DayTime]) {
    summaryTimes = times
    summaryCheckedUntil = now
    if times.isEmpty {
      if !held.isEmpty { deliverSummary(at: now) }
      note(.info, "Scheduled Summary off")
    } else {
      note(.info, "Scheduled Summary at \(times.map(\.description).joined(separator: ", "))")
    }
  }

  /// A date's time of day on the session clock, `18:00`.
  package func time(of date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone.zone
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return DayTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0)?.description ?? "?"
  }
}
