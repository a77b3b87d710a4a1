import CNcursesw
import UNTermRender

/// The colours a terminal offers, as ncurses numbers them.
package enum CursesPalette: Hashable, Sendable {
  /// No colour: everything in the terminal's own colours.
  case monochrome
  /// Colours 0–7.
  case eight
  /// Colours 0–15.
  case sixteen
  /// The xterm 256: 0–15 ANSI, 16–231 cube, 232–255 greys.
  case indexed256
  /// Direct colour (`COLORS` is 2²⁴, as with `xterm-direct`): 0–7 are ANSI, anything else is
  /// `0xRRGGBB`.
  case direct

  /// The palette from what `has_colors` and `COLORS` say.
  package init(hasColors: Bool, colorCount: Int) {
    switch colorCount {
    case _ where !hasColors: self = .monochrome
    case 0x1000000...: self = .direct
    case 256...: self = .indexed256
    case 16...: self = .sixteen
    case 8...: self = .eight
    default: self = .monochrome
    }
  }

  /// The deepest `ColorDepth` this palette shows; frames are degraded to at most this.
  package var depth: ColorDepth {
    switch self {
    case .monochrome: return .none
    case .eight: return .eight
    case .sixteen: return .sixteen
    case .indexed256: return .palette256
    case .direct: return .trueColor
    }
  }

  /// The ncurses colour number for a colour.
  ///
  /// Colours beyond the palette are mapped to the nearest one it has, so any colour works, but
  /// callers degrade with `ColorDepth.degrade` first to pick the theme's intended fallback.
  ///
  /// - Parameters:
  ///   - color: The colour.
  ///   - defaultColors: Whether `use_default_colors` succeeded, so -1 means "the terminal's".
  ///   - foreground: Which default to use when it did not (7 for text, 0 for background).
  package func number(for color: Color, defaultColors: Bool, foreground: Bool) -> Int32 {
    let terminalDefault: Int32 = defaultColors ? -1 : (foreground ? 7 : 0)
    switch (self, color) {
    case (_, .terminalDefault), (.monochrome, _): return terminalDefault
    case (.eight, .ansi(let i)): return Int32(i % 8)
    case (.eight, _): return Int32(ColorDepth.nearest16(ColorDepth.rgb(of: color)) % 8)
    case (.sixteen, .ansi(let i)): return Int32(i % 16)
    case (.sixteen, .indexed(let i)) where i < 16: return Int32(i)
    case (.sixteen, _): return Int32(ColorDepth.nearest16(ColorDepth.rgb(of: color)))
    case (.indexed256, .ansi(let i)): return Int32(i % 16)
    case (.indexed256, .indexed(let i)): return Int32(i)
    case (.indexed256, .rgb(let r, let g, let b)): return Int32(ColorDepth.nearest256(r, g, b))
    case (.direct, .ansi(let i)) where i < 8: return Int32(i)
    case (.direct, .indexed(let i)) where i < 8: return Int32(i)
    case (.direct, _):
      let (r, g, b) = ColorDepth.rgb(of: color)
      // 0–7 would be read as ANSI colours; the nearest direct colour is 8 (#000008).
      return max(8, Int32(r) << 16 | Int32(g) << 8 | Int32(b))
    }
  }

  /// The ncurses foreground and background numbers for a style at a depth: degraded to the
  /// lower of `depth` and what the palette shows, then numbered.
  package func colors(of style: Style, depth: ColorDepth, defaultColors: Bool) -> (
    foreground: Int32, background: Int32
  ) {
    // Degraded as a pair, so the two never become one colour (`ColorDepth.degrade(_:)`).
    let degraded = Swift.min(depth, self.depth).degrade(style)
    return (
      number(for: degraded.foreground, defaultColors: defaultColors, foreground: true),
      number(for: degraded.background, defaultColors: defaultColors, foreground: false)
    )
  }
}

/// ncurses attribute bits for the renderer's attributes.
package enum CursesAttributes {
  /// The `attr_t` bits for a set of attributes (colour pairs travel separately).
  package static func bits(_ attributes: Attributes) -> UInt32 {
    var bits = UInt32(CNC_A_NORMAL)
    if attributes.contains(.bold) { bits |= UInt32(CNC_A_BOLD) }
    if attributes.contains(.dim) { bits |= UInt32(CNC_A_DIM) }
    if attributes.contains(.italic) { bits |= UInt32(CNC_A_ITALIC) }
    if attributes.contains(.underline) { bits |= UInt32(CNC_A_UNDERLINE) }
    if attributes.contains(.reverse) { bits |= UInt32(CNC_A_REVERSE) }
    return bits
  }

  /// The bits of each attribute, for tests that do not import the shim.
  package static let bold = UInt32(CNC_A_BOLD)
  package static let dim = UInt32(CNC_A_DIM)
  package static let italic = UInt32(CNC_A_ITALIC)
  package static let underline = UInt32(CNC_A_UNDERLINE)
  package static let reverse = UInt32(CNC_A_REVERSE)
}
