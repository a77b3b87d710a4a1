import UNTermInput

extension CellGrid {
  /// The screen as text with SGR colour sequences, for `render --color always`, `--live` and
  /// casts.
  ///
  /// Only SGR sequences built from the theme are emitted; cell text was sanitized where it
  /// entered layout, and passes `SafeText`'s sanitizer again on its way out.
  /// Lines end with `lineSeparator` (a live screen also clears each line's end).
  package func ansiText(depth: ColorDepth, lineSeparator: SafeText = "\n") -> SafeText {
    var out: SafeText = ""
    for y in 0..<height {
      var line: SafeText = ""
      var current: Style?
      // Trailing blanks on the terminal's own background are left out.
      var last = width - 1
      while last >= 0 {
        let cell = self[last, y]
        if !cell.isContinuation
          && (cell.text != " " || depth.degrade(cell.style.background) != .terminalDefault
            || cell.style.attributes.contains(.reverse) || cell.style.attributes.contains(.underline))
        {
          break
        }
        last -= 1
      }
      if last >= 0 {
        for x in 0...last {
          let cell = self[x, y]
          if cell.isContinuation { continue }
          let style = depth.degrade(cell.style)
          if style != (current ?? .plain) {
            line += style == .plain ? "\u{1B}[0m" : Self.sgr(style)
          }
          current = style
          line.append(sanitizing: cell.text)
        }
      }
      if let current, current != .plain { line += "\u{1B}[0m" }
      out += line
      if y < height - 1 { out += lineSeparator }
    }
    return out
  }

  /// The SGR sequence that sets a style from scratch.
  package static func sgr(_ style: Style) -> SafeText {
    var codes = ["0"]
    if style.attributes.contains(.bold) { codes.append("1") }
    if style.attributes.contains(.dim) { codes.append("2") }
    if style.attributes.contains(.italic) { codes.append("3") }
    if style.attributes.contains(.underline) { codes.append("4") }
    if style.attributes.contains(.reverse) { codes.append("7") }
    codes += colorCodes(style.foreground, foreground: true)
    codes += colorCodes(style.background, foreground: false)
    return "\u{1B}[\(codes.joined(separator: ";"))m"
  }

  private static func colorCodes(_ color: Color, foreground: Bool) -> [String] {
    switch color {
    case .terminalDefault: return []
    case .ansi(let i):
      let base = foreground ? (i < 8 ? 30 : 90) : (i < 8 ? 40 : 100)
      return [String(base + Int(i % 8))]
    case .indexed(let i): return [foreground ? "38" : "48", "5", String(i)]
    case .rgb(let r, let g, let b): return [foreground ? "38" : "48", "2", String(r), String(g), String(b)]
    }
  }
}
