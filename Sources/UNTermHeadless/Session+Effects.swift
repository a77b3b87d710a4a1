import Foundation
import UNTermBidi
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

#if canImport(Glibc)
  import Glibc
#endif

// Running the update's effects. Each one's result is an event, handed back to `send`, which
// applies it after the effects of the update that asked for it; work that must see the state
// those events make (the delegate, a refresh of the extension's view) is posted to the queue.
extension Session {
  /// Draws with the theme `t` chose; the result says which it is (or why it cannot be loaded).
  private func applyTheme(_ name: String) -> Event {
    do {
      renderer.theme = try theme(name)
      return .themeApplied(name, announce: true)
    } catch {
      return .themeFailed(name, reason: error.description)
    }
  }

  /// Runs one update's effects, in order, and returns their results as events for `send` to
  /// apply. A runner never sends an event itself.
  func run(_ effects: [Effect]) -> [Event] {
    // A content extension's code, called from here, finds this session's center as `current()`.
    UNUserNotificationCenter.$bound.withValue(center) {
      var results: [Event] = []
      for effect in effects { results += run(effect) }
      if state.expandedOrReturning == nil { extensions.close() }
      return results
    }
  }

  private func run(_ effect: Effect) -> [Event] {
    switch effect {
    case .respond(let recorded):
      return record(recorded.response, recorded.context, entry: recorded.entry)
    case .quit:
      return []
    case .applyTheme(let name):
      return [applyTheme(name)]
    case .present(let request):
      // Presenting asks the delegate and may run the service pipeline: it is work of its own,
      // after this update.
      queue.post { [weak self] in self?.present(request) }
      return []
    case .loadExtension(let notification):
      let actions = state.category(of: notification)?.actions ?? []
      guard let view = extensions.load(notification, actions: actions, host: self) else { return [] }
      return [
        .extensionLoaded(notification: notification.request.identifier, view), sizeNotice(of: view, for: notification),
      ]
      .compactMap { $0 }
    case .extensionAction(let response, let context):
      return extensionAction(response, context)
    case .extensionMedia(let play):
      guard let controller = extensions.activeController else { return [] }
      if play { controller.mediaPlay() } else { controller.mediaPause() }
      return refreshedView()
    case .extensionButton(let action):
      // A program's button runs its own code; what it sends the app comes back as events, and
      // what it changes in its view is drawn.
      guard let controller = extensions.activeController else { return [] }
      controller.buttonPressed(action: action)
      return refreshedView()
    case .network(let offline):
      onNetworkChange?(offline)
      return []
    }
  }

  /// Hands an action to the program extension's `didReceive(_:completionHandler:)`. Its answer
  /// comes back as `.extensionCompleted`: now, when it has no such method, or later from its
  /// completion handler, through the queue.
  private func extensionAction(_ response: UNNotificationResponse, _ context: ResponseContext) -> [Event] {
    guard let controller = extensions.activeController else { return [.extensionCompleted(response, context, nil)] }
    controller.didReceive(response) { [weak self] option in
      self?.queue.post { [weak self] in
        self?.send(.extensionCompleted(response, context, option))
        // `.doNotDismiss` keeps the view: it shows what the extension made of the action.
        self?.refreshExtensionView()
      }
    }
    let completed = UNContentExtensionDefaults.takeDefaultUsed(controller)
    return (completed ? [.extensionCompleted(response, context, nil)] : []) + refreshedView()
  }

  /// Hands a response the state recorded to the log and the delegate: the only way one
  /// leaves the session, so the Responses pane, the log and the delegate agree. The record is
  /// appended (synced) first and the state told how that went, so the pane shows ✓ only for a
  /// durable record.
  private func record(_ response: UNNotificationResponse, _ context: ResponseContext, entry: Int) -> [Event] {
    var results: [Event] = []
    var failure: ResponseLog.Failure?
    if let log = self.log {
      let file = OneLine.flatten(log.path)
      do {
        if let reopened = try log.append(Self.logRecord(response, context)) {
          results.append(.notice(.info, "\(file): \(reopened)", revealsContent: false))
        }
        results.append(.responseLogged(entry, .recorded))
      } catch {
        // Never retried: the response is shown as not recorded, and the session says what the
        // log did about it.
        results.append(.notice(.error, "\(error.description) — \(Self.describe(response)) is NOT in the log"))
        if let recovery = error.recovery {
          results.append(.notice(.warning, "\(file): \(recovery)", revealsContent: false))
        }
        results.append(.responseLogged(entry, .notRecorded(error.reason)))
        failure = error
      }
    }
    // The app hears of it once the pane shows how the log took it.
    queue.post { [weak self, failure] in
      guard let self else { return }
      if let failure { self.onLogFailure?(response, failure) }
      self.center.tellDelegate(response)
      self.onResponse?(response, context)
    }
    return results
  }

