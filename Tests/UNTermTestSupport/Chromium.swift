import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`), for tests that look at pictures the way a browser
/// draws them: the page's own geometry read by a script, and screenshots.
package enum Chromium {
  /// The browser, when one is installed.
  package static var path: String? {
    ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap { SystemPackages.path(of: $0) }.first
  }

  /// Whether the browser tests can run: Chromium and the fonts are installed, by the tests
  /// themselves on a machine that lacks them (`SystemPackages`).
  package static var isAvailable: Bool { SystemPackages.ensure(.browser) && path != nil }

  /// Why browser tests are skipped: Chromium could not be installed.
  package static var missing: Comment {
    Comment(rawValue: SystemPackages.reason(.browser) ?? "chromium is not installed")
  }

  private static func run(_ arguments: [String], window: (Int, Int)) throws -> String {
    guard let path else { throw BrowserError(message: "chromium is not installed") }
    let profile = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: profile) }
    // Its own process group: a browser that does not finish is killed with its helpers.
    let browser = try ChildProcess(
      path,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--force-device-scale-factor=1",
        "--user-data-dir=\(profile.path)", "--window-size=\(window.0),\(window.1)",
      ] + arguments, environment: ProcessInfo.processInfo.environment)
    defer { browser.kill() }
    let status = ChildProcess.exitCode(try browser.wait(upTo: timeLimit))
    guard status == 0 else {
      throw BrowserError(
        message:
          "chromium \(arguments.joined(separator: " ")) exited with \(status): \(String(browser.errors.suffix(600)))")
    }
    return browser.output
  }

  /// How long one browser run may take: it takes seconds, but a busy CI runner can make that
  /// minutes.
  private static let timeLimit: TimeInterval = 300

  /// The document after its scripts ran, serialized.
  package static func dumpDOM(_ file: URL, window: (Int, Int) = (1400, 900)) throws -> String {
    try run(["--dump-dom", file.absoluteString], window: window)
  }

  /// A PNG of the window showing a page.
  package static func screenshot(_ file: URL, to png: URL, window: (Int, Int)) throws {
    _ = try run(["--screenshot=\(png.path)", file.absoluteString], window: window)
    guard FileManager.default.fileExists(atPath: png.path) else {
      throw BrowserError(message: "chromium wrote no screenshot of \(file.path)")
    }
  }
}

/// A browser run that did not give what a test needs.
package struct BrowserError: Error, CustomStringConvertible {
  package var message: String
  package init(message: String) { self.message = message }
  package var description: String { message }
}
