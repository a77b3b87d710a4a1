#if canImport(Glibc)
  import Glibc
#endif

/// A pipe that wakes a thread waiting on descriptors (`poll`, inotify): `wake()` from any
/// thread writes a byte, `readDescriptor` then polls readable until `drain()`. Both ends are
/// non-blocking and close on exec, so a wake never blocks and no child inherits them. The
/// session's event queue, the push socket's loop and `--watch` each hold one.
package final class WakePipe: Sendable {
  package let readDescriptor: Int32
  private let writeDescriptor: Int32

  /// A new pipe; `errno`'s words when the system has none to give.
  package init() throws(WakePipe.Failure) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    (readDescriptor, writeDescriptor) = (fds[0], fds[1])
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Makes the read end readable (a full pipe already is: the byte is not needed).
  package func wake() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Reads every byte written so far, so the read end waits again.
  package func drain() {
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(readDescriptor, &buffer, buffer.count) > 0 {}
  }

  /// Why no pipe could be made.
  package struct Failure: Error {
    package var reason: String
  }
}
