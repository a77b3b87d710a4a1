import Foundation
import Testing
import UNTermRender
import UNTermState

@testable import UNTermCurses

#if canImport(Glibc)
  import Glibc
#endif

/// A real `CursesTerminal` reading keys from a pipe and writing to a scratch file: the whole
/// input path (`poll`, `wget_wch`, keypad, terminfo bindings, the sequence parser) without a tty.
final class PipeTerminal {
  let terminal: CursesTerminal
  /// The key pipe; its write end is -1 once `hangUp()` closed it.
  private(set) var keys: (read: Int32, write: Int32)
  let wake: (read: Int32, write: Int32)
  let output: Int32

  init(terminalType: String = "xterm-256color", options: CursesTerminal.Options = CursesTerminal.Options()) throws {
    var keyPipe: [Int32] = [-1, -1]
    var wakePipe: [Int32] = [-1, -1]
    try #require(pipe(&keyPipe) == 0)
    try #require(pipe(&wakePipe) == 0)
    keys = (keyPipe[0], keyPipe[1])
    wake = (wakePipe[0], wakePipe[1])
    output = Posix.anonymousTemporaryFile(template: "/tmp/unterm-pipe-terminal-XXXXXX")
    try #require(output >= 0)
    terminal = try CursesTerminal(
      input: keys.read, output: output, terminalType: terminalType, options: options, ownsSignals: false,
      size: (80, 24))
  }

  deinit {
    terminal.close()
    // Each descriptor is closed once: closing one twice could close another test's file that
    // reused its number in between (tests run in parallel in one process).
    for fd in [keys.read, keys.write, wake.read, wake.write, output] where fd >= 0 { close(fd) }
  }

  /// Closes the key pipe's write end, as a terminal that goes away does.
  func hangUp() {
    guard keys.write >= 0 else { return }
    close(keys.write)
    keys.write = -1
  }

  /// Sends bytes as a terminal would: in one write.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(keys.write, $0.baseAddress, $0.count) }
  }

  func next(timeout: Int32 = 500) -> [InputEvent] {
    terminal.nextInput(timeoutMilliseconds: timeout, extraFD: wake.read)
  }

  /// Every byte the terminal has written so far.
  var written: [UInt8] {
    let size = lseek(output, 0, SEEK_END)
    guard size > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    let n = bytes.withUnsafeMutableBytes { pread(output, $0.baseAddress, Int(size), 0) }
    return Array(bytes.prefix(max(0, n)))
  }
}
