import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

extension CenterState {
  /// Applies one event and says what the shell must do. The only function that changes the
  /// state.
  ///
  /// - Parameter layout: answers layout questions (how far the expanded view scrolls); without
  ///   one, scrolling is not limited.
  package mutating func handle(_ event: Event, layout: (any ScreenLayout)? = nil) -> Outcome {
    switch event {
    case .tick(let date):
      advance(to: date)
      // Requests whose triggers are due leave the store for the shell to present.
      return Outcome(effects: store.takeDue(at: now).map { .present($0) })
    case .deliver(let notification, let presentation):
      return deliver(notification, presentation: presentation)
    case .key(let key):
      return handleKey(key, layout: layout)
    case .paste(let text):
      // Only a reply field takes a paste (iOS's passcode pad does not); keys are never implied.
      guard !isHelpVisible, case .expanded(var e) = overlay, var reply = e.reply else { return Outcome() }
      reply.field.insert(text)
      e.reply = reply
      overlay = .expanded(e)
      return Outcome()
    case .command(let command):
      return perform(command)
    case .resize(let width, let height):
      screenWidth = max(0, width)
      screenHeight = max(0, height)
      ListLayout.scrollToFocus(&self)
      return Outcome()
    case .center(let operation):
      applyCenterOperation(operation)
      return Outcome()
    case .notice(let kind, let text, let revealsContent):
      note(kind, text, revealsContent: revealsContent)
      return Outcome()
    case .extensionLoaded(let id, var view):
      // Only the view of the notification the expanded view shows: a newer one of its thread
      // has moved the whole view to itself before its view is loaded (`deliver`).
      guard case .expanded(var e) = overlay, e.notification.request.identifier == id else { return Outcome() }
      view.isPlaying = e.extensionView?.isPlaying ?? view.isPlaying
      view.buttonFocus = e.extensionView?.buttonFocus
      e.extensionView = view
      overlay = .expanded(e)
      return Outcome()
    case .extensionCompleted(let response, let context, let option):
      return extensionCompleted(response, context, option)
    case .extensionSetActions(let actions):
      guard case .expanded(var e) = overlay else { return Outcome() }
      e.actionOverride = actions
      e.selection = e.selection.map { min($0, max(0, min(actions.count, 10) - 1)) }
      if actions.isEmpty { e.selection = nil }
      overlay = .expanded(e)
      return Outcome()
    case .extensionDefaultAction:
      guard let e = expanded else { return Outcome() }
      return open(e.notification)
    case .extensionDismiss:
      if expanded != nil { overlay = nil }
      return Outcome()
    case .extensionMediaChanged(let playing):
      guard case .expanded(var e) = overlay, var view = e.extensionView else { return Outcome() }
      view.isPlaying = playing
      e.extensionView = view
      overlay = .expanded(e)
      return Outcome()
    case .configure(let settings):
      configure(settings)
      return Outcome()
    case .adopt(let adopted, let shift):
      adopt(adopted, clockShift: shift)
      return Outcome()
    case .schedule(let request):
      return schedule(request)
    case .setExtensions(let byCategory):
      extensions = byCategory
      return Outcome()
    case .themeApplied(let name, let announce):
      themeName = name
      if !themeNames.contains(name) { themeNames.append(name) }
      if announce { note(.info, "Theme: \(name)") }
      return Outcome()
    case .themeFailed(let name, let reason):
      if name != themeName { themeNames.removeAll { $0 == name } }
      note(.error, reason)
      return Outcome()
    case .responseLogged(let number, let recording):
      if let number, let i = responses.lastIndex(where: { $0.number == number }) {
        responses[i].recording = recording
      }
      switch recording {
      case .recorded: logHealth = .healthy
      case .notRecorded(let reason): logHealth = .failing(reason)
      case .notLogged, .pending: break
      }
      return Outcome()
    case .reload(let reload):
      return self.reload(reload)
    case .setStrings(let strings):
      localization.strings = strings
      return Outcome()
    }
  }

