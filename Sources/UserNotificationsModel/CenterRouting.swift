import Foundation

/// Which center `UNUserNotificationCenter.current()` answers with.
///
/// On iOS a process is one app with one center. Here one test process may hold several
/// sessions at once (a harness per test, tests run in parallel), each with its own center, and
/// the app's code under test reaches its center through `current()` without knowing which
/// session runs it. The center is found from where the call is made, most precise first:
///
/// 1. a center bound to the running task or thread (`UNUserNotificationCenter.bound`): the
///    session binds its own around every call into the app's code, and every task that code
///    starts inherits it
///    (the delegate, service and content extensions, on whatever thread they run);
/// 2. the task that made the session (a test's own task, where the test calls the app's code);
/// 3. a scope a test framework names (UNTermTesting names Swift Testing's current test, so a
///    task a test starts finds the test's session);
/// 4. the process's shared center, as on iOS (code no harness's test runs, such as work a
///    test hands to a queue of its own, reaches the shared center, never another test's).
package enum CenterRouting {
  /// One open session's center and where it was opened.
  private struct Claim {
    let id: Int
    weak var center: UNUserNotificationCenter?
    /// The task that opened it, by identity (nil when opened outside a task).
    let task: Int?
    /// The test-framework scope it was opened in.
    let scope: AnyHashable?
  }

  /// A claim's handle: the claim lasts until it is released (or the center is freed).
  package struct Token: Sendable, Hashable { let id: Int }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var claims: [Claim] = []
  nonisolated(unsafe) private static var nextID = 0
  nonisolated(unsafe) private static var scopeProvider: (@Sendable () -> AnyHashable?)?

  /// Names the scope a test framework runs the caller in (set once, by the test library).
  package static func setScopeProvider(_ provider: @escaping @Sendable () -> AnyHashable?) {
    lock.withLock { scopeProvider = provider }
  }

  /// Makes `center` what `current()` answers for calls from the calling task and scope (the
  /// newest claim wins there).
  package static func claim(_ center: UNUserNotificationCenter) -> Token {
    let task = currentTaskIdentity()
    let scope = lock.withLock { scopeProvider }?()
    return lock.withLock {
      nextID += 1
      claims.removeAll { $0.center == nil }
      claims.append(Claim(id: nextID, center: center, task: task, scope: scope))
      return Token(id: nextID)
    }
  }

  /// Ends a claim: `current()` stops answering with its center.
  package static func release(_ token: Token) {
    lock.withLock { claims.removeAll { $0.id == token.id || $0.center == nil } }
  }

  /// The center for a call made here, or nil for the process's shared one.
  static func resolve() -> UNUserNotificationCenter? {
    if let bound = UNUserNotificationCenter.bound { return bound }
    let open = lock.withLock { claims.filter { $0.center != nil } }
    guard !open.isEmpty else { return nil }
    if let task = currentTaskIdentity(), let mine = open.last(where: { $0.task == task })?.center {
      return mine
    }
    if let scope = lock.withLock({ scopeProvider })?(), let ours = open.last(where: { $0.scope == scope })?.center {
      return ours
    }
    // Not the newest harness: code outside every harness (another test's, or the process's
    // own) must not reach a center a test is using, and set its delegate there.
    return nil
  }

  private static func currentTaskIdentity() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
  }
}

extension UNUserNotificationCenter {
  /// The center bound to the running task: `current()` answers with it.
  @TaskLocal package static var bound: UNUserNotificationCenter?
}
