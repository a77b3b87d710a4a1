import UNTermInput

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

  /// The keys a script (and the test harness) can name, each with its other spellings: the one
  /// list that `key NAME`, its help and its errors read.
  package static let scriptKeys: [(names: [String], key: Key)] = [
    (["enter", "return"], .enter), (["esc", "escape"], .escape), (["space"], .character(" ")), (["tab"], .tab),
    (["backspace"], .backspace), (["delete", "del"], .delete), (["up"], .up), (["down"], .down),
    (["left"], .left), (["right"], .right), (["home"], .home), (["end"], .end), (["pgup", "pageup"], .pageUp),
    (["pgdn", "pagedown"], .pageDown), (["shift-left"], .modified(.left, .shift)),
    (["shift-right"], .modified(.right, .shift)), (["shift-home"], .modified(.home, .shift)),
    (["shift-end"], .modified(.end, .shift)),
  ]

  /// The names as help and errors list them: `enter esc space … shift-end` (first spellings),
  /// separated by `separator`.
  package static func scriptNames(separator: String = " ") -> String {
    scriptKeys.map { $0.names[0] }.joined(separator: separator)
  }

  /// The key a script names (any case): one of `scriptKeys`, or one character.
  package init?(scriptName name: String) {
    let lowered = name.lowercased()
    if let entry = Self.scriptKeys.first(where: { $0.names.contains(lowered) }) {
      self = entry.key
      return
    }
    guard name.count == 1, let c = name.first else { return nil }
    self = .character(c)
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
