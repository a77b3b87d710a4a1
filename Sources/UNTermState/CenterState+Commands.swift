import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// Commands: what a key, a script or a click asks the center to do.
extension CenterState {
  /// Carries out a command; each has its function below, or is a setting kept as given.
  mutating func perform(_ command: Command) -> Outcome {
    switch command {
    case .longPress: return longPress()
    case .tap: return tap()
    case .dismiss: return dismissFocused()
    case .showLess: return showLess()
    case .chooseAction(let id): return chooseAction(id)
    case .type(let text): return typeText(text)
    case .send: return sendField()
    case .openCenter: return openCenter()
    case .lock: return lock()
    case .unlock(let code): return unlock(code)
    case .setDevice(let kind):
      device = DeviceProfile.profile(kind)
      return Outcome()
    case .setTheme(let name):
      // The shell loads it and answers `.themeApplied` (or `.themeFailed`).
      return Outcome(effects: [.applyTheme(name)])
    case .setPasscode(let code):
      passcode = code
      return Outcome()
    case .setAppState(let newState): return setAppState(newState)
    case .setFocusMode(let mode, let allow):
      applyFocusMode(mode, allow: allow)
      return Outcome()
    case .setSummary(let times):
      setSummary(times)
      return Outcome()
    case .setTextSize(let size): return setTextSize(size)
    case .setLocale(let locale): return setLocale(locale)
    case .setBundle(let bundle): return setBundle(bundle)
    case .setAppName(let app, let name):
      appNames[app ?? store.defaultApp] = name
      return Outcome()
    case .setPreviews(let previews):
      self.previews = previews
      return Outcome()
    case .setOffline(let offline): return setOffline(offline)
    case .focus(let id): return focusOn(id)
    case .pressExtensionButton(let index): return pressExtensionButton(index)
    }
  }

  /// Long-press the focused notification: its expanded view (after the passcode, when the
  /// locked device hides previews).
  private mutating func longPress() -> Outcome {
    if passcodePrompt != nil { return .failed("the passcode prompt is open") }
    guard let target = focusedNotification else {
      // On an iPhone's home screen, touching and holding the Dynamic Island expands it.
      if !isListShown, device.kind == .iphone, let activity = shownActivities.first {
        litActivity = LitActivity(id: activity.id, until: .distantFuture)
        return Outcome()
      }
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
  }

  /// Tap the focused notification: a collapsed stack fans out; anything else opens the app.
  private mutating func tap() -> Outcome {
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
  }

  /// Clear the focused notification, or a collapsed stack's whole group as a swipe does.
  private mutating func dismissFocused() -> Outcome {
    if passcodePrompt != nil { return .failed("the passcode prompt is open") }
    guard let target = focusedNotification else {
      return .failed("there is no notification to clear")
    }
    // Clearing a collapsed stack clears its whole group, as a swipe does on iOS.
    if let key = collapsedStack(of: target) { return clearGroup(key) }
    return dismiss(target)
  }

  /// Collapse the fanned-out stack (iOS's "Show less").
  private mutating func showLess() -> Outcome {
    guard let key = fannedOutGroup else { return .failed("no stack is fanned out") }
    fannedOutGroup = nil
    listFocus = store.leading(of: key)?.request.identifier
    ListLayout.scrollToFocus(&self)
    return Outcome()
  }

  /// Choose one of the expanded view's listed actions by its identifier.
  private mutating func chooseAction(_ id: String) -> Outcome {
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
  }

  /// Type into the open text field: the passcode prompt's, else the reply's.
  private mutating func typeText(_ text: String) -> Outcome {
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
  }

  /// Send the open text field: submit the passcode, or send the reply.
  private mutating func sendField() -> Outcome {
    if let prompt = passcodePrompt { return submitPasscode(prompt.field.text) }
    guard expanded?.reply != nil else { return .failed("no text field is open") }
    return sendReply()
  }

  /// Open Notification Center, closing the banner and the expanded view.
  private mutating func openCenter() -> Outcome {
    if case .passcode = overlay { return .failed("the passcode prompt is open") }
    overlay = nil
    banner = nil
    isListOpen = true
    if listFocus == nil { setFocus(ListLayout.first(self)) }
    ListLayout.scrollToFocus(&self)
    return Outcome()
  }

  /// Lock the device: the lock screen lists what was delivered; the app goes to the background.
  private mutating func lock() -> Outcome {
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
  }

  /// Unlock the device, asking for the passcode when one is set and none is given.
  private mutating func unlock(_ code: String?) -> Outcome {
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
  }

  /// Bring the app to the foreground or send it to the background.
  private mutating func setAppState(_ newState: AppState) -> Outcome {
    if newState != appState {
      note(.info, newState == .foreground ? "\(appName) is in the foreground" : "\(appName) moved to the background")
    }
    appState = newState
    return Outcome()
  }

  /// Takes the device off the network or back. A local notification needs no network and is
  /// delivered either way; what comes through APNs waits (one push per app, the newest).
  private mutating func setOffline(_ offline: Bool) -> Outcome {
    guard offline != isOffline else {
      note(.info, offline ? "The device is already offline" : "The device is already online")
      return Outcome()
    }
    isOffline = offline
    note(
      .info,
      offline
        ? "The device is offline: APNs holds each app's newest push until it is back online"
        : "The device is back online: APNs delivers what it held")
    return Outcome(effects: [.network(offline: offline)])
  }

  /// Change the Dynamic Type size.
  private mutating func setTextSize(_ size: DynamicTypeSize) -> Outcome {
    textSize = size
    note(.info, "Text size: \(size.displayName)\(size == .default ? " (the default)" : "")")
    ListLayout.scrollToFocus(&self)
    return Outcome()
  }

  /// Change the device language, saying which of the app's strings iOS would show.
  private mutating func setLocale(_ locale: String) -> Outcome {
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
  }

  /// Name the session's own app.
  private mutating func setBundle(_ bundle: String) -> Outcome {
    store.defaultApp = bundle
    isBundleNamed = true
    note(.info, "The session's own app: \(bundle) (\(appName))")
    return Outcome()
  }

  /// Move the list's focus to a notification (a click on it).
  private mutating func focusOn(_ id: String) -> Outcome {
    guard store.delivered(id) != nil else { return Outcome() }
    if banner?.notification.request.identifier != id { setFocus(id) }
    ListLayout.scrollToFocus(&self)
    return Outcome()
  }

  /// Press a button of the content extension's view (a click on it).
  private mutating func pressExtensionButton(_ index: Int) -> Outcome {
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
