import UNTermBidi

/// Text that may be written to a terminal: nothing in it is a control a terminal acts on except
/// what the program wrote itself.
///
/// Every output of UNTerm other than the cell grid — stdout, stderr, `--trace`, casts, lint
/// text, the script report, `push`'s answers, help and usage errors — takes a `SafeText`, so
/// text from a file, a file name, an argument, a socket or a payload cannot reach the terminal
/// raw: the compiler refuses a `String`. Only these make one:
///
/// - a string literal (the program's own text; the literal type is `StaticString`, so a
///   variable cannot pose as one);
/// - interpolation into a literal, which passes every interpolated value through the sanitizer
///   unless it is a `SafeText` already (numbers are written as they are);
/// - the sanitizer, `SafeText(sanitizing:multiline:)`;
/// - the escapers: `JSONWriter.safeText` (JSON) and `SafeText(xmlEscaping:)` (XML and HTML,
///   for pictures).
///
/// The sanitizer shows what it neutralizes, with the placeholders the screen uses
/// (`TerminalText.sanitize` takes them from here): C0 controls as their Control Pictures (␛, ␀,
/// ␍, ␇), DEL as ␡, C1 controls as ‹9B›, the twelve bidi controls as ‹RLO›, ‹LRI›…. A tab
/// becomes a space. A line break is kept in multi-line text and shows as ␊ in one line, so a
/// one-line message stays one line.
package struct SafeText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// The text, ready to write.
  package private(set) var text: String

  /// Text a maker in this module has made safe.
  init(verified text: String) { self.text = text }

  /// The program's own text.
  package init(stringLiteral literal: StaticString) { text = Self.string(literal) }

  package init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

  /// The sanitizer: untrusted text with every control shown as a placeholder. One line unless
  /// `multiline` (then line feeds, CR LF, U+2028 and U+2029 are line feeds).
  package init(sanitizing untrusted: some StringProtocol, multiline: Bool = false) {
    text = Self.sanitize(untrusted, multiline: multiline)
  }

  package var description: String { text }

  package var isEmpty: Bool { text.isEmpty }

  /// Whether the text holds `other` (questions about the text need no `.text`).
  package func contains(_ other: some StringProtocol) -> Bool { text.contains(other) }

  package func hasPrefix(_ prefix: some StringProtocol) -> Bool { text.hasPrefix(prefix) }

  package func hasSuffix(_ suffix: some StringProtocol) -> Bool { text.hasSuffix(suffix) }

  /// The text on one line: line feeds are shown as ␊.
  package var oneLine: SafeText {
    text.contains("\n") ? SafeText(verified: text.replacingOccurrences(of: "\n", with: "\u{240A}")) : self
  }

  /// At most `limit` characters, with `…` when shortened.
  package func prefix(_ limit: Int) -> SafeText {
    text.count <= limit ? self : SafeText(verified: String(text.prefix(limit)) + "…")
  }

  package static func + (a: SafeText, b: SafeText) -> SafeText { SafeText(verified: a.text + b.text) }

  package static func += (a: inout SafeText, b: SafeText) { a.text += b.text }

  /// Appends untrusted text, sanitized (on one line unless `multiline`).
  package mutating func append(sanitizing untrusted: some StringProtocol, multiline: Bool = false) {
    text += Self.sanitize(untrusted, multiline: multiline)
  }

  private static func string(_ literal: StaticString) -> String {
    literal.hasPointerRepresentation
      ? literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } : String(literal.unicodeScalar)
  }

  /// Builds a `SafeText` from a literal: the literal's own parts are kept, interpolated values
  /// are sanitized (on one line) unless they are safe already.
  package struct Interpolation: StringInterpolationProtocol {
    fileprivate var text = ""

    package init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    package mutating func appendLiteral(_ literal: StaticString) { text += SafeText.string(literal) }

    package mutating func appendInterpolation(_ value: SafeText) { text += value.text }

    package mutating func appendInterpolation(_ value: some StringProtocol) {
      text += SafeText.sanitize(value, multiline: false)
    }

    package mutating func appendInterpolation(_ value: some BinaryInteger) { text += String(value) }

    /// Anything else is written as its description, sanitized.
    package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      text += SafeText.sanitize(value.description, multiline: false)
    }

    /// Any other value (an error, say) as `String(describing:)` gives it, sanitized.
    package mutating func appendInterpolation<T>(_ value: T) {
      text += SafeText.sanitize(String(describing: value), multiline: false)
    }

    /// An optional: its value, or `nil`.
    package mutating func appendInterpolation(_ value: (some CustomStringConvertible)?) {
      text += value.map { SafeText.sanitize($0.description, multiline: false) } ?? "nil"
    }
  }
}

extension SafeText {
  /// The placeholder name of a bidi-control character (`Bidi_Control`), or nil for any other
  /// scalar. A switch, not a dictionary: the sanitizer asks for every character it changes, and
  /// making a `[UInt32: String]` cost each start a run-time conformance lookup.
  package static func bidiControlName(_ value: UInt32) -> String? {
    switch value {
    case 0x061C: return "ALM"
    case 0x200E: return "LRM"
    case 0x200F: return "RLM"
    case 0x202A: return "LRE"
    case 0x202B: return "RLE"
    case 0x202C: return "PDF"
    case 0x202D: return "LRO"
    case 0x202E: return "RLO"
    case 0x2066: return "LRI"
    case 0x2067: return "RLI"
    case 0x2068: return "FSI"
    case 0x2069: return "PDI"
    default: return nil
    }
  }