  private mutating func configure(_ settings: CenterSettings) {
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

  private mutating func adopt(_ adopted: NotificationStore, clockShift shift: TimeInterval) {
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

  private mutating func schedule(_ request: UNNotificationRequest) -> Outcome {
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

  private mutating func extensionCompleted(
    _ response: UNNotificationResponse, _ context: ResponseContext,
    _ option: UNNotificationContentExtensionResponseOption?
  ) -> Outcome {
    // Each action handed to an extension is answered once, even if the view has closed since.
    guard extensionResponsesInFlight.remove(ObjectIdentifier(response)) != nil else { return Outcome() }
    if case .expanded(var e) = overlay, e.notification.request.identifier == response.notification.request.identifier {
      e.reply = nil
      overlay = .expanded(e)
    }
    switch option {
    case nil:
      // The extension does not implement didReceive(_:completionHandler:): the app gets it.
      return deliverResponse(response, context)
    case .doNotDismiss:
      note(.info, "The extension handled \(response.actionIdentifier) and kept its view open")
      return Outcome()
    case .dismiss:
      note(.info, "The extension handled \(response.actionIdentifier) and closed; the app is not told")
      remove(response.notification)
      return Outcome()
    case .dismissAndForwardAction:
      note(.info, "The extension handled \(response.actionIdentifier) and forwarded it to the app")
      return deliverResponse(response, context)
    }
  }

  // MARK: - Time and delivery

  private mutating func advance(to date: Date) {
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

  private mutating func deliver(_ notification: UNNotification, presentation: UNNotificationPresentationOptions)
    -> Outcome
  {
    let id = notification.request.identifier
    let content = notification.request.content
    guard content.hasAlertText else {
      // A background update, or a sound- or badge-only push: iOS shows nothing; the badge
      // still changes.
      if presentation.contains(.badge) { store.applyBadge(of: notification.request) }
      note(.info, "\(id): no alert text, so nothing is shown (background update or badge/sound only)")
      // A sound-only push still plays its sound, unless a Focus or the summary quiets it.
      if arrival(of: notification, presentation: presentation) == .presented {
        noteSound(of: notification, presentation: presentation)
      }
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
    var effects: [Effect] = []
    if case .expanded(var e) = overlay, e.extensionView != nil,
      let attributes = extensionAttributes(for: e.notification)
    {
      let thread = e.notification.request.content.threadIdentifier
      let sameRequest = e.notification.request.identifier == id
      let sameThread =
        !thread.isEmpty && content.threadIdentifier == thread && presentation.showsInList
        && attributes.categories.contains(content.categoryIdentifier)
      if sameRequest || sameThread {
        // A notification of the open thread arrives: iOS calls the extension's didReceive(_:)
        // again, and the custom view shows the newer content. So the whole view moves to the
        // newer request — default content, actions, and the responses they send — and the
        // header says so: what the user sees and what the app is told never disagree.
        if !sameRequest {
          e.movedToNewer = true
          e.selection = nil
          e.scroll = 0
          e.playback = Playback()
        }
        e.notification = notification
        e.isListed = true
        overlay = .expanded(e)
        effects.append(.loadExtension(notification))
      }
    }
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

  private mutating func applyCenterOperation(_ operation: UNCenterOperation) {
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
  private var shownNotifications: [UNNotification] {
    [banner?.notification, expandedOrReturning?.notification].compactMap { $0 }
  }

  /// Puts a notification's new content wherever the one of its identifier is shown.
  private mutating func showInPlace(_ notification: UNNotification, listed: Bool = true) {
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
  private mutating func setFocus(_ id: String?) {
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
  private func collapsedStack(of target: UNNotification) -> NotificationStore.GroupKey? {
    isCollapsedStack(target) ? store.groupKey(ofDelivered: target.request.identifier) : nil
  }

  /// Adds a line to the activity pane. The core's own lines quote no notification content
  /// unless `revealsContent` says so.
  mutating func note(_ kind: Notice.Kind, _ text: String, revealsContent: Bool = false) {
    notices.append(Notice(kind: kind, text: text, date: now, revealsContent: revealsContent))
    if notices.count > Self.paneLimit { notices.removeFirst(notices.count - Self.paneLimit) }
  }

  // MARK: - Keys

  /// Looks the key up in the key table (`KeyBindings`) and carries out what it does here.
  private mutating func handleKey(_ key: Key, layout: (any ScreenLayout)? = nil) -> Outcome {
    guard let action = KeyBindings.action(for: key, in: keyContext) else { return Outcome() }
    switch action {
    // Anywhere but a text field
    case .quit: return quit()
    case .showKeys: isHelpVisible = true
    case .closeKeys: isHelpVisible = false
    case .toggleLock: return isLocked ? perform(.unlock(nil)) : perform(.lock)
    case .switchDevice: return perform(.setDevice(device.kind == .iphone ? .ipad : .iphone))
    case .nextTheme:
      let names = themeNames.isEmpty ? [themeName] : themeNames
      let index = names.firstIndex(of: themeName).map { ($0 + 1) % names.count } ?? 0
      return perform(.setTheme(names[index]))
    case .cycleFocus:
      return perform(.setFocusMode(nextFocusMode, allow: nil))
    case .nextLanguage: return perform(.setLocale(localization.nextLocale))
    case .appToBackground:
      if appState == .foreground {
        appState = .background
        note(.info, "\(appName) moved to the background")
      }
    // The list or a banner
    case .longPress: return perform(.longPress)
    case .tap: return perform(.tap)
    case .clear: return perform(.dismiss)
    case .toggleList:
      if isLocked { return Outcome() }
      isListOpen.toggle()
      if isListOpen { banner = nil }
      ListLayout.scrollToFocus(&self)
    case .hideBanner:
      if isBannerShown {
        banner = nil  // flicked up into the list: not a dismissal, nothing is sent
      } else if isListOpen {
        isListOpen = false
      }
    case .focusPrevious: moveFocus(by: -1)
    case .focusNext: moveFocus(by: 1)
    case .focusPageUp: moveFocus(by: -ListLayout.page(self))
    case .focusPageDown: moveFocus(by: ListLayout.page(self))
    case .focusFirst:
      setFocus(ListLayout.first(self))
      ListLayout.scrollToFocus(&self)
    case .focusLast:
      setFocus(ListLayout.last(self))
      ListLayout.scrollToFocus(&self)
    case .showLess:
      if fannedOutGroup != nil { return perform(.showLess) }
    // The expanded view
    case .chooseAction, .selectPrevious, .selectNext, .activate, .nextExtensionButton, .playPause, .scrollUp,
      .scrollDown, .closeExpanded:
      guard let e = expanded else { return Outcome() }
      return handleExpanded(action, key: key, e, layout: layout)
    // A text field
    case .submit:
      if let prompt = passcodePrompt { return submitPasscode(prompt.field.text) }
      return sendReply()
    case .cancel:
      if case .passcode(_, let returnTo) = overlay {
        overlay = returnTo.map { .expanded($0) }
        note(.info, "Passcode cancelled; nothing was sent")
      } else if case .expanded(var e) = overlay {
        e.reply = nil
        overlay = .expanded(e)
      }
    case .insert:
      if case .character(let c) = key { editField { $0.insert(String(c)) } }
    // The arrows move the caret on screen, in display order in right-to-left text.
    case .cursorLeft:
      editField { [bidi, paragraphDirection] in
        $0.moveOnScreen(right: false, extend: false, mode: bidi, direction: paragraphDirection)
      }
    case .cursorRight:
      editField { [bidi, paragraphDirection] in
        $0.moveOnScreen(right: true, extend: false, mode: bidi, direction: paragraphDirection)
      }
    case .cursorStart: editField { $0.moveToStart() }
    case .cursorEnd: editField { $0.moveToEnd() }
    case .select:
      guard case .modified(let moved, _) = key else { break }
      switch moved {
      case .left:
        editField { [bidi, paragraphDirection] in
          $0.moveOnScreen(right: false, extend: true, mode: bidi, direction: paragraphDirection)
        }
      case .right:
        editField { [bidi, paragraphDirection] in
          $0.moveOnScreen(right: true, extend: true, mode: bidi, direction: paragraphDirection)
        }
      case .home: editField { $0.moveToStart(extend: true) }
      default: editField { $0.moveToEnd(extend: true) }
      }
    case .deleteBackward: editField { $0.deleteBackward() }
    case .deleteForward: editField { $0.deleteForward() }
    }
    return Outcome()
  }

  /// Edits the open text field: the passcode prompt's, else the reply's.
  private mutating func editField(_ edit: (inout TextField) -> Void) {
    switch overlay {
    case .passcode(var prompt, let returnTo):
      edit(&prompt.field)
      overlay = .passcode(prompt, returnTo: returnTo)
    case .expanded(var e):
      guard var reply = e.reply else { return }
      edit(&reply.field)
      e.reply = reply
      overlay = .expanded(e)
    case nil:
      break
    }
  }

  private mutating func moveFocus(by steps: Int) {
    guard isListShown else { return }
    guard var id = listFocus ?? ListLayout.first(self) else { return }
    for _ in 0..<abs(steps) {
      let next =
        steps > 0 ? ListLayout.focusNext(after: id, self) : ListLayout.focusPrevious(before: id, self)
      guard let next else { break }
      id = next
    }
    setFocus(id)
    ListLayout.scrollToFocus(&self)
  }

  /// The expanded view's keys.
  private mutating func handleExpanded(
    _ action: KeyAction, key: Key, _ expanded: Expanded, layout: (any ScreenLayout)?
  ) -> Outcome {
    var e = expanded
    let actions = self.actions(for: e)
    switch action {
    case .chooseAction:
      guard let n = KeyPattern.actionNumber(of: key), n >= 1, n <= actions.count else { return Outcome() }
      return choose(actions[n - 1], in: e)
    case .selectPrevious:
      if let s = e.selection { e.selection = s == 0 ? nil : s - 1 }
    case .selectNext:
      // The actions, then the Dismiss button after them.
      e.selection = min((e.selection ?? -1) + 1, actions.count)
    case .activate:
      if let s = e.selection, s < actions.count { return choose(actions[s], in: e) }
      if e.selection == actions.count { return perform(.dismiss) }
      if let view = e.extensionView, view.attributes.userInteractionEnabled, let focus = view.buttonFocus,
        focus < view.buttons.count
      {
        let button = view.buttons[focus]
        // The button's title may come from the payload (a template).
        note(.info, "Pressed “\(button.title)” in the extension's view", revealsContent: true)
        if view.isProgram { return Outcome(effects: [.extensionButton(action: button.action)]) }
        guard !button.action.isEmpty else { return Outcome() }
        // A described view has no code: the button's action reaches the app as a response,
        // recorded like every other, and the view stays open.
        let context = ResponseContext(
          date: now, device: device.kind, isLocked: isLocked, bundleIdentifier: app(of: e.notification))
        return deliverResponse(
          UNNotificationResponse(notification: e.notification, actionIdentifier: button.action), context,
          label: button.title, keepsNotification: true)
      }
      return perform(.tap)
    case .nextExtensionButton:
      // Moves the focus through the extension view's buttons, when it takes input.
      guard var view = e.extensionView, view.attributes.userInteractionEnabled, !view.buttons.isEmpty else {
        return Outcome()
      }
      let next = (view.buttonFocus ?? -1) + 1
      view.buttonFocus = next < view.buttons.count ? next : nil
      e.extensionView = view
      e.selection = nil
    case .playPause:
      // The system's play/pause button: the extension's, or an audio or movie attachment's.
      if var view = e.extensionView, view.mediaButton != .none {
        view.isPlaying.toggle()
        e.extensionView = view
        overlay = .expanded(e)
        return Outcome(effects: [.extensionMedia(play: view.isPlaying)])
      }
      // The attachment's player, on the session's clock; it is not drawn while previews are
      // hidden, so it does not play then either.
      guard !arePreviewsHidden, let attachment = Self.mediaAttachment(of: e.notification) else { return Outcome() }
      if e.isMediaPlaying {
        e.playback.played = e.playback.elapsed(at: now)
        e.playback.startedAt = nil
      } else {
        if let duration = layout?.mediaDuration(of: attachment) { e.playback.duration = duration }
        if let duration = e.playback.duration, e.playback.played >= duration { e.playback.played = 0 }
        e.playback.startedAt = now
      }
    case .scrollUp, .scrollDown:
      // Within what the layout can scroll, so PgUp always moves the view back at once.
      // A page is the rows the view shows at once, so nothing is skipped on a small screen.
      let limit = layout?.expandedScrollLimit(self) ?? .max
      let step = max(1, layout?.expandedPageRows(self) ?? screenHeight / 2)
      let scroll = min(e.scroll, limit)
      e.scroll = action == .scrollDown ? min(scroll + step, limit) : max(0, scroll - step)
    case .closeExpanded:
      overlay = nil
      return Outcome()
    default:
      return Outcome()
    }
    overlay = .expanded(e)
    return Outcome()
  }

  private mutating func quit() -> Outcome {
    hasQuit = true
    return Outcome(effects: [.quit])
  }

  // MARK: - Commands

  private mutating func perform(_ command: Command) -> Outcome {
    switch command {
    case .longPress:
      if passcodePrompt != nil { return .failed("the passcode prompt is open") }
      guard let target = focusedNotification else {
        return .failed("there is no notification to long-press")
      }
      if expanded?.notification.request.identifier == target.request.identifier {
        return Outcome()
      }
      if isLocked && arePreviewsHidden {
        // iOS authenticates before it shows a hidden preview's content.
        return askPasscode(for: .expand(notification: target.request.identifier))
      }
      return expand(target)
    case .tap:
      if passcodePrompt != nil { return .failed("the passcode prompt is open") }
      guard let target = focusedNotification else {
        return .failed("there is no notification to tap")
      }
      if let key = collapsedStack(of: target) {
        // A tap on a stack fans it out, as on iOS; it opens nothing.
        listFocus = target.request.identifier
        fannedOutGroup = key
        ListLayout.scrollToFocus(&self)
        return Outcome()
      }
      return open(target)
    case .dismiss:
      if passcodePrompt != nil { return .failed("the passcode prompt is open") }
      guard let target = focusedNotification else {
        return .failed("there is no notification to clear")
      }
      // Clearing a collapsed stack clears its whole group, as a swipe does on iOS.
      if let key = collapsedStack(of: target) { return clearGroup(key) }
      return dismiss(target)
    case .showLess:
      guard let key = fannedOutGroup else { return .failed("no stack is fanned out") }
      fannedOutGroup = nil
      listFocus = store.leading(of: key)?.request.identifier
      ListLayout.scrollToFocus(&self)
      return Outcome()
    case .chooseAction(let id):
      guard let e = expanded else {
        return .failed("no actions are listed; long-press a notification first")
      }
      if e.reply != nil { return .failed("the reply field is open; send or cancel it first") }
      let actions = self.actions(for: e)
      guard let action = actions.first(where: { $0.identifier == id }) else {
        let listed = actions.map(\.identifier)
        return .failed(
          "action \"\(id)\" is not listed"
            + (listed.isEmpty ? " (the notification has no actions)" : "; listed: \(listed.joined(separator: ", "))"))
      }
      return choose(action, in: e)
    case .type(let text):
      if case .passcode(var prompt, let returnTo) = overlay {
        prompt.field.insert(text)
        overlay = .passcode(prompt, returnTo: returnTo)
        return Outcome()
      }
      guard var e = expanded, var reply = e.reply else { return .failed("no text field is open") }
      reply.field.insert(text)
      e.reply = reply
      overlay = .expanded(e)
      return Outcome()
    case .send:
      if let prompt = passcodePrompt { return submitPasscode(prompt.field.text) }
      guard expanded?.reply != nil else { return .failed("no text field is open") }
      return sendReply()
    case .openCenter:
      if case .passcode = overlay { return .failed("the passcode prompt is open") }
      overlay = nil
      banner = nil
      isListOpen = true
      if listFocus == nil { setFocus(ListLayout.first(self)) }
      ListLayout.scrollToFocus(&self)
      return Outcome()
    case .lock:
      isLocked = true
      overlay = nil
      banner = nil
      isListOpen = false
      if appState == .foreground {
        appState = .background
      }
      setFocus(ListLayout.first(self))
      fannedOutGroup = nil
      listTop = nil
      note(.info, "Device locked")
      return Outcome()
    case .unlock(let code):
      if let prompt = passcodePrompt {
        return submitPasscode(code ?? prompt.field.text)
      }
      guard isLocked else { return Outcome() }
      if let code, let passcode, code != passcode {
        note(.warning, "Wrong passcode; the device stays locked")
        return Outcome()
      }
      if code == nil, passcode != nil {
        overlay = .passcode(PasscodePrompt(intent: .unlock), returnTo: expanded)
        return Outcome()
      }
      isLocked = false
      note(.info, "Device unlocked")
      ListLayout.scrollToFocus(&self)
      if let e = expanded, e.extensionView == nil, extensionAttributes(for: e.notification) != nil {
        return Outcome(effects: [.loadExtension(e.notification)])
      }
      return Outcome()
    case .setDevice(let kind):
      device = DeviceProfile.profile(kind)
      return Outcome()
    case .setTheme(let name):
      // The shell loads it and answers `.themeApplied` (or `.themeFailed`).
      return Outcome(effects: [.applyTheme(name)])
    case .setPasscode(let code):
      passcode = code
      return Outcome()
    case .setAppState(let newState):
      if newState != appState {
        note(.info, newState == .foreground ? "\(appName) is in the foreground" : "\(appName) moved to the background")
      }
      appState = newState
      return Outcome()
    case .setFocusMode(let mode, let allow):
      applyFocusMode(mode, allow: allow)
      return Outcome()
    case .setSummary(let times):
      setSummary(times)
      return Outcome()
    case .setTextSize(let size):
      textSize = size
      note(.info, "Text size: \(size.displayName)\(size == .default ? " (the default)" : "")")
      ListLayout.scrollToFocus(&self)
      return Outcome()
    case .setLocale(let locale):
      let normalized = AppStrings.normalize(locale)
      localization.locale = normalized
      if localization.strings.isEmpty {
        note(.info, "Language: \(normalized) (no app strings: give them with --strings)")
      } else if let table = localization.strings.tableName(for: normalized), table == normalized || table.isEmpty {
        note(.info, "Language: \(normalized)")
      } else {
        let shown = localization.strings.tableName(for: normalized).map { $0.isEmpty ? "the unlabelled strings" : $0 }
        note(.info, "Language: \(normalized) (the app has no \(normalized) strings; iOS shows \(shown ?? "the keys"))")
      }
      return Outcome()
    case .setBundle(let bundle):
      store.defaultApp = bundle
      isBundleNamed = true
      note(.info, "The session's own app: \(bundle) (\(appName))")
      return Outcome()
    case .setAppName(let app, let name):
      appNames[app ?? store.defaultApp] = name
      return Outcome()
    case .setPreviews(let previews):
      self.previews = previews
      return Outcome()
    case .focus(let id):
      guard store.delivered(id) != nil else { return Outcome() }
      if banner?.notification.request.identifier != id { setFocus(id) }
      ListLayout.scrollToFocus(&self)
      return Outcome()
    case .pressExtensionButton(let index):
      guard case .expanded(var e) = overlay, var view = e.extensionView, index < view.buttons.count else {
        return .failed("there is no such button")
      }
      view.buttonFocus = index
      e.extensionView = view
      e.selection = nil
      overlay = .expanded(e)
      return handleKey(.enter)
    }
  }

  /// The notification with this identifier, wherever it is shown.
  private func notification(_ id: String) -> UNNotification? {
    if let n = store.delivered(id) { return n }
    if let e = expanded, e.notification.request.identifier == id { return e.notification }
    if let b = banner, b.notification.request.identifier == id { return b.notification }
    return nil
  }

  private func needsUnlock(_ action: UNNotificationAction) -> Bool {
    isLocked && !action.options.isDisjoint(with: [.authenticationRequired, .foreground])
  }

  private mutating func askPasscode(for intent: PendingIntent) -> Outcome {
    overlay = .passcode(PasscodePrompt(intent: intent), returnTo: expanded)
    return Outcome()
  }

  /// Opens the expanded view of a notification (and loads its content extension).
  private mutating func expand(_ target: UNNotification) -> Outcome {
    let id = target.request.identifier
    var view = Expanded(notification: target)
    view.isListed = store.delivered(id) != nil
    if banner?.notification.request.identifier == id { banner = nil }
    overlay = .expanded(view)
    // With previews hidden the custom view would reveal the content: the extension is not
    // loaded, and the view shows the placeholder.
    if extensionAttributes(for: target) != nil && !arePreviewsHidden {
      return Outcome(effects: [.loadExtension(target)])
    }
    return Outcome()
  }

  /// A notification's app comes to the front: the session's own app is then in the foreground;
  /// another app's coming sends the session's own to the background (one app is in front).
  private mutating func bringToForeground(_ target: UNNotification) {
    if isDefaultApp(target) {
      appState = .foreground
    } else if appState == .foreground {
      appState = .background
      note(.info, "\(appName) moved to the background")
    }
  }

  /// The default action (a tap): the app opens, so a locked device asks for the passcode first.
  private mutating func open(_ target: UNNotification) -> Outcome {
    if isLocked { return askPasscode(for: .open(notification: target.request.identifier)) }
    bringToForeground(target)
    note(.info, "Opened \(appName(for: target)) from the notification")
    return respond(to: target, actionIdentifier: UNNotificationDefaultActionIdentifier, label: "Opened", text: nil)
  }

  private mutating func dismiss(_ target: UNNotification) -> Outcome {
    let customDismiss = category(of: target)?.options.contains(.customDismissAction) ?? false
    if customDismiss {
      return respond(to: target, actionIdentifier: UNNotificationDismissActionIdentifier, label: "Cleared", text: nil)
    }
    remove(target)
    note(.info, "Cleared; no response (the category has no customDismissAction)")
    return Outcome()
  }

  /// Clears every notification of a stack: a dismiss response for each whose category has
  /// `customDismissAction`, newest first.
  private mutating func clearGroup(_ key: NotificationStore.GroupKey) -> Outcome {
    let members = store.members(of: key)
    var outcome = Outcome()
    var told = 0
    for member in members {
      if category(of: member)?.options.contains(.customDismissAction) ?? false {
        outcome.effects +=
          respond(
            to: member, actionIdentifier: UNNotificationDismissActionIdentifier, label: "Cleared", text: nil
          ).effects
        told += 1
      } else {
        remove(member)
      }
    }
    note(
      .info,
      "Cleared a stack of \(members.count); \(told == 0 ? "no" : String(told)) dismiss response\(told == 1 ? "" : "s") (customDismissAction)"
    )
    return outcome
  }

  private mutating func choose(_ action: UNNotificationAction, in expanded: Expanded) -> Outcome {
    if needsUnlock(action) {
      return askPasscode(
        for: .action(notification: expanded.notification.request.identifier, action: action.identifier))
    }
    if action is UNTextInputNotificationAction {
      var e = expanded
      e.reply = Reply(actionIdentifier: action.identifier)
      overlay = .expanded(e)
      return Outcome()
    }
    if action.options.contains(.foreground) {
      bringToForeground(expanded.notification)
      note(.info, "\(appName(for: expanded.notification)) opens in the foreground (\(action.title))")
    }
    return respond(to: expanded.notification, actionIdentifier: action.identifier, label: action.title, text: nil)
  }

  private mutating func sendReply() -> Outcome {
    guard let e = expanded, let reply = e.reply else { return .failed("no text field is open") }
    let action = actions(for: e).first { $0.identifier == reply.actionIdentifier }
    if action?.options.contains(.foreground) == true {
      bringToForeground(e.notification)
      note(
        .info, "\(appName(for: e.notification)) opens in the foreground (\(action?.title ?? reply.actionIdentifier))")
    }
    return respond(
      to: e.notification, actionIdentifier: reply.actionIdentifier,
      label: action?.title ?? reply.actionIdentifier, text: reply.field.text)
  }

  private mutating func submitPasscode(_ code: String) -> Outcome {
    guard case .passcode(var prompt, let returnTo) = overlay else {
      return .failed("the passcode prompt is not open")
    }
    if let passcode, code != passcode {
      prompt.wrongAttempts += 1
      prompt.field = TextField()
      overlay = .passcode(prompt, returnTo: returnTo)
      note(.warning, "Wrong passcode; nothing was sent")
      return Outcome()
    }
    isLocked = false
    overlay = returnTo.map { .expanded($0) }
    note(.info, "Device unlocked")
    ListLayout.scrollToFocus(&self)
    var effects: [Effect] = []
    if let e = returnTo, e.extensionView == nil, extensionAttributes(for: e.notification) != nil, !arePreviewsHidden {
      effects.append(.loadExtension(e.notification))
    }
    var outcome: Outcome
    switch prompt.intent {
    case .unlock:
      outcome = Outcome()
    case .action(let id, let actionID):
      guard let n = notification(id) else { return Outcome(effects: effects) }
      var e = returnTo ?? Expanded(notification: n)
      if returnTo == nil { e.isListed = store.delivered(id) != nil }
      guard let action = actions(for: e).first(where: { $0.identifier == actionID }) else {
        return Outcome(effects: effects)
      }
      outcome = choose(action, in: e)
    case .open(let id):
      guard let n = notification(id) else { return Outcome(effects: effects) }
      outcome = open(n)
    case .expand(let id):
      guard let n = notification(id) else { return Outcome(effects: effects) }
      outcome = expand(n)
    }
    outcome.effects = effects + outcome.effects
    return outcome
  }

  private mutating func remove(_ target: UNNotification) {
    let id = target.request.identifier
    store.removeDelivered([id])
    if banner?.notification.request.identifier == id { banner = nil }
    if case .expanded(let e) = overlay, e.notification.request.identifier == id { overlay = nil }
    if case .passcode(_, let returnTo) = overlay, returnTo?.notification.request.identifier == id {
      overlay = nil
    }
    forgetRemoved()
  }

  private mutating func respond(
    to target: UNNotification, actionIdentifier: String, label: String, text: String?
  ) -> Outcome {
    let response: UNNotificationResponse
    if let text {
      response = UNTextInputNotificationResponse(
        notification: target, actionIdentifier: actionIdentifier, userText: text)
    } else {
      response = UNNotificationResponse(notification: target, actionIdentifier: actionIdentifier)
    }
    let context = ResponseContext(
      date: now, device: device.kind, isLocked: isLocked, bundleIdentifier: app(of: target))
    let isCustomAction =
      actionIdentifier != UNNotificationDefaultActionIdentifier
      && actionIdentifier != UNNotificationDismissActionIdentifier
    if isCustomAction, let e = expanded, e.extensionView?.isProgram == true,
      e.notification.request.identifier == target.request.identifier
    {
      extensionResponsesInFlight.insert(ObjectIdentifier(response))
      return Outcome(effects: [.extensionAction(response, context)])
    }
    return deliverResponse(response, context, label: label)
  }

  /// Hands a response to the app: the pane records it and the notification leaves the list
  /// (unless `keepsNotification`: a described view's button leaves its view open). The only
  /// maker of `.respond`, so the pane, the delegate and the log always see the same responses.
  private mutating func deliverResponse(
    _ response: UNNotificationResponse, _ context: ResponseContext, label: String? = nil,
    keepsNotification: Bool = false
  ) -> Outcome {
    let target = response.notification
    let actionIdentifier = response.actionIdentifier
    let text = (response as? UNTextInputNotificationResponse)?.userText
    let label = label ?? actionIdentifier
    // Nothing answers for a request that is not delivered any more (removed, cleared or
    // replaced by one shown nowhere), however its response got here: an extension answering
    // late, a passcode typed after the app removed it.
    let id = target.request.identifier
    guard isLive(id) else {
      note(.warning, "\(id) is no longer delivered, so no response (\(actionIdentifier)) is sent")
      return .failed("\(id) is no longer delivered (removed or replaced); no response is sent")
    }
    if !keepsNotification { remove(target) }
    responseCount += 1
    // With a log, the response is acknowledged only when the session says its record is synced.
    responses.append(
      ResponseEntry(
        actionIdentifier: actionIdentifier, label: label, userText: text,
        requestIdentifier: target.request.identifier, date: now, number: responseCount,
        recording: logHealth == .none ? .notLogged : .pending))
    if responses.count > Self.paneLimit { responses.removeFirst(responses.count - Self.paneLimit) }
    return Outcome(effects: [.respond(RecordedResponse(response, context, entry: responseCount))])
  }
}

/// A response the update has recorded in the Responses pane, for the shell to hand to the
/// delegate and the log. Its initializer is private to this file, where only `deliverResponse`
/// makes one: the compiler keeps any other path from reaching the app unseen.
package struct RecordedResponse: @unchecked Sendable {
  package let response: UNNotificationResponse
  /// How the device was when the user responded.
  package let context: ResponseContext
  /// The response's number in the Responses pane, for `Event.responseLogged`.
  package let entry: Int

  fileprivate init(_ response: UNNotificationResponse, _ context: ResponseContext, entry: Int) {
    self.response = response
    self.context = context
    self.entry = entry
  }
}
