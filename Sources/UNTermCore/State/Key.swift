/// A key press, decoded from a terminal or named in a script.
package enum Key: Hashable, Sendable, CustomStringConvertible {
  case character(Character)
  case enter, escape, tab, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown
  /// Ctrl-C in raw mode.
  case interrupt

  /// The key a script names: `enter esc space tab backspace delete up down left right home end`,
  /// `pgup`, `pgdn`, or one character.
  package init?(scriptName name: String) {
    switch name.lowercased() {
    case "enter", "return": self = .enter
    case "esc", "escape": self = .escape
    case "space": self = .character(" ")
    case "tab": self = .tab
    case "backspace": self = .backspace
    case "delete", "del": self = .delete
    case "up": self = .up
    case "down": self = .down
    case "left": self = .left
    case "right": self = .right
    case "home": self = .home
    case "end": self = .end
    case "pgup", "pageup": self = .pageUp
    case "pgdn", "pagedown": self = .pageDown
    default:
      guard name.count == 1, let c = name.first else { return nil }
      self = .character(c)
    }
  }

  /// How a caption shows the key: `⏎`, `Esc`, `Space`, `↓`, `x`…
  package var description: String {
    switch self {
    case .character(" "): return "Space"
    case .character(let c): return String(c)
    case .enter: return "⏎"
    case .escape: return "Esc"
    case .tab: return "Tab"
    case .backspace: return "⌫"
    case .delete: return "Del"
    case .up: return "↑"
    case .down: return "↓"
    case .left: return "←"
    case .right: return "→"
    case .home: return "Home"
    case .end: return "End"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .interrupt: return "Ctrl-C"
    }
  }
}
