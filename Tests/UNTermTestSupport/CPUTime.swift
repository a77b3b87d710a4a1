#if canImport(Glibc)
  import Glibc
#endif

/// CPU time, for tests that check something stays cheap (a hostile file rejected before it is
/// decoded, a bomb cut short): the calling thread's own time, which does not grow while a busy
/// machine keeps it waiting, so the bound holds on any CI runner. Speed targets are benchmarks.
package enum CPUTime {
  /// Seconds of CPU time the calling thread has used.
  package static var thread: Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// The CPU time `body` takes on this thread, in seconds.
  package static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = thread
    try body()
    return thread - start
  }
}
