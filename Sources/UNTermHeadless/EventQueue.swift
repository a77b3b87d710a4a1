import Foundation
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Work posted to a session from other threads (the center's API, the socket, the inbox),
/// run on the session's own thread when it drains the queue.
///
/// Posting also writes a byte to a pipe, so a loop waiting on its input can wake up.
package final class EventQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [@Sendable () -> Void] = []
  /// Nil only when the system had no pipe to give: posting still works, nothing wakes.
  private let pipe = try? WakePipe()

  package init() {}

  /// The descriptor that becomes readable when work is posted (-1 without a pipe).
  package var wakeDescriptor: Int32 { pipe?.readDescriptor ?? -1 }

  package func post(_ work: @escaping @Sendable () -> Void) {
    lock.lock()
    items.append(work)
    lock.unlock()
    pipe?.wake()
  }

  /// Takes everything posted so far.
  package func take() -> [@Sendable () -> Void] {
    lock.lock()
    let taken = items
    items = []
    lock.unlock()
    pipe?.drain()
    return taken
  }

  package var isEmpty: Bool {
    lock.lock()
    defer { lock.unlock() }
    return items.isEmpty
  }
}
