/// A band of cells a picture outlines, with what it means (content clipped at a budget).
package struct PictureMark: Hashable, Sendable {
  package var cells: Rect
  package var label: String

  package init(cells: Rect, label: String) {
    self.cells = cells
    self.label = label
  }
}

extension CellGrid {
  /// The cells as an SVG picture: another presenter of the grid, like the terminal.
  ///
  /// It lays no text out. Every run of text is placed at its column and held to its cells
  /// with `textLength`, so a browser's font cannot move what follows: a run groups only
  /// one-column characters every monospace font draws one cell wide (ASCII, Latin-1, Latin
  /// Extended-A, box drawing); any other cluster (CJK, emoji, Bengali, Urdu, symbols) is placed
  /// on its own and squeezed or stretched to exactly its cells. Block elements (`▀ ▄ █ ▌ ▐`,
  /// image art) are drawn as rectangles filling their cells, as terminals draw them. Text is
  /// escaped (`Markup`), so payload text cannot open an element.
  ///
  /// - Parameters:
  ///   - region: the cells to show (default: all).
  ///   - marks: bands to outline, such as content clipped at its height budget.
  ///   - bidiSpans: lines in logical order that hold right-to-left letters (`Frame.bidiSpans`):
  ///     each is one text element over its cells, in logical order, with its paragraph's
  ///     direction, so the browser reorders and joins it as it does any page's text.
  ///   - title: the picture's accessible name.
  ///   - attributes: extra attributes for the `<svg>` element (`data-…`, `class`).
  ///   - standalone: a document of its own (XML declaration, namespace) rather than inline in
  ///     HTML.
  package func svg(
    region: Rect? = nil, style: PictureStyle = PictureStyle(), marks: [PictureMark] = [],
    bidiSpans: [BidiSpan] = [], title: String, attributes: [(String, String)] = [], standalone: Bool = true
  ) -> String {
    let area = (region ?? bounds).intersection(bounds)
    let cw = style.cellWidth
    let ch = style.cellHeight
    let pad = style.padding
    let width = area.width * cw + 2 * pad
    let height = area.height * ch + 2 * pad
    var out =
      standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"" : "<svg"
    out += " viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\""
    out +=
      " font-family=\"\(Markup.escape(style.fontFamily))\" font-size=\"\(style.fontSize)\""
    out += " data-cell-width=\"\(cw)\" data-cell-height=\"\(ch)\" data-padding=\"\(pad)\""
    out +=
      " data-column=\"\(area.x)\" data-row=\"\(area.y)\" data-columns=\"\(area.width)\" data-rows=\"\(area.height)\""
    for (name, value) in attributes { out += " \(name)=\"\(Markup.escape(value))\"" }
    // Spaces inside a run are cells and must not collapse: a rule on `text` itself, since
    // Chromium does not inherit `white-space` from the `svg` element.
    out += "><title>\(Markup.escape(title))</title><style>text{white-space:pre}</style>"
    // The margin continues the screen's own background (its top-left cell's), so a theme that
    // paints the screen shows no frame of another colour around it.
    let margin = area.isEmpty ? style.terminalBackground : style.colors(self[area.x, area.y].style).background
    out += "<rect width=\"\(width)\" height=\"\(height)\" rx=\"6\" fill=\"\(margin.hex)\"/>"
    guard !area.isEmpty else { return out + "</svg>" }
    var spans: [Int: [BidiSpan]] = [:]
    for span in bidiSpans where span.row >= area.y && span.row < area.maxY {
      // Held to the region, as every run is.
      let x = max(span.x, area.x)
      let end = min(span.x + span.cells, area.maxX)
      guard end > x else { continue }
      spans[span.row, default: []].append(
        BidiSpan(row: span.row, x: x, cells: end - x, isRightToLeft: span.isRightToLeft))
    }
    let painter = SVGPainter(style: style, area: area, base: margin, spans: spans)
    for y in area.y..<area.maxY { painter.backgrounds(of: self, row: y, into: &out) }
    for y in area.y..<area.maxY { painter.glyphs(of: self, row: y, into: &out) }
    for mark in marks {
      let r = mark.cells.intersection(area)
      guard !r.isEmpty else { continue }
      out +=
        "<rect class=\"overflow-mark\" x=\"\(painter.px(r.x) - 1)\" y=\"\(painter.py(r.y) - 1)\" width=\"\(r.width * cw + 2)\" height=\"\(r.height * ch + 2)\" fill=\"none\" stroke=\"\(style.markColor.hex)\" stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>\(Markup.escape(mark.label))</title></rect>"
    }
    return out + "</svg>"
  }
}

