import Foundation
import Testing
import UNTermRender

/// Compares a grid with the screen a person should see, line by line, trailing spaces ignored.
/// A difference is reported with both screens whole, so a failure in a CI log can be read
/// without re-running the test.
package func expectScreen(
  _ grid: CellGrid, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
  let actual = grid.lines
  let wanted =
    expected.map { line -> String in
      var l = line
      while l.hasSuffix(" ") { l.removeLast() }
      return l
    } + Array(repeating: "", count: max(0, actual.count - expected.count))
  if actual != wanted {
    let message = "screen differs:\n" + ScreenDifference.describe(expected: wanted, actual: actual)
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}

/// Two screens side by side in a failure message: the expected one, then the actual one, each
/// line numbered and those that differ marked, control characters shown as their symbols (an
/// escape in a colour golden prints as ␛, not as a colour change in the log).
package enum ScreenDifference {
  package static func describe(expected: [String], actual: [String]) -> String {
    let count = max(expected.count, actual.count)
    let width = String(count).count
    func block(_ title: String, _ lines: [String], _ other: [String]) -> String {
      var text = "\(title) (\(lines.count) lines):\n"
      for i in 0..<count where i < lines.count {
        let differs = i >= other.count || other[i] != lines[i]
        let number = String(repeating: " ", count: width - String(i + 1).count) + String(i + 1)
        text += "\(differs ? "✗" : " ") \(number) │\(visible(lines[i]))│\n"
      }
      return text
    }
    let differing = (0..<count).filter { i in
      i >= expected.count || i >= actual.count || expected[i] != actual[i]
    }
    let listed = differing.prefix(10).map { String($0 + 1) }.joined(separator: ", ")
    return "lines that differ: \(listed)\(differing.count > 10 ? ", …" : "")\n"
      + block("expected", expected, actual) + block("actual", actual, expected)
  }

  /// A line with its control characters as Unicode control pictures.
  package static func visible(_ line: String) -> String {
    String(
      String.UnicodeScalarView(
        line.unicodeScalars.map { scalar in
          switch scalar.value {
          case 0..<0x20: Unicode.Scalar(0x2400 + scalar.value) ?? scalar
          case 0x7F: "\u{2421}"
          default: scalar
          }
        }))
  }
}

/// Compares text with a golden file under `Tests/Golden/`; `RECORD_SNAPSHOTS=1` re-records.
package func expectGolden(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let url = Fixtures.root.appendingPathComponent("Tests/Golden/\(name).txt")
  let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  let existing = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
  if record || existing == nil {
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: url)
    if existing == nil {
      Issue.record("recorded new golden file \(name).txt; check it and run again", sourceLocation: sourceLocation)
    }
    return
  }
  guard let existing, existing != text else { return }
  let expected = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let actual = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let message =
    "Tests/Golden/\(name).txt differs (check the actual screen; RECORD_SNAPSHOTS=1 re-records):\n"
    + ScreenDifference.describe(expected: expected, actual: actual)
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// Compares two screens printed as text (`unterm render`, a golden file): on a difference both
/// are shown whole, as `expectGolden` does, instead of as two escaped strings on one line.
package func expectSameScreen(
  _ actual: String, _ expected: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard actual != expected else { return }
  let lines = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
  let message = "\(what) differs:\n" + ScreenDifference.describe(expected: lines(expected), actual: lines(actual))
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
