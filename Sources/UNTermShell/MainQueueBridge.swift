import Foundation
import UNTermHeadless

#if canImport(Glibc)
  import Glibc
#endif

/// Serves the main dispatch queue — and with it the main actor and the main run loop's timers —
/// while the interactive loop holds the main thread, so an app's `@MainActor` delegate and its
/// `DispatchQueue.main.async` work run during the session, between frames, as on iOS.
///
/// On Linux the main queue is drained by whoever runs the main `RunLoop` (or `dispatchMain()`).
/// The loop waits in `poll` instead, so a helper thread watches the descriptor libdispatch
/// signals when work is queued on the main queue (`_dispatch_get_main_queue_handle_4CF`, what
/// CoreFoundation's run loop watches) and posts a turn of `RunLoop.main` to the session's queue,
/// which wakes the loop. The turn runs on the main thread, between frames, and the helper waits
/// for it before watching again.
///
/// Only made on the main thread: a session run elsewhere leaves the main queue to its owner.
final class MainQueueBridge: @unchecked Sendable {
  private typealias HandleFunction = @convention(c) () -> Int32

  private let handle: Int32
  private let queue: EventQueue
  private let stopPipe: [Int32]
  private let lock = NSLock()
  private var awaitingTurn = false
  private var stopping = false
  private let turnTaken = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  /// A bridge for a loop on the main thread; `nil` on any other thread, or when libdispatch
  /// does not offer the main queue's descriptor.
  init?(queue: EventQueue) {
    guard Thread.isMainThread, let symbol = dlsym(nil, "_dispatch_get_main_queue_handle_4CF")
    else { return nil }
    let handle = unsafeBitCast(symbol, to: HandleFunction.self)()
    var fds: [Int32] = [-1, -1]
    guard handle >= 0, pipe(&fds) == 0 else { return nil }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    self.handle = handle
    self.queue = queue
    stopPipe = fds
  }

  deinit {
    for fd in stopPipe { close(fd) }
  }

  /// Starts watching the main queue.
  func start() {
    let thread = Thread { [self] in
      watch()
      finished.signal()
    }
    thread.name = "unterm-main-queue"
    thread.start()
  }

  /// Stops watching; the main queue is the app's again.
  func stop() {
    lock.lock()
    stopping = true
    lock.unlock()
    var byte: UInt8 = 1
    _ = write(stopPipe[1], &byte, 1)
    turnTaken.signal()
    _ = finished.wait(timeout: .now() + 5)
  }

  /// Runs what is queued on the main queue and the main run loop now. Main thread only.
  func serve() {
    _ = RunLoop.main.run(mode: .default, before: Date())
    lock.lock()
    let waiting = awaitingTurn
    awaitingTurn = false
    lock.unlock()
    if waiting { turnTaken.signal() }
  }

  private func watch() {
    while true {
      var descriptors = [
        pollfd(fd: handle, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      if ready < 0 || descriptors[1].revents != 0 { return }
      lock.lock()
      if stopping {
        lock.unlock()
        return
      }
      awaitingTurn = true
      lock.unlock()
      queue.post { [weak self] in self?.serve() }
      turnTaken.wait()
    }
  }
}
