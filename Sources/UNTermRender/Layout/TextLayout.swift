/// Wrapping and truncating sanitized text by display width, never splitting a grapheme
/// cluster.
package enum TextLayout {
  /// The ellipsis that ends truncated text.
  package static let ellipsis = "…"

  /// `text` cut to fit `width` columns, ending in an ellipsis when anything was cut.
  package static func truncate(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    return DisplayWidth.of(text) <= width ? text : withEllipsis(text, width: width)
  }

  /// Lines of at most `width` columns: words wrap at spaces; a word too long for a line, and
  /// text without spaces (CJK), breaks between clusters. Line breaks in the text are kept.
  package static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += wrapParagraph(String(paragraph), width: width)
    }
    return lines
  }

  private static func wrapParagraph(_ text: String, width: Int) -> [String] {
    if text.isEmpty { return [""] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    var word = ""
    var wordWidth = 0

    func flushWord() {
      guard !word.isEmpty else { return }
      if lineWidth + wordWidth <= width {
        line += word
        lineWidth += wordWidth
      } else {
        // Drop the space that ended the previous line.
        while line.hasSuffix(" ") {
          line.removeLast()
          lineWidth -= 1
        }
        if !line.isEmpty || lineWidth > 0 { lines.append(line) }
        line = ""
        lineWidth = 0
        var rest = word
        if rest.hasPrefix(" ") { rest.removeFirst() }
        for c in rest {
          let w = max(1, DisplayWidth.of(c))
          if lineWidth + w > width && lineWidth > 0 {
            lines.append(line)
            line = ""
            lineWidth = 0
          }
          line.append(c)
          lineWidth += w
        }
      }
      word = ""
      wordWidth = 0
    }

    for c in text {
      let w = DisplayWidth.of(c)
      if c == " " {
        flushWord()
        word = " "
        wordWidth = 1
        continue
      }
      let breaksAfter = w >= 2  // CJK and emoji may break after themselves
      word.append(c)
      wordWidth += max(1, w)
      if breaksAfter { flushWord() }
    }
    flushWord()
    while line.hasSuffix(" ") { line.removeLast() }
    lines.append(line)
    return lines
  }

  /// At most `maxLines` wrapped lines; the last ends in an ellipsis when text was left out.
  package static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
    let all = wrap(text, width: width)
    guard all.count > maxLines, maxLines > 0 else { return Array(all.prefix(max(0, maxLines))) }
    var lines = Array(all.prefix(maxLines))
    lines[maxLines - 1] = withEllipsis(lines[maxLines - 1], width: width)
    return lines
  }

  /// `text` with an ellipsis appended, cutting clusters off the end until both fit.
  package static func withEllipsis(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    var out = ""
    var used = 0
    for c in text {
      let w = max(1, DisplayWidth.of(c))
      if used + w > width - 1 { break }
      out.append(c)
      used += w
    }
    while out.hasSuffix(" ") { out.removeLast() }
    return out + ellipsis
  }

  /// Text padded with spaces to exactly `width` columns (truncated if longer).
  package static func pad(_ text: String, width: Int) -> String {
    let t = truncate(text, width: width)
    return t + String(repeating: " ", count: max(0, width - DisplayWidth.of(t)))
  }
}
