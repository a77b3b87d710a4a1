import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermRender
@testable import UNTermState

@Suite("Themes")
struct ThemeTests {
  @Test func everyThemeFileLoads() throws {
    let names = try Fixtures.files(in: Fixtures.themes) { $0.hasSuffix(".json") }
    #expect(Set(names).isSuperset(of: ["default.json", "dark.json", "high-contrast.json", "monochrome.json"]))
    for name in names {
      let theme = try ThemeLoader.load(path: Fixtures.themes.appendingPathComponent(name).path)
      #expect(!theme.styles.isEmpty)
    }
  }

  @Test func monochromeUsesNoColours() throws {
    let theme = try ThemeLoader.load(path: Fixtures.themes.appendingPathComponent("monochrome.json").path)
    for role in Role.allCases {
      #expect(theme[role].foreground == .terminalDefault && theme[role].background == .terminalDefault)
    }
  }

  /// Each error names the line and column (of the key for an unknown key or a wrong type, of
  /// the value for a value not allowed) and ends with the JSON path.
  @Test(arguments: [
    (
      #"{"roles":{"titel":{"bold":true}}}"#,
      "t.json:1:11: error: unknown role \"titel\"; did you mean \"title\"? [roles.titel]"
    ),
    (
      #"{"roles":{"title":{"fg":"purpel"}}}"#,
      "t.json:1:25: error: unknown colour \"purpel\"; expected a name, 0–255 or #RRGGBB [roles.title.fg]"
    ),
    (
      #"{"roles":{"title":{"fg":300}}}"#,
      "t.json:1:25: error: fg must be a whole number from 0 to 255, not 300 [roles.title.fg]"
    ),
    (
      #"{"roles":{"title":{"blink":true}}}"#,
      "t.json:1:20: error: unknown key; expected fg, bg, bold, dim, italic, underline or reverse [roles.title.blink]"
    ),
    (#"{"roles":{"title":{"bold":"yes"}}}"#, "t.json:1:20: error: must be true or false [roles.title.bold]"),
    (
      #"{"colours":{}}"#,
      "t.json:1:2: error: unknown key; a theme has \"name\", \"description\" and \"roles\" [colours]"
    ),
    ("{", "t.json:1:2: error:"),
  ])
  func badThemesGiveOneLineNamingTheKey(json: String, message: String) {
    do {
      _ = try ThemeLoader.parse(Array(json.utf8), file: "t.json")
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == .dataError)
      #expect(error.description.hasPrefix(message), "\(error.description)")
      #expect(!error.description.contains("\n"))
    }
  }

  @Test func coloursDegradeTo256_16_8AndNone() {
    let orange = Color.rgb(255, 159, 10)
    #expect(ColorDepth.trueColor.degrade(orange) == orange)
    #expect(ColorDepth.palette256.degrade(orange) == .indexed(214))
    #expect(ColorDepth.sixteen.degrade(orange) == .ansi(3))
    #expect(ColorDepth.eight.degrade(orange) == .ansi(3))
    #expect(ColorDepth.none.degrade(orange) == .terminalDefault)
    #expect(ColorDepth.sixteen.degrade(.indexed(196)) == .ansi(9))
    #expect(ColorDepth.detect(environment: ["COLORTERM": "truecolor"]) == .trueColor)
    #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color"]) == .palette256)
    #expect(ColorDepth.detect(environment: ["TERM": "linux"]) == .eight)
    #expect(ColorDepth.detect(environment: ["TERM": "dumb"]) == .none)
  }

  @Test func ansiOutputCarriesTheDestructiveColourAndNothingElse() throws {
    var grid = CellGrid(width: 10, height: 1)
    grid.write("Delete", x: 0, y: 0, style: Style(foreground: .rgb(255, 69, 58)))
    let text = grid.ansiText(depth: .palette256)
    #expect(text == "\u{1B}[0;38;5;203mDelete\u{1B}[0m")
    #expect(grid.ansiText(depth: .none) == "Delete")
  }

  @Test func identicalFramesCostNoBytes() {
    var grid = CellGrid(width: 20, height: 2)
    grid.write("hello 中文", x: 0, y: 0, style: .plain)
    #expect(grid.terminalUpdate(from: grid, depth: .palette256).isEmpty)
    var moved = grid
    moved.write("x", x: 3, y: 1, style: .plain)
    #expect(moved.terminalUpdate(from: grid, depth: .palette256) == "\u{1B}[2;4H\u{1B}[0mx")
  }
}
