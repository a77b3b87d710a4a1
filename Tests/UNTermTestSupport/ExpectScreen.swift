import Foundation
import Testing
import UNTermRender

/// Compares a grid with the screen a person should see, line by line, trailing spaces ignored.
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
    var message = "screen differs:\n"
    for i in 0..<max(actual.count, wanted.count) {
      let a = i < actual.count ? actual[i] : "∅"
      let w = i < wanted.count ? wanted[i] : "∅"
      message += (a == w ? "  " : "✗ ") + "\(a)\n"
      if a != w { message += "  want: \(w)\n" }
    }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
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
  let a = existing.split(separator: "\n", omittingEmptySubsequences: false)
  let b = text.split(separator: "\n", omittingEmptySubsequences: false)
  var message = "\(name).txt differs (RECORD_SNAPSHOTS=1 re-records):\n"
  for i in 0..<max(a.count, b.count) {
    let x = i < a.count ? String(a[i]) : "∅"
    let y = i < b.count ? String(b[i]) : "∅"
    if x != y { message += "- \(x)\n+ \(y)\n" }
  }
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
