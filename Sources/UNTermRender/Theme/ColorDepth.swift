import Foundation

/// How many colours the output can show; themes degrade to it.
package enum ColorDepth: Int, Comparable, Sendable, CaseIterable {
  case none = 0
  case eight = 8
  case sixteen = 16
  case palette256 = 256
  case trueColor = 16_777_216

  package static func < (a: ColorDepth, b: ColorDepth) -> Bool { a.rawValue < b.rawValue }

  /// The depth a terminal supports, from `COLORTERM` and `TERM`.
  package static func detect(environment: [String: String]) -> ColorDepth {
    detect(environment: { environment[$0] })
  }

  /// The depth a terminal supports, from an environment read a variable at a time
  /// (`ProcessEnvironment.value` for this process's).
  package static func detect(environment variable: (String) -> String?) -> ColorDepth {
    let colorterm = variable("COLORTERM")?.lowercased() ?? ""
    if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
    let term = variable("TERM") ?? ""
    if term.contains("256color") || term.contains("direct") { return .palette256 }
    if term == "dumb" { return .none }
    if term.hasPrefix("linux") || term == "vt100" || term == "ansi" { return .eight }
    return term.isEmpty ? .palette256 : .sixteen
  }

  /// A colour as this depth can show it.
  package func degrade(_ color: Color) -> Color {
    switch (self, color) {
    case (_, .terminalDefault): return .terminalDefault
    case (.none, _): return .terminalDefault
    case (.trueColor, _): return color
    case (.palette256, .rgb(let r, let g, let b)): return .indexed(Self.nearest256(r, g, b))
    case (.palette256, _): return color
    case (.sixteen, .ansi): return color
    case (.sixteen, _): return .ansi(Self.nearest16(Self.rgb(of: color)))
    case (.eight, _): return .ansi(Self.nearest16(Self.rgb(of: color)) % 8)
    }
  }

  /// The xterm palette's RGB values.
  package static func rgb(of color: Color) -> (UInt8, UInt8, UInt8) {
    switch color {
    case .terminalDefault: return (0, 0, 0)
    case .rgb(let r, let g, let b): return (r, g, b)
    case .ansi(let i): return ansiRGB[Int(i % 16)]
    case .indexed(let i):
      if i < 16 { return ansiRGB[Int(i)] }
      if i >= 232 {
        let v = UInt8(8 + 10 * (Int(i) - 232))
        return (v, v, v)
      }
      let n = Int(i) - 16
      let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
      return (levels[n / 36], levels[(n / 6) % 6], levels[n % 6])
    }
  }

  private static let ansiRGB: [(UInt8, UInt8, UInt8)] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
    (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
    (255, 0, 255), (0, 255, 255), (255, 255, 255),
  ]

  private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
    let dr = Int(a.0) - Int(b.0)
    let dg = Int(a.1) - Int(b.1)
    let db = Int(a.2) - Int(b.2)
    return 2 * dr * dr + 4 * dg * dg + 3 * db * db
  }

  /// The closest of the 240 cube and grey colours (16–255).
  package static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    var best: UInt8 = 16
    var bestDistance = Int.max
    for i in 16...255 {
      let d = distance((r, g, b), rgb(of: .indexed(UInt8(i))))
      if d < bestDistance {
        best = UInt8(i)
        bestDistance = d
      }
    }
    return best
  }

  /// The closest of the 16 ANSI colours.
  package static func nearest16(_ c: (UInt8, UInt8, UInt8)) -> UInt8 {
    var best: UInt8 = 0
    var bestDistance = Int.max
    for (i, candidate) in ansiRGB.enumerated() {
      let d = distance(c, candidate)
      if d < bestDistance {
        best = UInt8(i)
        bestDistance = d
      }
    }
    return best
  }
}

extension ColorDepth {
  /// The contrast a degraded foreground keeps: 3:1 (WCAG's for large text and borders), or
  /// most of what the theme itself had when it chose less.
  static let readableContrast = 3.0

