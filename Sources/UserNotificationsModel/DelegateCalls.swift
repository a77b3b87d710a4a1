import Foundation

/// A delegate method the center called whose completion handler has not been called yet.
package struct DelegateCall: Sendable, Equatable {
  package let id: Int
  /// The method, as Swift names it: `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
  package let method: String
  /// The identifier of the notification it was called for.
  package let notification: String
  package let started: Date

  /// What iOS's console says of it, in its words: the Objective-C selector.
  package var selector: String {
    method.contains("willPresent")
      ? "-userNotificationCenter:willPresentNotification:withCompletionHandler:"
      : "-userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"
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

  fileprivate func begin(_ method: String, notification: String) -> Ticket {
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
  @discardableResult
  package func giveUpAll(after seconds: TimeInterval) -> [DelegateCall] {
    let late = waiting
    for call in late { giveUp(call.id, .timedOut(seconds)) }
    return late
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
    let ticket = delegateCalls.begin(
      "userNotificationCenter(_:willPresent:withCompletionHandler:)", notification: notification.request.identifier)
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
    let ticket = delegateCalls.begin(
      "userNotificationCenter(_:didReceive:withCompletionHandler:)",
      notification: response.notification.request.identifier)
    Self.$bound.withValue(self) {
      delegate.userNotificationCenter(self, didReceive: response) {
        if ticket.finish() { done() }
      }
    }
    return true
  }
}