  /// The name of a character that draws nothing (ZWSP, WJ…), or nil for any other scalar. The
  /// screen names them when a field holds nothing else; a quoted value in a message names them
  /// always (`OneLine.quote`), so "message" and "message" + ZWSP do not read the same.
  package static func invisibleName(_ value: UInt32) -> String? {
    switch value {
    case 0x200B: return "ZWSP"
    case 0x200C: return "ZWNJ"
    case 0x200D: return "ZWJ"
    case 0x2060: return "WJ"
    case 0xFEFF: return "ZWNBSP"
    case 0xFE0E: return "VS15"
    case 0xFE0F: return "VS16"
    case 0x00AD: return "SHY"
    case 0x034F: return "CGJ"
    case 0x180E: return "MVS"
    default: return nil
    }
  }

  /// The visible placeholder of a character a terminal would act on — a C0 control, DEL, a C1
  /// control or a bidi control — or nil for any other character. Line feed and tab are C0
  /// controls too: callers that keep line breaks or turn tabs into spaces decide first.
  package static func placeholder(for scalar: Unicode.Scalar) -> String? {
    let v = scalar.value
    switch v {
    case 0x00..<0x20: return String(Character(Unicode.Scalar(0x2400 + v) ?? "?"))
    case 0x7F: return "\u{2421}"
    case 0x80...0x9F: return placeholder(named: String(v, radix: 16, uppercase: true))
    default: return bidiControlName(v).map { placeholder(named: $0) }
    }
  }

  /// A named placeholder, `‹RLO›`: in the brackets the bidi layout keeps whole
  /// (`BidiParagraph.placeholderOpen`), so it reads the same in right-to-left text.
  package static func placeholder(named name: String) -> String {
    var out = String.UnicodeScalarView()
    out.append(BidiParagraph.placeholderOpen)
    out.append(contentsOf: name.unicodeScalars)
    out.append(BidiParagraph.placeholderClose)
    return String(out)
  }

  /// Whether UTF-8 text might hold a character the sanitizer changes: a C0 control (but a line
  /// feed in `multiline` text, which stays) or DEL, a C1 control (C2 80–9F), ALM (D8 9C), or a
  /// bidi control or line or paragraph separator (E2 80 and E2 81 lead them). Most text — box
  /// drawing, emoji and a whole screen's rows included — holds none of these and is taken as
  /// it is.
  private static func mightNeedSanitizing(_ text: String, multiline: Bool) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var previous: UInt8 = 0
      for byte in bytes {
        if (byte < 0x20 && !(multiline && byte == 0x0A)) || byte == 0x7F { return true }
        switch previous {
        case 0xC2 where byte <= 0x9F, 0xD8 where byte == 0x9C, 0xE2 where byte == 0x80 || byte == 0x81: return true
        default: break
        }
        previous = byte
      }
      return false
    }
  }

  /// The one sanitizer of output text (see the type's documentation).
  private static func sanitize(_ text: some StringProtocol, multiline: Bool) -> String {
    // A `String` from here on: read through the generic parameter, every byte cost a call
    // through a witness table, and the first one a run-time lookup.
    let text = String(text)
    guard mightNeedSanitizing(text, multiline: multiline) else { return text }
    return sanitizeEachScalar(text, multiline: multiline)
  }

  /// The sanitizer scalar by scalar, without the check that lets most text through unchanged.
  static func sanitizeEachScalar(_ text: String, multiline: Bool) -> String {
    var out = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    for (i, scalar) in scalars.enumerated() {
      switch scalar.value {
      case 0x0D where multiline && i + 1 < scalars.count && scalars[i + 1].value == 0x0A:
        continue  // CR LF: the line feed makes the break
      case 0x0A, 0x2028, 0x2029:
        out.append(multiline ? "\n" : "\u{240A}")
      case 0x09:
        out.append(" ")
      default:
        if let placeholder = placeholder(for: scalar) {
          out.append(contentsOf: placeholder.unicodeScalars)
        } else {
          out.append(scalar)
        }
      }
    }
    return String(out)
  }
}

extension SafeText {
  /// The XML and HTML escaper (every picture and page uses it, through `Markup.escape`): `&`,
  /// `<`, `>` and both quotes become entities, so text never opens an element; the characters
  /// XML 1.0 forbids (C0 controls but tab and line feed, DEL, the C1 range, U+FFFE, U+FFFF)
  /// become U+FFFD, so no text can make a picture fail to parse; bidi controls show as their
  /// placeholders, as on the screen.
  package init(xmlEscaping untrusted: some StringProtocol) {
    guard untrusted.unicodeScalars.contains(where: { Self.xmlReplacement(for: $0) != nil }) else {
      text = String(untrusted)
      return
    }
    var out = String.UnicodeScalarView()
    for scalar in untrusted.unicodeScalars {
      if let replacement = Self.xmlReplacement(for: scalar) {
        out.append(contentsOf: replacement.unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    text = String(out)
  }

  /// What the XML escaper writes for a scalar, or nil to keep it.
  private static func xmlReplacement(for scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x26: return "&amp;"
    case 0x3C: return "&lt;"
    case 0x3E: return "&gt;"
    case 0x22: return "&quot;"
    case 0x27: return "&#39;"
    case 0x09, 0x0A: return nil
    case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: return "\u{FFFD}"
    default: return bidiControlName(scalar.value).map { "‹\($0)›" }
    }
  }
}

extension Sequence where Element == SafeText {
  /// The texts one after another, with a separator between them.
  package func joined(separator: SafeText = "") -> SafeText {
    SafeText(verified: map(\.text).joined(separator: separator.text))
  }
}

extension JSONWriter {
  /// A JSON value as safe text: the writer escapes every control and bidi character.
  package static func safeText(_ value: Value) -> SafeText { SafeText(verified: write(value)) }
}
