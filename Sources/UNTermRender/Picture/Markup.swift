/// Text made safe for XML and HTML: the one escaper every picture and page uses.
///
/// Cell text is already sanitized for a terminal; this makes it inert in markup too. `&`, `<`,
/// `>` and both quotes become entities, so a payload holding `<script>` or `</svg>` shows those
/// characters and never opens an element. Characters XML 1.0 forbids (C0 controls other than
/// tab and newline, the C1 range, U+FFFE and U+FFFF) become U+FFFD, so no text can make a
/// picture fail to parse.
package enum Markup {
  /// Escapes text for an element's content or a quoted attribute value.
  package static func escape(_ text: String) -> String {
    var needs = false
    for scalar in text.unicodeScalars where !isPlain(scalar) {
      needs = true
      break
    }
    guard needs else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        out.unicodeScalars.append(isAllowedInXML(scalar) ? scalar : "\u{FFFD}")
      }
    }
    return out
  }

  /// Whether a scalar passes through unchanged.
  private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&", "<", ">", "\"", "'": return false
    default: return isAllowedInXML(scalar)
    }
  }

  /// XML 1.0's characters, less the C0 and C1 controls (tab and newline stay).
  private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v == 0x09 || v == 0x0A { return true }
    if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
    return v != 0xFFFE && v != 0xFFFF
  }
}
