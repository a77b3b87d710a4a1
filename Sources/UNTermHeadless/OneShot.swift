import Foundation

/// A value handed once from one thread to another that waits for it, with a time limit; the
/// waiter can give up, and the sender can tell it has.
package final class OneShot<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value?
  private var abandoned = false

  package init() {}

  /// Hands over the value (ignored after the first).
  package func set(_ newValue: Value) {
    condition.lock()
    if value == nil { value = newValue }
    condition.broadcast()
    condition.unlock()
  }

  /// Waits up to `seconds` for the value; `nil` means the waiter gave up.
  package func wait(seconds: TimeInterval) -> Value? {
    let limit = Date().addingTimeInterval(seconds)
    condition.lock()
    defer { condition.unlock() }
    while value == nil && condition.wait(until: limit) {}
    if value == nil { abandoned = true }
    return value
  }

  /// Whether the waiter gave up, so the work should not be done late.
  package var isAbandoned: Bool {
    condition.lock()
    defer { condition.unlock() }
    return abandoned
  }
}
