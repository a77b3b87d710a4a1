import CNcursesw
import UNTermInput
import UNTermRender
import UNTermState

/// Maps what `wget_wch` returns to input events, without a terminal.
package enum CursesKeyDecoder {
  /// The ncurses codes the decoder understands, for callers (tests) that do not import the
  /// shim.
  package enum Code {
    /// `wget_wch` read a character.
    package static let ok: Int32 = OK
    /// `wget_wch` read a function key.
    package static let keyCodeYes: Int32 = KEY_CODE_YES
    /// `wget_wch` read nothing.
    package static let err: Int32 = ERR

    package static let up = UInt32(KEY_UP)
    package static let down = UInt32(KEY_DOWN)
    package static let left = UInt32(KEY_LEFT)
    package static let right = UInt32(KEY_RIGHT)
    package static let home = UInt32(KEY_HOME)
    package static let end = UInt32(KEY_END)
    package static let pageDown = UInt32(KEY_NPAGE)
    package static let pageUp = UInt32(KEY_PPAGE)
    package static let deleteCharacter = UInt32(KEY_DC)
    package static let insertCharacter = UInt32(KEY_IC)
    package static let function0 = UInt32(KEY_F0)
    package static let backspace = UInt32(KEY_BACKSPACE)
    package static let enter = UInt32(KEY_ENTER)
    package static let resize = UInt32(KEY_RESIZE)
    package static let mouse = UInt32(KEY_MOUSE)
  }

  /// The event for one `wget_wch` result on its own, or `nil` for nothing or a key the emulator
  /// ignores: characters, and the key codes ncurses defines itself. The terminal decodes codes
  /// through its terminfo table first (`TerminfoKeys`) and escape sequences through
  /// `KeySequenceParser`; this is their last resort.
  ///
  /// `KEY_RESIZE` gives `.resize(width: 0, height: 0)` here because only the terminal knows its
  /// new size (`CursesTerminal` fills it in); `KEY_MOUSE` gives `nil` because the event itself
  /// comes from `getmouse` (see `CursesMouseDecoder`).
  ///
  /// - Parameters:
  ///   - status: What `wget_wch` returned: `OK`, `KEY_CODE_YES` or `ERR`.
  ///   - code: The wide character or key code it stored.
  package static func decode(status: Int32, code: UInt32) -> InputEvent? {
    switch status {
    case OK: return character(code).map { .key($0) }
    case KEY_CODE_YES:
      if code == Code.resize { return .resize(width: 0, height: 0) }
      return standardKey(code).map { .key($0) }
    default: return nil
    }
  }

  /// The key a character stands for: Ctrl-C, Backspace, Tab, Enter, Esc, or typed text; `nil`
  /// for other control codes (Ctrl-Z is `KeySequenceParser`'s) and C1 codes.
  package static func character(_ code: UInt32) -> Key? {
    switch code {
    case 3: return .interrupt
    case 8, 127: return .backspace
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 0..<32, 0x80..<0xA0: return nil
    default:
      guard let scalar = Unicode.Scalar(code) else { return nil }
      return .character(Character(scalar))
    }
  }

  /// The key for a code ncurses defines itself (`KEY_*`), or `nil`.
  package static func standardKey(_ code: UInt32) -> Key? {
    let value = Int32(truncatingIfNeeded: code)
    if value > KEY_F0 && value <= KEY_F0 + 63 { return .function(Int(value - KEY_F0)) }
    switch value {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME, KEY_FIND: return .home
    case KEY_END, KEY_SELECT: return .end
    case KEY_NPAGE: return .pageDown
    case KEY_PPAGE: return .pageUp
    case KEY_IC: return .insert
    case KEY_DC: return .delete
    case KEY_BACKSPACE: return .backspace
    case KEY_ENTER: return .enter
    case KEY_BTAB: return .modified(.tab, .shift)
    case KEY_SR: return .modified(.up, .shift)
    case KEY_SF: return .modified(.down, .shift)
    case KEY_SLEFT: return .modified(.left, .shift)
    case KEY_SRIGHT: return .modified(.right, .shift)
    case KEY_SHOME: return .modified(.home, .shift)
    case KEY_SEND: return .modified(.end, .shift)
    case KEY_SIC: return .modified(.insert, .shift)
    case KEY_SDC: return .modified(.delete, .shift)
    case KEY_SPREVIOUS: return .modified(.pageUp, .shift)
    case KEY_SNEXT: return .modified(.pageDown, .shift)
    default: return nil
    }
  }
}

/// Collects decoded events, joining characters typed in one burst into grapheme clusters.
///
/// `wget_wch` returns one code point at a time, so a Bengali conjunct (ক ্ ষ), an emoji with a
/// skin tone or a flag arrives in pieces; a piece that extends the previous character's
/// cluster is merged into it.
package struct CursesInputAssembler: Sendable {
  package private(set) var events: [InputEvent] = []

  package init() {}

  /// Adds an event, merging it into the previous character when they form one cluster, and
  /// keeping only the last of back-to-back resizes.
  package mutating func append(_ event: InputEvent) {
    if case .resize = event, let last = events.last, case .resize = last {
      events[events.count - 1] = event
      return
    }
    if case .key(.character(let next)) = event, let last = events.last,
      case .key(.character(let previous)) = last
    {
      let joined = String(previous) + String(next)
      if joined.count == 1, let merged = joined.first {
        events[events.count - 1] = .key(.character(merged))
        return
      }
    }
    events.append(event)
  }
}
