import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The loop of `unterm render --watch` and `unterm sheet --watch`: on the main thread, it waits
/// for saves (`FileWatcher`), for a change of the terminal's size, and for SIGINT, SIGTERM or
/// SIGHUP, which end it. Nothing changes the terminal's modes, so it is left as it was.
package enum WatchLoop {
  /// Why the loop wakes.
  package enum Change: Sendable, Equatable {
    /// These files (as given) were saved, coalesced over a burst.
    case saved(Set<String>)
    /// The terminal changed size (only when asked for).
    case resized
  }

  /// Calls `redraw` for every coalesced set of saves (and every resize, when `resizes`) until a
  /// termination signal arrives, then ends the process with that signal, as an interrupted
  /// program does. `redraw` returns the files to watch from then on.
  ///
  /// - Throws: `UNTermError` (exit 1) when inotify cannot be used.
  package static func run(
    watching files: [String], ignoring: [String] = [], resizes: Bool, timing: FileWatcher.Timing = FileWatcher.Timing(),
    redraw: (Change) -> [String]
  ) throws(UNTermError) -> Never {
    let signals = WatchSignals.install(windowChanges: resizes)
    let watcher = try FileWatcher(files: files, ignoring: ignoring, timing: timing)
    while true {
      let (changes, ready) = watcher.wait(orAnyOf: [signals])
      var resized = false
      if !ready.isEmpty {
        let taken = WatchSignals.take()
        if let signal = taken.termination { WatchSignals.terminate(with: signal) }
        resized = taken.resized
      }
      if !changes.isEmpty {
        watcher.watch(redraw(.saved(changes)))
      } else if resized {
        watcher.watch(redraw(.resized))
      }
    }
  }
}

/// SIGINT, SIGTERM, SIGHUP (and SIGWINCH) as bytes on a pipe, for a loop that waits with `poll`.
/// The handler only writes the signal's number (async-signal-safe); a signal that was ignored
/// when the loop started (`nohup`) stays ignored.
enum WatchSignals {
  static let termination: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Installs the handlers; returns the pipe's read end.
  static func install(windowChanges: Bool) -> Int32 {
    let fds = watchSignalPipe
    if fds[0] < 0 {
      var made: [Int32] = [-1, -1]
      if pipe(&made) == 0 {
        for fd in made {
          _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
          _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        fds[0] = made[0]
        fds[1] = made[1]
      }
    }
    for signal in termination + (windowChanges ? [SIGWINCH] : []) {
      var current = sigaction()
      sigaction(signal, nil, &current)
      if signal != SIGWINCH && handlerBits(current) == 1 { continue }  // SIG_IGN: keep ignoring
      var action = sigaction()
      action.__sigaction_handler.sa_handler = watchSignalHandler
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signal, &action, nil)
    }
    // A parent may have started the program with these blocked (a test runner, some daemons):
    // the loop must still hear them.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in termination + (windowChanges ? [SIGWINCH] : []) { sigaddset(&handled, signal) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    return fds[0]
  }

  /// The signals that arrived since the last take: the first termination signal, and whether
  /// the window changed size.
  static func take() -> (termination: Int32?, resized: Bool) {
    var buffer = [UInt8](repeating: 0, count: 64)
    var termination: Int32?
    var resized = false
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(watchSignalPipe[0], $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      for byte in buffer.prefix(n) {
        if Int32(byte) == SIGWINCH { resized = true } else if termination == nil { termination = Int32(byte) }
      }
    }
    return (termination, resized)
  }

  /// Ends the process with the signal's default action, so the shell sees it was interrupted.
  static func terminate(with signal: Int32) -> Never {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = nil  // SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signal)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    raise(signal)
    exit(128 + signal)
  }

  private static func handlerBits(_ action: sigaction) -> Int {
    guard let handler = action.__sigaction_handler.sa_handler else { return 0 }
    return unsafeBitCast(handler, to: Int.self)
  }
}

/// The signal pipe's two ends, allocated before any handler can run and never freed.
nonisolated(unsafe) private let watchSignalPipe: UnsafeMutablePointer<Int32> = {
  let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
  pointer.initialize(repeating: -1, count: 2)
  return pointer
}()

/// Writes the signal's number to the pipe; keeps `errno` as it was.
private func watchSignalHandler(_ signal: Int32) {
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: signal)
  let descriptor = watchSignalPipe[1]
  if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
  errno = saved
}
