/// A terminal colour as a theme names it.
package enum Color: Hashable, Sendable {
  /// The terminal's own foreground or background.
  case terminalDefault
  /// One of the 16 ANSI colours (0–7 normal, 8–15 bright).
  case ansi(UInt8)
  /// One of the 256 xterm colours.
  case indexed(UInt8)
  /// A 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)
}

/// Text attributes.
package struct Attributes: OptionSet, Hashable, Sendable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  package static let bold = Attributes(rawValue: 1 << 0)
  package static let dim = Attributes(rawValue: 1 << 1)
  package static let italic = Attributes(rawValue: 1 << 2)
  package static let underline = Attributes(rawValue: 1 << 3)
  package static let reverse = Attributes(rawValue: 1 << 4)
  /// Not drawn: the cell's colours are a picture's pixels (block art), data rather than a
  /// theme's text on a background, so degrading keeps each colour as near as it can and never
  /// trades it for contrast (`ColorDepth.degrade(_:)`).
  package static let picture = Attributes(rawValue: 1 << 5)
}

/// How a cell is drawn: colours and attributes.
package struct Style: Hashable, Sendable {
  package var foreground: Color
  package var background: Color
  package var attributes: Attributes

  package init(
    foreground: Color = .terminalDefault, background: Color = .terminalDefault,
    attributes: Attributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  package static let plain = Style()

  /// This style with attributes added.
  package func adding(_ extra: Attributes) -> Style {
    var copy = self
    copy.attributes.formUnion(extra)
    return copy
  }

  /// This style with another background.
  package func on(_ background: Color) -> Style {
    var copy = self
    copy.background = background
    return copy
  }
}
