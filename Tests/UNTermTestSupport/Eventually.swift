import Foundation

/// Waiting for something another thread or process does, without guessing how long it takes:
/// poll the condition until it holds, returning at once when it does, up to a limit generous
/// enough for a CI runner busy with other tests. A test is fast on an idle machine and only
/// slow on a loaded one, never wrong on it.
package enum Eventually {
  /// The longest a test waits for something that normally takes milliseconds.
  package static let limit: TimeInterval = 60

  /// Polls `condition` every `interval` until it holds or `limit` seconds pass; whether it held.
  /// `between` runs before each look (a test drains its session there).
  @discardableResult
  package static func wait(
    upTo limit: TimeInterval = limit, every interval: TimeInterval = 0.01, between: () -> Void = {},
    _ condition: () -> Bool
  ) -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while true {
      between()
      if condition() { return true }
      if Date() >= deadline { return false }
      Thread.sleep(forTimeInterval: interval)
    }
  }
}

extension Eventually {
  /// `wait` for async tests: sleeps by suspending, so work the condition waits for that runs
  /// as a task (a delegate's default answer) gets a thread even when the pool is busy.
  package static func waitYielding(
    upTo limit: TimeInterval = limit, every interval: Duration = .milliseconds(10), _ condition: () -> Bool
  ) async -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while true {
      if condition() { return true }
      if Date() >= deadline { return false }
      try? await Task.sleep(for: interval)
    }
  }
}