  /// A style as this depth can show it, kept readable.
  ///
  /// Degrading each colour alone can make two different colours one (the dark theme's grey
  /// borders on charcoal both become black at 16 and 8 colours) or lose most of their contrast
  /// (blue on black at 8). Then the foreground becomes the palette colour nearest the theme's
  /// that keeps `min(0.8 × the theme's contrast, 3:1)` — a grey for a grey. On the terminal's
  /// own background, whose colour is unknown, a mid-tone that would become black or white
  /// (each invisible on one kind of terminal) becomes the terminal's own foreground.
  package func degrade(_ style: Style) -> Style {
    var out = Style(
      foreground: degrade(style.foreground), background: degrade(style.background), attributes: style.attributes)
    guard self == .eight || self == .sixteen || self == .palette256, out.foreground != .terminalDefault,
      !style.attributes.contains(.picture)
    else {
      return out
    }
    guard out.background != .terminalDefault else {
      let lightness = Self.luminance(Self.rgb(of: style.foreground))
      if self != .palette256, Self.vanishes(out.foreground), lightness > 0.03, lightness < 0.6 {
        out.foreground = .terminalDefault
      }
      return out
    }
    let original = Self.contrast(Self.rgb(of: style.foreground), Self.rgb(of: style.background))
    guard original >= 1.05 else { return out }
    let required = Swift.min(original * 0.8, Self.readableContrast)
    let background = Self.rgb(of: out.background)
    if out.foreground != out.background && Self.contrast(Self.rgb(of: out.foreground), background) >= required {
      return out
    }
    out.foreground = readableForeground(near: Self.rgb(of: style.foreground), on: out.background, contrast: required)
    return out
  }

  /// The colours this depth has.
  private var palette: [Color] {
    switch self {
    case .eight: return (0..<8).map { .ansi(UInt8($0)) }
    case .sixteen: return (0..<16).map { .ansi(UInt8($0)) }
    default: return (0..<256).map { $0 < 16 ? .ansi(UInt8($0)) : .indexed(UInt8($0)) }
    }
  }

  /// The palette colour nearest `target` with at least `contrast` against `background` (a
  /// grey for a grey), else the one with the most contrast.
  private func readableForeground(near target: (UInt8, UInt8, UInt8), on background: Color, contrast: Double)
    -> Color
  {
    let back = Self.rgb(of: background)
    let candidates = palette.filter { $0 != background }
    let readable = candidates.filter { Self.contrast(Self.rgb(of: $0), back) >= contrast }
    guard !readable.isEmpty else {
      return candidates.max { Self.contrast(Self.rgb(of: $0), back) < Self.contrast(Self.rgb(of: $1), back) }
        ?? background
    }
    let greys = readable.filter { Self.isGrey(Self.rgb(of: $0), tolerance: 0) }
    let pool = Self.isGrey(target, tolerance: 24) && !greys.isEmpty ? greys : readable
    return pool.min { Self.distance(Self.rgb(of: $0), target) < Self.distance(Self.rgb(of: $1), target) } ?? background
  }

  /// Black and white: each disappears on one kind of terminal background.
  private static func vanishes(_ color: Color) -> Bool {
    color == .ansi(0) || color == .ansi(7) || color == .ansi(15)
  }

  private static func isGrey(_ c: (UInt8, UInt8, UInt8), tolerance: Int) -> Bool {
    let values = [Int(c.0), Int(c.1), Int(c.2)]
    return (values.max() ?? 0) - (values.min() ?? 0) <= tolerance
  }

  /// WCAG relative luminance, 0 (black) to 1 (white).
  package static func luminance(_ c: (UInt8, UInt8, UInt8)) -> Double {
    func channel(_ v: UInt8) -> Double {
      let x = Double(v) / 255
      return x <= 0.03928 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
  }

  /// WCAG contrast ratio, 1 to 21.
  package static func contrast(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
    let (x, y) = (luminance(a), luminance(b))
    return (Swift.max(x, y) + 0.05) / (Swift.min(x, y) + 0.05)
  }
}
