extension CellGrid {
  /// The terminal output that turns `old` into this grid: cursor moves, SGR and text for the
  /// clusters `CellDiff` says changed; the whole screen when there is no old grid or its size
  /// differs.
  ///
  /// An identical grid gives an empty string. Its length is what a frame costs a terminal that
  /// is sent plain ANSI (ncurses' own figures come from `CursesOutputMeter`).
  package func terminalUpdate(from old: CellGrid?, depth: ColorDepth) -> String {
    let full = old?.width != width || old?.height != height
    let positions = full ? CellDiff.allCells(of: self) : CellDiff.changes(from: old, to: self)
    var out = full ? "\u{1B}[0m\u{1B}[2J" : ""
    var current: Style?
    var cursor = CellPosition(x: -1, y: -1)
    for position in positions {
      let cell = self[position.x, position.y]
      if cursor != position {
        out += "\u{1B}[\(position.y + 1);\(position.x + 1)H"
      }
      let style = depth.degrade(cell.style)
      if style != current {
        out += Self.sgr(style).text
        current = style
      }
      out += cell.text
      cursor = CellPosition(x: position.x + max(1, Int(cell.width)), y: position.y)
    }
    if !out.isEmpty, let current, current != .plain { out += "\u{1B}[0m" }
    return out
  }
}
