import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// Acting on a notification and answering the app: opening, expanding, dismissing, replies,
// the passcode, and the responses the delegate and the log are handed.
extension CenterState {
  /// The notification with this identifier, wherever it is shown.
  func notification(_ id: String) -> UNNotification? {
    if let n = store.delivered(id) { return n }
    if let e = expanded, e.notification.request.identifier == id { return e.notification }
    if let b = banner, b.notification.request.identifier == id { return b.notification }
    return nil
  }

  func needsUnlock(_ action: UNNotificationAction) -> Bool {
    isLocked && !action.options.isDisjoint(with: [.authenticationRequired, .foreground])
  }

  mutating func askPasscode(for intent: PendingIntent) -> Outcome {
    overlay = .passcode(PasscodePrompt(intent: intent), returnTo: expanded)
    return Outcome()
  }

  /// Opens the expanded view of a notification (and loads its content extension).
  mutating func expand(_ target: UNNotification) -> Outcome {
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
  mutating func bringToForeground(_ target: UNNotification) {
    if isDefaultApp(target) {
      appState = .foreground
    } else if appState == .foreground {
      appState = .background
      note(.info, "\(appName) moved to the background")
    }
  }

  /// The default action (a tap): the app opens, so a locked device asks for the passcode first.
  mutating func open(_ target: UNNotification) -> Outcome {
    if isLocked { return askPasscode(for: .open(notification: target.request.identifier)) }
    bringToForeground(target)
    note(.info, "Opened \(appName(for: target)) from the notification")
    return respond(to: target, actionIdentifier: UNNotificationDefaultActionIdentifier, label: "Opened", text: nil)
  }

  mutating func dismiss(_ target: UNNotification) -> Outcome {
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
  mutating func clearGroup(_ key: NotificationStore.GroupKey) -> Outcome {
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

  mutating func choose(_ action: UNNotificationAction, in expanded: Expanded) -> Outcome {
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

  mutating func sendReply() -> Outcome {
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

  mutating func submitPasscode(_ code: String) -> Outcome {
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

  mutating func remove(_ target: UNNotification) {
    let id = target.request.identifier
    store.removeDelivered([id])
    if banner?.notification.request.identifier == id { banner = nil }
    if case .expanded(let e) = overlay, e.notification.request.identifier == id { overlay = nil }
    if case .passcode(_, let returnTo) = overlay, returnTo?.notification.request.identifier == id {
      overlay = nil
    }
    forgetRemoved()
  }

  mutating func respond(
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
  mutating func deliverResponse(
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
