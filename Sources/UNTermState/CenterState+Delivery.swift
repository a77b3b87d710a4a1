import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// Time and delivery: the clock, arrivals, the center's calls, and what leaves the screen.
extension CenterState {
  mutating func advance(to date: Date) {
    if date > now { now = date }
    // A summary time passed: what was held arrives as one summary.
    if !held.isEmpty, let due = DayTime.last(of: summaryTimes, after: summaryCheckedUntil, upTo: now, in: timeZone.zone)
    {
      deliverSummary(at: due)
    }
    summaryCheckedUntil = max(summaryCheckedUntil, now)
    if let banner, banner.expiresAt <= now {
      self.banner = nil
    }
    // A clip stops at its end, as the system's player does.
    if case .expanded(var e) = overlay, let end = e.playback.endsAt, end <= now {
      e.playback.played = e.playback.duration ?? e.playback.played
      e.playback.startedAt = nil
      overlay = .expanded(e)
    }
  }

  mutating func deliver(_ notification: UNNotification, presentation: UNNotificationPresentationOptions)
    -> Outcome
  {
    let id = notification.request.identifier
    let content = notification.request.content
    guard content.hasAlertText else {
      deliverWithoutAlertText(notification, presentation: presentation)
      return Outcome()
    }
    // Scheduled Summary and Focus decide how quietly it arrives.
    var presentation = presentation
    switch arrival(of: notification, presentation: presentation) {
    case .held:
      hold(notification, presentation: presentation)
      return Outcome()
    case .silenced(let by):
      presentation = presentation.silenced
      silenced[id] = by
    case .presented:
      silenced[id] = nil
    }
    let effects = followInExtensionView(notification, presentation: presentation)
    if presentation.showsInList {
      store.deliver(notification)
    } else {
      store.removeDelivered([id])
    }
    if presentation.contains(.badge) { store.applyBadge(of: notification.request) }
    let bannerAllowed = presentation.showsBanner && content.interruptionLevel != .passive
    let showsBanner = bannerAllowed && !isLocked
    // A replacement: the views of the identifier show the new content, and go when it is shown
    // nowhere (neither listed nor as a banner), as the old one is delivered no more.
    showInPlace(notification, listed: presentation.showsInList)
    if showsBanner {
      banner = Banner(
        notification: notification, expiresAt: now.addingTimeInterval(Self.bannerDuration),
        isListed: presentation.showsInList)
    } else if banner?.notification.request.identifier == id {
      banner = nil
    }
    if presentation.showsInList {
      // New notifications come in at the top, and the focus goes to them, as the screen
      // wakes for them.
      setFocus(id)
      listTop = nil
    } else {
      // Not listed: one delivered with its identifier is not any more.
      forgetRemoved(withdrawing: showsBanner ? [] : [id])
    }
    ListLayout.scrollToFocus(&self)
    noteSound(of: notification, presentation: presentation)
    return Outcome(effects: effects)
  }

  /// A background update, or a sound- or badge-only push: iOS shows nothing; the badge still
  /// changes, and a sound still plays unless a Focus or the summary quiets it.
  private mutating func deliverWithoutAlertText(
    _ notification: UNNotification, presentation: UNNotificationPresentationOptions
  ) {
    let id = notification.request.identifier
    if presentation.contains(.badge) { store.applyBadge(of: notification.request) }
    note(.info, "\(id): no alert text, so nothing is shown (background update or badge/sound only)")
    if arrival(of: notification, presentation: presentation) == .presented {
      noteSound(of: notification, presentation: presentation)
    }
  }

  /// A notification of the open thread arrives: iOS calls the extension's didReceive(_:)
  /// again, and the custom view shows the newer content. So the whole view moves to the newer
  /// request — default content, actions, and the responses they send — and the header says
  /// so: what the user sees and what the app is told never disagree.
  private mutating func followInExtensionView(
    _ notification: UNNotification, presentation: UNNotificationPresentationOptions
  ) -> [Effect] {
    let id = notification.request.identifier
    let content = notification.request.content
    guard case .expanded(var e) = overlay, e.extensionView != nil,
      let attributes = extensionAttributes(for: e.notification)
    else { return [] }
    let thread = e.notification.request.content.threadIdentifier
    let sameRequest = e.notification.request.identifier == id
    let sameThread =
      !thread.isEmpty && content.threadIdentifier == thread && presentation.showsInList
      && attributes.categories.contains(content.categoryIdentifier)
    guard sameRequest || sameThread else { return [] }
    if !sameRequest {
      e.movedToNewer = true
      e.selection = nil
      e.scroll = 0
      e.playback = Playback()
    }
    e.notification = notification
    e.isListed = true
    overlay = .expanded(e)
    return [.loadExtension(notification)]
  }

