import UNTermRender
import UNTermState

/// One thing `wget_wch` handed over, before escape sequences are put together.
package enum CursesInput: Hashable, Sendable {
  /// A character (`OK`): its code point. ncurses returns each byte of a sequence it has no
  /// binding for as a character of its own.
  case character(UInt32)
  /// A key ncurses decoded from a bound sequence (`KEY_CODE_YES`), through `TerminfoKeys`, and
  /// that sequence (empty when unknown).
  case key(Key, sequence: [UInt8])
  /// Something else the terminal reported (a mouse event, a resize), kept in order.
  case event(InputEvent)
}

/// Puts together what ncurses' keypad leaves in pieces, so every key arrives as the key the
/// user pressed and nothing else:
///
/// * **Esc** alone is the Esc key. ncurses has already waited `ESCDELAY` after it, since every
///   bound sequence starts with Esc, so a lone Esc at the end of the input is final.
/// * **Esc + a character or key** that arrived with it is that key with Alt (terminals send
///   Alt-x as `ESC x`, Alt-↑ as `ESC ESC [ A`), never Esc followed by the key.
/// * **A control sequence no terminfo entry binds** (`ESC [` parameters and a final byte, or
///   `ESC O` and a final byte) is swallowed whole: not Esc, then `[`, `1`, `~` as typed keys.
///   An unfinished one waits (`isIncomplete`) and is dropped if its rest never comes.
/// * **Bracketed paste** (`ESC [ 200 ~` … `ESC [ 201 ~`) becomes one `.paste` with the text
///   exactly as sent, control characters included (the screen shows them through the
///   sanitizer); a key ncurses decoded inside it was text, and goes back in as its sequence.
///   At most `pasteLimit` scalars are kept.
/// * **Ctrl-Z** is `.suspend`, outside a paste.
package struct KeySequenceParser: Sendable {
  /// Scalars kept of one paste; the rest is dropped.
  package static let pasteLimit = 100_000
  /// Parameter bytes kept of one control sequence (the rest is swallowed unread).
  package static let sequenceLimit = 64

  private static let escape: UInt32 = 0x1B
  private static let pasteEnd: [UInt32] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

  private enum State: Hashable, Sendable {
    case ground
    /// One or two Esc characters (the second makes the key after it an Alt key).
    case escape(count: Int)
    /// After `ESC [` or `ESC O` (introducer), with the bytes so far.
    case sequence(introducer: UInt32, bytes: [UInt32], alt: Bool)
    /// Inside a bracketed paste, with how much of its end marker has been seen.
    case paste(matched: Int)
  }

  private var state = State.ground
  private var pasted: [Unicode.Scalar] = []
  private var output: [InputEvent] = []

  package init() {}

  /// Whether an escape sequence or a paste is waiting for its rest: read again shortly, and
  /// `flush()` if nothing comes.
  package var isIncomplete: Bool {
    switch state {
    case .sequence(_, let bytes, _): return !bytes.isEmpty
    case .paste: return true
    case .ground, .escape: return false
    }
  }

  /// Whether a bracketed paste has started and not ended.
  package var isInPaste: Bool {
    if case .paste = state { return true }
    return false
  }

  /// Takes the events completed so far.
  package mutating func take() -> [InputEvent] {
    defer { output = [] }
    return output
  }

  /// Adds what `wget_wch` returned next.
  package mutating func feed(_ input: CursesInput) {
    switch state {
    case .ground:
      ground(input)
    case .escape(let count):
      afterEscape(input, count: count)
    case .sequence(let introducer, let bytes, let alt):
      inSequence(input, introducer: introducer, bytes: bytes, alt: alt)
    case .paste(let matched):
      inPaste(input, matched: matched)
    }
  }

  /// No more input is waiting: Esc alone is the Esc key, and `ESC [` or `ESC O` with nothing
  /// after it is Alt-[ or Alt-O (ncurses waited for more after them too). Unfinished sequences
  /// and pastes keep waiting.
  package mutating func endOfInput() {
    switch state {
    case .escape(let count):
      for _ in 0..<count { output.append(.key(.escape)) }
      state = .ground
    case .sequence(let introducer, let bytes, let alt) where bytes.isEmpty:
      if alt { output.append(.key(.escape)) }
      if let scalar = Unicode.Scalar(introducer) {
        output.append(.key(.modified(.character(Character(scalar)), .alt)))
      }
      state = .ground
    case .ground, .sequence, .paste:
      break
    }
  }

  /// The rest never came: an unfinished sequence is dropped; an unfinished paste is delivered
  /// as far as it went.
  package mutating func flush() {
    switch state {
    case .sequence(_, let bytes, _) where !bytes.isEmpty:
      state = .ground
    case .paste(let matched):
      for code in Self.pasteEnd.prefix(matched) { appendPasted(code) }
      finishPaste()
    default:
      endOfInput()
    }
  }

  // MARK: - States

  private mutating func ground(_ input: CursesInput) {
    switch input {
    case .character(Self.escape): state = .escape(count: 1)
    case .character(26): output.append(.suspend)
    case .character(let code):
      if let key = CursesKeyDecoder.character(code) { output.append(.key(key)) }
    case .key(let key, _): output.append(.key(key))
    case .event(let event): output.append(event)
    }
  }

  private mutating func afterEscape(_ input: CursesInput, count: Int) {
    switch input {
    case .character(Self.escape):
      if count == 2 { output.append(.key(.escape)) }
      state = .escape(count: 2)
    case .character(let code) where code == 0x5B || code == 0x4F:  // [ or O
      state = .sequence(introducer: code, bytes: [], alt: count == 2)
    case .character(let code):
      state = .ground
      if count == 2 { output.append(.key(.escape)) }
      switch code {
      case 3: output += [.key(.escape), .key(.interrupt)]
      case 26: output += [.key(.escape), .suspend]
      default:
        if let key = CursesKeyDecoder.character(code) { output.append(.key(key.with(.alt))) }
      }
    case .key(let key, _):
      state = .ground
      if count == 2 { output.append(.key(.escape)) }
      output.append(.key(key.with(.alt)))
    case .event(let event):
      endOfInput()
      output.append(event)
    }
  }

  private mutating func inSequence(_ input: CursesInput, introducer: UInt32, bytes: [UInt32], alt: Bool) {
    guard case .character(let code) = input else {
      // A key or an event cuts the sequence short: it was not one.
      state = .ground
      ground(input)
      return
    }
    let isCSI = introducer == 0x5B
    switch code {
    case 0x20...0x3F:
      // Parameter and intermediate bytes (`ESC O 5 P`, xterm's old modified F1, takes digits);
      // past the limit they are still swallowed, only not kept.
      if bytes.count < Self.sequenceLimit {
        state = .sequence(introducer: introducer, bytes: bytes + [code], alt: alt)
      }
    case 0x5B where isCSI && bytes.isEmpty:
      // The Linux console's F1–F5 are `ESC [ [ A`–`E`: one more final byte follows.
      state = .sequence(introducer: introducer, bytes: [code], alt: alt)
    case 0x40...0x7E:
      state = .ground
      if isCSI && bytes == [0x32, 0x30, 0x30] && code == 0x7E {  // ESC [ 2 0 0 ~
        pasted = []
        state = .paste(matched: 0)
      }
    // Anything else complete is a sequence no terminal entry binds: swallowed.
    default:
      // A byte no sequence holds: not a sequence after all.
      state = .ground
      ground(input)
    }
  }

  private mutating func inPaste(_ input: CursesInput, matched: Int) {
    switch input {
    case .character(let code):
      if code == Self.pasteEnd[matched] {
        if matched + 1 == Self.pasteEnd.count {
          finishPaste()
        } else {
          state = .paste(matched: matched + 1)
        }
        return
      }
      for earlier in Self.pasteEnd.prefix(matched) { appendPasted(earlier) }
      if code == Self.escape {
        state = .paste(matched: 1)
      } else {
        appendPasted(code)
        state = .paste(matched: 0)
      }
    case .key(_, let sequence):
      // ncurses decoded a key sequence inside the pasted text: it was text, not a key.
      for earlier in Self.pasteEnd.prefix(matched) { appendPasted(earlier) }
      for byte in sequence { appendPasted(UInt32(byte)) }
      state = .paste(matched: 0)
    case .event(let event):
      output.append(event)
    }
  }

  private mutating func appendPasted(_ code: UInt32) {
    guard pasted.count < Self.pasteLimit else { return }
    pasted.append(Unicode.Scalar(code) ?? "\u{FFFD}")
  }

  private mutating func finishPaste() {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: pasted)
    output.append(.paste(String(text)))
    pasted = []
    state = .ground
  }
}

extension Key {
  /// This key with a modifier added (Alt-x from Esc then x).
  fileprivate func with(_ extra: KeyModifiers) -> Key {
    if case .modified(let key, let modifiers) = self { return .modified(key, modifiers.union(extra)) }
    return .modified(self, extra)
  }
}