/// Draws one row at a time: background runs, then glyph runs and block elements.
private struct SVGPainter {
  let style: PictureStyle
  let area: Rect
  /// The background already painted under every cell.
  let base: PictureStyle.RGB
  /// The lines in logical order holding right-to-left letters, by row.
  let spans: [Int: [BidiSpan]]

  func px(_ column: Int) -> Int { style.padding + (column - area.x) * style.cellWidth }
  func py(_ row: Int) -> Int { style.padding + (row - area.y) * style.cellHeight }

  /// Rectangles for runs of cells whose background is not the one painted under them all.
  func backgrounds(of grid: CellGrid, row y: Int, into out: inout String) {
    var start = area.x
    var current: PictureStyle.RGB?
    func flush(_ end: Int) {
      guard let color = current, color != base, end > start else { return }
      out +=
        "<rect x=\"\(px(start))\" y=\"\(py(y))\" width=\"\((end - start) * style.cellWidth)\" height=\"\(style.cellHeight)\" fill=\"\(color.hex)\"/>"
    }
    for x in area.x..<area.maxX {
      let color = style.colors(grid[x, y].style).background
      if color != current {
        flush(x)
        start = x
        current = color
      }
    }
    flush(area.maxX)
  }

  /// A run of text being gathered: same look, consecutive cells, one-cell characters only.
  private struct Run {
    var column: Int
    var text = ""
    var cells = 0
    var look: Look
  }

  /// What a text element's attributes say.
  private struct Look: Equatable {
    var fill: String
    var bold: Bool
    var italic: Bool
    var underline: Bool

    init(_ cellStyle: Style, _ foreground: PictureStyle.RGB) {
      fill = foreground.hex
      bold = cellStyle.attributes.contains(.bold)
      italic = cellStyle.attributes.contains(.italic)
      underline = cellStyle.attributes.contains(.underline)
    }

    var attributes: String {
      var out = " fill=\"\(fill)\""
      if bold { out += " font-weight=\"bold\"" }
      if italic { out += " font-style=\"italic\"" }
      if underline { out += " text-decoration=\"underline\"" }
      return out
    }
  }

  /// A block element: which part of its cell it fills (in eighths across and down).
  private static func block(_ text: String) -> (x: Int, y: Int, w: Int, h: Int)? {
    switch text {
    case "▀": return (0, 0, 8, 4)
    case "▄": return (0, 4, 8, 4)
    case "█": return (0, 0, 8, 8)
    case "▌": return (0, 0, 4, 8)
    case "▐": return (4, 0, 4, 8)
    default: return nil
    }
  }

  /// Whether a cluster is one character every monospace font draws one cell wide, so it may
  /// share a run: ASCII, Latin-1, Latin Extended-A and box drawing.
  private static func joinsRuns(_ text: String, width: Int) -> Bool {
    guard width == 1, text.unicodeScalars.count == 1, let v = text.unicodeScalars.first?.value else { return false }
    return (0x20...0x7E).contains(v) || (0xA0...0x17F).contains(v) || (0x2500...0x257F).contains(v)
  }

