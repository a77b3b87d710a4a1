import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

// What a content extension answers: its view, its completions, its actions and buttons.
extension CenterState {
  /// The extension's view for a notification is loaded. Only the view of the notification the
  /// expanded view shows is kept: a newer one of its thread has moved the whole view to itself
  /// before its view is loaded (`deliver`).
  mutating func extensionLoaded(_ id: String, _ loaded: ExtensionView) {
    guard case .expanded(var e) = overlay, e.notification.request.identifier == id else { return }
    var view = loaded
    view.isPlaying = e.extensionView?.isPlaying ?? view.isPlaying
    view.buttonFocus = e.extensionView?.buttonFocus
    e.extensionView = view
    overlay = .expanded(e)
  }

  /// The extension replaced the actions the expanded view lists (`notificationActions`).
  mutating func extensionSetActions(_ actions: [UNNotificationAction]) {
    guard case .expanded(var e) = overlay else { return }
    e.actionOverride = actions
    e.selection = e.selection.map { min($0, max(0, min(actions.count, 10) - 1)) }
    if actions.isEmpty { e.selection = nil }
    overlay = .expanded(e)
  }

  /// The extension opened a URL: iOS launches the app with it (`application(_:open:options:)`
  /// or a universal link), which closes the notification's expanded view; the delegate gets no
  /// response, as the user chose no action.
  mutating func extensionOpen(_ url: String) {
    guard let e = expanded else {
      note(
        .warning,
        "A content extension asked to open \(OneLine.quote(url, limit: 200)) with no expanded view; nothing opened")
      return
    }
    let id = e.notification.request.identifier
    openedURLs.append(OpenedURL(notification: id, url: url))
    overlay = nil
    bringToForeground(e.notification)
    let app = appName(for: e.notification)
    note(.info, "\(id): the content extension opened \(OneLine.quote(url, limit: 200)); iOS launches \(app) with it")
  }

  /// The extension's media started or stopped playing on its own.
  mutating func extensionMediaChanged(_ playing: Bool) {
    guard case .expanded(var e) = overlay, var view = e.extensionView else { return }
    view.isPlaying = playing
    e.extensionView = view
    overlay = .expanded(e)
  }

  mutating func extensionCompleted(
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
}
