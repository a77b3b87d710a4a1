import Foundation
import Testing

@testable import UNTermRender

@Suite("Display width")
struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("中", 2), ("😀", 2), ("é", 1), ("e\u{301}", 1), ("ক্ষ", 2), ("প্র", 2),
    ("ا", 1), ("👍🏽", 4), ("🇺🇸", 2), ("❤️", 1), ("\u{200D}", 0), ("\u{9CD}", 0),
  ])
  func clusterWidthsMatchGlibcWcwidthSums(_ text: String, _ width: Int) {
    #expect(DisplayWidth.of(text) == width)
  }

  @Test func sentencesAddUp() {
    #expect(DisplayWidth.of("প্রজ্ঞা") == 5)
    #expect(DisplayWidth.of("یہ ایک اطلاع ہے") == 15)
    #expect(DisplayWidth.of("明日の会議") == 10)
  }
}

/// glibc's wcwidth, which its headers declare only under _XOPEN_SOURCE (so Swift's Glibc
/// module leaves it out); wchar_t is a 32-bit integer here.
@_silgen_name("wcwidth") private func glibcWidth(_ character: Int32) -> Int32

/// The width table is generated from glibc's `wcwidth()` (Scripts/gen-width-table.sh); this
/// compares it with the running glibc for every code point the table covers, so a table made
/// on another glibc, or edited by hand, fails here rather than as a misaligned screen (27.6).
@Suite("The width table is glibc's")
struct WidthTableMatchesGlibcTests {
  @Test func everyCodePointHasGlibcsWidth() throws {
    let previous = String(cString: setlocale(LC_CTYPE, nil))
    defer { setlocale(LC_CTYPE, previous) }
    try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil, "no C.UTF-8 locale")
    var differences: [String] = []
    for value in UInt32(0xA0)..<0x110000 {
      guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
      let glibc = glibcWidth(Int32(bitPattern: value))
      if glibc < 0 {
        if !DisplayWidth.isUnprintable(scalar) { differences.append(String(format: "U+%04X: glibc -1", value)) }
        continue
      }
      if DisplayWidth.isUnprintable(scalar) {
        differences.append(String(format: "U+%04X: the table calls it unprintable, glibc %d", value, glibc))
      } else if DisplayWidth.of(scalar) != Int(glibc) {
        differences.append(String(format: "U+%04X: glibc %d, the table %d", value, glibc, DisplayWidth.of(scalar)))
      }
      if differences.count > 20 { break }
    }
    #expect(differences.isEmpty, "\(differences.joined(separator: "\n")) (Scripts/gen-width-table.sh regenerates it)")
  }
}