  /// A number as SVG writes it: no `.0` on whole values.
  private func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(saturating: value)) : String(value)
  }

  /// A rectangle filling part of `cells` cells from `column`, in eighths of a cell.
  private func blockRect(
    column: Int, row: Int, cells: Int, part: (x: Int, y: Int, w: Int, h: Int), color: PictureStyle.RGB
  ) -> String {
    let unitX = Double(style.cellWidth) / 8
    let unitY = Double(style.cellHeight) / 8
    let x = Double(px(column)) + unitX * Double(part.x)
    let y = Double(py(row)) + unitY * Double(part.y)
    let width = Double((cells - 1) * style.cellWidth) + unitX * Double(part.w)
    return
      "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(unitY * Double(part.h)))\" fill=\"\(color.hex)\"/>"
  }

  /// A line holding right-to-left letters as one text element over its cells, in logical
  /// order: a right-to-left paragraph is anchored at its right edge (`direction="rtl"`), so the
  /// browser runs the bidi algorithm and joins the letters as on any page.
  private func bidiText(_ span: BidiSpan, in grid: CellGrid, baseline: Int) -> String {
    var text = ""
    var look: Look?
    for x in span.x..<(span.x + span.cells) {
      let cell = grid[x, span.row]
      guard !cell.isContinuation else { continue }
      text += cell.text
      if look == nil && cell.text != " " { look = Look(cell.style, style.colors(cell.style).foreground) }
    }
    let attributes = look?.attributes ?? ""
    let length = span.cells * style.cellWidth
    let placement =
      span.isRightToLeft
      ? "x=\"\(px(span.x) + length)\" direction=\"rtl\" unicode-bidi=\"embed\""
      : "x=\"\(px(span.x))\" direction=\"ltr\" unicode-bidi=\"embed\""
    return
      "<text \(placement) y=\"\(baseline)\" textLength=\"\(length)\" lengthAdjust=\"spacingAndGlyphs\"\(attributes)>\(Markup.escape(text))</text>"
  }

  /// A row's text and block elements: runs of one-cell characters, clusters on their own,
  /// right-to-left lines as one element each, and blocks as rectangles.
  func glyphs(of grid: CellGrid, row y: Int, into out: inout String) {
    var row = GlyphRow(painter: self, row: y)
    let rowSpans = spans[y] ?? []
    var x = area.x
    while x < area.maxX {
      if let span = rowSpans.first(where: { $0.x == x }) {
        row.flush()
        row.out += bidiText(span, in: grid, baseline: row.baseline)
        x += span.cells
        continue
      }
      let cell = grid[x, y]
      let width = max(1, Int(cell.width))
      // A wide cluster cut by the region's edge is not drawn, as a terminal would not.
      if cell.isContinuation || x + width > area.maxX {
        row.flush()
        x += 1
        continue
      }
      let foreground = style.colors(cell.style).foreground
      if let part = Self.block(cell.text) {
        row.addBlock(part, color: foreground, at: x)
        x += 1
      } else if Self.joinsRuns(cell.text, width: width) {
        row.addToRun(cell.text, look: Look(cell.style, foreground), at: x)
        x += 1
      } else {
        row.addCluster(cell.text, look: Look(cell.style, foreground), at: x, width: width)
        x += width
      }
    }
    row.flush()
    out += row.out
  }

  /// One row's glyphs as they are written: the run of text and the run of full-width blocks
  /// being gathered (at most one at a time), and the elements written so far.
  private struct GlyphRow {
    let painter: SVGPainter
    let row: Int
    let baseline: Int
    var out = ""
    var run: Run?
    /// Consecutive full-width blocks of one shape and colour, drawn as one rectangle.
    var block: (column: Int, cells: Int, part: (x: Int, y: Int, w: Int, h: Int), color: PictureStyle.RGB)?

    init(painter: SVGPainter, row: Int) {
      self.painter = painter
      self.row = row
      baseline = painter.py(row) + painter.style.baseline
    }

    /// Writes the run and the block being gathered.
    mutating func flush() {
      flushRun()
      flushBlock()
    }

    /// Writes the run being gathered, without the spaces it ends in unless it is underlined.
    mutating func flushRun() {
      guard var r = run else { return }
      run = nil
      if !r.look.underline {
        while r.text.hasSuffix(" ") {
          r.text.removeLast()
          r.cells -= 1
        }
      }
      guard r.cells > 0 else { return }
      out +=
        "<text x=\"\(painter.px(r.column))\" y=\"\(baseline)\" textLength=\"\(r.cells * painter.style.cellWidth)\"\(r.look.attributes)>\(Markup.escape(r.text))</text>"
    }

    /// Writes the block run being gathered as one rectangle.
    mutating func flushBlock() {
      guard let b = block else { return }
      block = nil
      out += painter.blockRect(column: b.column, row: row, cells: b.cells, part: b.part, color: b.color)
    }

    /// A block element at `x`: it joins the block run when it fills its cell's width and
    /// matches; a part-width one is a rectangle of its own.
    mutating func addBlock(_ part: (x: Int, y: Int, w: Int, h: Int), color: PictureStyle.RGB, at x: Int) {
      flushRun()
      if let b = block, part.w == 8, b.part == part, b.color == color, b.column + b.cells == x {
        block?.cells += 1
        return
      }
      flushBlock()
      if part.w == 8 {
        block = (x, 1, part, color)
      } else {
        out += painter.blockRect(column: x, row: row, cells: 1, part: part, color: color)
      }
    }

    /// A one-cell character at `x`: it joins the run when its look matches; a space starts
    /// no run unless it is underlined.
    mutating func addToRun(_ text: String, look: Look, at x: Int) {
      flushBlock()
      if let r = run, r.look == look, r.column + r.cells == x {
        run?.text += text
        run?.cells += 1
      } else if text != " " || look.underline {
        flushRun()
        run = Run(column: x, text: text, cells: 1, look: look)
      } else {
        flushRun()
      }
    }

    /// Any other cluster: placed on its own and held to its `width` cells.
    mutating func addCluster(_ text: String, look: Look, at x: Int, width: Int) {
      flush()
      out +=
        "<text x=\"\(painter.px(x))\" y=\"\(baseline)\" textLength=\"\(width * painter.style.cellWidth)\" lengthAdjust=\"spacingAndGlyphs\"\(look.attributes)>\(Markup.escape(text))</text>"
    }
  }
}
