import Foundation
import UNTermCurses

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps what a program prints off the screen while the terminal is in use: pipes are put over
/// file descriptors 1 and 2, and a reader thread hands each line to `onLine` (the session shows
/// it in the activity pane). The terminal itself writes to its own copy of the tty, taken before
/// the capture began, so drawing is unaffected.
///
/// `stop()` puts the descriptors back and prints what the pane could not show (a last line with
/// no line break) to where it was going, so nothing is lost. If the process dies of a signal
/// meanwhile, the terminal's restore puts them back before anything else, so a crash report
/// reaches the real standard error.
package final class AppOutputCapture: @unchecked Sendable {
  /// Which descriptor a line was written to.
  package enum Stream: String, Sendable {
    case standardOutput = "stdout"
    case standardError = "stderr"

    var descriptor: Int32 { self == .standardOutput ? STDOUT_FILENO : STDERR_FILENO }
  }

  /// The longest line handed on; the rest of a longer one follows as further lines.
  package static let lineLimit = 1000

  private let savedOutput: Int32
  private let savedError: Int32
  private let outputRead: Int32
  private let errorRead: Int32
  private let stopPipe: [Int32]
  private let onLine: @Sendable (Stream, String) -> Void
  private let finished = DispatchSemaphore(value: 0)
  private var splitters: [Stream: LineSplitter] = [.standardOutput: LineSplitter(), .standardError: LineSplitter()]
  private var stopped = false

  /// Starts capturing fds 1 and 2; `nil` when the pipes or copies cannot be made (then nothing
  /// is changed).
  package static func start(onLine: @escaping @Sendable (Stream, String) -> Void) -> AppOutputCapture? {
    fflush(nil)
    var outputPipe: [Int32] = [-1, -1]
    var errorPipe: [Int32] = [-1, -1]
    var stopPipe: [Int32] = [-1, -1]
    let savedOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    let savedError = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
    guard savedOutput >= 0, savedError >= 0, pipe(&outputPipe) == 0, pipe(&errorPipe) == 0, pipe(&stopPipe) == 0
    else {
      for fd in [savedOutput, savedError] + outputPipe + errorPipe + stopPipe where fd >= 0 { close(fd) }
      return nil
    }
    for fd in [outputPipe[0], errorPipe[0], stopPipe[0], stopPipe[1]] {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    // A program whose standard output is a pipe would hold lines in stdio's buffer: keep it
    // line-buffered, as it is on a terminal.
    if let file = standardOutputFile { setvbuf(file, nil, _IOLBF, Int(BUFSIZ)) }
    CursesTerminal.restoreStandardStreamsOnSignal(output: savedOutput, error: savedError)
    _ = dup2(outputPipe[1], STDOUT_FILENO)
    _ = dup2(errorPipe[1], STDERR_FILENO)
    close(outputPipe[1])
    close(errorPipe[1])
    let capture = AppOutputCapture(
      savedOutput: savedOutput, savedError: savedError, outputRead: outputPipe[0], errorRead: errorPipe[0],
      stopPipe: stopPipe, onLine: onLine)
    let thread = Thread { capture.readUntilStopped() }
    thread.name = "unterm-app-output"
    thread.start()
    return capture
  }

  private init(
    savedOutput: Int32, savedError: Int32, outputRead: Int32, errorRead: Int32, stopPipe: [Int32],
    onLine: @escaping @Sendable (Stream, String) -> Void
  ) {
    self.savedOutput = savedOutput
    self.savedError = savedError
    self.outputRead = outputRead
    self.errorRead = errorRead
    self.stopPipe = stopPipe
    self.onLine = onLine
  }

  /// Puts fds 1 and 2 back, hands on the lines still in the pipes, and prints an unfinished last
  /// line where it was going.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    fflush(nil)
    _ = dup2(savedOutput, STDOUT_FILENO)
    _ = dup2(savedError, STDERR_FILENO)
    CursesTerminal.restoreStandardStreamsOnSignal(output: -1, error: -1)
    var byte: UInt8 = 1
    _ = write(stopPipe[1], &byte, 1)
    _ = finished.wait(timeout: .now() + 5)
    for (stream, splitter) in splitters {
      let rest = splitter.remainder
      guard !rest.isEmpty else { continue }
      rest.withUnsafeBytes { _ = write(stream.descriptor, $0.baseAddress, $0.count) }
    }
    for fd in [savedOutput, savedError, outputRead, errorRead, stopPipe[0], stopPipe[1]] { close(fd) }
  }

  private func readUntilStopped() {
    defer { finished.signal() }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    var stopping = false
    while true {
      var descriptors = [
        pollfd(fd: outputRead, events: Int16(POLLIN), revents: 0),
        pollfd(fd: errorRead, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 3, stopping ? 0 : -1)
      if ready < 0 && errno == EINTR { continue }
      if descriptors[2].revents != 0 { stopping = true }
      var read = false
      for (index, stream) in [(0, Stream.standardOutput), (1, .standardError)] where descriptors[index].revents != 0 {
        let count = Glibc.read(descriptors[index].fd, &buffer, buffer.count)
        guard count > 0 else { continue }
        read = true
        for line in splitters[stream, default: LineSplitter()].feed(buffer[0..<count], limit: Self.lineLimit) {
          onLine(stream, line)
        }
      }
      // Once stopping, whatever is still in the pipes is read, then the thread ends.
      if stopping && !read { return }
    }
  }
}

/// C's `stdout` stream (Swift 6 refuses the global variable as shared mutable state).
private var standardOutputFile: UnsafeMutablePointer<FILE>? {
  dlsym(nil, "stdout")?.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
}

/// Cuts bytes into lines: complete ones (without the line break) come out, the rest waits.
package struct LineSplitter: Sendable {
  private var pending: [UInt8] = []

  package init() {}

  /// What has arrived without a line break yet.
  package var remainder: [UInt8] { pending }

  /// Takes more bytes and returns the lines they complete; a line longer than `limit` bytes
  /// comes out in pieces. Invalid UTF-8 becomes U+FFFD.
  package mutating func feed(_ bytes: some Collection<UInt8>, limit: Int) -> [String] {
    pending.append(contentsOf: bytes)
    var lines: [String] = []
    while let newline = pending.firstIndex(of: 0x0A) {
      var line = Array(pending[..<newline])
      if line.last == 0x0D { line.removeLast() }
      pending.removeSubrange(...newline)
      lines += Self.pieces(line, limit: limit)
    }
    while pending.count > limit {
      lines.append(String(decoding: pending.prefix(limit), as: UTF8.self))
      pending.removeFirst(limit)
    }
    return lines
  }

  private static func pieces(_ line: [UInt8], limit: Int) -> [String] {
    guard line.count > limit else { return [String(decoding: line, as: UTF8.self)] }
    return stride(from: 0, to: line.count, by: limit).map {
      String(decoding: line[$0..<min(line.count, $0 + limit)], as: UTF8.self)
    }
  }
}
