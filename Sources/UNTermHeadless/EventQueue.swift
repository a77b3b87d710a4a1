import Foundation

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
  private var pipeFDs: [Int32] = [-1, -1]

  package init() {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) == 0 {
      for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      pipeFDs = fds
    }
  }

  deinit {
    for fd in pipeFDs where fd >= 0 { close(fd) }
  }

  /// The descriptor that becomes readable when work is posted.
  package var wakeDescriptor: Int32 { pipeFDs[0] }

  package func post(_ work: @escaping @Sendable () -> Void) {
    lock.lock()
    items.append(work)
    lock.unlock()
    if pipeFDs[1] >= 0 {
      var byte: UInt8 = 1
      _ = Glibc.write(pipeFDs[1], &byte, 1)
    }
  }

  /// Takes everything posted so far.
  package func take() -> [@Sendable () -> Void] {
    lock.lock()
    let taken = items
    items = []
    lock.unlock()
    if pipeFDs[0] >= 0 {
      var buffer = [UInt8](repeating: 0, count: 256)
      while Glibc.read(pipeFDs[0], &buffer, buffer.count) > 0 {}
    }
    return taken
  }

  package var isEmpty: Bool {
    lock.lock()
    defer { lock.unlock() }
    return items.isEmpty
  }
}
