import UNTermBidi

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
      let clusters = Array(paragraph)
      lines += wrapRanges(clusters, width: width).map { String(clusters[$0]) }
    }
    return lines
  }

  /// Where a paragraph's lines are, as ranges of its clusters: the one line-breaking rule
  /// every wrap uses. Spaces at a break belong to no line.
  static func wrapRanges(_ clusters: [Character], width: Int) -> [Range<Int>] {
    if clusters.isEmpty { return [0..<0] }
    var lines: [Range<Int>] = []
    var lineStart = 0
    var lineEnd = 0
    var lineWidth = 0
    var wordStart = 0
    var wordEnd = 0
    var wordWidth = 0

    func flushWord() {
      guard wordEnd > wordStart else { return }
      if lineWidth + wordWidth <= width {
        if lineEnd == lineStart { lineStart = wordStart }
        lineEnd = wordEnd
        lineWidth += wordWidth
      } else {
        // Drop the space that ended the previous line.
        while lineEnd > lineStart && clusters[lineEnd - 1] == " " {
          lineEnd -= 1
          lineWidth -= 1
        }
        if lineEnd > lineStart || lineWidth > 0 { lines.append(lineStart..<lineEnd) }
        var start = wordStart
        if clusters[start] == " " { start += 1 }
        lineStart = start
        lineEnd = start
        lineWidth = 0
        for i in start..<wordEnd {
          let w = max(1, DisplayWidth.of(clusters[i]))
          if lineWidth + w > width && lineWidth > 0 {
            lines.append(lineStart..<i)
            lineStart = i
            lineWidth = 0
          }
          lineEnd = i + 1
          lineWidth += w
        }
      }
      wordStart = wordEnd
      wordWidth = 0
    }

    for (i, c) in clusters.enumerated() {
      let w = DisplayWidth.of(c)
      if c == " " {
        flushWord()
        wordStart = i
        wordEnd = i + 1
        wordWidth = 1
        continue
      }
      if wordEnd == wordStart { wordStart = i }
      wordEnd = i + 1
      wordWidth += max(1, w)
      // CJK and emoji may break after themselves; a Bengali or Devanagari cluster is as wide
      // (a letter and a spacing vowel sign) but is part of a word.
      if isWide(c) { flushWord() }
    }
    flushWord()
    while lineEnd > lineStart && clusters[lineEnd - 1] == " " { lineEnd -= 1 }
    lines.append(lineStart..<lineEnd)
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

  /// Whether a cluster is a wide character (East Asian wide or an emoji) rather than a
  /// narrow one made two columns wide by its marks.
  private static func isWide(_ cluster: Character) -> Bool {
    cluster.unicodeScalars.first.map { DisplayWidth.of($0) >= 2 } ?? false
  }

  // MARK: - Lines for display, right-to-left text included

  /// Sanitized text broken into lines of at most `width` columns, as `wrap` breaks it, each
  /// ready to draw in either bidi mode: paragraphs are resolved whole, broken in logical
  /// order, then each line is reordered on its own.
  package static func lines(
    _ text: String, width: Int, maxLines: Int? = nil, direction: BidiParagraph.Direction = .auto
  ) -> [TextLine] {
    guard width > 0, maxLines.map({ $0 > 0 }) ?? true else { return [] }
    var out: [TextLine] = []
    var truncatedParagraph: BidiParagraph?
    paragraphs: for paragraphText in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let paragraph = BidiParagraph(paragraphText, direction: direction)
      for range in wrapRanges(paragraph.clusters, width: width) {
        if let maxLines, out.count == maxLines {
          truncatedParagraph = paragraph
          break paragraphs
        }
        out.append(TextLine(paragraph, range))
      }
    }
    if let paragraph = truncatedParagraph, let last = out.popLast() {
      out.append(TextLine(withEllipsis(last.text, width: width), isRightToLeft: paragraph.isRightToLeft))
    }
    return out
  }

  /// One line of sanitized text cut to `width` columns with an ellipsis, as `truncate` cuts
  /// it, ready to draw in either bidi mode.
  package static func line(_ text: String, width: Int, direction: BidiParagraph.Direction = .auto) -> TextLine {
    guard width > 0 else { return TextLine("", isRightToLeft: false) }
    let paragraph = BidiParagraph(text, direction: direction)
    if DisplayWidth.of(text) <= width { return TextLine(paragraph, 0..<paragraph.clusters.count) }
    // The direction comes from the whole text, even when the cut leaves no strong letter.
    return TextLine(withEllipsis(text, width: width), isRightToLeft: paragraph.isRightToLeft)
  }
}

/// One line of sanitized text ready to draw: in logical order for a terminal that reorders
/// right-to-left text itself, and in display order (reordered, Arabic letters joined, brackets
/// mirrored) for one that does not. A line of a right-to-left paragraph is aligned right.
package struct TextLine: Hashable, Sendable, CustomStringConvertible {
  /// The line in logical order, as written.
  package let text: String
  /// The line as UNTerm draws it in `visual` mode.
  package let visual: String
  /// Whether the line's paragraph reads right to left.
  package let isRightToLeft: Bool

  /// A line of a resolved paragraph.
  init(_ paragraph: BidiParagraph, _ range: Range<Int>) {
    text = BidiParagraph.string(paragraph.clusters[range])
    visual = paragraph.visualLine(range)
    isRightToLeft = paragraph.isRightToLeft
  }

  /// A line resolved on its own, in a paragraph of the given direction.
  init(_ text: String, isRightToLeft: Bool) {
    let paragraph = BidiParagraph(text, direction: isRightToLeft ? .rightToLeft : .leftToRight)
    self.text = text
    visual = paragraph.visualLine(0..<paragraph.clusters.count)
    self.isRightToLeft = isRightToLeft
  }

  /// The text drawn in a bidi mode.
  package func displayed(_ mode: BidiMode) -> String {
    mode == .visual ? visual : text
  }

  package var description: String { text }
}
