/// How a picture of cells looks in a browser: the cell in CSS pixels, the font, and the
/// colours the terminal's own foreground and background stand for.
///
/// A cell is 8 × 16 px, the 8 × 16 pt a column and a row are in `Projection`, so a picture's
/// pixels are the design's points. Colours come from the theme at truecolor depth; 16- and
/// 256-colour entries take xterm's values.
package struct PictureStyle: Hashable, Sendable {
  package var cellWidth = 8
  package var cellHeight = 16
  /// The font size whose monospace advance (0.6 em) is one cell.
  package var fontSize = "13.33"
  /// The text baseline within a cell, from its top.
  package var baseline = 12
  /// Blank space around the cells.
  package var padding = 8
  package var fontFamily = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', 'Noto Sans Mono', monospace"
  /// The terminal's own foreground, for cells the theme leaves at the terminal's default.
  package var terminalForeground = RGB(0xE6, 0xE6, 0xE6)
  /// The terminal's own background.
  package var terminalBackground = RGB(0x16, 0x18, 0x1D)
  /// The outline of a budget-overflow mark.
  package var markColor = RGB(0xFF, 0x45, 0x3A)

  package init() {}

  /// A 24-bit colour.
  package struct RGB: Hashable, Sendable {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8

    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
      self.r = r
      self.g = g
      self.b = b
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// `#rrggbb`.
    package var hex: String {
      let d = Self.digits
      let bytes: [UInt8] = [
        UInt8(ascii: "#"), d[Int(r >> 4)], d[Int(r & 0xF)], d[Int(g >> 4)], d[Int(g & 0xF)], d[Int(b >> 4)],
        d[Int(b & 0xF)],
      ]
      return String(decoding: bytes, as: UTF8.self)
    }

    /// This colour moved `amount` (0…1) of the way towards another.
    package func mixed(with other: RGB, _ amount: Double) -> RGB {
      func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(max(0, min(255, (Double(a) * (1 - amount) + Double(b) * amount).rounded())))
      }
      return RGB(mix(r, other.r), mix(g, other.g), mix(b, other.b))
    }
  }

  /// A theme colour at truecolor depth; the terminal's default resolves to `fallback`.
  package func rgb(_ color: Color, default fallback: RGB) -> RGB {
    if color == .terminalDefault { return fallback }
    let (r, g, b) = ColorDepth.rgb(of: color)
    return RGB(r, g, b)
  }

  /// A cell style's foreground and background as drawn: defaults resolved, reverse swapped,
  /// dim blended towards the background (as terminals draw half intensity).
  package func colors(_ style: Style) -> (foreground: RGB, background: RGB) {
    var foreground = rgb(style.foreground, default: terminalForeground)
    var background = rgb(style.background, default: terminalBackground)
    if style.attributes.contains(.reverse) { swap(&foreground, &background) }
    if style.attributes.contains(.dim) { foreground = foreground.mixed(with: background, 0.4) }
    return (foreground, background)
  }
}
