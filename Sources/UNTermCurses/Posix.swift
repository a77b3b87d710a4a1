#if canImport(Glibc)
  import Glibc
#endif

/// Swift names for the C library calls this module makes, each called here and nowhere else.
///
/// The ones marked *signal-safe* take pointers, allocate nothing and are async-signal-safe, so
/// the signal handlers may use them.
enum Posix {
  // MARK: - Descriptors

  /// Whether a descriptor is a terminal.
  ///
  /// The corresponding C function is `isatty`.
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// A second descriptor for the same open file, closed on exec; -1 on failure.
  ///
  /// The corresponding C function is `fcntl(F_DUPFD_CLOEXEC)`.
  static func duplicate(_ descriptor: Int32) -> Int32 {
    fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
  }

  /// Closes a descriptor.
  ///
  /// The corresponding C function is `close`.
  static func close(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
  }

  /// Opens a file for reading and writing, closed on exec; -1 on failure.
  ///
  /// The corresponding C function is `open`.
  static func open(_ path: String, flags: Int32) -> Int32 {
    Glibc.open(path, flags | O_CLOEXEC, 0o600)
  }

  /// Creates a unique temporary file from a `XXXXXX` template and removes its name, so only the
  /// returned descriptor refers to it; -1 on failure.
  ///
  /// The corresponding C functions are `mkstemp` and `unlink`.
  static func anonymousTemporaryFile(template: String) -> Int32 {
    var path = Array(template.utf8CString)
    let descriptor = path.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      let fd = mkstemp(base)
      if fd >= 0 { _ = unlink(base) }
      return fd
    }
    return descriptor
  }

  /// The size of an open file in bytes, or 0 when it cannot be read.
  ///
  /// The corresponding C function is `fstat`.
  static func fileSize(_ descriptor: Int32) -> Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return 0 }
    return Int(info.st_size)
  }

  /// The whole content of a regular file, read from its start without moving its offset.
  ///
  /// The corresponding C function is `pread`.
  static func contents(of descriptor: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var offset = 0
    while true {
      let n = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset))
      }
      if n <= 0 { break }
      out += buffer[0..<n]
      offset += n
    }
    return out
  }

  /// Makes a descriptor non-blocking and closed on exec.
  ///
  /// The corresponding C function is `fcntl`.
  static func makeNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }

  /// A pipe's read and write ends, or `nil` when the process is out of descriptors.
  ///
  /// The corresponding C function is `pipe`.
  static func makePipe() -> (read: Int32, write: Int32)? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    return (fds[0], fds[1])
  }

  /// Writes bytes, retrying on interruption and partial writes; *signal-safe*.
  ///
  /// The corresponding C function is `write`.
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, count: Int) {
    var done = 0
    var attempts = 0
    while done < count && attempts < 64 {
      attempts += 1
      let n = Glibc.write(descriptor, bytes + done, count - done)
      if n > 0 {
        done += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }

  /// Writes an array of bytes (not signal-safe: for the terminal's own thread).
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { writeAll(descriptor, base, count: buffer.count) }
    }
  }

  /// Reads and discards whatever a non-blocking descriptor holds.
  ///
  /// The corresponding C function is `read`.
  static func drain(_ descriptor: Int32) {
    var buffer = (
      UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)
    )
    let size = MemoryLayout.size(ofValue: buffer)
    for _ in 0..<64 {
      let n = withUnsafeMutableBytes(of: &buffer) { Glibc.read(descriptor, $0.baseAddress, size) }
      if n <= 0 { return }
    }
  }

  /// The C library's `errno` for the calling thread; *signal-safe*.
  static var lastError: Int32 {
    get { errno }
    set { errno = newValue }
  }

  // MARK: - Waiting

  /// Waits until a descriptor is ready or the timeout passes (negative waits forever).
  ///
  /// Returns the ready count, or -1 with `EINTR` when a signal arrived first. The corresponding
  /// C function is `poll`.
  static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
    let count = nfds_t(descriptors.count)
    return descriptors.withUnsafeMutableBufferPointer {
      Glibc.poll($0.baseAddress, count, timeoutMilliseconds)
    }
  }

  // MARK: - Terminal modes

  /// The terminal modes of a descriptor, or `nil` when it is not a terminal.
  ///
  /// The corresponding C function is `tcgetattr`.
  static func terminalModes(_ descriptor: Int32) -> termios? {
    var modes = termios()
    guard tcgetattr(descriptor, &modes) == 0 else { return nil }
    return modes
  }

  /// Sets terminal modes at once; *signal-safe*.
  ///
  /// The corresponding C function is `tcsetattr(TCSANOW)`.
  static func setTerminalModes(_ descriptor: Int32, _ modes: UnsafePointer<termios>) {
    _ = tcsetattr(descriptor, TCSANOW, modes)
  }

  // MARK: - Signals

  /// Installs a disposition and stores the one it replaces; *signal-safe*.
  ///
  /// The corresponding C function is `sigaction`.
  static func setAction(
    _ signal: Int32, _ action: UnsafePointer<sigaction>?, previous: UnsafeMutablePointer<sigaction>?
  ) {
    _ = sigaction(signal, action, previous)
  }

  /// Empties the set of signals blocked while a handler runs; *signal-safe*.
  ///
  /// The corresponding C function is `sigemptyset`.
  static func clearMask(_ action: inout sigaction) {
    sigemptyset(&action.sa_mask)
  }

  /// Ends the process with a status.
  ///
  /// The corresponding C function is `exit`.
  static func exitProcess(_ status: Int32) -> Never {
    exit(status)
  }

  /// Sends a signal to the calling thread; *signal-safe*.
  ///
  /// The corresponding C function is `raise`.
  static func raiseSignal(_ signal: Int32) {
    _ = raise(signal)
  }

  /// Blocks (`true`) or unblocks signals for the calling thread; *signal-safe*.
  ///
  /// The corresponding C function is `pthread_sigmask`.
  static func setBlocked(_ signals: [Int32], _ blocked: Bool) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    _ = pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
  }

  /// Gives the calling thread an alternate stack for signal handlers, unless it has one, so a
  /// handler can still run after a stack overflow.
  ///
  /// The corresponding C function is `sigaltstack`.
  static func ensureAlternateSignalStack(size: Int) {
    var current = stack_t()
    guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
    var stack = stack_t()
    stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    stack.ss_size = size
    stack.ss_flags = 0
    _ = sigaltstack(&stack, nil)
  }
}
