import Foundation
import UNTermInput
import UNTermLint
import UNTermState

/// A run of session scripts as a JUnit XML report, the form test-report tools read (Jenkins,
/// GitLab, the JUnit actions of GitHub): one `testsuite` for the run, one `testcase` a script,
/// with a `failure` for a failed expectation, an `error` for a script that could not run (a
/// parse error, a missing file, a lost log record), `skipped` for one not run, and the final
/// screen in `system-out`.
///
/// Every piece of text from a script, a payload or the screen passes the sanitizer (controls
/// become the screen's visible placeholders: XML 1.0 cannot carry most C0 controls, even as
/// character references) and then the XML escaper.
package struct JUnitReport: Sendable {
  /// One script.
  package struct Case: Sendable {
    package enum Outcome: Sendable {
      case passed
      /// An expectation or step did not hold.
      case failed(ScriptFailure)
      /// The script could not run to its end: a file it loads is missing or invalid, or a
      /// response's log record was lost.
      case error(ScriptFailure)
      /// The script could not be read or parsed.
      case unreadable(UNTermError)
      /// Not run (why).
      case skipped(String)
    }

    /// The script as named on the command line.
    package var file: String
    package var outcome: Outcome
    /// Real time spent running it, in seconds.
    package var seconds: Double
    /// The screen when it ended, one string a row.
    package var screen: [String]

    package init(file: String, outcome: Outcome, seconds: Double = 0, screen: [String] = []) {
      self.file = file
      self.outcome = outcome
      self.seconds = seconds
      self.screen = screen
    }

    /// A case for a script that ran, from what running it found.
    package init(_ result: ScriptResult, seconds: Double) {
      let outcome: Outcome
      switch result.failure {
      case nil: outcome = .passed
      case let failure?: outcome = failure.error == nil ? .failed(failure) : .error(failure)
      }
      self.init(file: result.file, outcome: outcome, seconds: seconds, screen: result.screen)
    }
  }

  /// The suite's name.
  package var name = "unterm run"
  /// When the run started.
  package var timestamp: Date
  package var hostname: String
  /// Names scripts relative to the working directory (the checkout), as readers annotate them.
  package var paths: ArtifactPaths
  package var cases: [Case] = []

  package init(timestamp: Date, hostname: String, workingDirectory: String) {
    self.timestamp = timestamp
    self.hostname = hostname
    paths = ArtifactPaths(workingDirectory: workingDirectory)
  }

  package var failures: Int { cases.filter { if case .failed = $0.outcome { true } else { false } }.count }
  package var errors: Int {
    cases.filter {
      switch $0.outcome {
      case .error, .unreadable: true
      default: false
      }
    }.count
  }
  package var skipped: Int { cases.filter { if case .skipped = $0.outcome { true } else { false } }.count }

  /// The report, whole.
  package var xml: SafeText {
    let total = cases.reduce(0) { $0 + $1.seconds }
    let counts: SafeText =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(Self.seconds(total))\""
    var out: [SafeText] = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<testsuites name=\"\(Self.attribute(name))\" \(counts)>",
      "  <testsuite name=\"\(Self.attribute(name))\" \(counts) timestamp=\"\(Self.timestampText(timestamp))\" hostname=\"\(Self.attribute(hostname))\">",
    ]
    for item in cases {
      let file = paths.relative(item.file) ?? item.file
      let name = (file as NSString).lastPathComponent
      // Readers group by class name: the script's folder, dotted as a package.
      let classname = (file as NSString).deletingLastPathComponent.split(separator: "/").filter { $0 != "." }
        .joined(separator: ".")
      out.append(
        "    <testcase name=\"\(Self.attribute(name))\" classname=\"\(Self.attribute(classname.isEmpty ? "unterm" : classname))\" file=\"\(Self.attribute(file))\" time=\"\(Self.seconds(item.seconds))\">"
      )
      switch item.outcome {
      case .passed:
        break
      case .failed(let failure):
        out.append(
          "      <failure message=\"\(Self.attribute(failure.summary.text))\" type=\"\(failure.kind)\">\(Self.text(failure.report.text))</failure>"
        )
      case .error(let failure):
        out.append(
          "      <error message=\"\(Self.attribute(failure.summary.text))\" type=\"\(failure.kind)\">\(Self.text(failure.report.text))</error>"
        )
      case .unreadable(let error):
        let kind: SafeText = error.exitCode == .noInput ? "missing-file" : "parse-error"
        out.append(
          "      <error message=\"\(Self.attribute(error.line.text))\" type=\"\(kind)\">\(Self.text(error.line.text))</error>"
        )
      case .skipped(let reason):
        out.append("      <skipped message=\"\(Self.attribute(reason))\"/>")
      }
      if !item.screen.isEmpty {
        let screen = item.screen.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
        out.append("      <system-out>\(Self.text(screen))</system-out>")
      }
      out.append("    </testcase>")
    }
    out.append("  </testsuite>")
    out.append("</testsuites>")
    return out.joined(separator: "\n") + "\n"
  }

  /// Text for an attribute: on one line (a line break shows as ␊, as in every one-line
  /// message), every control a placeholder, then XML-escaped.
  static func attribute(_ text: String) -> SafeText {
    SafeText(xmlEscaping: SafeText(sanitizing: text).text)
  }

  /// Text for an element's content: its lines kept, every other control a placeholder, then
  /// XML-escaped.
  static func text(_ text: String) -> SafeText {
    SafeText(xmlEscaping: SafeText(sanitizing: text, multiline: true).text)
  }

  /// Seconds with three decimals, as readers parse them (`0.042`).
  static func seconds(_ value: Double) -> String {
    String(format: "%.3f", max(0, value.isFinite ? value : 0))
  }

  /// `2026-01-01T09:41:00`: UTC, with no zone, as the JUnit schema (Ant's) has it.
  static func timestampText(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return formatter.string(from: date)
  }
}
