/// Every number UNTerm reads from a file, with the range it accepts.
///
/// One declaration: each reader checks its value here (finite, whole when it must be, within
/// the range), so the ranges, the messages and the lint code cannot drift apart, and README's
/// table lists exactly these rows (a test compares them). A value outside its range is an
/// error naming the key: lint reports `LintCode.numberOutOfRange`, other commands exit 65.
package enum InputNumber: CaseIterable, Sendable {
  // Payloads
  case badge
  case relevanceScore
  case soundVolume
  case summaryArgCount
  // Content-extension descriptors and Info.plist
  case initialContentSizeRatio
  case imageHeight
  case spacer
  case maxLines
  case progress
  // Themes
  case colorNumber
  // Session scripts (and `render --size`)
  case terminalSize
  case waitDuration
  case keyRepeat
  case expectedBadge

  /// The largest height in points a file may give an element, and the most a content view is
  /// taken to ask for: 30 budgets' worth, enough for any QA report.
  package static let maximumPoints = 10_000.0
  /// The largest terminal UNTerm draws: a script's `size` and `render --size`, per side.
  package static let maximumTerminalSide = 1000
  /// The longest `wait` (and `--service-timeout`): 365 days.
  package static let maximumSeconds = 86_400.0 * 365

  private struct Rule {
    var key: String
    var file: String
    var lowest: Double
    /// Whether `lowest` itself is allowed (a size ratio must be greater than 0).
    var includesLowest = true
    var highest: Double
    var whole = false
    var unit = ""
    /// Outside the range the value is clamped with a warning, as iOS does, not refused.
    var clamps = false
  }

  private var rule: Rule {
    let int32 = Double(Int32.max)
    switch self {
    case .badge: return Rule(key: "badge", file: "payload (aps)", lowest: 0, highest: int32, whole: true)
    case .relevanceScore:
      return Rule(key: "relevance-score", file: "payload (aps)", lowest: 0, highest: 1, clamps: true)
    case .soundVolume: return Rule(key: "volume", file: "payload (aps.sound)", lowest: 0, highest: 1)
    case .summaryArgCount:
      return Rule(key: "summary-arg-count", file: "payload (aps.alert)", lowest: 0, highest: int32, whole: true)
    case .initialContentSizeRatio:
      return Rule(
        key: "UNNotificationExtensionInitialContentSizeRatio", file: "extension descriptor, Info.plist", lowest: 0,
        includesLowest: false, highest: 20)
    case .imageHeight:
      return Rule(
        key: "height", file: "extension descriptor (image)", lowest: 0, highest: Self.maximumPoints, unit: "pt")
    case .spacer:
      return Rule(key: "spacer", file: "extension descriptor", lowest: 0, highest: Self.maximumPoints, unit: "pt")
    case .maxLines:
      return Rule(key: "maxLines", file: "extension descriptor (label)", lowest: 1, highest: 1000, whole: true)
    case .progress: return Rule(key: "progress", file: "extension descriptor", lowest: 0, highest: 1)
    case .colorNumber: return Rule(key: "fg, bg", file: "theme (roles)", lowest: 0, highest: 255, whole: true)
    case .terminalSize:
      return Rule(
        key: "size", file: "session script, render --size", lowest: 1, highest: Double(Self.maximumTerminalSide),
        whole: true)
    case .waitDuration:
      return Rule(
        key: "wait", file: "session script, --service-timeout", lowest: 0, highest: Self.maximumSeconds, unit: "s")
    case .keyRepeat: return Rule(key: "key … xN", file: "session script", lowest: 1, highest: 10_000, whole: true)
    case .expectedBadge:
      return Rule(key: "expect badge", file: "session script", lowest: 0, highest: int32, whole: true)
    }
  }

  /// The key as a file writes it.
  package var key: String { rule.key }
  /// Which files hold it.
  package var files: String { rule.file }
  /// Whether a finite value outside the range is clamped (with a warning) rather than refused.
  package var clamps: Bool { rule.clamps }

  /// The accepted values in words: `a whole number from 0 to 255`, `a number greater than 0
  /// and at most 20`, `0 to 10000 pt`.
  package var range: String {
    let r = rule
    let kind = r.whole ? "a whole number" : "a number"
    let unit = r.unit.isEmpty ? "" : " \(r.unit)"
    if !r.includesLowest {
      return "\(kind) greater than \(Self.format(r.lowest)) and at most \(Self.format(r.highest))\(unit)"
    }
    return "\(kind) from \(Self.format(r.lowest)) to \(Self.format(r.highest))\(unit)"
  }

  /// Whether a value is finite, whole when it must be, and within the range.
  package func accepts(_ value: Double) -> Bool {
    let r = rule
    guard value.isFinite, value <= r.highest, r.includesLowest ? value >= r.lowest : value > r.lowest else {
      return false
    }
    return !r.whole || value == value.rounded()
  }

  /// The value held to the range (NaN becomes the lowest value).
  package func clamp(_ value: Double) -> Double {
    guard !value.isNaN else { return rule.lowest }
    return min(rule.highest, max(rule.lowest, value))
  }

  /// `KEY must be RANGE, not WRITTEN` (the written value is shortened when long); `key`
  /// names the key when one rule serves several (`fg`, `bg`).
  package func complaint(_ written: String, key: String? = nil) -> SafeText {
    let shown = written.count > 40 ? "\(written.prefix(40))…" : written
    return "\(key ?? self.key) must be \(range), not \(shown)"
  }

  /// The value when it is in range; else `nil`, with an error (`number-out-of-range`) naming
  /// the key at `path`. A node that is not a number gets `type-mismatch`.
  package func read(_ node: JSONNode, at path: JSONPath, into sink: inout DiagnosticSink) -> Double? {
    guard let number = node.number else {
      sink.report(.typeMismatch, path, "\(key) must be \(range), not \(node.typeNameWithArticle)")
      return nil
    }
    guard let value = Double(number.text), accepts(value) else {
      sink.report(.numberOutOfRange, path, complaint(number.text))
      return nil
    }
    return value
  }

  /// A whole number read as `read` does; the value fits an `Int` once accepted.
  package func readInt(_ node: JSONNode, at path: JSONPath, into sink: inout DiagnosticSink) -> Int? {
    read(node, at: path, into: &sink).map { Int(saturating: $0) }
  }

  /// Reads a whole number written in a script or an option; `nil` when it is not one or is out
  /// of range.
  package func parseInt(_ text: some StringProtocol) -> Int? {
    // Its bytes, all ASCII digits, checked on a `String`: through the generic parameter, the
    // check's first call looked up witness tables at run time, at every start with `--size`.
    let text = String(text)
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Double(text), accepts(value)
    else { return nil }
    return Int(saturating: value)
  }

  /// A number for a message: whole numbers without a fraction.
  package static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(saturating: value)) : String(value)
  }
}

extension Int {
  /// `value` rounded toward zero and held to `Int`'s range; NaN is 0. Unlike `Int(_:)`, it never
  /// traps, so a number that came from a file can never crash the program.
  package init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= 0x1p63 {
      self = .max
    } else if value <= -0x1p63 {
      self = .min
    } else {
      self = Int(value)
    }
  }
}
