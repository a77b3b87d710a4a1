extension CellGrid {
  /// The terminal output that turns `old` into this grid: cursor moves, SGR and text for the
  /// changed cells only; the whole screen when there is no old grid or its size differs.
  ///
  /// An identical grid gives an empty string. This is what a terminal shell writes, so its
  /// length is the bytes a frame costs.
  package func terminalUpdate(from old: CellGrid?, depth: ColorDepth) -> String {
    let full = old == nil || old?.width != width || old?.height != height
    var out = full ? "\u{1B}[0m\u{1B}[2J" : ""
    var current: Style?
    var cursor: (x: Int, y: Int)?
    for y in 0..<height {
      var x = 0
      while x < width {
        let cell = self[x, y]
        let changed = full || old.map { $0[x, y] != cell } ?? true
        guard changed, !cell.isContinuation else {
          x += 1
          continue
        }
        if cursor == nil || cursor! != (x, y) {
          out += "\u{1B}[\(y + 1);\(x + 1)H"
        }
        let style = Style(
          foreground: depth.degrade(cell.style.foreground), background: depth.degrade(cell.style.background),
          attributes: cell.style.attributes)
        if style != current {
          out += Self.sgr(style)
          current = style
        }
        out += cell.text
        let w = max(1, Int(cell.width))
        x += w
        cursor = (x, y)
      }
    }
    if !out.isEmpty && current != nil && current != .plain { out += "\u{1B}[0m" }
    return out
  }
}
