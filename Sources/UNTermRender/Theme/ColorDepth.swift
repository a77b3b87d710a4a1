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
    let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
    if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
    let term = environment["TERM"] ?? ""
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
