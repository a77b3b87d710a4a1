import ActivityKit
import Foundation
import UNTermBidi
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

/// Everything the emulator shows and remembers: the notification store plus the screen's state.
///
/// A value; only `handle(_:)` changes it: every stored property is `internal(set)`, so no module
/// but this one can assign to the state, and the shells change it by sending events. It reads no
/// clock and does no I/O: time arrives in `Event.tick`, notifications in `Event.deliver`, and what
/// the shell must do comes back as `Effect`s.
package struct CenterState: @unchecked Sendable {
  /// When notification previews are shown.
  package enum Previews: String, Sendable, CaseIterable {
    case always
    case whenUnlocked = "when-unlocked"
    case never
  }

  /// Whether the emulated app is running in the foreground.
  package enum AppState: String, Sendable {
    case background, foreground
  }

  /// The banner on screen.
  package struct Banner: @unchecked Sendable {
    package var notification: UNNotification
    package var expiresAt: Date
    /// Whether the notification also went into the list (foreground `.list`).
    package var isListed: Bool
  }

  /// Something the user is asked to authorize with the passcode.
  package enum PendingIntent: Hashable, Sendable {
    case action(notification: String, action: String)
    /// A tap: the app opens only after the device is unlocked.
    case open(notification: String)
    /// A long-press on a notification whose preview is hidden: its content shows only after.
    case expand(notification: String)
    case unlock
  }

  /// A typed reply to a text-input action.
  package struct Reply: Hashable, Sendable {
    package var actionIdentifier: String
    package var field = TextField()
  }

  /// The expanded (long-press) view of one notification.
  package struct Expanded: @unchecked Sendable {
    package var notification: UNNotification
    /// The highlighted action, or `nil` for the content itself.
    package var selection: Int?
    /// How many content rows are scrolled off the top.
    package var scroll = 0
    /// The reply field, once a text-input action was chosen.
    package var reply: Reply?
    /// Actions set at runtime by a content extension, replacing the category's.
    package var actionOverride: [UNNotificationAction]?
    /// The content extension's view, once loaded.
    package var extensionView: ExtensionView?
    /// The audio or movie attachment's player (the system's play/pause button).
    package var playback = Playback()
    /// Whether the view moved to a newer notification of its thread (its extension's
    /// `didReceive(_:)` ran again): the header says so, and responses name the newer request.
    package var movedToNewer = false
    /// Whether the notification is in the list; `false` for one presented as a banner only
    /// (the foreground's `.banner` without `.list`), which lives only while it is on screen.
    package var isListed = true

    /// Whether the audio or movie attachment is playing.
    package var isMediaPlaying: Bool { playback.startedAt != nil }
  }

  /// Where the system's player of an audio or movie attachment is, on the session's clock.
  package struct Playback: Hashable, Sendable {
    /// Seconds played before the current run (a pause keeps them).
    package var played: TimeInterval = 0
    /// When the current run started; `nil` while paused.
    package var startedAt: Date?
    /// The clip's length, when its container says.
    package var duration: TimeInterval?

    package init() {}

    /// Seconds played at `now`, never past the clip's end.
    package func elapsed(at now: Date) -> TimeInterval {
      let running = startedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
      return min(duration ?? .infinity, played + running)
    }

    /// When the clip ends if it keeps playing.
    package var endsAt: Date? {
      guard let startedAt, let duration else { return nil }
      return startedAt.addingTimeInterval(max(0, duration - played))
    }

    /// When the elapsed time shown next changes after `now` (the next whole second), or the
    /// clip ends; `nil` while paused.
    package func nextChange(after now: Date) -> Date? {
      guard startedAt != nil else { return nil }
      let elapsed = self.elapsed(at: now)
      let next = now.addingTimeInterval(elapsed.rounded(.down) + 1 - elapsed)
      return [next, endsAt].compactMap { $0 }.min()
    }
  }

  /// The passcode prompt.
  package struct PasscodePrompt: Hashable, Sendable {
    package var intent: PendingIntent
    package var field = TextField()
    package var wrongAttempts = 0
  }

  /// A window over the main screen.
  package enum Overlay: @unchecked Sendable {
    case expanded(Expanded)
    case passcode(PasscodePrompt, returnTo: Expanded?)
  }

  /// A response the app received, for the on-screen pane.
  package struct ResponseEntry: Hashable, Sendable {
    package var actionIdentifier: String
    package var label: String
    package var userText: String?
    package var requestIdentifier: String
    package var date: Date
    /// Its number in the session (1, 2, …): how the session's answer about the log finds it.
    package var number = 0
    /// What became of its record in the log.
    package var recording = Recording.notLogged
  }

  /// What became of a response's record in the log (`--log`). The pane shows ✓ only for
  /// `recorded` (or `notLogged`: with no log, the delegate having it is all there is).
  package enum Recording: Hashable, Sendable {
    /// No log is kept.
    case notLogged
    /// Handed to the log; not written and synced yet, so not acknowledged.
    case pending
    /// Written and synced.
    case recorded
    /// Not in the log: the system's reason, short ("No space left on device").
    case notRecorded(String)
  }

  /// The response log's condition, for the status bar.
  package enum LogHealth: Hashable, Sendable {
    /// No log is kept.
    case none
    /// The last record was written and synced (or none was due yet).
    case healthy
    /// The last write, sync or open failed: the system's reason.
    case failing(String)
  }

  /// A line in the activity pane.
  package struct Notice: Hashable, Sendable {
    package enum Kind: String, Sendable { case info, warning, error, trace }
    package var kind: Kind
    package var text: String
    package var date: Date
    /// Whether the text may quote a notification's content (a payload's text, an attachment's
    /// name, a service extension's trace): the pane hides it while previews are hidden.
    package var revealsContent = false
  }

  /// A URL a content extension opened, and the notification whose view opened it.
  package struct OpenedURL: Hashable, Sendable {
    package var notification: String
    package var url: String
  }

  // MARK: - State

  package internal(set) var store = NotificationStore()
  package internal(set) var now: Date
  package internal(set) var device: DeviceProfile = .iphone
  package internal(set) var screenWidth = 80
  package internal(set) var screenHeight = 24
  package internal(set) var isLocked = false
  /// Whether the device is off the network: APNs holds its pushes meanwhile.
  package internal(set) var isOffline = false
  /// The device's Live Activities (`CenterState+Activities`).
  package internal(set) var activities = ActivityBoard()
  /// The activity an alert lit the screen with, until when: the expanded Dynamic Island on an
  /// iPhone, the Lock Screen view as a banner on an iPad.
  package internal(set) var litActivity: LitActivity?
  package internal(set) var passcode: String?
  package internal(set) var previews: Previews = .whenUnlocked
  /// Apps' display names by bundle identifier (`--app-name ID=NAME`, and a bare `--app-name`
  /// for the default app).
  package internal(set) var appNames: [String: String] = [:]
  /// Whether the session's own app was named (`--bundle`, a script's `bundle`): a bare
  /// categories file registers for it, not for every app without categories (issue 25.4).
  package internal(set) var isBundleNamed = false
  /// What a collapsed stack says under its card: current iOS's count, or the iOS 12 to 14
  /// category summary (`--stack-summary ios12`).
  package internal(set) var stackSummary = StackSummary.current
  package internal(set) var appState: AppState = .background
  /// Who puts right-to-left text in display order: UNTerm, or the terminal.
  package internal(set) var bidi: BidiMode = .visual
  /// The app's strings and the device language (`--strings`, `--locale`; `g` cycles it).
  package internal(set) var localization = Localization()
  package internal(set) var themeName = "default"
  package internal(set) var themeNames: [String] = ["default"]
  package internal(set) var banner: Banner?
  package internal(set) var isListOpen = false
  package internal(set) var listFocus: String?
  package internal(set) var listTop: String?
  /// The stack fanned out in the list (a tap on it, or the focus moving into it); the focus is
  /// always in it. `nil`: every stack shows its leading card and summary.
  package internal(set) var fannedOutGroup: NotificationStore.GroupKey?
  package internal(set) var overlay: Overlay?
  package internal(set) var isHelpVisible = false
  package internal(set) var responses: [ResponseEntry] = []
  /// How many responses the session has made; the last one's `number`.
  package internal(set) var responseCount = 0
  /// Whether the response log keeps up.
  package internal(set) var logHealth = LogHealth.none
  package internal(set) var notices: [Notice] = []
  /// The URLs content extensions opened (`extensionContext.open`), in order.
  package internal(set) var openedURLs: [OpenedURL] = []
  package internal(set) var hasQuit = false
  /// Actions handed to a program's content extension that it has not answered yet.
  package internal(set) var extensionResponsesInFlight: Set<ObjectIdentifier> = []
  /// Content extensions by the category they serve.
  package internal(set) var extensions: [String: ContentExtensionAttributes] = [:]
  /// The Focus on now.
  package internal(set) var focus = FocusMode.off
  /// The named Focus `F` cycles to after Do Not Disturb (the last one set), if any.
  package internal(set) var namedFocus: String?
  /// Apps a Focus lets through, by bundle identifier or name.
  package internal(set) var focusAllowList: [String] = []
  /// Whether time-sensitive notifications break through Focus and the summary.
  package internal(set) var timeSensitiveBreaksThrough = true
  /// Notifications a Focus delivered silently, by request identifier: the Focus's name.
  package internal(set) var silenced: [String: String] = [:]
  /// Scheduled Summary times; empty: no summary.
  package internal(set) var summaryTimes: [DayTime] = []
  /// The session clock's time zone, which summary times are read in.
  package internal(set) var timeZone = DisplayTimeZone.utc
  /// Notifications held for the next summary, in arrival order.
  package internal(set) var held: [UNNotification] = []
  /// Summary times up to this date have been dealt with.
  package internal(set) var summaryCheckedUntil: Date
  /// The summaries in the list, by their stack.
  package internal(set) var summaries: [NotificationStore.GroupKey: DeliveredSummary] = [:]
  /// The user's Dynamic Type size.
  package internal(set) var textSize = DynamicTypeSize.default
  /// Files the live preview (`--watch`) could not reload, oldest first: each stays at the top of
  /// the activity pane until the file loads again.
  package internal(set) var fileProblems: [FileProblem] = []

  /// How long a banner stays before it retires into the list.
  package static let bannerDuration: TimeInterval = 5
  /// How many responses and notices are kept for the panes.
  package static let paneLimit = 50

  package init(now: Date) {
    self.now = now
    summaryCheckedUntil = now
  }

  // MARK: - Derived

  /// Whether a notification is still delivered, so it may be shown and answered: it is in the
  /// list, or it was presented as a banner only and its banner or expanded view is on screen.
  /// Everything shown holds only live notifications (`forgetRemoved`), and no response is made
  /// for one that is not (`deliverResponse`).
  package func isLive(_ id: String) -> Bool {
    store.delivered(id) != nil || shownUnlisted.contains(id)
  }

  /// The notifications presented as a banner only (not in the list) that are still on screen:
  /// their banner, or the expanded view opened from it.
  package var shownUnlisted: Set<String> {
    var ids: Set<String> = []
    if let banner, !banner.isListed { ids.insert(banner.notification.request.identifier) }
    if let e = expandedOrReturning, !e.isListed { ids.insert(e.notification.request.identifier) }
    return ids.filter { store.delivered($0) == nil }
  }

  /// Whether anything has a request of this identifier: delivered (`isLive`), held for the
  /// Scheduled Summary, or waiting for its trigger. What a removal by identifier can find.
  package func hasRequest(_ id: String) -> Bool {
    isLive(id) || store.pending[id] != nil || held.contains { $0.request.identifier == id }
  }

  /// The notification keys act on: the banner's, the expanded one's, else the list's focus.
  package var focusedNotification: UNNotification? {
    if case .expanded(let e) = overlay { return e.notification }
    if let banner, !isListShown { return banner.notification }
    if let id = listFocus, let n = store.delivered(id) { return n }
    return store.newestGroup.flatMap { store.leading(of: $0) }
  }

  /// Whether the notification list is on screen (always, on the lock screen).
  package var isListShown: Bool { isListOpen || isLocked }

  /// Whether a banner is on screen.
  package var isBannerShown: Bool { banner != nil && !isListShown && overlay == nil }

  /// Whether notification previews are hidden now.
  package var arePreviewsHidden: Bool {
    switch previews {
    case .always: return false
    case .never: return true
    case .whenUnlocked: return isLocked
    }
  }

  /// The session's own app's name: the one in the foreground when the app is.
  package var appName: String { appName(ofBundle: store.defaultApp) }

  /// The app a notification belongs to (its bundle identifier).
  package func app(of notification: UNNotification) -> String { store.app(of: notification.request) }

  /// Whether a notification is the session's own app's (the app that can be in the foreground).
  package func isDefaultApp(_ notification: UNNotification) -> Bool { app(of: notification) == store.defaultApp }

  /// Whether a notification's app is in the foreground: only the session's own app can be (its
  /// delegate answers `willPresent`); other apps' notifications arrive as for an app in the
  /// background.
  package func isAppInForeground(for notification: UNNotification) -> Bool {
    appState == .foreground && isDefaultApp(notification)
  }

  /// The app name a notification's header shows.
  package func appName(for notification: UNNotification) -> String { appName(ofBundle: app(of: notification)) }

  /// An app's display name: the one `--app-name` gives it, else its bundle identifier's last
  /// part with its first letter upper-cased (`com.acme.bank` → `Bank`). Untrusted text: the
  /// views sanitize it as every header text.
  package func appName(ofBundle bundle: String) -> String {
    appNames[bundle] ?? Self.displayName(ofBundle: bundle)
  }

  /// `com.apple.MobileSMS` → `MobileSMS`, `com.example.app` → `App`: the last non-empty
  /// dot-separated part, its first letter upper-cased and the rest kept; `App` when none.
  package static func displayName(ofBundle bundle: String) -> String {
    guard let last = bundle.split(separator: ".").last(where: { !$0.isEmpty }), let first = last.first else {
      return "App"
    }
    return first.uppercased() + last.dropFirst()
  }

  /// How paragraphs find their direction: a right-to-left device language reads mixed text
  /// from the right.
  package var paragraphDirection: BidiParagraph.Direction {
    BidiParagraph.direction(forLanguage: localization.locale)
  }

  /// A notification's title, subtitle and body in the device language now.
  package func text(of notification: UNNotification) -> (title: String, subtitle: String, body: String) {
    localization.displayed(notification.request.content, device: device.kind.rawValue)
  }

  /// The registered category of a notification, matched case-sensitively.
  package func category(of notification: UNNotification) -> UNNotificationCategory? {
    store.category(notification.request.content.categoryIdentifier, app: app(of: notification))
  }

  /// The content extension serving a notification's category, matched case-sensitively.
  package func extensionAttributes(for notification: UNNotification) -> ContentExtensionAttributes? {
    let id = notification.request.content.categoryIdentifier
    return id.isEmpty ? nil : extensions[id]
  }

  /// The actions the expanded view lists: up to 10, from the category or a content extension.
  package func actions(for expanded: Expanded) -> [UNNotificationAction] {
    let all = expanded.actionOverride ?? category(of: expanded.notification)?.actions ?? []
    return Array(all.prefix(10))
  }

  /// The next moment the state changes by itself: a banner retiring, a trigger firing, a
  /// summary being delivered, a Live Activity's alert ending or the activity turning stale,
  /// ended or dismissed.
  package var nextDeadline: Date? {
    [banner?.expiresAt, store.nextFireDate, expanded?.playback.nextChange(after: now), nextSummary, nextActivityChange]
      .compactMap { $0 }.min()
  }

  /// When the held notifications are delivered as a summary, if any are held.
  package var nextSummary: Date? {
    held.isEmpty ? nil : DayTime.next(of: summaryTimes, after: summaryCheckedUntil, in: timeZone.zone)
  }

  /// The next summary time after now, whether or not anything is held (the status bar's).
  package var nextSummaryTime: Date? {
    // Without summary times, the time zone (and its data) is not needed.
    summaryTimes.isEmpty ? nil : DayTime.next(of: summaryTimes, after: now, in: timeZone.zone)
  }

  /// The audio or movie attachment the expanded view's player plays: the first attachment,
  /// when it is not an image (the view shows the first attachment only).
  package static func mediaAttachment(of notification: UNNotification) -> UNNotificationAttachment? {
    notification.request.content.attachments.first.flatMap { $0.format.kind == .image ? nil : $0 }
  }

  /// The expanded view, when it is open.
  package var expanded: Expanded? {
    if case .expanded(let e) = overlay { return e }
    return nil
  }

  /// The expanded view on screen or waiting behind the passcode prompt.
  package var expandedOrReturning: Expanded? {
    switch overlay {
    case .expanded(let e): return e
    case .passcode(_, let returnTo): return returnTo
    case nil: return nil
    }
  }

  /// The passcode prompt, when it is open.
  package var passcodePrompt: PasscodePrompt? {
    if case .passcode(let p, _) = overlay { return p }
    return nil
  }

  /// The presentation iOS uses for a notification while the app is not in the foreground.
  package static func backgroundPresentation(for content: UNNotificationContent)
    -> UNNotificationPresentationOptions
  {
    content.interruptionLevel == .passive ? [.list, .badge] : [.banner, .list, .badge, .sound]
  }
}
