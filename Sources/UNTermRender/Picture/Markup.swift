import UNTermInput

/// Text made safe for XML and HTML: the one escaper every picture and page uses,
/// `SafeText(xmlEscaping:)`.
///
/// Cell text is already sanitized for a terminal; this makes it inert in markup too. `&`, `<`,
/// `>` and both quotes become entities, so a payload holding `<script>` or `</svg>` shows those
/// characters and never opens an element. Characters XML 1.0 forbids (C0 controls other than
/// tab and newline, the C1 range, U+FFFE and U+FFFF) become U+FFFD, so no text can make a
/// picture fail to parse; bidi controls show as their placeholders.
package enum Markup {
  /// Escapes text for an element's content or a quoted attribute value.
  package static func escape(_ text: String) -> String { SafeText(xmlEscaping: text).text }
}
