/// A key press, decoded from a terminal or named in a script.
package enum Key: Hashable, Sendable, CustomStringConvertible {
  case character(Character)
  case enter, escape, tab, backspace, delete, insert
  case up, down, left, right, home, end, pageUp, pageDown
  /// A function key: F1–F12, and higher numbers where a terminal reports them.
  case function(Int)
  /// A key held with Shift, Alt or Ctrl that the terminal reports as such (Ctrl-← , Alt-x,
  /// Shift-Tab…). No binding uses one today; they are decoded so they never arrive as other keys.
  indirect case modified(Key, KeyModifiers)
  /// Ctrl-C in raw mode.
  case interrupt

  /// The key a script names: `enter esc space tab backspace delete up down left right home end`,
  /// `pgup`, `pgdn`, `shift-left`, `shift-right`, `shift-home`, `shift-end`, or one character.
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
    case "shift-left": self = .modified(.left, .shift)
    case "shift-right": self = .modified(.right, .shift)
    case "shift-home": self = .modified(.home, .shift)
    case "shift-end": self = .modified(.end, .shift)
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
    case .insert: return "Ins"
    case .up: return "↑"
    case .down: return "↓"
    case .left: return "←"
    case .right: return "→"
    case .home: return "Home"
    case .end: return "End"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .function(let n): return "F\(n)"
    case .modified(let key, let modifiers): return modifiers.description + key.description
    case .interrupt: return "Ctrl-C"
    }
  }
}

/// Shift, Alt and Ctrl, as terminals report them with a key.
package struct KeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  package static let shift = KeyModifiers(rawValue: 1 << 0)
  package static let alt = KeyModifiers(rawValue: 1 << 1)
  package static let control = KeyModifiers(rawValue: 1 << 2)

  /// The modifiers of xterm's parameter convention (`ESC [ 1 ; P D`, terminfo's `kLFT5`):
  /// `P - 1` holds Shift (1), Alt (2) and Ctrl (4).
  package init(xtermParameter parameter: Int) {
    self.init(rawValue: UInt8(truncatingIfNeeded: max(0, parameter - 1) & 0b111))
  }

  /// `Ctrl-`, `Alt-`, `Shift-` in that order, as a caption prefix.
  package var description: String {
    (contains(.control) ? "Ctrl-" : "") + (contains(.alt) ? "Alt-" : "") + (contains(.shift) ? "Shift-" : "")
  }
}
