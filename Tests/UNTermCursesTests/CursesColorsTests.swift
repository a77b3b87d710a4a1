import Testing
import UNTermRender

@testable import UNTermCurses

@Suite("Colours to ncurses numbers")
struct CursesColorsTests {
  @Test(
    "The palette follows has_colors and COLORS",
    arguments: [
      (false, 256, CursesPalette.monochrome), (true, 0, .monochrome), (true, 8, .eight),
      (true, 16, .sixteen), (true, 88, .sixteen), (true, 256, .indexed256),
      (true, 0x1000000, .direct),
    ])
  func palette(hasColors: Bool, count: Int, expected: CursesPalette) {
    #expect(CursesPalette(hasColors: hasColors, colorCount: count) == expected)
  }

  private func numbers(
    _ style: Style, _ depth: ColorDepth, _ palette: CursesPalette, defaults: Bool = true
  ) -> [Int32] {
    let colors = palette.colors(of: style, depth: depth, defaultColors: defaults)
    return [colors.foreground, colors.background]
  }

  private let orange = Style(foreground: .rgb(255, 135, 0), background: .indexed(17))

  @Test("A 256-colour terminal: ANSI and indexed as they are, RGB to the nearest of 256")
  func indexed256() {
    #expect(numbers(orange, .trueColor, .indexed256) == [208, 17])
    #expect(numbers(orange, .palette256, .indexed256) == [208, 17])
    #expect(
      numbers(Style(foreground: .ansi(9), background: .ansi(4)), .palette256, .indexed256) == [
        9, 4,
      ])
    #expect(
      numbers(
        Style(foreground: .rgb(0, 0, 0), background: .rgb(255, 255, 255)), .trueColor, .indexed256)
        == [16, 231])
  }

  @Test("Lower depths degrade first, as the theme intends")
  func degraded() {
    let navy = ColorDepth.rgb(of: .indexed(17))
    #expect(
      numbers(orange, .sixteen, .indexed256) == [
        Int32(ColorDepth.nearest16((255, 135, 0))), Int32(ColorDepth.nearest16(navy)),
      ])
    #expect(numbers(Style(foreground: .rgb(255, 0, 0)), .sixteen, .indexed256) == [9, -1])
    #expect(numbers(Style(foreground: .rgb(255, 0, 0)), .eight, .indexed256) == [1, -1])
    #expect(numbers(orange, .none, .indexed256) == [-1, -1])
  }

  @Test("The palette caps the depth: a 16-colour terminal never gets 256-colour numbers")
  func cappedByPalette() {
    for (fg, bg) in [numbers(orange, .trueColor, .sixteen)].map({ ($0[0], $0[1]) }) {
      #expect((0..<16).contains(fg))
      #expect((0..<16).contains(bg))
    }
    #expect(numbers(Style(foreground: .ansi(12)), .trueColor, .eight) == [4, -1])
    #expect(numbers(orange, .trueColor, .monochrome) == [-1, -1])
  }

  @Test("The terminal's own colours are -1, or white on black without use_default_colors")
  func terminalDefault() {
    #expect(numbers(.plain, .trueColor, .indexed256) == [-1, -1])
    #expect(numbers(.plain, .trueColor, .indexed256, defaults: false) == [7, 0])
    #expect(numbers(.plain, .trueColor, .monochrome, defaults: false) == [7, 0])
  }

  @Test("Direct colour packs RGB, keeps 0–7 for ANSI, and never packs into 0–7")
  func direct() {
    #expect(numbers(orange, .trueColor, .direct) == [0xFF8700, 0x00005F])
    #expect(
      numbers(Style(foreground: .ansi(3), background: .ansi(11)), .trueColor, .direct) == [
        3, 0xFFFF00,
      ])
    #expect(numbers(Style(foreground: .rgb(0, 0, 5)), .trueColor, .direct) == [8, -1])
    #expect(numbers(orange, .palette256, .direct) == [0xFF8700, 0x00005F])
  }

  @Test("Attributes map to distinct ncurses bits")
  func attributes() {
    #expect(CursesAttributes.bits([]) == 0)
    let all: [(Attributes, UInt32)] = [
      (.bold, CursesAttributes.bold), (.dim, CursesAttributes.dim),
      (.italic, CursesAttributes.italic),
      (.underline, CursesAttributes.underline), (.reverse, CursesAttributes.reverse),
    ]
    for (attribute, bit) in all {
      #expect(CursesAttributes.bits(attribute) == bit)
      #expect(bit != 0 && bit & 0xFF == 0, "no character or colour-pair bits")
    }
    #expect(Set(all.map(\.1)).count == 5)
    #expect(
      CursesAttributes.bits([.bold, .reverse]) == CursesAttributes.bold | CursesAttributes.reverse)
    #expect(CursesAttributes.bold == 1 << 21)
  }
}
