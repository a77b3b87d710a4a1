// No FoundationNetworking here: the UserNotifications facade adds it for an app's code, and
// UNTerm's own modules, which import this one, keep libcurl out of unterm's start.
@_exported import Foundation

/// A change to the notification center's data, applied by whoever holds the store.
///
/// Requests, categories, pending requests and the badge are the default app's (the app whose
/// code runs in the session: every pending request is one it added). A removal of delivered
/// notifications says whose it reaches, so every sender chooses.
package enum UNCenterOperation: @unchecked Sendable {
  case add(UNNotificationRequest)
  case setCategories([UNNotificationCategory])
  case removeDelivered([String], UNRemovalReach)
  case removeAllDelivered(UNRemovalReach)
  case removePending([String])
  case removeAllPending
  case setBadge(Int)
}

/// Whose delivered notifications a removal reaches.
package enum UNRemovalReach: Sendable, Equatable {
  /// The default app's only, as an app's center removes only its own notifications (iOS): an
  /// identifier of another app's notification is ignored, as an unknown one is.
  case ownApp
  /// Every app's: the tester's view of the device (`unterm center`, a script's `remove` and
  /// `clear`), not an app's.
  case everyApp
}

/// A running session that holds the center's store and presents what is added to it.
package protocol UNNotificationCenterHost: AnyObject, Sendable {
  /// Applies a center call in the session; `completion` runs once it has taken effect.
  func perform(_ operation: UNCenterOperation, completion: (@Sendable ((any Error)?) -> Void)?)
  /// The store as of the session's latest update.
  func storeSnapshot() -> NotificationStore
  /// The center stopped waiting for a delegate method's completion handler: say so, as iOS's
  /// console does. Any thread may call it.
  func delegateDidNotAnswer(_ call: DelegateCall, _ end: DelegateCallEnd)
}

extension NotificationStore {
  /// Applies a center call directly, as the center does while no session is running.
  ///
  /// An added request without a trigger is delivered at once; one with a trigger waits.
  package mutating func apply(_ operation: UNCenterOperation, now: Date) throws(UNError) {
    switch operation {
    case .add(let request):
      if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
        if let reason = trigger.invalidReason {
          throw UNError(.notificationInvalidNoDate, reason)
        }
        if trigger.neverFiresNote != nil {
          schedule(request, fireDate: .distantFuture)
          return
        }
        guard let date = trigger.fireDate(after: now) else {
          throw UNError(.notificationInvalidNoDate, "the trigger never fires")
        }
        schedule(request, fireDate: date)
      } else {
        removePending([request.identifier])
        deliver(UNNotification(request: request, date: now))
        applyBadge(of: request)
      }
    case .setCategories(let categories): setCategories(categories)
    case .removeDelivered(let ids, let reach): removeDelivered(ids, reaching: reach)
    case .removeAllDelivered(let reach): removeAllDelivered(reaching: reach)
    case .removePending(let ids): removePending(ids)
    case .removeAllPending: removeAllPending()
    case .setBadge(let value): setBadge(value)
    }
  }
}

