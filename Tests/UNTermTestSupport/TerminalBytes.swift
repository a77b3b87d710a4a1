/// What a terminal may receive from UNTerm: printable text, and only the controls ncurses and
/// UNTerm's own output write — SGR, cursor movement, erasing, scrolling regions and the modes
/// they switch. Everything else (OSC, DCS, APC, PM, SOS, queries, any other C0 or C1 control,
/// DEL, a bidi control, invalid UTF-8) is a violation, reported with the bytes around it.
package enum TerminalBytes {
  /// A sequence or character a terminal would act on that UNTerm never writes itself.
  package struct Violation: CustomStringConvertible, Sendable {
    /// Where it starts in the bytes.
    package var offset: Int
    /// The offending bytes.
    package var bytes: [UInt8]
    /// Up to 24 bytes on either side, shown escaped.
    package var context: String
    package var reason: String

    package var description: String {
      "\(reason) at byte \(offset): \(TerminalBytes.escaped(bytes)) in …\(context)…"
    }
  }

  /// CSI finals for movement, erasing, editing and colour, with any numeric parameters.
  private static let plainFinals = Set("mHfABCDEFGdea`JKX@PLMSTbr".utf8)
  /// DEC private modes (`ESC [ ? N h/l`) ncurses and UNTerm switch: cursor keys, autowrap,
  /// cursor blink and visibility, mouse reports, the alternate screen, bracketed paste.
  private static let privateModes: Set<Int> = [1, 7, 12, 25, 1000, 1002, 1003, 1006, 1049, 2004]
  /// ANSI modes: insert mode, and BDSM (8), which UNTerm resets while it reorders right-to-left
  /// text itself (`--bidi visual`) and sets again on the way out.
  private static let ansiModes: Set<Int> = [4, 8]
  /// Window operations xterm-256color's smcup/rmcup write: push and pop the title (never set it).
  private static let windowOperations: Set<String> = ["22;0;0", "23;0;0"]
  /// Two-byte escapes: charset G0 (`( B`, `( 0`), keypad modes, save/restore cursor, index,
  /// reverse index, next line.
  private static let shortEscapes = Set("=>78MDE".utf8)

  /// The twelve bidi controls.
  private static let bidiControls: Set<UInt32> = [
    0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
  ]

  /// Every violation in `bytes`, in order.
  package static func violations(in bytes: [UInt8]) -> [Violation] {
    var found: [Violation] = []
    func flag(_ start: Int, _ end: Int, _ reason: String) {
      let from = max(0, start - 24)
      let to = min(bytes.count, end + 24)
      found.append(
        Violation(
          offset: start, bytes: Array(bytes[start..<end]), context: escaped(Array(bytes[from..<to])), reason: reason))
    }
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      switch byte {
      case 0x1B:
        let (end, problem) = escapeSequence(in: bytes, at: i)
        if let problem { flag(i, end, problem) }
        i = end
      case 0x0A, 0x0D, 0x08, 0x09:
        i += 1  // line feed, carriage return, backspace, tab: cursor movement
      case 0x00..<0x20, 0x7F:
        flag(i, i + 1, "a C0 control or DEL")
        i += 1
      case 0x20..<0x7F:
        i += 1
      default:
        guard let (scalar, length) = decodeUTF8(bytes, at: i) else {
          flag(i, i + 1, "invalid UTF-8")
          i += 1
          continue
        }
        if (0x80...0x9F).contains(scalar) {
          flag(i, i + length, "a C1 control")
        } else if bidiControls.contains(scalar) {
          flag(i, i + length, "a bidi control")
        }
        i += length
      }
    }
    return found
  }

  /// The end of the escape sequence at `start`, and what is wrong with it, if anything.
  private static func escapeSequence(in bytes: [UInt8], at start: Int) -> (end: Int, problem: String?) {
    guard start + 1 < bytes.count else { return (start + 1, "a lone ESC at the end") }
    let kind = bytes[start + 1]
    switch kind {
    case UInt8(ascii: "["):
      var i = start + 2
      var parameters: [UInt8] = []
      while i < bytes.count, (0x30...0x3F).contains(bytes[i]) {
        parameters.append(bytes[i])
        i += 1
      }
      var intermediates: [UInt8] = []
      while i < bytes.count, (0x20...0x2F).contains(bytes[i]) {
        intermediates.append(bytes[i])
        i += 1
      }
      guard i < bytes.count, (0x40...0x7E).contains(bytes[i]) else { return (i, "an unfinished CSI sequence") }
      let final = bytes[i]
      let problem = csiProblem(parameters: parameters, intermediates: intermediates, final: final)
      return (i + 1, problem)
    case UInt8(ascii: "("):
      guard start + 2 < bytes.count else { return (start + 2, "an unfinished charset designation") }
      let set = bytes[start + 2]
      return (start + 3, set == UInt8(ascii: "B") || set == UInt8(ascii: "0") ? nil : "a charset designation")
    case UInt8(ascii: "]"): return (start + 2, "an OSC sequence (title, clipboard, colours…)")
    case UInt8(ascii: "P"): return (start + 2, "a DCS sequence")
    case UInt8(ascii: "_"): return (start + 2, "an APC sequence")
    case UInt8(ascii: "^"): return (start + 2, "a PM sequence")
    case UInt8(ascii: "X"): return (start + 2, "an SOS sequence")
    default:
      return (start + 2, shortEscapes.contains(kind) ? nil : "an escape sequence UNTerm never writes")
    }
  }

  private static func csiProblem(parameters: [UInt8], intermediates: [UInt8], final: UInt8) -> String? {
    let text = String(decoding: parameters, as: UTF8.self)
    guard intermediates.isEmpty else { return "a CSI sequence with intermediates" }
    let isPrivate = text.hasPrefix("?")
    let numbers = (isPrivate ? String(text.dropFirst()) : text)
    let isNumeric = numbers.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ";" || $0 == ":") }
    guard isNumeric else { return "a CSI sequence with unusual parameters" }
    switch final {
    case UInt8(ascii: "h"), UInt8(ascii: "l"):
      let modes = numbers.split(separator: ";").map { Int($0) ?? -1 }
      let allowed = isPrivate ? privateModes : ansiModes
      return modes.allSatisfy(allowed.contains) ? nil : "a mode change UNTerm never makes"
    case UInt8(ascii: "t"):
      return !isPrivate && windowOperations.contains(numbers) ? nil : "a window operation or report"
    default:
      return !isPrivate && plainFinals.contains(final) ? nil : "a CSI sequence UNTerm never writes (a query?)"
    }
  }

  private static func decodeUTF8(_ bytes: [UInt8], at i: Int) -> (UInt32, Int)? {
    let lead = bytes[i]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return nil
    }
    guard i + length <= bytes.count else { return nil }
    var decoder = UTF8()
    var iterator = bytes[i..<i + length].makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
    return (scalar.value, length)
  }

  /// Bytes as readable text: printable ASCII and other characters as they are, controls and
  /// invalid bytes as `\u{1B}` and `\x9B`.
  package static func escaped(_ bytes: [UInt8]) -> String {
    var out = ""
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if byte < 0x20 || byte == 0x7F {
        out += "\\u{\(String(byte, radix: 16, uppercase: true))}"
        i += 1
      } else if byte < 0x80 {
        out.unicodeScalars.append(Unicode.Scalar(byte))
        i += 1
      } else if let (value, length) = decodeUTF8(bytes, at: i), let scalar = Unicode.Scalar(value) {
        let isControl = (0x80...0x9F).contains(value) || bidiControls.contains(value)
        out += isControl ? "\\u{\(String(value, radix: 16, uppercase: true))}" : String(Character(scalar))
        i += length
      } else {
        out += "\\x\(String(byte, radix: 16, uppercase: true))"
        i += 1
      }
    }
    return out
  }
}
