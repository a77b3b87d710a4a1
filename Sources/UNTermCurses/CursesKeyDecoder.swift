import CNcursesw
import UNTermCore

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
    package static let backspace = UInt32(KEY_BACKSPACE)
    package static let enter = UInt32(KEY_ENTER)
    package static let resize = UInt32(KEY_RESIZE)
    package static let mouse = UInt32(KEY_MOUSE)
  }

  /// The event for one `wget_wch` result, or `nil` for nothing or a key the emulator ignores.
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
    case OK: return character(code)
    case KEY_CODE_YES: return functionKey(code)
    default: return nil
    }
  }

  private static func character(_ code: UInt32) -> InputEvent? {
    switch code {
    case 3: return .key(.interrupt)
    case 8, 127: return .key(.backspace)
    case 9: return .key(.tab)
    case 10, 13: return .key(.enter)
    case 27: return .key(.escape)
    case 0..<32, 0x80..<0xA0: return nil
    default:
      guard let scalar = Unicode.Scalar(code) else { return nil }
      return .key(.character(Character(scalar)))
    }
  }

  private static func functionKey(_ code: UInt32) -> InputEvent? {
    switch Int32(truncatingIfNeeded: code) {
    case KEY_UP: return .key(.up)
    case KEY_DOWN: return .key(.down)
    case KEY_LEFT: return .key(.left)
    case KEY_RIGHT: return .key(.right)
    case KEY_HOME: return .key(.home)
    case KEY_END: return .key(.end)
    case KEY_NPAGE: return .key(.pageDown)
    case KEY_PPAGE: return .key(.pageUp)
    case KEY_DC: return .key(.delete)
    case KEY_BACKSPACE: return .key(.backspace)
    case KEY_ENTER: return .key(.enter)
    case KEY_RESIZE: return .resize(width: 0, height: 0)
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
