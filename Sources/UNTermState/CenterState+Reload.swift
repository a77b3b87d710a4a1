import Foundation
import UNTermInput
import UserNotificationsModel

extension Event {
  /// What the live preview (`--watch`) re-read. Each replaces loaded content in place and keeps
  /// the screen's state: the focus, the open view (its selection, scroll and a reply being
  /// typed), the lock and the responses.
  package enum Reload: @unchecked Sendable {
    /// A scope's categories files (one app's, or every app's without its own): the categories
    /// it registered are replaced.
    case categories([UNNotificationCategory], scope: CategoryScope)
    /// The content-extension descriptors: the extensions by category are replaced, and an open
    /// custom view is loaded again.
    case extensions([String: ContentExtensionAttributes])
    /// A payload: the notification with the request's identifier takes its content where it
    /// stands (list position, banner time, open view). The outcome fails when no notification
    /// with that identifier is shown, for the session to deliver it anew.
    case request(UNNotificationRequest)
    /// A file could not be reloaded: its error stays at the top of the activity pane until the
    /// file loads again; what was loaded before stays on screen.
    case failed(CenterState.FileProblem)
    /// A file was reloaded: an error it had leaves the pane, which says it is fixed.
    case reloaded(file: String)
  }
}

extension CenterState {
  /// A file the live preview could not reload, and why.
  package struct FileProblem: Hashable, Sendable {
    /// The file as the command line names it.
    package var file: String
    /// Where: `FILE:LINE:COL`, or the file alone (the JSON path ends the message).
    package var place: String
    /// What is wrong, one line.
    package var message: String
    /// Whether the message may quote a notification's content (a payload's values): while
    /// previews are hidden the pane shows the place and hides the message.
    package var revealsContent: Bool

    package init(file: String, place: String, message: String, revealsContent: Bool) {
      self.file = file
      self.place = place
      self.message = message
      self.revealsContent = revealsContent
    }

    /// `FILE:LINE:COL: error: MESSAGE`, the message replaced by `hidden` when it must not show.
    package func line(hiding hidden: String?) -> String {
      "\(place): error: \(revealsContent ? hidden ?? message : message)"
    }
  }

  /// Applies what the live preview re-read.
  mutating func reload(_ reload: Event.Reload) -> Outcome {
    switch reload {
    case .categories(let categories, let scope):
      store.setCategories(categories, scope: scope)
      fitOpenViewToItsActions()
      return Outcome()
    case .extensions(let byCategory):
      extensions = byCategory
      return Outcome(effects: reloadOpenCustomView())
    case .request(let request):
      return replace(request)
    case .failed(let problem):
      if let i = fileProblems.firstIndex(where: { $0.file == problem.file }) {
        fileProblems[i] = problem
      } else {
        fileProblems.append(problem)
      }
      return Outcome()
    case .reloaded(let file):
      if let i = fileProblems.firstIndex(where: { $0.file == file }) {
        fileProblems.remove(at: i)
        note(.info, "\(file): fixed; reloaded")
      } else if let last = notices.indices.last, notices[last].text == "Reloaded \(file)" {
        // Saving again and again says so once, with the time of the last save.
        notices[last].date = now
      } else {
        note(.info, "Reloaded \(file)")
      }
      return Outcome()
    }
  }

  /// Puts a reloaded request's content in place of the notification with its identifier.
  private mutating func replace(_ request: UNNotificationRequest) -> Outcome {
    let id = request.identifier
    guard let shown = shownNotification(id) else { return .failed("\(id) is not shown") }
    guard request.content.hasAlertText else {
      note(.warning, "\(id): the reloaded payload has no alert text, so iOS would show nothing; the last version stays")
      return Outcome()
    }
    // It keeps its delivery date: the list's order and its "5m ago" do not change on a save.
    let updated = UNNotification(request: request, date: shown.date)
    store.replaceDelivered(updated)
    store.applyBadge(of: request)
    if var banner, banner.notification.request.identifier == id {
      banner.notification = updated
      self.banner = banner
    }
    var effects: [Effect] = []
    func swap(_ e: inout Expanded) {
      let before = Self.mediaAttachment(of: e.notification)?.url
      e.notification = updated
      if Self.mediaAttachment(of: updated)?.url != before { e.playback = Playback() }
    }
    switch overlay {
    case .expanded(var e) where e.notification.request.identifier == id:
      swap(&e)
      overlay = .expanded(e)
      effects = reloadOpenCustomView()
    case .passcode(let prompt, var returnTo?) where returnTo.notification.request.identifier == id:
      swap(&returnTo)
      // The custom view is loaded again once the passcode lets the view show.
      returnTo.extensionView = nil
      overlay = .passcode(prompt, returnTo: returnTo)
    default:
      break
    }
    fitOpenViewToItsActions()
    keepStackWithFocus()
    ListLayout.scrollToFocus(&self)
    return Outcome(effects: effects)
  }

  /// The notification with this identifier in the list, the banner or a view.
  private func shownNotification(_ id: String) -> UNNotification? {
    if let n = store.delivered(id) { return n }
    if let b = banner, b.notification.request.identifier == id { return b.notification }
    if let e = expandedOrReturning, e.notification.request.identifier == id { return e.notification }
    return nil
  }

  /// Asks for the open view's custom view again (its descriptor or content changed); a view
  /// whose category no extension serves any more drops it. Behind the passcode prompt the view
  /// is loaded when the prompt lets it show.
  private mutating func reloadOpenCustomView() -> [Effect] {
    switch overlay {
    case .expanded(var e):
      if extensionAttributes(for: e.notification) != nil && !arePreviewsHidden {
        return [.loadExtension(e.notification)]
      }
      e.extensionView = nil
      overlay = .expanded(e)
    case .passcode(let prompt, var returnTo?):
      returnTo.extensionView = nil
      overlay = .passcode(prompt, returnTo: returnTo)
    default:
      break
    }
    return []
  }

  /// Keeps the open view's selection among its actions, and its reply field only while its
  /// action is still a text-input action there; a field that closes says what was typed, so
  /// nothing is lost.
  private mutating func fitOpenViewToItsActions() {
    func fit(_ e: inout Expanded) {
      let actions = self.actions(for: e)
      if let selection = e.selection, selection >= actions.count {
        e.selection = actions.isEmpty ? nil : actions.count - 1
      }
      if let reply = e.reply,
        !actions.contains(where: { $0.identifier == reply.actionIdentifier && $0 is UNTextInputNotificationAction })
      {
        e.reply = nil
        note(
          .warning,
          "The reply field closed: the reloaded actions have no text-input action \(OneLine.quote(reply.actionIdentifier, limit: 40)); typed so far: \(OneLine.quote(reply.field.text, limit: 200))"
        )
      }
    }
    switch overlay {
    case .expanded(var e):
      fit(&e)
      overlay = .expanded(e)
    case .passcode(let prompt, var returnTo?):
      fit(&returnTo)
      overlay = .passcode(prompt, returnTo: returnTo)
    default:
      break
    }
  }
}
