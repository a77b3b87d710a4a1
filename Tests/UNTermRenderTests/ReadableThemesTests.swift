import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender

/// Every theme stays readable at every colour depth (issue 10.11): no role's text or border
/// becomes its background's colour when colours are degraded to 16 or 8 (the dark theme's grey
/// borders on charcoal both became black), and the contrast the theme chose is mostly kept.
@Suite("Readable themes at every depth")
struct ReadableThemesTests {
  static let depths: [ColorDepth] = [.eight, .sixteen, .palette256, .trueColor]

  /// The themes in `Themes/` and the compiled-in fallback.
  static func themes() throws -> [Theme] {
    var catalog = ThemeCatalog(directory: Fixtures.themes)
    var themes = try catalog.names.map { try catalog.theme($0) }
    themes.append(BuiltInTheme.fallback)
    #expect(themes.count >= 5, "the themes folder is missing")
    return themes
  }

  /// The surfaces text is drawn on when its role sets no background.
  static let surfaces: [Role] = [.screen, .card, .cardFocused, .pane, .statusBar, .field, .lockScreen]

  private static func rgb(_ c: Color) -> (UInt8, UInt8, UInt8) { ColorDepth.rgb(of: c) }

  /// Whether a degraded style is readable: the two colours differ and keep most of the contrast
  /// the theme gave them; on the terminal's own (unknown) background, a mid-tone does not turn
  /// into black or white, each invisible on one kind of terminal.
  private static func problem(_ drawn: Style, at depth: ColorDepth) -> String? {
    let shown = depth.degrade(drawn)
    guard drawn.foreground != .terminalDefault else { return nil }
    if drawn.background == .terminalDefault {
      let lightness = ColorDepth.luminance(rgb(drawn.foreground))
      let vanishing: Set<Color> = [.ansi(0), .ansi(7), .ansi(15)]
      if depth <= .sixteen, lightness > 0.03, lightness < 0.6, vanishing.contains(shown.foreground) {
        return "a mid-tone became \(shown.foreground) on the terminal's background"
      }
      return nil
    }
    let chosen = ColorDepth.contrast(rgb(drawn.foreground), rgb(drawn.background))
    if chosen < 1.2 { return "the theme itself gives contrast \(chosen)" }
    guard shown.foreground != .terminalDefault, shown.background != .terminalDefault else { return nil }
    if shown.foreground == shown.background { return "foreground and background are both \(shown.foreground)" }
    let kept = ColorDepth.contrast(rgb(shown.foreground), rgb(shown.background))
    if kept < min(chosen * 0.8, 3) - 0.001 { return "contrast \(kept) where the theme has \(chosen)" }
    return nil
  }

  @Test(arguments: depths)
  func everyRoleOnItsBackgroundAndOnEverySurface(depth: ColorDepth) throws {
    for theme in try Self.themes() {
      for role in Role.allCases {
        let style = theme[role]
        var backgrounds = Self.surfaces.map { theme[$0].background }
        if style.background != .terminalDefault { backgrounds = [style.background] }
        for color in Set(backgrounds) {
          let drawn = Style(foreground: style.foreground, background: color, attributes: style.attributes)
          if let problem = Self.problem(drawn, at: depth) {
            Issue.record("\(theme.name) at \(depth): \(role) on \(color): \(problem)")
          }
        }
      }
    }
  }

  /// The screens people see, drawn in every theme: every visible cell is readable at every
  /// depth (block-art pixels excepted: an image's two pixels may be one colour).
  @Test(arguments: depths)
  func everyCellOfEveryScreenIsReadable(depth: ColorDepth) throws {
    let catalog = ThemeCatalog(directory: Fixtures.themes)
    for name in catalog.names {
      let session = try Fixtures.session(size: (100, 30))
      try session.useTheme(name)
      var screens: [(String, Frame)] = []
      try session.push(try Payload.load(Fixtures.sample("voice-memo.json"), categories: session.state.store.categories))
      session.finishServiceExtensions(within: 5)
      try session.push(try Payload.load(Fixtures.sample("message.json"), categories: session.state.store.categories))
      try session.push(try Payload.load(Fixtures.sample("meeting.json"), categories: session.state.store.categories))
      session.send(.notice(.warning, "a warning"))
      session.send(.notice(.error, "an error"))
      screens.append(("banner", session.frame()))
      session.send(.command(.openCenter))
      screens.append(("list", session.frame()))
      session.send(.key(.down))
      session.send(.key(.down))
      screens.append(("fanned-out stack", session.frame()))
      session.send(.command(.longPress))
      session.send(.key(.down))
      screens.append(("expanded, an action selected", session.frame()))
      session.send(.key(.character("p")))
      screens.append(("media playing", session.frame()))
      session.send(.key(.escape))
      session.send(.key(.character("?")))
      screens.append(("keys overlay", session.frame()))
      session.send(.key(.escape))
      session.send(.key(.home))
      session.send(.key(.down))
      session.send(.command(.longPress))
      session.send(.command(.chooseAction("reply")))
      screens.append(("reply field", session.frame()))
      session.send(.key(.escape))
      session.send(.key(.escape))
      session.send(.command(.setPasscode("1")))
      session.send(.command(.lock))
      session.send(.command(.tap))
      screens.append(("passcode prompt", session.frame()))
      session.send(.command(.type("9")))
      session.send(.command(.send))
      screens.append(("wrong passcode", session.frame()))
      for (screen, frame) in screens {
        var reported = Set<String>()
        let grid = frame.grid
        for y in 0..<grid.height {
          for x in 0..<grid.width {
            let cell = grid[x, y]
            guard cell.text != " ", !cell.text.isEmpty, !cell.style.attributes.contains(.picture) else { continue }
            guard let problem = Self.problem(cell.style, at: depth) else { continue }
            let key = "\(cell.style)"
            if reported.insert(key).inserted {
              Issue.record("\(name) at \(depth), \(screen): “\(cell.text)” at \(x),\(y): \(problem)")
            }
          }
        }
      }
      session.detach()
    }
  }

  @Test func theDarkThemesBordersStayVisibleAtSixteenAndEightColours() throws {
    var catalog = ThemeCatalog(directory: Fixtures.themes)
    let dark = try catalog.theme("dark")
    let border = Style(foreground: dark[.cardBorder].foreground, background: dark[.card].background)
    for depth in [ColorDepth.sixteen, .eight] {
      let shown = depth.degrade(border)
      #expect(shown.background == .ansi(0))
      #expect(shown.foreground != .ansi(0), "\(depth)")
    }
    // At 16 colours a grey stays a grey.
    #expect(ColorDepth.sixteen.degrade(border).foreground == .ansi(8))
  }
}
