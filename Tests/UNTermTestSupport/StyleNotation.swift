import Foundation
import UNTermRender

/// A compact per-cell style notation for golden screens, so a golden says what each cell is drawn
/// as where that carries meaning (the focused card, a destructive action, an overflow marker),
/// not only what it reads.
///
/// Screens are drawn with `themeFile()`, a theme that gives every role its own foreground and
/// background colour; `render(_:)` reads the role back from each cell's colours and writes,
/// under each row of text, a row with one character per column: the role of the text for a
/// cell that shows something, the role of the fill for a blank one. A legend of the roles used
/// ends the notation. Independent of any real theme's colours: it checks the renderer's choice
/// of role.
package enum StyleNotation {
  /// The character a role is written as.
  package static func code(_ role: Role) -> Character {
    switch role {
    case .screen: "."
    case .card: "c"
    case .cardBorder: "b"
    case .cardFocused: "f"
    case .appName: "n"
    case .time: "w"
    case .title: "t"
    case .subtitle: "s"
    case .body: "y"
    case .secondary: "2"
    case .accent: "A"
    case .action: "a"
    case .actionSelected: "S"
    case .destructive: "D"
    case .badge: "g"
    case .field: "i"
    case .fieldPlaceholder: "p"
    case .button: "u"
    case .overflow: "O"
    case .statusBar: "_"
    case .statusKey: "k"
    case .pane: "P"
    case .paneTitle: "e"
    case .warning: "W"
    case .error: "E"
    case .lockScreen: "L"
    case .clock: "C"
    case .mediaArt: "m"
    }
  }

  /// A cell whose colours name no role (image pixels).
  package static let unknown: Character = "?"

  private static let roles = Role.allCases
  private static let foregroundBase = 16
  private static let backgroundBase = 160

  /// The theme file (JSON, as `--theme` reads) that gives role N the foreground 16+N and the
  /// background 160+N of the 256-colour palette.
  package static func themeFile() throws -> String {
    var members: [String] = []
    for (index, role) in roles.enumerated() {
      members.append(#""\#(role.rawValue)": { "fg": \#(foregroundBase + index), "bg": \#(backgroundBase + index) }"#)
    }
    let json = #"{ "name": "roles", "roles": { "# + members.joined(separator: ", ") + " } }\n"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-roles-\(UUID().uuidString).json")
    try Data(json.utf8).write(to: url)
    return url.path
  }

  /// The role a colour stands for in the roles theme.
  private static func role(_ color: Color, base: Int) -> Role? {
    guard case .indexed(let index) = color else { return nil }
    let offset = Int(index) - base
    return roles.indices.contains(offset) ? roles[offset] : nil
  }

  /// Each row of text with its row of role codes under it, then the legend.
  package static func render(_ grid: CellGrid) -> String {
    var out = ""
    var used = Set<Role>()
    for y in 0..<grid.height {
      var codes: [Character] = []
      var x = 0
      while x < grid.width {
        let cell = grid[x, y]
        let span = max(1, Int(cell.width))
        let shows = !cell.text.allSatisfy(\.isWhitespace)
        let found =
          shows ? role(cell.style.foreground, base: foregroundBase) : role(cell.style.background, base: backgroundBase)
        if let found { used.insert(found) }
        codes += Array(repeating: found.map(code) ?? unknown, count: span)
        x += span
      }
      while codes.last == code(.screen) { codes.removeLast() }
      out += grid.line(y) + "\n" + String(codes) + "\n"
    }
    let legend = roles.filter { used.contains($0) && $0 != .screen }.map { "\(code($0)) \($0.rawValue)" }
    return out + "legend: . screen · " + legend.joined(separator: " · ") + "\n"
  }
}
