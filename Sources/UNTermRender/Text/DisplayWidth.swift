/// Terminal column widths of characters, matching glibc's `wcwidth()` (which ncurses and tmux
/// use here), summed over a grapheme cluster's scalars.
package enum DisplayWidth {
  private static func contains(_ ranges: [(UInt32, UInt32)], _ value: UInt32) -> Bool {
    var low = 0
    var high = ranges.count - 1
    while low <= high {
      let mid = (low + high) / 2
      if value < ranges[mid].0 {
        high = mid - 1
      } else if value > ranges[mid].1 {
        low = mid + 1
      } else {
        return true
      }
    }
    return false
  }

  /// Columns one scalar takes: 0, 1 or 2. Controls count 0; the sanitizer replaces them first.
  package static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x20 || (0x7F...0x9F).contains(v) { return 0 }
    if v < 0x300 { return 1 }
    if contains(zeroWidthRanges, v) { return 0 }
    if contains(wideRanges, v) { return 2 }
    return 1
  }

  /// Whether glibc calls the scalar unprintable (unassigned in its Unicode version).
  package static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0xA0 && contains(unprintableRanges, scalar.value)
  }

  /// Columns a grapheme cluster takes: the sum of its scalars' widths.
  package static func of(_ character: Character) -> Int {
    // One byte: ASCII (a length check and a byte are cheaper than `asciiValue`, which compares
    // with CR LF; CR LF sums to 0 below, as it should).
    let utf8 = character.utf8
    if utf8.count == 1, let byte = utf8.first { return byte >= 0x20 && byte < 0x7F ? 1 : 0 }
    var total = 0
    for scalar in character.unicodeScalars { total += of(scalar) }
    return total
  }

  /// Columns a string takes.
  package static func of(_ string: String) -> Int {
    var total = 0
    for character in string { total += of(character) }
    return total
  }
}
