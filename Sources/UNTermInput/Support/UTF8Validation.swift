/// Where a file stops being UTF-8: the line and column of its first invalid sequence, counted
/// as every finding counts them (lines end at LF, CR LF or a lone CR; columns count scalars from
/// 1; a byte-order mark at the start is not counted), and the byte found there.
package enum UTF8Validation {
  package struct Problem: Sendable, Hashable {
    package var position: SourcePosition
    package var byte: UInt8

    /// "invalid UTF-8 sequence at byte 0xC3", as the JSON parser says it.
    package var message: SafeText {
      "invalid UTF-8 sequence at byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))"
    }
  }

  /// The first invalid sequence in `bytes`, or nil when they are all UTF-8.
  package static func firstProblem(in bytes: some Collection<UInt8>) -> Problem? {
    var iterator = bytes.makeIterator()
    var decoder = Unicode.UTF8()
    var line = 1
    var column = 1
    var offset = 0
    var afterCR = false
    var first = true
    while true {
      switch decoder.decode(&iterator) {
      case .emptyInput:
        return nil
      case .error:
        let index = bytes.index(bytes.startIndex, offsetBy: offset)
        return Problem(position: SourcePosition(line: line, column: column), byte: bytes[index])
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
        defer {
          afterCR = scalar == "\r"
          first = false
        }
        if first && scalar == "\u{FEFF}" { continue }
        if scalar == "\n" && afterCR { continue }
        if scalar == "\n" || scalar == "\r" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
