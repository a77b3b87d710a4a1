import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// Keys: the key table's actions carried out on the list, the expanded view and text fields.
extension CenterState {
  /// Looks the key up in the key table (`KeyBindings`) and carries out what it does here.
  mutating func handleKey(_ key: Key, layout: (any ScreenLayout)? = nil) -> Outcome {
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
    case .toggleOffline: return perform(.setOffline(!isOffline))
    case .appToBackground:
      if appState == .foreground {
        appState = .background
        note(.info, "\(appName) moved to the background")
      }
    // The list or a banner
    case .longPress: return perform(.longPress)
    case .tap: return perform(.tap)
    case .clear: return perform(.dismiss)
    case .toggleList, .hideBanner, .focusPrevious, .focusNext, .focusPageUp, .focusPageDown, .focusFirst, .focusLast:
      moveInList(action)
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
    case .insert, .cursorLeft, .cursorRight, .cursorStart, .cursorEnd, .select, .deleteBackward, .deleteForward:
      edit(action, key: key)
    }
    return Outcome()
  }

  /// The list's and the banner's keys that move or show things, sending nothing.
  private mutating func moveInList(_ action: KeyAction) {
    switch action {
    case .toggleList:
      if isLocked { return }
      isListOpen.toggle()
      if isListOpen { banner = nil }
      ListLayout.scrollToFocus(&self)
    case .hideBanner:
      if litActivityRecord != nil {
        litActivity = nil  // the expanded island goes back to compact
      } else if isBannerShown {
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
    default: break
    }
  }

  /// A text field's keys: typing, the caret, the selection and deleting.
  private mutating func edit(_ action: KeyAction, key: Key) {
    switch action {
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
    default: break
    }
  }

  /// Edits the open text field: the passcode prompt's, else the reply's.
  mutating func editField(_ edit: (inout TextField) -> Void) {
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

  mutating func moveFocus(by steps: Int) {
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
  mutating func handleExpanded(
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

  mutating func quit() -> Outcome {
    hasQuit = true
    return Outcome(effects: [.quit])
  }
}
