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
      paste(text)
      return Outcome()
    case .command(let command):
      return perform(command)
    case .resize(let width, let height):
      resize(width: width, height: height)
      return Outcome()
    case .center(let operation):
      applyCenterOperation(operation)
      return Outcome()
    case .notice(let kind, let text, let revealsContent):
      note(kind, text, revealsContent: revealsContent)
      return Outcome()
    case .extensionLoaded(let id, let view):
      extensionLoaded(id, view)
      return Outcome()
    case .extensionCompleted(let response, let context, let option):
      return extensionCompleted(response, context, option)
    case .extensionSetActions(let actions):
      extensionSetActions(actions)
      return Outcome()
    case .extensionDefaultAction:
      guard let e = expanded else { return Outcome() }
      return open(e.notification)
    case .extensionDismiss:
      if expanded != nil { overlay = nil }
      return Outcome()
    case .extensionMediaChanged(let playing):
      extensionMediaChanged(playing)
      return Outcome()
    case .extensionOpen(let url):
      extensionOpen(url)
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
      themeApplied(name, announce: announce)
      return Outcome()
    case .themeFailed(let name, let reason):
      themeFailed(name, reason: reason)
      return Outcome()
    case .responseLogged(let number, let recording):
      responseLogged(number, recording)
      return Outcome()
    case .reload(let reload):
      return self.reload(reload)
    case .setStrings(let strings):
      localization.strings = strings
      return Outcome()
    case .activity(let push, let name):
      return receiveActivity(push, name: name)
    }
  }

  /// A paste goes into the open reply field; only a reply field takes one (iOS's passcode pad
  /// does not), and keys are never implied.
  private mutating func paste(_ text: String) {
    guard !isHelpVisible, case .expanded(var e) = overlay, var reply = e.reply else { return }
    reply.field.insert(text)
    e.reply = reply
    overlay = .expanded(e)
  }

  private mutating func resize(width: Int, height: Int) {
    screenWidth = max(0, width)
    screenHeight = max(0, height)
    ListLayout.scrollToFocus(&self)
  }
}
