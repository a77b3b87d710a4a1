import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// Which key each terminfo key capability stands for, and how ncurses is taught the sequences a
/// terminal sends: keys are decoded from terminfo by ncurses' keypad, never by matching a few
/// sequences by hand.
///
/// Two sources, in this order:
/// 1. The terminal's own entry (`$TERM`). `keypad` binds its sequences, extended capabilities
///    such as `kHOM5` (Ctrl-Home) and `kLFT3` (Alt-←) included; `key_defined` tells which code
///    each got.
/// 2. The entries of the terminals UNTerm is commonly run in (`companionTypes`), because `TERM`
///    often names another terminal than the one sending keys: inside tmux with
///    `TERM=xterm-256color`, Home arrives as tmux's `ESC [ 1 ~`, not xterm's `ESC O H`. Each of
///    their sequences is bound with `define_key` only where the terminal's own entry leaves it
///    free (`key_defined` is 0), together with its other cursor-key mode form (`ESC O H` and
///    `ESC [ H`: DECCKM switches between them).
///
/// Sequences no entry knows reach `KeySequenceParser`, which swallows them whole.
package enum TerminfoKeys {
  /// Every key capability read, with the key it stands for.
  package static let capabilities: [(name: String, key: Key)] = {
    var table: [(name: String, key: Key)] = [
      ("kcuu1", .up), ("kcud1", .down), ("kcub1", .left), ("kcuf1", .right),
      ("khome", .home), ("kend", .end), ("kich1", .insert), ("kdch1", .delete),
      ("kpp", .pageUp), ("knp", .pageDown), ("kent", .enter),
      // A VT220's Find and Select keys sit where Home and End are, and send what tmux does.
      ("kfnd", .home), ("kslt", .end),
      ("kcbt", .modified(.tab, .shift)), ("kri", .modified(.up, .shift)), ("kind", .modified(.down, .shift)),
      // The Linux console's entry names xterm's Shift-Tab too.
      ("kcbt2", .modified(.tab, .shift)),
    ]
    // F13 and up are what the terminal calls them; xterm uses them for Shift-F1 and the like.
    for n in 1...63 { table.append(("kf\(n)", .function(n))) }
    let modifiable: [(String, Key)] = [
      ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home), ("kEND", .end),
      ("kIC", .insert), ("kDC", .delete), ("kPRV", .pageUp), ("kNXT", .pageDown),
    ]
    for (base, key) in modifiable {
      // No suffix is Shift; 3–8 follow xterm's modifier parameter.
      table.append((base, .modified(key, .shift)))
      for parameter in 3...8 {
        table.append(("\(base)\(parameter)", .modified(key, KeyModifiers(xtermParameter: parameter))))
      }
    }
    return table
  }()

  /// The terminal types whose key sequences are accepted besides `$TERM`'s, most trusted first:
  /// xterm and everything that copies it, tmux (and screen, whose keys tmux's entry has), rxvt,
  /// the Linux console, a VT220.
  package static let companionTypes = ["xterm-256color", "tmux-256color", "rxvt-unicode-256color", "linux", "vt220"]

  /// Key codes UNTerm gives the sequences it binds, above every code ncurses assigns.
  static let firstPrivateCode: Int32 = 0x6000

  /// The escape sequences of the companion types, in priority order, read from terminfo once per
  /// process. Only while no screen is open (reading makes each type current for a moment).
  static func companionSequences() -> [(sequence: [UInt8], key: Key)] {
    if let cached = companionCache { return cached }
    var out: [(sequence: [UInt8], key: Key)] = []
    let descriptor = Posix.open("/dev/null", flags: O_RDWR)
    defer { if descriptor >= 0 { Posix.close(descriptor) } }
    for type in companionTypes {
      guard let description = Curses.loadDescription(type, descriptor: descriptor) else { continue }
      for (name, key) in capabilities {
        guard let sequence = Curses.stringCapability(name), sequence.count >= 2, sequence[0] == 0x1B else {
          continue
        }
        out.append((sequence, key))
      }
      Curses.freeDescription(description)
    }
    companionCache = out
    return out
  }

  /// A key ncurses returns a code for, and the sequence it was sent as (to put a sequence back
  /// into pasted text, where it was text).
  struct Binding: Hashable, Sendable {
    var key: Key
    var sequence: [UInt8]
  }

  /// Binds what the terminal sends to keys, after `newterm` and `keypad`: the own entry's codes
  /// as ncurses assigned them, then the companions' sequences where they are free, each with a
  /// code of its own.
  ///
  /// - Returns: the key and sequence for each ncurses code that stands for one.
  static func bindKeys(companions: [(sequence: [UInt8], key: Key)]) -> [UInt32: Binding] {
    var table: [UInt32: Binding] = [:]
    for (name, key) in capabilities {
      guard let sequence = Curses.stringCapability(name) else { continue }
      let code = Curses.keyCode(of: sequence)
      if code > 0 && table[UInt32(code)] == nil { table[UInt32(code)] = Binding(key: key, sequence: sequence) }
    }
    var nextCode = firstPrivateCode
    for (sequence, key) in companions {
      for candidate in [sequence] + otherCursorKeyForm(of: sequence) where Curses.keyCode(of: candidate) == 0 {
        guard Curses.bind(candidate, to: nextCode) else { continue }
        table[UInt32(nextCode)] = Binding(key: key, sequence: candidate)
        nextCode += 1
      }
    }
    return table
  }

  /// `ESC [ x` for `ESC O x` and the other way round, for the cursor keys, Home and End: what
  /// the same key sends in the other cursor-key mode (DECCKM).
  static func otherCursorKeyForm(of sequence: [UInt8]) -> [[UInt8]] {
    guard sequence.count == 3, sequence[0] == 0x1B, Array("ABCDHF".utf8).contains(sequence[2]) else { return [] }
    switch sequence[1] {
    case UInt8(ascii: "O"): return [[0x1B, UInt8(ascii: "["), sequence[2]]]
    case UInt8(ascii: "["): return [[0x1B, UInt8(ascii: "O"), sequence[2]]]
    default: return []
    }
  }

  nonisolated(unsafe) private static var companionCache: [(sequence: [UInt8], key: Key)]?
}
