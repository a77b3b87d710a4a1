/// A strict RFC 8259 parser for untrusted input.
///
/// It works on bytes, so invalid UTF-8, lone surrogates and stray control characters are
/// reported with their line and column instead of being repaired. Nesting is capped, duplicate
/// keys are rejected (the document would mean different things to different parsers: Foundation's
/// two decoders disagree on which value wins), and numbers are kept as text.
package struct JSONParser {
  /// Why a document was rejected, and where.
  package struct Failure: Error, Sendable, Equatable {
    package enum Kind: Sendable {
      case syntax, encoding, depth, duplicateKey

      /// The lint finding this problem is reported as.
      package var lintCode: LintCode {
        switch self {
        case .syntax: return .invalidJSON
        case .encoding: return .invalidUTF8
        case .depth: return .tooDeep
        case .duplicateKey: return .duplicateKey
        }
      }
    }

    package var kind: Kind
    package var message: SafeText
    package var position: SourcePosition
    /// The path of the value being read when the problem was found.
    package var path: JSONPath
  }

  /// The deepest nesting accepted; APNs payloads are small and shallow.
  package static let defaultMaximumDepth = 32

  private let bytes: [UInt8]
  private var offset = 0
  private var line = 1
  private var lineStart = 0
  private let maximumDepth: Int

  private init(bytes: [UInt8], maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// Parses a whole document.
  ///
  /// A UTF-8 byte-order mark is skipped; UTF-16 and UTF-32 are rejected, since APNs payloads are
  /// UTF-8.
  package static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(Failure) -> JSONNode {
    var input = bytes
    if input.starts(with: [0xEF, 0xBB, 0xBF]) { input.removeFirst(3) }
    if input.starts(with: [0xFE, 0xFF]) || input.starts(with: [0xFF, 0xFE])
      || input.starts(with: [0, 0, 0xFE, 0xFF])
      || (input.count >= 2 && (input[0] == 0 || input[1] == 0))
    {
      throw Failure(
        kind: .encoding, message: "the file is UTF-16 or UTF-32; APNs payloads must be UTF-8",
        position: SourcePosition(line: 1, column: 1), path: .root)
    }
    if let deepest = JSONDepthScan.firstTooDeep(input, limit: maximumDepth) {
      var locator = JSONParser(bytes: input, maximumDepth: maximumDepth)
      locator.advance(to: deepest)
      throw Failure(
        kind: .depth, message: "nesting deeper than \(maximumDepth) levels",
        position: locator.position, path: .root)
    }
    var parser = JSONParser(bytes: input, maximumDepth: maximumDepth)
    parser.skipWhitespace()
    guard parser.offset < parser.bytes.count else {
      throw parser.failure(.syntax, "the file is empty; expected a JSON object", .root)
    }
    let node = try parser.parseValue(path: .root, depth: 0)
    parser.skipWhitespace()
    if parser.offset < parser.bytes.count {
      throw parser.failure(.syntax, "unexpected \(parser.describeCurrent()) after the document", .root)
    }
    return node
  }

  // MARK: - Position tracking

  /// The current position, counted from the start of the line (for errors, once).
  private var position: SourcePosition {
    SourcePosition(line: line, column: columns(from: lineStart, startingAt: 1))
  }

  /// The column reached at `offset`, counting Unicode scalars from `start` (at `column`).
  private func columns(from start: Int, startingAt column: Int) -> Int {
    var column = column
    var i = start
    while i < offset && i < bytes.count {
      if bytes[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    return column
  }

  private var cachedOffset = 0
  private var cachedColumn = 1

  /// The current position, counted on from the last one asked for, so a long single-line
  /// document costs linear time.
  private mutating func trackedPosition() -> SourcePosition {
    if cachedOffset < lineStart || cachedOffset > offset {
      cachedOffset = lineStart
      cachedColumn = 1
    }
    cachedColumn = columns(from: cachedOffset, startingAt: cachedColumn)
    cachedOffset = min(offset, bytes.count)
    return SourcePosition(line: line, column: cachedColumn)
  }

  private mutating func advance(to target: Int) {
    while offset < target && offset < bytes.count {
      if endsLine(at: offset) {
        line += 1
        lineStart = offset + 1
      }
      offset += 1
    }
  }

  /// Whether the byte at `index` ends a line, as editors and SARIF count lines: an LF, or a CR
  /// not followed by an LF (of a CR LF, the LF ends the line).
  private func endsLine(at index: Int) -> Bool {
    bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A))
  }

  private func failure(_ kind: Failure.Kind, _ message: SafeText, _ path: JSONPath) -> Failure {
    Failure(kind: kind, message: message, position: position, path: path)
  }

  private func describeCurrent() -> String {
    guard offset < bytes.count else { return "end of file" }
    let byte = bytes[offset]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return String(format: "byte 0x%02X", byte)
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09: offset += 1
      case 0x0A, 0x0D:
        let ends = endsLine(at: offset)
        offset += 1
        if ends {
          line += 1
          lineStart = offset
        }
      default: return
      }
    }
  }

  // MARK: - Values

  private mutating func parseValue(path: JSONPath, depth: Int) throws(Failure) -> JSONNode {
    skipWhitespace()
    let start = trackedPosition()
    guard offset < bytes.count else {
      throw failure(.syntax, "unexpected end of file; expected a value", path)
    }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      return JSONNode(.object(try parseObject(path: path, depth: depth + 1)), at: start)
    case UInt8(ascii: "["):
      return JSONNode(.array(try parseArray(path: path, depth: depth + 1)), at: start)
    case UInt8(ascii: "\""):
      return JSONNode(.string(try parseString(path: path)), at: start)
    case UInt8(ascii: "t"):
      try expectLiteral("true", path: path)
      return JSONNode(.bool(true), at: start)
    case UInt8(ascii: "f"):
      try expectLiteral("false", path: path)
      return JSONNode(.bool(false), at: start)
    case UInt8(ascii: "n"):
      try expectLiteral("null", path: path)
      return JSONNode(.null, at: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONNode(.number(try parseNumber(path: path)), at: start)
    default:
      throw failure(.syntax, "unexpected \(describeCurrent()); expected a value", path)
    }
  }

  private mutating func expectLiteral(_ word: String, path: JSONPath) throws(Failure) {
    for expected in word.utf8 {
      guard offset < bytes.count, bytes[offset] == expected else {
        throw failure(.syntax, "unexpected \(describeCurrent()); expected '\(word)'", path)
      }
      offset += 1
    }
  }

  private mutating func parseObject(path: JSONPath, depth: Int) throws(Failure) -> JSONObject {
    guard depth <= maximumDepth else {
      throw failure(.depth, "nesting deeper than \(maximumDepth) levels", path)
    }
    offset += 1  // {
    var object = JSONObject()
    skipWhitespace()
    if offset < bytes.count && bytes[offset] == UInt8(ascii: "}") {
      offset += 1
      return object
    }
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        throw failure(.syntax, "unexpected \(describeCurrent()); expected a key in double quotes", path)
      }
      let keyPosition = trackedPosition()
      let key = try parseString(path: path)
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
        throw failure(.syntax, "unexpected \(describeCurrent()); expected ':' after key \"\(key)\"", path)
      }
      offset += 1
      let value = try parseValue(path: path.appending(key), depth: depth)
      if let first = object.append(
        JSONObject.Member(key: key, keyPosition: keyPosition, value: value))
      {
        throw Failure(
          kind: .duplicateKey,
          message:
            "duplicate key \"\(key)\" (first at line \(first.line)); UNTerm rejects duplicate keys because parsers disagree on which value wins",
          position: keyPosition, path: path.appending(key))
      }
      skipWhitespace()
      guard offset < bytes.count else {
        throw failure(.syntax, "unexpected end of file; expected ',' or '}'", path)
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == UInt8(ascii: "}") {
        offset += 1
        return object
      }
      throw failure(.syntax, "unexpected \(describeCurrent()); expected ',' or '}'", path)
    }
  }

  private mutating func parseArray(path: JSONPath, depth: Int) throws(Failure) -> [JSONNode] {
    guard depth <= maximumDepth else {
      throw failure(.depth, "nesting deeper than \(maximumDepth) levels", path)
    }
    offset += 1  // [
    var items: [JSONNode] = []
    skipWhitespace()
    if offset < bytes.count && bytes[offset] == UInt8(ascii: "]") {
      offset += 1
      return items
    }
    while true {
      items.append(try parseValue(path: path.appending(items.count), depth: depth))
      skipWhitespace()
      guard offset < bytes.count else {
        throw failure(.syntax, "unexpected end of file; expected ',' or ']'", path)
      }
      if bytes[offset] == UInt8(ascii: ",") {
        offset += 1
        continue
      }
      if bytes[offset] == UInt8(ascii: "]") {
        offset += 1
        return items
      }
      throw failure(.syntax, "unexpected \(describeCurrent()); expected ',' or ']'", path)
    }
  }

  private mutating func parseNumber(path: JSONPath) throws(Failure) -> JSONNumber {
    let start = offset
    func digit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    guard offset < bytes.count, digit(bytes[offset]) else {
      throw failure(.syntax, "a number needs digits after '-'", path)
    }
    if bytes[offset] == UInt8(ascii: "0") {
      offset += 1
      if offset < bytes.count && digit(bytes[offset]) {
        throw failure(.syntax, "numbers must not have leading zeros", path)
      }
    } else {
      while offset < bytes.count && digit(bytes[offset]) { offset += 1 }
    }
    if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
      offset += 1
      guard offset < bytes.count, digit(bytes[offset]) else {
        throw failure(.syntax, "a number needs digits after '.'", path)
      }
      while offset < bytes.count && digit(bytes[offset]) { offset += 1 }
    }
    if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
      offset += 1
      if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
        offset += 1
      }
      guard offset < bytes.count, digit(bytes[offset]) else {
        throw failure(.syntax, "a number needs digits in its exponent", path)
      }
      while offset < bytes.count && digit(bytes[offset]) { offset += 1 }
    }
    let length = offset - start
    guard length <= 512 else {
      offset = start
      throw failure(.syntax, "a number of \(length) characters is too long", path)
    }
    return JSONNumber(String(decoding: bytes[start..<offset], as: UTF8.self))
  }

  private mutating func parseString(path: JSONPath) throws(Failure) -> String {
    offset += 1  // opening quote
    var utf8: [UInt8] = []
    while true {
      guard offset < bytes.count else {
        throw failure(.syntax, "unterminated string", path)
      }
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        offset += 1
        try parseEscape(into: &utf8, path: path)
      case 0x00..<0x20:
        throw failure(
          .syntax,
          "control character U+\(String(format: "%04X", Int(byte))) must be escaped in a string", path)
      case 0x00..<0x80:
        utf8.append(byte)
        offset += 1
      default:
        let length = try validateUTF8Sequence(path: path)
        utf8.append(contentsOf: bytes[offset..<offset + length])
        offset += length
      }
    }
  }

  /// Checks one multi-byte UTF-8 sequence at `offset` and returns its length.
  private func validateUTF8Sequence(path: JSONPath) throws(Failure) -> Int {
    let lead = bytes[offset]
    let length: Int
    var minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF:
      length = 2
      minimum = 0x80
      scalar = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      length = 3
      minimum = 0x800
      scalar = UInt32(lead & 0x0F)
    case 0xF0...0xF4:
      length = 4
      minimum = 0x10000
      scalar = UInt32(lead & 0x07)
    default:
      throw failure(.encoding, "invalid UTF-8 byte \(String(format: "0x%02X", lead))", path)
    }
    guard offset + length <= bytes.count else {
      throw failure(.encoding, "truncated UTF-8 sequence", path)
    }
    for i in 1..<length {
      let next = bytes[offset + i]
      guard next & 0xC0 == 0x80 else {
        throw failure(.encoding, "invalid UTF-8 sequence at byte \(String(format: "0x%02X", lead))", path)
      }
      scalar = scalar << 6 | UInt32(next & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      throw failure(.encoding, "overlong or out-of-range UTF-8 sequence", path)
    }
    return length
  }

  private mutating func parseEscape(into utf8: inout [UInt8], path: JSONPath) throws(Failure) {
    guard offset < bytes.count else { throw failure(.syntax, "unterminated string", path) }
    let byte = bytes[offset]
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): utf8.append(0x22)
    case UInt8(ascii: "\\"): utf8.append(0x5C)
    case UInt8(ascii: "/"): utf8.append(0x2F)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      let escapeStart = offset - 2
      func surrogateFailure(_ value: UInt32) -> Failure {
        var at = self
        at.offset = escapeStart
        return at.failure(.encoding, "lone surrogate \\u\(String(format: "%04X", value))", path)
      }
      var value = try hex4(path: path)
      if (0xD800...0xDBFF).contains(value) {
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
          bytes[offset + 1] == UInt8(ascii: "u")
        else {
          throw surrogateFailure(value)
        }
        offset += 2
        let low = try hex4(path: path)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw surrogateFailure(value)
        }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(value) {
        throw surrogateFailure(value)
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw failure(.encoding, "invalid code point", path)
      }
      utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
    default:
      offset -= 1
      throw failure(.syntax, "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", path)
    }
  }

  private mutating func hex4(path: JSONPath) throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < bytes.count else { throw failure(.syntax, "truncated \\u escape", path) }
      let b = bytes[offset]
      let digit: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw failure(.syntax, "invalid hex digit in \\u escape", path)
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }
}

/// A cheap iterative scan for nesting depth, run before parsing, so a hostile file can never
/// drive a recursive parser deep enough to exhaust the stack.
package enum JSONDepthScan {
  /// The byte offset of the first bracket that nests deeper than `limit`, or `nil`.
  package static func firstTooDeep(_ bytes: [UInt8], limit: Int) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    for (i, b) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch b {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth > limit { return i }
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
    }
    return nil
  }
}
