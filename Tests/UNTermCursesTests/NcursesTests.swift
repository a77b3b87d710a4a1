import Foundation
import Testing

/// Whether terminfo has `xterm-256color` (Debian's ncurses-base installs it).
private let hasXtermTerminfo = [
  "/usr/share/terminfo/x/xterm-256color", "/lib/terminfo/x/xterm-256color",
]
.contains { FileManager.default.fileExists(atPath: $0) }

/// Suites that run ncurses for real, on pipes and files instead of a tty. ncurses drives one
/// screen at a time and is not thread-safe, so everything under here runs one test at a time.
@Suite("ncurses, without a tty", .serialized, .enabled(if: hasXtermTerminfo))
enum NcursesTests {}