/// The app's notification center: register categories, add requests, read and remove
/// delivered notifications, set the badge, and receive responses through the delegate.
///
/// While an UNTerm session runs, the center is connected to it: added requests are presented
/// on screen and the user's responses reach the delegate.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
  private static let shared = UNUserNotificationCenter()

  private let lock = NSLock()
  private var localStore = NotificationStore()
  private weak var _delegate: (any UNUserNotificationCenterDelegate)?
  private weak var host: (any UNNotificationCenterHost)?
  private var previews: UNShowPreviewsSetting = .whenAuthenticated
  /// The delegate calls waiting for their completion handlers.
  package let delegateCalls = DelegateCallLedger()

  /// The app's notification center: the running session's for the app under test (a harness's,
  /// an embedded session's; see `CenterRouting`), else the process's shared one.
  open class func current() -> UNUserNotificationCenter { CenterRouting.resolve() ?? shared }

  /// Creates a separate center, for tests and for sessions that should not share `current()`.
  package override init() {
    super.init()
    delegateCalls.onGivenUp = { [weak self] call, end in
      guard let self, let host = self.locked({ self.host }) else { return }
      host.delegateDidNotAnswer(call, end)
    }
  }

  /// A separate center for a command-line session.
  package static func makeForSession() -> UNUserNotificationCenter { UNUserNotificationCenter() }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// The object told about foreground notifications and responses. Held weakly, as on iOS.
  open var delegate: (any UNUserNotificationCenterDelegate)? {
    get { locked { _delegate } }
    set { locked { _delegate = newValue } }
  }

  /// Whether the device supports notification content extensions.
  open var supportsContentExtensions: Bool { true }

  // MARK: - Session connection

  /// Connects a running session, which takes over the store.
  package func attach(_ newHost: any UNNotificationCenterHost) -> NotificationStore {
    locked {
      host = newHost
      return localStore
    }
  }

  /// Disconnects the session and takes the store back.
  package func detach(keeping store: NotificationStore) {
    locked {
      host = nil
      localStore = store
    }
  }

  /// Sets the preview setting reported by `getNotificationSettings`.
  package func setShowPreviews(_ value: UNShowPreviewsSetting) { locked { previews = value } }

  private var store: NotificationStore {
    if let host = locked({ host }) { return host.storeSnapshot() }
    return locked { localStore }
  }

  private func perform(
    _ operation: UNCenterOperation, completion: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    if let host = locked({ host }) {
      host.perform(operation, completion: completion)
      return
    }
    let result: UNError? = locked { () -> UNError? in
      do throws(UNError) {
        try localStore.apply(operation, now: Date())
        return nil
      } catch {
        return error
      }
    }
    completion?(result)
  }

  // MARK: - Authorization and settings

  /// Asks for permission; UNTerm grants every option.
  open func requestAuthorization(
    options: UNAuthorizationOptions = [],
    completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    completionHandler(true, nil)
  }

  /// Asks for permission; UNTerm grants every option.
  open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
    true
  }

  /// The app's notification settings.
  open func getNotificationSettings(
    completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void
  ) {
    completionHandler(UNNotificationSettings(showPreviews: locked { previews }))
  }

  /// The app's notification settings.
  open func notificationSettings() async -> UNNotificationSettings {
    UNNotificationSettings(showPreviews: locked { previews })
  }

  // MARK: - Categories

  /// Registers the app's categories, replacing every category registered before.
  open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
    perform(.setCategories(Array(categories)))
  }

  /// The registered categories.
  open func getNotificationCategories(
    completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void
  ) {
    completionHandler(Set(store.categories.values))
  }

  /// The registered categories.
  open func notificationCategories() async -> Set<UNNotificationCategory> {
    Set(store.categories.values)
  }

  // MARK: - Requests

  /// Schedules a request, or delivers it at once when it has no trigger.
  ///
  /// A request with the identifier of a delivered notification replaces it and moves it to the
  /// top; one with the identifier of a pending request replaces that request.
  open func add(
    _ request: UNNotificationRequest,
    withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    perform(.add(request), completion: completionHandler)
  }

  /// Schedules a request, or delivers it at once when it has no trigger.
  open func add(_ request: UNNotificationRequest) async throws {
    let box = ErrorBox()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      perform(.add(request)) { error in
        box.set(error)
        continuation.resume()
      }
    }
    if let error = box.get() { throw error }
  }

  /// The requests waiting for their triggers: the app's own, as only the app adds them (a
  /// push is delivered at once, never pending).
  open func getPendingNotificationRequests(
    completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void
  ) {
    completionHandler(pendingRequests())
  }

  /// The requests waiting for their triggers.
  open func pendingNotificationRequests() async -> [UNNotificationRequest] { pendingRequests() }

  private func pendingRequests() -> [UNNotificationRequest] {
    store.pending.values.sorted { $0.fireDate < $1.fireDate }.map(\.request)
  }

  /// Cancels pending requests; unknown identifiers are ignored.
  open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
    perform(.removePending(identifiers))
  }

  /// Cancels every pending request.
  open func removeAllPendingNotificationRequests() { perform(.removeAllPending) }

  // MARK: - Delivered notifications

  /// The app's notifications still in the notification list, newest first: the session's
  /// default app's only, as an app sees only its own (other apps' stay on screen).
  open func getDeliveredNotifications(
    completionHandler: @escaping @Sendable ([UNNotification]) -> Void
  ) {
    completionHandler(ownDelivered())
  }

  /// The app's notifications still in the notification list, newest first: the session's
  /// default app's only, as an app sees only its own.
  open func deliveredNotifications() async -> [UNNotification] { ownDelivered() }

  private func ownDelivered() -> [UNNotification] {
    let store = self.store
    return store.deliveredNewestFirst(of: store.defaultApp)
  }

  /// Removes the app's delivered notifications with these identifiers; identifiers not in the
  /// list, and those of other apps' notifications, are ignored.
  open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
    perform(.removeDelivered(identifiers, .ownApp))
  }

  /// Removes every delivered notification of the app; other apps' stay.
  open func removeAllDeliveredNotifications() { perform(.removeAllDelivered(.ownApp)) }

  // MARK: - Badge

  /// Sets the app's badge number; 0 removes the badge.
  open func setBadgeCount(
    _ newBadgeCount: Int,
    withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    guard newBadgeCount >= 0 else {
      completionHandler?(UNError(.badgeInputInvalid, "the badge count must not be negative"))
      return
    }
    perform(.setBadge(newBadgeCount), completion: completionHandler)
  }

  /// Sets the app's badge number; 0 removes the badge.
  open func setBadgeCount(_ newBadgeCount: Int) async throws {
    guard newBadgeCount >= 0 else {
      throw UNError(.badgeInputInvalid, "the badge count must not be negative")
    }
    perform(.setBadge(newBadgeCount))
  }

  /// The app's badge number (UNTerm addition, for tests): this app's, the session's default
  /// app, as an app reads only its own.
  open var badgeCount: Int { store.badge }
}

/// Holds an error handed across a continuation.
private final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var error: (any Error)?

  func set(_ value: (any Error)?) {
    lock.lock()
    error = value
    lock.unlock()
  }

  func get() -> (any Error)? {
    lock.lock()
    defer { lock.unlock() }
    return error
  }
}
