import UNTermInput

/// The one sanitizer, as the screen needs it: payload text passes through here where it enters
/// layout, and nothing else from a payload reaches the grid. Controls become the placeholders
/// `SafeText`'s sanitizer gives every other output; the rest keeps borders in place.
///
/// - C0 controls, DEL and C1 controls become visible placeholders (␛, ␀, ␍, ␈, ␡, ‹9B›…), so
///   CR and BS cannot overwrite text and nothing after a NUL is lost.
/// - Every bidi-control character (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
///   becomes a named placeholder (‹RLO›, ‹LRI›…), so a payload cannot reorder its neighbours.
///   The bidi layout keeps such a placeholder whole (`BidiParagraph.placeholderOpen`).
/// - Line breaks (LF, CRLF, U+2028, U+2029) stay line breaks; a tab becomes a space.
/// - ZWJ and ZWNJ are kept between letters (Indic and Persian need them); a ZWJ that joins two
///   emoji is dropped, because terminals disagree on the width of joined emoji and a border
///   would shift — the family shows as its members.
/// - A variation selector 16 (emoji presentation) after a one-column character is dropped:
///   glibc, ncurses and tmux count ❤️ as one column while many terminals draw it as two, so
///   keeping it would shift a border; ❤ is drawn in text presentation instead.
/// - Scalars this platform's `wcwidth` calls unprintable (unassigned) show as U+FFFD.
/// - A field whose text is only invisible characters shows their names, so no notification is
///   ever invisible.
package enum TerminalText {
  /// The widest grapheme cluster drawn as it is.
  package static let maximumClusterWidth = 8

  /// Whether a scalar is an emoji picture (not a digit, `#` or `*`, which are also "emoji").
  private static func isPictographic(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0x00A9 && scalar.properties.isEmoji
  }

  /// Whether a scalar is one of the twelve bidi controls (`SafeText`'s list, so the screen and
  /// every other output show the same placeholders).
  package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    SafeText.bidiControlName(scalar.value) != nil
  }

  /// Sanitized text, with line breaks kept as `\n` when `multiline`, else shown as spaces.
  package static func sanitize(_ text: String, multiline: Bool = true) -> String {
    if isPrintableASCII(text, multiline: multiline) { return text }
    return sanitizeEachScalar(text, multiline: multiline)
  }

  /// The sanitizer scalar by scalar, without the check that lets printable ASCII through.
  static func sanitizeEachScalar(_ text: String, multiline: Bool) -> String {
    var out = String.UnicodeScalarView()
    var previousWasPictographic = false
    var pendingZWJ = false
    let scalars = Array(text.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let scalar = scalars[i]
      let v = scalar.value
      i += 1
      if pendingZWJ {
        pendingZWJ = false
        if !isPictographic(scalar) { out.append("\u{200D}") }
      }
      switch v {
      case 0x0D where i < scalars.count && scalars[i].value == 0x0A:
        continue  // CRLF: the LF that follows makes the break
      case 0x0A, 0x2028, 0x2029:
        out.append(multiline ? "\n" : " ")
      case 0x09:
        out.append(" ")
      case 0x200D where previousWasPictographic:
        pendingZWJ = true  // decided by what follows
        continue
      case 0xFE0F where out.last.map { DisplayWidth.of($0) == 1 } ?? false:
        continue
      default:
        // C0, DEL, C1 and bidi controls: the placeholders every output uses.
        if let placeholder = SafeText.placeholder(for: scalar) {
          out.append(contentsOf: placeholder.unicodeScalars)
        } else if DisplayWidth.isUnprintable(scalar) {
          out.append("\u{FFFD}")
        } else {
          out.append(scalar)
        }
      }
      if v != 0xFE0F && !(0x1F3FB...0x1F3FF).contains(v) {
        previousWasPictographic = isPictographic(scalar)
      }
    }
    if pendingZWJ { out.append("\u{200D}") }
    var result = String(out)
    // No real script builds a cluster wider than a few columns; a crafted one (30 Hangul
    // leading jamo) could not be drawn or wrapped, so it shows as U+FFFD.
    if result.contains(where: { DisplayWidth.of($0) > maximumClusterWidth }) {
      result = String(result.map { DisplayWidth.of($0) > maximumClusterWidth ? "\u{FFFD}" : $0 })
    }
    // (Line breaks have no width, so they need not be taken out first.)
    if !text.isEmpty && DisplayWidth.of(result) == 0 {
      return namedInvisible(text)
    }
    return result
  }

  /// Whether text is printable ASCII (and line feeds, when `multiline`) with at least one
  /// printable character: the sanitizer would give it back unchanged, so it is not taken apart
  /// scalar by scalar. Most payload text, and every key name, is such text.
  private static func isPrintableASCII(_ text: String, multiline: Bool) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var printable = false
      for byte in bytes {
        if byte >= 0x20 && byte < 0x7F {
          printable = true
        } else if !(multiline && byte == 0x0A) {
          return false
        }
      }
      return printable
    }
  }

  /// Names every scalar of a string made only of invisible characters.
  private static func namedInvisible(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if let name = SafeText.invisibleName(scalar.value) {
        out += SafeText.placeholder(named: name)
      } else if scalar.value == 0x0A {
        out += "⏎"
      } else {
        out += SafeText.placeholder(named: "U+\(String(scalar.value, radix: 16, uppercase: true))")
      }
    }
    return out
  }
}
