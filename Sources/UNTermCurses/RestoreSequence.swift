/// The bytes a signal handler writes to give the terminal back, worked out in advance.
package enum RestoreSequence {
  /// The terminfo capabilities written, in order: attributes off, original colours, keypad
  /// transmit off, cursor visible, alternate screen off.
  package static let capabilities = ["sgr0", "op", "rmkx", "cnorm", "rmcup"]

  /// Turns off every xterm mouse mode ncurses may have turned on (1000 press/release, 1002
  /// drag, 1003 motion, 1006 SGR coordinates); written only when the mouse was enabled.
  package static let mouseOff: [UInt8] = Array(
    "\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1000l".utf8)

  /// Turns bracketed paste off (xterm's mode 2004), where terminfo has no `BD`.
  package static let pasteOff: [UInt8] = Array("\u{1B}[?2004l".utf8)

  /// ECMA-48 BDSM (mode 8): reset asks a terminal that runs the bidi algorithm itself (VTE, and
  /// any that follows the terminal-wg BiDi proposal) to show each character in the cell it is
  /// written to, while UNTerm reorders right-to-left text; set gives it back its own (implicit)
  /// bidi, the default. Terminals that do not know the mode ignore both.
  package static let explicitBidiOn: [UInt8] = Array("\u{1B}[8l".utf8)
  package static let explicitBidiOff: [UInt8] = Array("\u{1B}[8h".utf8)

  /// The restore bytes from a terminal's capabilities.
  ///
  /// - Parameters:
  ///   - lookup: A string capability by terminfo name, or `nil` when the terminal lacks it.
  ///   - mouseEnabled: Whether mouse reporting was turned on.
  ///   - pasteEnabled: Whether bracketed paste was turned on.
  ///   - explicitBidi: Whether the terminal was asked to leave bidi to UNTerm.
  /// - Returns: the capabilities in `capabilities` order with padding removed, mouse-off
  ///   sequences and then paste off (`BD`) after `op` when they were on, and the terminal's own
  ///   bidi back last.
  package static func bytes(
    lookup: (String) -> [UInt8]?, mouseEnabled: Bool, pasteEnabled: Bool = false, explicitBidi: Bool = false
  ) -> [UInt8] {
    var out: [UInt8] = []
    for name in capabilities {
      if name == "rmkx" && mouseEnabled { out += mouseOff }
      if name == "rmkx" && pasteEnabled { out += removingPadding(lookup("BD") ?? pasteOff) }
      if let value = lookup(name) { out += removingPadding(value) }
    }
    if explicitBidi { out += explicitBidiOff }
    return out
  }

  /// A capability string without its `$<…>` delays, which `tputs` would turn into waiting but
  /// a plain `write` would print.
  package static func removingPadding(_ bytes: [UInt8]) -> [UInt8] {
    let dollar = UInt8(ascii: "$")
    let open = UInt8(ascii: "<")
    let close = UInt8(ascii: ">")
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if bytes[i] == dollar && i + 1 < bytes.count && bytes[i + 1] == open,
        let end = bytes[(i + 2)...].firstIndex(of: close),
        bytes[(i + 2)..<end].allSatisfy({ isPaddingByte($0) })
      {
        i = end + 1
        continue
      }
      out.append(bytes[i])
      i += 1
    }
    return out
  }

  private static func isPaddingByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "/")
  }
}
