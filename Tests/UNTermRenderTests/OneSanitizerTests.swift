import Testing
import UNTermInput
import UNTermRender

/// The screen and every other output show a control the same way: `TerminalText` takes its
/// placeholders from `SafeText`.
@Suite("One sanitizer for the screen and the streams")
struct OneSanitizerTests {
  @Test func theScreenAndTheStreamsShowEveryControlAlike() {
    var values = Array(UInt32(0)..<0xA0).filter { !(0x20..<0x7F).contains($0) && $0 != 0x09 && $0 != 0x0A }
    values += [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
    for value in values {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "a\(Character(scalar))b"
      #expect(
        TerminalText.sanitize(text) == SafeText(sanitizing: text).text, "U+\(String(value, radix: 16, uppercase: true))"
      )
    }
  }
}
