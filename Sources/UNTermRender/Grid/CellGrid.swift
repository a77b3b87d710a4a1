/// A rectangle of cells.
package struct Rect: Hashable, Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  package var maxX: Int { x + width }
  package var maxY: Int { y + height }
  package var isEmpty: Bool { width <= 0 || height <= 0 }

  package func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }

  /// The overlap of two rectangles.
  package func intersection(_ other: Rect) -> Rect {
    let nx = max(x, other.x)
    let ny = max(y, other.y)
    return Rect(x: nx, y: ny, width: min(maxX, other.maxX) - nx, height: min(maxY, other.maxY) - ny)
  }

  /// The rectangle shrunk by `dx` columns and `dy` rows on each side.
  package func inset(dx: Int, dy: Int) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
}

/// One terminal cell: a grapheme cluster (empty for the later columns of a wide one) and its
/// style.
package struct Cell: Hashable, Sendable {
  /// The cluster drawn here; `""` when this cell continues a wide cluster to its left.
  package var text: String
  /// Columns the cluster takes (1 or more: CJK and emoji take 2, a Bengali conjunct may take
  /// 3), 0 for a continuation cell.
  package var width: UInt8
  package var style: Style

  package init(text: String = " ", width: UInt8 = 1, style: Style = .plain) {
    self.text = text
    self.width = width
    self.style = style
  }

  package var isContinuation: Bool { width == 0 }
}

/// The screen as cells: what the renderer draws, the terminal presents and the tests read.
///
/// Writing keeps wide clusters whole: a cluster that would cross the clip rectangle's right
/// edge is not drawn (the cell is padded instead), and overwriting either half of a wide
/// cluster blanks the other half.
package struct CellGrid: Hashable, Sendable {
  package let width: Int
  package let height: Int
  package private(set) var cells: [Cell]

  package init(width: Int, height: Int, fill: Style = .plain) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: Cell(style: fill), count: self.width * self.height)
  }

  package var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  package subscript(x: Int, y: Int) -> Cell {
    cells[y * width + x]
  }

  /// Stores a cell exactly as given, for a screen rebuilt cell by cell (the in-memory terminal);
  /// drawing goes through `write` and `fill`, which keep wide clusters whole.
  package mutating func store(_ cell: Cell, x: Int, y: Int) {
    guard x >= 0, y >= 0, x < width, y < height else { return }
    cells[y * width + x] = cell
  }

  /// Fills a rectangle with blanks of a style.
  package mutating func fill(_ rect: Rect, style: Style) {
    let r = rect.intersection(bounds)
    guard !r.isEmpty else { return }
    for y in r.y..<r.maxY {
      for x in r.x..<r.maxX { set(x, y, Cell(style: style)) }
    }
  }

  /// Changes the style of the cells in a rectangle, keeping their text.
  package mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
    let r = rect.intersection(bounds)
    guard !r.isEmpty else { return }
    for y in r.y..<r.maxY {
      for x in r.x..<r.maxX {
        cells[y * width + x].style = transform(cells[y * width + x].style)
      }
    }
  }

  /// Blanks every cell of the cluster covering column `x`, keeping styles.
  private mutating func clearCluster(at x: Int, _ y: Int) {
    let row = y * width
    var head = x
    while head > 0 && cells[row + head].isContinuation { head -= 1 }
    let span = max(1, Int(cells[row + head].width))
    for i in head..<min(width, head + span) where i == head || cells[row + i].isContinuation {
      cells[row + i] = Cell(style: cells[row + i].style)
    }
  }

  private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
    let index = y * width + x
    let old = cells[index]
    // Never leave part of a wide cluster behind.
    if old.isContinuation || old.width > 1 { clearCluster(at: x, y) }
    cells[index] = cell
  }

  /// Writes already-sanitized text on one row from `x`, clipped to `clip`.
  ///
  /// - Returns: the column after the last cluster written.
  @discardableResult
  package mutating func write(_ text: String, x: Int, y: Int, style: Style, clip: Rect? = nil)
    -> Int
  {
    let area = (clip ?? bounds).intersection(bounds)
    guard y >= area.y, y < area.maxY else { return x }
    var column = x
    for character in text {
      var cluster = String(character)
      var w = DisplayWidth.of(character)
      if w == 0 {
        // A cluster with no spacing base (a lone combining mark) gets a dotted circle, as
        // text renderers do, so it cannot attach itself to a border.
        cluster = "\u{25CC}" + cluster
        w = max(1, DisplayWidth.of(cluster))
      }
      w = min(w, Int(UInt8.max))
      if column + w > area.maxX { break }
      if column >= area.x {
        for i in 1..<max(1, w) where column + i < width { set(column + i, y, Cell(style: style)) }
        set(column, y, Cell(text: cluster, width: UInt8(w), style: style))
        for i in 1..<max(1, w) { cells[y * width + column + i] = Cell(text: "", width: 0, style: style) }
      } else if column + w > area.x {
        // Straddles the left edge: pad the visible part.
        for i in area.x..<(column + w) { set(i, y, Cell(style: style)) }
      }
      column += w
    }
    return column
  }

  /// The rows as plain text, trailing spaces removed: what a person reads on screen.
  package var lines: [String] {
    (0..<height).map { line($0) }
  }

  /// One row as plain text with trailing spaces removed.
  package func line(_ y: Int) -> String {
    var bytes: [UInt8] = []
    appendLine(y, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One row's UTF-8, trailing spaces removed (bytes, not `String` appends: `render` prints
  /// every row, and a cell at a time through `String` costs more than the rest of the output).
  private func appendLine(_ y: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    bytes.reserveCapacity(start + width)
    for x in 0..<width {
      let cell = cells[y * width + x]
      guard !cell.isContinuation else { continue }
      let utf8 = cell.text.utf8
      if utf8.count == 1, let byte = utf8.first {
        bytes.append(byte)  // most cells: a space or an ASCII letter
      } else {
        bytes.append(contentsOf: utf8)
      }
    }
    while bytes.count > start && bytes[bytes.count - 1] == 0x20 { bytes.removeLast() }
  }

  /// The rows of a rectangle as plain text, trailing spaces removed. A wide cluster cut by the
  /// rectangle's left edge shows as spaces; one cut by its right edge is left out.
  package func lines(in rect: Rect) -> [String] {
    let r = rect.intersection(bounds)
    guard !r.isEmpty else { return [] }
    return (r.y..<r.maxY).map { y in
      var out = ""
      var started = false
      for x in r.x..<r.maxX {
        let cell = cells[y * width + x]
        if cell.isContinuation {
          // The rest of a cluster whose head lies left of the rectangle.
          if !started { out += " " }
        } else if x + Int(cell.width) <= r.maxX {
          started = true
          out += cell.text
        } else {
          started = true
        }
      }
      while out.hasSuffix(" ") { out.removeLast() }
      return out
    }
  }

  /// The whole screen as text, one row a line.
  package var text: String {
    var bytes: [UInt8] = []
    for y in 0..<height {
      if y > 0 { bytes.append(0x0A) }
      appendLine(y, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