  /// A response for messages: `reply "On my way" to req-1`.
  package static func describe(_ response: UNNotificationResponse) -> String {
    let action: String
    switch response.actionIdentifier {
    case UNNotificationDefaultActionIdentifier: action = "@default"
    case UNNotificationDismissActionIdentifier: action = "@dismiss"
    default: action = response.actionIdentifier
    }
    let text = (response as? UNTextInputNotificationResponse).map { " " + OneLine.quote($0.userText, limit: 80) } ?? ""
    return "the response \(OneLine.quote(action, limit: 80))\(text) to \(response.notification.request.identifier)"
  }

  /// The warnings for what opening the log found.
  static func report(_ log: ResponseLog) -> [String] {
    let file = OneLine.flatten(log.path)
    var lines: [String] = []
    let damage = log.damage
    if damage.count == 1, let only = damage.first {
      lines.append(
        "\(file):\(only.line): warning: line \(only.line) is damaged (\(OneLine.flatten(only.reason))); new records go after the last line"
      )
    } else if let first = damage.first {
      let listed = damage.prefix(5).map { String($0.line) }.joined(separator: ", ")
      let more = damage.count > 5 ? " and \(damage.count - 5) more" : ""
      lines.append(
        "\(file):\(first.line): warning: \(damage.count) lines are damaged (not response records): \(listed)\(more); new records go after the last line"
      )
    }
    if log.repairedTornTail {
      lines.append(
        "\(file):\(log.linesOnOpen): warning: the last line was cut off (a record cut short by a crash or a full disk, never acknowledged); it is closed off and new records go after it"
      )
    }
    return lines
  }

  /// Puts the view's QA numbers in the activity pane: the heights iOS would use, the budget,
  /// and what is cut. `resized` says the view was measured before: then only a new height is
  /// reported.
  private func sizeNotice(of view: ExtensionView, for notification: UNNotification, resized: Bool = false) -> Event? {
    let device = state.device
    let m = ExtensionQA.measure(
      view, for: notification, device: device, textSize: state.textSize, images: renderer.images,
      text: state.text(of: notification))
    let id = notification.request.identifier
    if resized, let last = extensionSizes.last, last.notification == id, last.device == device.kind,
      last.preferredHeight == m.preferredHeight
    {
      return nil
    }
    extensionSizes.append(
      ExtensionSizeReport(
        notification: id, device: device.kind, initialHeight: m.initialHeight, preferredHeight: m.preferredHeight,
        defaultContentHeight: m.defaultHeight, budget: m.budget, cut: m.cut))
    let at = state.textSize == .default ? "" : " at text size \(state.textSize.displayName)"
    var text =
      resized
      ? "Extension on \(device.displayName)\(at) resized: preferred \(Projection.describe(points: m.preferredHeight)) pt"
      : "Extension on \(device.displayName)\(at): initial \(Projection.describe(points: m.initialHeight)) pt, preferred \(Projection.describe(points: m.preferredHeight)) pt"
    // The system's title and body below the view count against the budget too.
    if m.defaultHeight > 0 {
      text += " + \(Projection.describe(points: m.defaultHeight)) pt of default content below it"
    }
    text += ", budget \(Int(saturating: m.budget)) pt"
    text += m.overflow > 0 ? " — \(Int(saturating: m.overflow.rounded(.up))) pt over" : " — fits"
    if !m.cut.isEmpty { text += "; cut: " + m.cut.joined(separator: ", ") }
    return .notice(m.overflow > 0 ? .warning : .info, text)
  }

  /// Reads the open program extension's view again and draws it: after every call into the
  /// extension, and when it says its view, title or height changed (from any thread). A new
  /// height is measured against the budget in the activity pane.
  package func refreshExtensionView() {
    for event in refreshedView() { send(event) }
  }

  /// The open program extension's view read again, as events: the view, when it changed, and
  /// its new height measured against the budget, when that changed too.
  private func refreshedView() -> [Event] {
    refreshLock.lock()
    refreshPosted = false
    refreshLock.unlock()
    guard let (id, view) = extensions.currentView(), let e = state.expanded, let shown = e.extensionView,
      !shown.showsSameContent(as: view)
    else { return [] }
    // The update takes the view only for the notification the expanded view shows.
    guard e.notification.request.identifier == id else { return [] }
    return [.extensionLoaded(notification: id, view), sizeNotice(of: view, for: e.notification, resized: true)]
      .compactMap { $0 }
  }

  /// The contract's log record for a response.
  package static func logRecord(_ response: UNNotificationResponse, _ context: ResponseContext) -> JSONWriter.Value {
    let content = response.notification.request.content
    var members: [(String, JSONWriter.Value)] = [("actionIdentifier", .string(response.actionIdentifier))]
    if let text = (response as? UNTextInputNotificationResponse)?.userText {
      members.append(("userText", .string(text)))
    }
    members += [
      ("requestIdentifier", .string(response.notification.request.identifier)),
      ("categoryIdentifier", .string(content.categoryIdentifier)),
      ("threadIdentifier", .string(content.threadIdentifier)),
      ("date", .string(ISO8601.format(context.date))),
      ("device", .string(context.device.rawValue)),
      ("locked", .bool(context.isLocked)),
      // Last, so records without it (written before apps) read the same.
      ("bundleIdentifier", .string(context.bundleIdentifier)),
    ]
    return .object(members)
  }
}