  mutating func applyCenterOperation(_ operation: UNCenterOperation) {
    // What the call takes off the screen besides what it takes out of the list: a notification
    // presented as a banner only is not in the list, and goes when its identifier is removed.
    var withdrawn: Set<String> = []
    switch operation {
    case .add(let request):
      // Requests normally arrive presented (`deliver`); a bare add lands in the list, replacing
      // a delivered notification of its identifier everywhere it is shown.
      try? store.apply(.add(request), now: now)
      if let current = store.delivered(request.identifier) { showInPlace(current) }
    case .removeDelivered(let ids, let reach):
      // Notifications held for the summary were delivered to the device: they go too (the
      // app's own only, when the app's center asks).
      let gone = Set(ids)
      let store = self.store
      let named = { (n: UNNotification) in gone.contains(n.request.identifier) && store.reaches(reach, n.request) }
      held.removeAll(where: named)
      withdrawn = Set(shownNotifications.filter(named).map(\.request.identifier))
      try? self.store.apply(operation, now: now)
    case .removeAllDelivered(let reach):
      held = held.filter { !store.reaches(reach, $0.request) }
      withdrawn = Set(shownNotifications.filter { store.reaches(reach, $0.request) }.map(\.request.identifier))
      try? store.apply(operation, now: now)
    default:
      try? store.apply(operation, now: now)
    }
    forgetRemoved(withdrawing: withdrawn)
  }

  /// The notifications the banner, the expanded view and the passcode prompt show.
  var shownNotifications: [UNNotification] {
    [banner?.notification, expandedOrReturning?.notification].compactMap { $0 }
  }

  /// Puts a notification's new content wherever the one of its identifier is shown.
  mutating func showInPlace(_ notification: UNNotification, listed: Bool = true) {
    let id = notification.request.identifier
    if var banner, banner.notification.request.identifier == id {
      banner.notification = notification
      self.banner = banner
    }
    func update(_ e: inout Expanded) {
      guard e.notification.request.identifier == id else { return }
      e.notification = notification
      e.isListed = listed
    }
    switch overlay {
    case .expanded(var e):
      update(&e)
      overlay = .expanded(e)
    case .passcode(let prompt, var returnTo?):
      update(&returnTo)
      overlay = .passcode(prompt, returnTo: returnTo)
    default:
      break
    }
  }

  /// Takes every notification that is no longer delivered off every place it is shown: the
  /// banner, the expanded view, the passcode prompt waiting to act on it, the list's focus.
  /// `withdrawn` names the ones removed that the list never held (presented as a banner only).
  mutating func forgetRemoved(withdrawing withdrawn: Set<String> = []) {
    silenced = silenced.filter { store.delivered($0.key) != nil }
    summaries = summaries.filter { store.count(of: $0.key) > 0 }
    if let focus = listFocus, store.delivered(focus) == nil {
      listFocus = ListLayout.first(self)
    }
    keepStackWithFocus()
    func stays(_ notification: UNNotification, listed: Bool) -> Bool {
      let id = notification.request.identifier
      return !withdrawn.contains(id) && (!listed || store.delivered(id) != nil)
    }
    if let banner, !stays(banner.notification, listed: banner.isListed) { self.banner = nil }
    switch overlay {
    case .expanded(let e) where !stays(e.notification, listed: e.isListed):
      overlay = nil
    case .passcode(_, let returnTo?) where !stays(returnTo.notification, listed: returnTo.isListed):
      // The notification the passcode was for is gone: nothing is left to authorize.
      overlay = nil
    case .passcode(let prompt, nil):
      // A tap or a long-press waiting for the passcode: gone with its notification too.
      switch prompt.intent {
      case .open(let id), .expand(let id), .action(let id, _):
        if !isLive(id) { overlay = nil }
      case .unlock:
        break
      }
    default:
      break
    }
    ListLayout.scrollToFocus(&self)
  }

  /// Moves the list's focus. A stack stays fanned out while the focus is in it, and the focus
  /// moving onto an older member of a stack fans it out.
  mutating func setFocus(_ id: String?) {
    listFocus = id
    keepStackWithFocus()
  }

  /// Keeps `fannedOutGroup` the focus's stack, or `nil`.
  mutating func keepStackWithFocus() {
    guard let focus = listFocus, let key = store.groupKey(ofDelivered: focus), store.count(of: key) > 1 else {
      fannedOutGroup = nil
      return
    }
    if store.leading(of: key)?.request.identifier != focus {
      fannedOutGroup = key
    } else if fannedOutGroup != key {
      fannedOutGroup = nil
    }
  }

  /// The collapsed stack a notification leads in the list, when a tap or `x` acts on the
  /// stack rather than on the one notification.
  func collapsedStack(of target: UNNotification) -> NotificationStore.GroupKey? {
    isCollapsedStack(target) ? store.groupKey(ofDelivered: target.request.identifier) : nil
  }

  /// Adds a line to the activity pane. The core's own lines quote no notification content
  /// unless `revealsContent` says so.
  mutating func note(_ kind: Notice.Kind, _ text: String, revealsContent: Bool = false) {
    notices.append(Notice(kind: kind, text: text, date: now, revealsContent: revealsContent))
    if notices.count > Self.paneLimit { notices.removeFirst(notices.count - Self.paneLimit) }
  }
}
