import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// The session's own events: its settings, the store it adopts, triggers, themes, the log.
extension CenterState {
  mutating func configure(_ settings: CenterSettings) {
    device = DeviceProfile.profile(settings.device)
    isLocked = settings.isLocked
    passcode = settings.passcode
    previews = settings.previews
    store.defaultApp = settings.bundle
    isBundleNamed = settings.bundleNamed
    stackSummary = settings.stackSummary
    appNames = settings.appNames
    if let name = settings.appName, appNames[settings.bundle] == nil { appNames[settings.bundle] = name }
    themeNames = settings.themeNames
    themeName = settings.theme
    logHealth = settings.keepsLog ? .healthy : .none
    if !themeNames.contains(settings.theme) { themeNames.append(settings.theme) }
    focus = settings.focus
    if case .named(let name) = settings.focus { namedFocus = name }
    focusAllowList = settings.focusAllowList
    timeSensitiveBreaksThrough = settings.timeSensitiveBreaksThrough
    summaryTimes = settings.summaryTimes
    timeZone = settings.timeZone
    summaryCheckedUntil = now
    textSize = settings.textSize
    bidi = settings.bidi
    localization.locale = AppStrings.normalize(settings.locale)
  }

  mutating func adopt(_ adopted: NotificationStore, clockShift shift: TimeInterval) {
    if !adopted.categories.isEmpty && store.categories.isEmpty {
      store.setCategories(adopted.categories.values)
    }
    for notification in adopted.deliveredNewestFirst.reversed() {
      store.deliver(notification)
    }
    // Requests the app added before the session started keep waiting for their triggers; they
    // were timed on the wall clock, so the time left carries over to the session's.
    for pending in adopted.pending.values.sorted(by: { $0.addedSequence < $1.addedSequence }) {
      let never = pending.fireDate == .distantFuture
      store.schedule(
        pending.request, fireDate: never ? .distantFuture : max(pending.fireDate.addingTimeInterval(shift), now))
    }
    // Each app keeps its badge; what the app set before the session (its own) is the default
    // app's.
    for (app, badge) in adopted.badges {
      store.setBadge(badge, for: app == adopted.defaultApp ? store.defaultApp : app)
    }
  }

  mutating func schedule(_ request: UNNotificationRequest) -> Outcome {
    guard let trigger = request.trigger else { return .failed("the request has no trigger") }
    if let reason = trigger.invalidReason { return .failed(reason) }
    if let never = trigger.neverFiresNote {
      // Accepted, as on iOS, and pending for good: nothing here meets its condition.
      store.schedule(request, fireDate: .distantFuture)
      note(.info, "\(request.identifier): \(never)")
      return Outcome()
    }
    guard let date = trigger.fireDate(after: now) else { return .failed("the trigger never fires") }
    store.schedule(request, fireDate: date)
    return Outcome()
  }

  /// The shell applied a theme (`Effect.applyTheme`, or the command line's).
  mutating func themeApplied(_ name: String, announce: Bool) {
    themeName = name
    if !themeNames.contains(name) { themeNames.append(name) }
    if announce { note(.info, "Theme: \(name)") }
  }

  /// The shell could not load a theme: it leaves the cycle unless it is the one in use.
  mutating func themeFailed(_ name: String, reason: String) {
    if name != themeName { themeNames.removeAll { $0 == name } }
    note(.error, reason)
  }

  /// The log says whether a response was recorded; the Responses pane and the log's health
  /// show it.
  mutating func responseLogged(_ number: Int?, _ recording: Recording) {
    if let number, let i = responses.lastIndex(where: { $0.number == number }) {
      responses[i].recording = recording
    }
    switch recording {
    case .recorded: logHealth = .healthy
    case .notRecorded(let reason): logHealth = .failing(reason)
    case .notLogged, .pending: break
    }
  }
}
