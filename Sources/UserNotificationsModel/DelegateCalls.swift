import Foundation

/// A delegate method whose completion handler the center waits for.
package enum DelegateMethod: Sendable, Equatable {
  case willPresent, didReceive

  /// As Swift names it.
  package var name: String {
    switch self {
    case .willPresent: "userNotificationCenter(_:willPresent:withCompletionHandler:)"
    case .didReceive: "userNotificationCenter(_:didReceive:withCompletionHandler:)"
    }
  }

  /// As iOS's console names it: the Objective-C selector.
  package var selector: String {
    switch self {
    case .willPresent: "-userNotificationCenter:willPresentNotification:withCompletionHandler:"
    case .didReceive: "-userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"
    }
  }
}

/// A delegate method the center called whose completion handler has not been called yet.
package struct DelegateCall: Sendable, Equatable {
  package let id: Int
  package let method: DelegateMethod
  /// The identifier of the notification it was called for.
  package let notification: String
  package let started: Date

  /// What the activity pane says when the center stops waiting for it: iOS's console warning,
  /// and what happens next.
  package func warning(_ end: DelegateCallEnd) -> String {
    let when: String
    switch end {
    case .released: when = "let go of its completion handler without calling it"
    case .timedOut(let seconds): when = "had not called its completion handler after \(Int(seconds.rounded())) s"
    }
    let outcome = method == .willPresent ? "\(notification) is not presented, as on iOS" : "going on without it"
    return "Delegate: \(method.name) for \(notification) \(when) (iOS: delegate received call to "
      + "\(method.selector) but the completion handler was never called); \(outcome)"
  }
}

/// Why the center stopped waiting for a delegate's completion handler.
package enum DelegateCallEnd: Sendable, Equatable {
  /// The delegate let go of the handler without calling it: it can never be called.
  case released
  /// The host stopped waiting after this many seconds.
  case timedOut(TimeInterval)
}

/// The delegate calls still waiting for their completion handlers.
package final class DelegateCallLedger: @unchecked Sendable {
  private let lock = NSLock()
  private var open: [Int: DelegateCall] = [:]
  private var nextID = 0
  /// Told (on whatever thread let go of the handler) when a call is given up on.
  var onGivenUp: (@Sendable (DelegateCall, DelegateCallEnd) -> Void)?

  /// The calls waiting, oldest first.
  package var waiting: [DelegateCall] { lock.withLock { open.values.sorted { $0.id < $1.id } } }

  fileprivate func begin(_ method: DelegateMethod, notification: String) -> Ticket {
    let id = lock.withLock { () -> Int in
      nextID += 1
      open[nextID] = DelegateCall(id: nextID, method: method, notification: notification, started: Date())
      return nextID
    }
    return Ticket(ledger: self, id: id)
  }

  /// Closes a call; true when it was still open.
  fileprivate func close(_ id: Int) -> Bool { lock.withLock { open.removeValue(forKey: id) != nil } }

  fileprivate func giveUp(_ id: Int, _ end: DelegateCallEnd) {
    guard let call = lock.withLock({ open.removeValue(forKey: id) }) else { return }
    onGivenUp?(call, end)
  }

  /// Stops waiting for every open call, reporting each as not answered after `seconds`.
  package func giveUpAll(after seconds: TimeInterval) {
    for call in waiting { giveUp(call.id, .timedOut(seconds)) }
  }

  /// One call's completion handler: the first call of it counts; a handler the delegate lets
  /// go of uncalled closes the call as given up, so no one waits for it.
  fileprivate final class Ticket: @unchecked Sendable {
    private let ledger: DelegateCallLedger
    private let id: Int

    init(ledger: DelegateCallLedger, id: Int) {
      self.ledger = ledger
      self.id = id
    }

    /// True the first time the handler is called (while the call is still waited for).
    func finish() -> Bool { ledger.close(id) }

    deinit { ledger.giveUp(id, .released) }
  }
}

extension UNUserNotificationCenter {
  /// Asks the delegate how to present a notification arriving in the foreground; `answer` gets
  /// the options when (and if) its completion handler is first called. False when there is no
  /// delegate. The app's code runs with this center as `current()`.
  package func askDelegateToPresent(
    _ notification: UNNotification,
    answer: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
  ) -> Bool {
    guard let delegate else { return false }
    let ticket = delegateCalls.begin(.willPresent, notification: notification.request.identifier)
    Self.$bound.withValue(self) {
      delegate.userNotificationCenter(self, willPresent: notification) { options in
        if ticket.finish() { answer(options) }
      }
    }
    return true
  }

  /// Hands the user's response to the delegate; `done` runs when its completion handler is
  /// first called. False when there is no delegate.
  @discardableResult
  package func tellDelegate(_ response: UNNotificationResponse, done: @escaping @Sendable () -> Void = {}) -> Bool {
    guard let delegate else { return false }
    let ticket = delegateCalls.begin(.didReceive, notification: response.notification.request.identifier)
    Self.$bound.withValue(self) {
      delegate.userNotificationCenter(self, didReceive: response) {
        if ticket.finish() { done() }
      }
    }
    return true
  }
}
