import UNTermInput
import UNTermRender

/// Why a script stopped, as a value: the line, what was expected and what happened, the recent
/// responses and the screen. The text report a person reads is made from it (and machine formats
/// can be).
package struct ScriptFailure: Sendable {
  /// What went wrong on the line.
  package enum Reason: Sendable {
    /// A step or an expectation did not hold: "no actions are listed".
    case failed(String)
    /// An expectation saw another value: `expected badge 9`, `actual badge 3`.
    case mismatch(subject: String, expected: String, actual: String)
    /// The screen differs from a snapshot file (both whole texts).
    case snapshotDiffers(name: String, expected: String, actual: String)
    /// A file the script loads could not be loaded (exit 65 or 66).
    case error(UNTermError)
    /// A response's record could not be written or synced to `--log` (exit 74); the failure's
    /// `lostResponse` names it.
    case logFailed(UNTermError)
  }

  /// A delegate response, as the report lists it.
  package struct Response: Sendable, Equatable {
    /// The action identifier, `@default` and `@dismiss` for Apple's two.
    package var action: String
    package var userText: String?
    package var request: String
    /// Whether an `expect response` has checked it.
    package var checked: Bool
  }

  package var file: String
  /// The script line, when the failure belongs to one.
  package var line: Int?
  /// The column its command starts at.
  package var column = 1
  package var source: String?
  package var reason: Reason
  /// The last few responses, oldest first.
  package var responses: [Response] = []
  /// The response whose log record was lost, when the log failed.
  package var lostResponse: Response?
  /// The screen when the script stopped (empty for a file that could not be loaded).
  package var screen: [String] = []
  package var screenWidth = 0

  /// 1 for a failed step or expectation; the error's own code for a file that could not be loaded.
  package var exitCode: ExitCode { error?.exitCode ?? .failure }

  /// The one-line error for stderr, when a file could not be loaded or the log failed.
  package var error: UNTermError? {
    switch reason {
    case .error(let error), .logFailed(let error): return error
    case .failed, .mismatch, .snapshotDiffers: return nil
    }
  }

  /// What failed, on one line, after the script's place: `s.session:4:1: expected badge 9,
  /// actual badge 3` (a report's one-line message, such as JUnit's `message`).
  package var summary: SafeText {
    let place: SafeText = line.map { "\(file):\($0):\(column): " } ?? "\(file): "
    switch reason {
    case .failed(let message): return place + "\(message)"
    case .mismatch(let subject, let expected, let actual):
      return place + "expected \(subject) \(expected), actual \(subject) \(actual)"
    case .snapshotDiffers(let name, _, _): return place + "the screen differs from snapshot \(name).txt"
    case .error(let error): return place + error.line
    case .logFailed(let error):
      let lost: SafeText = lostResponse.map { "; lost response: \($0.action) — \($0.request)" } ?? ""
      return place + error.line + lost
    }
  }

  /// What kind of failure it is, for machine reports: `expectation`, `snapshot`, `load-error` or
  /// `log-failed`.
  package var kind: SafeText {
    switch reason {
    case .failed, .mismatch: return "expectation"
    case .snapshotDiffers: return "snapshot"
    case .error: return "load-error"
    case .logFailed: return "log-failed"
    }
  }

  /// The report a person reads: the line, what failed, the recent responses and the screen.
  /// Everything from the script, its files, the payloads and the screen is sanitized: a script
  /// line, a snapshot file or an action identifier cannot move the cursor or set a title.
  package var report: SafeText {
    var out: [SafeText] = []
    if let line, let source {
      out.append("\(file):\(line):\(column): \(source)")
    }
    switch reason {
    case .failed(let message):
      out.append("  \(message)")
    case .mismatch(let subject, let expected, let actual):
      out.append("  expected \(subject) \(expected)")
      out.append("  actual \(subject)   \(actual)")
    case .snapshotDiffers(let name, let expected, let actual):
      out.append("  the screen differs from snapshot \(name).txt (--update-snapshots re-records it)")
      out += LineDiff.diff(expected: expected, actual: actual).map { "  \($0)" }
    case .error(let error):
      out.append("  \(error.line)")
      return out.joined(separator: "\n")
    case .logFailed(let error):
      out.append("  \(error.description)")
      if let lost = lostResponse {
        let text: SafeText = lost.userText.map { " \(OneLine.quote($0, limit: 80))" } ?? ""
        out.append("  lost response: \(lost.action)\(text) — \(lost.request) (not in the log)")
      }
    }
    if responses.isEmpty {
      out.append("  recent responses: none")
    } else {
      out.append("  recent responses:")
      for response in responses {
        let text: SafeText = response.userText.map { " \(OneLine.quote($0, limit: 80))" } ?? ""
        out.append("    \(response.checked ? "✓" : "·") \(response.action)\(text) — \(response.request)")
      }
    }
    out.append("  screen:")
    let rule = String(repeating: "─", count: screenWidth)
    out.append("    ┌\(rule)┐")
    for text in screen {
      let padding = String(repeating: " ", count: max(0, screenWidth - DisplayWidth.of(text)))
      out.append("    │\(text)\(padding)│")
    }
    out.append("    └\(rule)┘")
    return out.joined(separator: "\n")
  }
}

/// A line-by-line difference for reports: `- N│expected` and `+ N│actual` for each line that
/// differs.
package enum LineDiff {
  package static func diff(expected: String, actual: String) -> [String] {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var out: [String] = []
    for i in 0..<max(a.count, b.count) {
      let x = i < a.count ? a[i] : nil
      let y = i < b.count ? b[i] : nil
      if x == y { continue }
      if let x { out.append("- \(i + 1)│\(x)") }
      if let y { out.append("+ \(i + 1)│\(y)") }
    }
    return out
  }
}
