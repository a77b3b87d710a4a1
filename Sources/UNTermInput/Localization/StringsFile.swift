import Foundation
import UserNotificationsModel

/// The text form of a `Localizable.strings` file (an old-style property list of string pairs):
/// `"key" = "value";` entries, `/* */` and `//` comments, escapes `\n \t \r \" \\ \'
/// \a \b \f \v`, `\UXXXX` (UTF-16 units; a surrogate pair takes two) and octal `\ooo`; a key
/// alone (`"key";`) stands for itself; keys and values may also be unquoted words. UTF-8
/// (with or without a byte-order mark) or UTF-16 with a byte-order mark, as Xcode writes them.
///
/// Untrusted input: the first syntax error stops the file with its line and column; a
/// duplicate key is a warning (the later value wins, as on iOS).
package enum StringsFile {
  /// The most entries one file may hold.
  package static let maximumEntries = 100_000

  /// One `"key" = "value";` pair.
  package struct Entry: Sendable {
    package var key: String
    package var value: String
    package var position: SourcePosition
  }

  /// Parses a `.strings` file in its text form; errors and warnings go to the sink, and the
  /// entries read are returned (none after an error).
  package static func parse(_ bytes: [UInt8], sink: inout DiagnosticSink) -> [Entry] {
    let scalars: [Unicode.Scalar]
    switch decode(bytes) {
    case .success(let decoded): scalars = decoded
    case .failure(let failure):
      sink.report(.invalidStrings, at: .position(failure.position), SafeText(sanitizing: failure.message))
      return []
    }
    var parser = Parser(scalars: scalars)
    do {
      let entries = try parser.entries()
      var seen: [String: SourcePosition] = [:]
      for entry in entries {
        if let first = seen[entry.key] {
          sink.report(
            .duplicateStringKey, at: .position(entry.position),
            "the key \(OneLine.quote(entry.key)) is defined again (first at \(first)); the later value wins, as on iOS")
        }
        seen[entry.key] = entry.position
      }
      return entries
    } catch {
      sink.report(.invalidStrings, at: .position(error.position), SafeText(sanitizing: error.message))
      return []
    }
  }

  struct Failure: Error {
    var position: SourcePosition
    var message: String
  }

  /// The file's text: UTF-16 after a byte-order mark, else strict UTF-8.
  static func decode(_ bytes: [UInt8]) -> Result<[Unicode.Scalar], Failure> {
    var out: [Unicode.Scalar] = []
    var line = 1
    var column = 1
    func note(_ scalar: Unicode.Scalar) {
      out.append(scalar)
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      let little = bytes[0] == 0xFF
      guard bytes.count % 2 == 0 else {
        return .failure(
          Failure(position: SourcePosition(line: 1, column: 1), message: "a UTF-16 file has an odd number of bytes"))
      }
      var units: [UInt16] = []
      units.reserveCapacity(bytes.count / 2)
      var i = 2
      while i + 1 < bytes.count {
        units.append(
          little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
        i += 2
      }
      var iterator = units.makeIterator()
      var utf16 = UTF16()
      while true {
        switch utf16.decode(&iterator) {
        case .scalarValue(let s): note(s)
        case .emptyInput: return .success(out)
        case .error:
          return .failure(
            Failure(position: SourcePosition(line: line, column: column), message: "invalid UTF-16 (a lone surrogate)"))
        }
      }
    }
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    if body.count >= 2, body.first == 0 || body[body.startIndex + 1] == 0 {
      return .failure(
        Failure(
          position: SourcePosition(line: 1, column: 1),
          message: "the file looks like UTF-16 without a byte-order mark; save it as UTF-8 (or UTF-16 with a BOM)"))
    }
    var iterator = body.makeIterator()
    var utf8 = UTF8()
    while true {
      switch utf8.decode(&iterator) {
      case .scalarValue(let s):
        if s == "\0" {
          return .failure(
            Failure(position: SourcePosition(line: line, column: column), message: "a NUL byte in the file"))
        }
        note(s)
      case .emptyInput: return .success(out)
      case .error:
        return .failure(Failure(position: SourcePosition(line: line, column: column), message: "invalid UTF-8"))
      }
    }
  }

  private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var line = 1
    var column = 1

    var position: SourcePosition { SourcePosition(line: line, column: column) }
    var atEnd: Bool { index >= scalars.count }
    var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    func fail(_ message: String, at position: SourcePosition? = nil) -> Failure {
      Failure(position: position ?? self.position, message: message)
    }

    mutating func advance() {
      guard index < scalars.count else { return }
      if scalars[index] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }

    /// Skips white space and comments.
    mutating func skip() throws(Failure) {
      while let c = current {
        if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{FEFF}" {
          advance()
        } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
          let start = position
          advance()
          advance()
          var closed = false
          while let d = current {
            if d == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
              advance()
              advance()
              closed = true
              break
            }
            advance()
          }
          guard closed else { throw fail("unterminated comment: expected */", at: start) }
        } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
          while let d = current, d != "\n" { advance() }
        } else {
          return
        }
      }
    }

    mutating func entries() throws(Failure) -> [Entry] {
      var out: [Entry] = []
      try skip()
      while !atEnd {
        guard out.count < StringsFile.maximumEntries else {
          throw fail("more than \(StringsFile.maximumEntries) entries")
        }
        let start = position
        let key = try string(what: "a key in double quotes")
        try skip()
        if current == ";" {
          advance()
          out.append(Entry(key: key, value: key, position: start))
          try skip()
          continue
        }
        guard current == "=" else {
          throw fail("expected '=' after the key \(OneLine.quote(key)), not \(describe(current))")
        }
        advance()
        try skip()
        let value = try string(what: "a value in double quotes after '='")
        try skip()
        guard current == ";" else {
          throw fail("expected ';' after the value of \(OneLine.quote(key)), not \(describe(current))")
        }
        advance()
        out.append(Entry(key: key, value: value, position: start))
        try skip()
      }
      return out
    }

    func describe(_ scalar: Unicode.Scalar?) -> String {
      guard let scalar else { return "the end of the file" }
      return "'\(OneLine.flatten(String(scalar)))'"
    }

    static func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
      (c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil))
        || "_$+/:.-".unicodeScalars.contains(c)
    }

    /// A quoted string, or an unquoted word.
    mutating func string(what: String) throws(Failure) -> String {
      guard let c = current else { throw fail("expected \(what), not the end of the file") }
      if c == "\"" || c == "'" { return try quoted(c) }
      guard Self.isWordCharacter(c) else { throw fail("expected \(what), not \(describe(c))") }
      var out = String.UnicodeScalarView()
      while let d = current, Self.isWordCharacter(d) {
        out.append(d)
        advance()
      }
      return String(out)
    }

    mutating func quoted(_ quote: Unicode.Scalar) throws(Failure) -> String {
      let start = position
      advance()
      var out = String.UnicodeScalarView()
      var pendingHigh: (UInt16, SourcePosition)?
      while true {
        guard let c = current else { throw fail("unterminated string: expected a closing \(quote)", at: start) }
        if c == quote {
          if let (_, at) = pendingHigh { throw fail("a \\U escape leaves a lone high surrogate", at: at) }
          advance()
          return String(out)
        }
        guard c == "\\" else {
          if pendingHigh != nil { throw fail("a \\U escape leaves a lone high surrogate", at: pendingHigh?.1) }
          out.append(c)
          advance()
          continue
        }
        let escapeStart = position
        advance()
        guard let e = current else { throw fail("unterminated string: expected a closing \(quote)", at: start) }
        if e == "U" || e == "u" {
          advance()
          var hex = ""
          while hex.count < 4, let h = current, h.properties.isASCIIHexDigit {
            hex.unicodeScalars.append(h)
            advance()
          }
          guard hex.count == 4, let unit = UInt16(hex, radix: 16) else {
            throw fail("\\U must be followed by four hexadecimal digits", at: escapeStart)
          }
          if let (high, at) = pendingHigh {
            guard (0xDC00...0xDFFF).contains(unit) else {
              throw fail("a \\U escape leaves a lone high surrogate", at: at)
            }
            let value = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
            if let scalar = Unicode.Scalar(value) { out.append(scalar) }
            pendingHigh = nil
          } else if (0xD800...0xDBFF).contains(unit) {
            pendingHigh = (unit, escapeStart)
          } else if let scalar = Unicode.Scalar(UInt32(unit)) {
            out.append(scalar)
          } else {
            throw fail("\\U\(hex) is a lone low surrogate", at: escapeStart)
          }
          continue
        }
        if pendingHigh != nil { throw fail("a \\U escape leaves a lone high surrogate", at: pendingHigh?.1) }
        if ("0"..."7").contains(e) {
          var value: UInt32 = 0
          var digits = 0
          while digits < 3, let o = current, ("0"..."7").contains(o) {
            value = value * 8 + (o.value - 0x30)
            advance()
            digits += 1
          }
          guard value != 0, let scalar = Unicode.Scalar(value) else {
            throw fail("an octal escape for NUL is not allowed", at: escapeStart)
          }
          out.append(scalar)
          continue
        }
        advance()
        switch e {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "a": out.append("\u{07}")
        case "b": out.append("\u{08}")
        case "f": out.append("\u{0C}")
        case "v": out.append("\u{0B}")
        default: out.append(e)  // \" \\ \' and any other character stand for themselves
        }
      }
    }
  }
}
