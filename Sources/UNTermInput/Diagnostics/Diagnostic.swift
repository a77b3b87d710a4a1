/// How serious a finding is.
package enum Severity: String, Sendable, Hashable, Comparable {
  case error, warning, note

  private var rank: Int {
    switch self {
    case .error: return 0
    case .warning: return 1
    case .note: return 2
    }
  }

  package static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// Where in a file a finding is: a line and column, and — in a JSON or property-list document —
/// the path of the value it is about. A finding about a whole document, or a file with no
/// paths (a session script), has the root path `$`; one about a whole document is at 1:1.
package struct DiagnosticLocation: Sendable, Hashable, CustomStringConvertible {
  /// 1-based line and column (columns count Unicode scalars).
  package var position: SourcePosition
  /// The value the finding is about; the root for the whole document or a file without paths.
  package var path: JSONPath

  package init(_ position: SourcePosition, path: JSONPath = .root) {
    self.position = position
    self.path = path
  }

  /// The file as a whole: 1:1, path `$`.
  package static let file = DiagnosticLocation(SourcePosition(line: 1, column: 1))

  /// A place in a file without paths (a syntax error, a script line).
  package static func position(_ position: SourcePosition) -> DiagnosticLocation {
    DiagnosticLocation(position)
  }

  /// The start of a line.
  package static func line(_ line: Int) -> DiagnosticLocation {
    DiagnosticLocation(SourcePosition(line: line, column: 1))
  }

  /// Where a finding with `code` about the value at `path` points in `document`: the key or the
  /// value, as the code's anchor says (`FindingAnchor`). Without a document, the whole file.
  package init(_ path: JSONPath, in document: JSONNode?, for code: LintCode) {
    self.init(
      document?.position(of: path, anchor: code.anchor) ?? SourcePosition(line: 1, column: 1), path: path)
  }

  /// The path as findings print it: `$` for the root.
  package var pathText: String { path.components.isEmpty ? "$" : path.description }

  /// `LINE:COL`.
  package var description: String { position.description }
}

/// One finding about an input file, with a stable kebab-case code.
package struct Diagnostic: Sendable, Hashable {
  package var file: String
  package var location: DiagnosticLocation
  package var severity: Severity
  package var code: LintCode
  /// What is wrong, ready for a terminal: values from the input are sanitized where the
  /// message interpolates them.
  package var message: SafeText
  /// Measurements a QA finding carries for `--json` (heights in points, and so on).
  package var details: [String: String] = [:]

  /// A finding with its code's severity, or another one where a mode raises it (`--strict`).
  package init(
    file: String, location: DiagnosticLocation, code: LintCode, severity: Severity? = nil, message: SafeText
  ) {
    self.file = file
    self.location = location
    self.severity = severity ?? code.severity
    self.code = code
    self.message = message
  }

  /// A finding about the value at `path` in `document`, pointing where the code's anchor says.
  package init(
    file: String, path: JSONPath, in document: JSONNode?, code: LintCode, severity: Severity? = nil,
    message: SafeText
  ) {
    self.init(
      file: file, location: DiagnosticLocation(path, in: document, for: code), code: code, severity: severity,
      message: message)
  }

  /// `FILE:LINE:COL: SEVERITY[CODE]: MESSAGE [PATH]` on one line, the shape compilers and
  /// editors use; the JSON path (`$` for the whole document) closes the line. The file name and
  /// the path (a payload's keys) are sanitized.
  package var formatted: SafeText {
    "\(file):\(location.position.line):\(location.position.column): \(severity.rawValue)[\(code.rawValue)]: \(message.oneLine) [\(pathText)]"
  }

  /// The JSON path of the finding (`$` for the document as a whole, or a file without paths).
  package var pathText: String { location.pathText }

  /// The line and column.
  package var position: SourcePosition { location.position }
}

/// A list of findings being gathered for one file.
package struct DiagnosticSink: Sendable {
  package let file: String
  package private(set) var diagnostics: [Diagnostic] = []
  /// The parsed document, once there is one: findings about a path take their line and column
  /// from it.
  package var document: JSONNode?

  package init(file: String, document: JSONNode? = nil) {
    self.file = file
    self.document = document
  }

  /// Adds a finding; its severity is the code's.
  package mutating func report(_ code: LintCode, at location: DiagnosticLocation, _ message: SafeText) {
    diagnostics.append(Diagnostic(file: file, location: location, code: code, message: message))
  }

  /// Adds a finding about the value at `path`, at the key or the value as the code's anchor
  /// says; its severity is the code's.
  package mutating func report(_ code: LintCode, _ path: JSONPath, _ message: SafeText) {
    report(code, at: DiagnosticLocation(path, in: document, for: code), message)
  }

  package mutating func append(contentsOf other: [Diagnostic]) { diagnostics += other }

  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The first error, if any.
  package var firstError: Diagnostic? { diagnostics.first { $0.severity == .error } }
}

/// Untrusted text for a one-line message: `SafeText`'s sanitizer, on one line.
package enum OneLine {
  /// The text with every control shown as a placeholder and line breaks as ␊.
  package static func flatten(_ text: String) -> String { SafeText(sanitizing: text).text }

  /// A value quoted for a message, shortened when long. A character that draws nothing is
  /// named (‹ZWSP›), so a value that differs from another only by one reads differently; ZWJ,
  /// ZWNJ and the variation selectors, which words and emoji need, are kept.
  package static func quote(_ text: String, limit: Int = 40) -> SafeText {
    "\"\(SafeText(sanitizing: namingInvisible(text)).prefix(limit))\""
  }

  private static func namingInvisible(_ text: String) -> String {
    let kept: Set<UInt32> = [0x200C, 0x200D, 0xFE0E, 0xFE0F]
    func named(_ scalar: Unicode.Scalar) -> String? {
      kept.contains(scalar.value) ? nil : SafeText.invisibleName(scalar.value)
    }
    guard text.unicodeScalars.contains(where: { named($0) != nil }) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if let name = named(scalar) {
        out += SafeText.placeholder(named: name)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// Suggests the closest known word for a misspelled one.
package enum Suggestion {
  /// The candidate equal ignoring case, else the one within a small edit distance.
  package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let list = Array(candidates)
    if let same = list.first(where: { $0.lowercased() == word.lowercased() && $0 != word }) {
      return same
    }
    let limit = max(1, min(3, (word.count + 1) / 3))
    var best: (String, Int)?
    for candidate in list where candidate != word {
      let d = distance(word.lowercased(), candidate.lowercased())
      if d <= limit && d < (best?.1 ?? .max) { best = (candidate, d) }
    }
    return best?.0
  }

  /// Edit distance counting a swap of two neighbouring letters as one edit (optimal string
  /// alignment), so "titel" is one edit from "title".
  package static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars)
    let y = Array(b.unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = i }
    for j in 0...y.count { d[0][j] = j }
    for i in 1...x.count {
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[x.count][y.count]
  }
}
