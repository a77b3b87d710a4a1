import Foundation

/// Reads a property list into the tree the JSON parser makes (`JSONNode`), with the line and
/// column of every key and value, so a finding about an extension's Info.plist points at the
/// line of its key in the XML.
///
/// XML property lists — what Xcode writes — are read here, byte by byte; a binary or OpenStep
/// property list is read by Foundation, which gives no positions, so its findings are at 1:1.
package enum PropertyListReader {
  /// Why a property list was refused, and where.
  package struct Failure: Error, Sendable {
    /// `invalid-plist`, or `duplicate-key` for a dictionary with a key twice.
    package var code: LintCode
    package var message: SafeText
    package var position: SourcePosition
  }

  /// Parses a whole property list. Integers and reals become numbers, `<true/>` and `<false/>`
  /// booleans, `<date>` and `<data>` strings (their text).
  package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONNode {
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard first == UInt8(ascii: "<") else { return try foundation(bytes) }
    guard let text = String(validating: body, as: UTF8.self) else {
      let problem = UTF8Validation.firstProblem(in: body)
      throw Failure(
        code: .invalidPlist, message: "the property list is not valid UTF-8: \(problem?.message ?? "")",
        position: problem?.position ?? SourcePosition(line: 1, column: 1))
    }
    var parser = XMLPropertyListParser(Array(text.unicodeScalars))
    return try parser.document()
  }

  /// A binary or OpenStep property list, through Foundation: every position is 1:1.
  private static func foundation(_ bytes: [UInt8]) throws(Failure) -> JSONNode {
    let start = SourcePosition(line: 1, column: 1)
    let value: Any
    do {
      value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
    } catch {
      throw Failure(code: .invalidPlist, message: "not a readable property list", position: start)
    }
    func node(_ value: Any) -> JSONNode {
      switch value {
      case let dictionary as [String: Any]:
        var object = JSONObject()
        for key in dictionary.keys.sorted() {
          _ = object.append(
            JSONObject.Member(key: key, keyPosition: start, value: node(dictionary[key] as Any)))
        }
        return JSONNode(.object(object), at: start)
      case let array as [Any]:
        return JSONNode(.array(array.map(node)), at: start)
      case let string as String:
        return JSONNode(.string(string), at: start)
      case let flag as Bool where type(of: value) == Bool.self:
        return JSONNode(.bool(flag), at: start)
      case let number as NSNumber:
        return JSONNode(.number(JSONNumber(number.stringValue)), at: start)
      case let date as Date:
        return JSONNode(.string(ISO8601DateFormatter().string(from: date)), at: start)
      case let data as Data:
        return JSONNode(.string(data.base64EncodedString()), at: start)
      default:
        return JSONNode(.null, at: start)
      }
    }
    return node(value)
  }
}

/// The XML property-list grammar (Apple's DTD): an optional prolog (declaration, comments,
/// processing instructions, DOCTYPE), `<plist>` around one value (or the value alone), and the
/// elements `dict` (`key` then a value, repeated), `array`, `string`, `integer`, `real`, `date`,
/// `data`, `true`, `false`. Text takes the five named entities, character references and CDATA.
private struct XMLPropertyListParser {
  private let scalars: [Unicode.Scalar]
  private var index = 0
  private var line = 1
  private var lineStart = 0

  init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

  private var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

  private var atEnd: Bool { index >= scalars.count }

  private func failure(_ message: SafeText, at position: SourcePosition? = nil) -> PropertyListReader.Failure {
    PropertyListReader.Failure(code: .invalidPlist, message: message, position: position ?? self.position)
  }

  private mutating func advance(_ count: Int = 1) {
    for _ in 0..<count where index < scalars.count {
      // A line ends at an LF, or a CR not followed by one (XML reads both as a line break).
      if scalars[index] == "\n"
        || (scalars[index] == "\r" && (index + 1 == scalars.count || scalars[index + 1] != "\n"))
      {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
  }

  private func looking(at text: String) -> Bool {
    var i = index
    for scalar in text.unicodeScalars {
      guard i < scalars.count, scalars[i] == scalar else { return false }
      i += 1
    }
    return true
  }

  private mutating func expect(_ text: String, _ what: SafeText) throws(PropertyListReader.Failure) {
    guard looking(at: text) else { throw failure("expected \(what), found \(describeCurrent())") }
    advance(text.unicodeScalars.count)
  }

  private func describeCurrent() -> String {
    guard !atEnd else { return "the end of the file" }
    if scalars[index] == "<" {
      var name = ""
      var i = index + 1
      while i < scalars.count, Self.isNameCharacter(scalars[i]) || (name.isEmpty && scalars[i] == "/") {
        name.unicodeScalars.append(scalars[i])
        i += 1
      }
      return "<\(name)>"
    }
    return "'\(Character(scalars[index]))'"
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_:.-".unicodeScalars.contains(scalar)
  }

  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
  }

  private mutating func skipSpace() {
    while !atEnd, Self.isSpace(scalars[index]) { advance() }
  }

  /// Skips what may stand between elements: white space, comments, processing instructions and
  /// (in the prolog) the document type.
  private mutating func skipMisc() throws(PropertyListReader.Failure) {
    while true {
      skipSpace()
      if looking(at: "<!--") {
        let start = position
        advance(4)
        while !atEnd && !looking(at: "-->") { advance() }
        guard !atEnd else { throw failure("unterminated comment", at: start) }
        advance(3)
      } else if looking(at: "<?") {
        let start = position
        while !atEnd && !looking(at: "?>") { advance() }
        guard !atEnd else { throw failure("unterminated processing instruction", at: start) }
        advance(2)
      } else if looking(at: "<!DOCTYPE") {
        let start = position
        var bracket = false
        while !atEnd {
          let c = scalars[index]
          if c == "[" { bracket = true }
          if c == "]" { bracket = false }
          if c == ">" && !bracket { break }
          advance()
        }
        guard !atEnd else { throw failure("unterminated DOCTYPE", at: start) }
        advance()
      } else {
        return
      }
    }
  }

  /// A start tag: its name, and whether it closes itself (`<true/>`). Attributes are skipped.
  private mutating func startTag() throws(PropertyListReader.Failure) -> (name: String, empty: Bool) {
    guard !atEnd, scalars[index] == "<", index + 1 < scalars.count, Self.isNameCharacter(scalars[index + 1]) else {
      throw failure("expected an element, found \(describeCurrent())")
    }
    let start = position
    advance()
    var name = ""
    while !atEnd, Self.isNameCharacter(scalars[index]) {
      name.unicodeScalars.append(scalars[index])
      advance()
    }
    var quote: Unicode.Scalar?
    while !atEnd {
      let c = scalars[index]
      if let q = quote {
        if c == q { quote = nil }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == ">" {
        advance()
        return (name, false)
      } else if c == "/" && index + 1 < scalars.count && scalars[index + 1] == ">" {
        advance(2)
        return (name, true)
      }
      advance()
    }
    throw failure("unterminated tag <\(name)>", at: start)
  }

  private mutating func endTag(_ name: String) throws(PropertyListReader.Failure) {
    try expect("</\(name)", "</\(name)>")
    skipSpace()
    try expect(">", "'>' closing </\(name)>")
  }

  mutating func document() throws(PropertyListReader.Failure) -> JSONNode {
    if !atEnd && scalars[index] == "\u{FEFF}" { advance() }
    try skipMisc()
    let value: JSONNode
    if looking(at: "<plist") && index + 6 < scalars.count && !Self.isNameCharacter(scalars[index + 6]) {
      let (_, empty) = try startTag()
      guard !empty else { throw failure("the property list is empty") }
      try skipMisc()
      value = try self.value(depth: 0)
      try skipMisc()
      try endTag("plist")
    } else {
      value = try self.value(depth: 0)
    }
    try skipMisc()
    guard atEnd else { throw failure("unexpected \(describeCurrent()) after the property list") }
    return value
  }

  private mutating func value(depth: Int) throws(PropertyListReader.Failure) -> JSONNode {
    try skipMisc()
    let start = position
    guard depth < JSONParser.defaultMaximumDepth else {
      throw failure("nesting deeper than \(JSONParser.defaultMaximumDepth) levels")
    }
    let (name, empty) = try startTag()
    switch name {
    case "dict":
      return JSONNode(.object(empty ? JSONObject() : try dictionary(depth: depth)), at: start)
    case "array":
      var items: [JSONNode] = []
      if !empty {
        while true {
          try skipMisc()
          if looking(at: "</") { break }
          items.append(try value(depth: depth + 1))
        }
        try endTag("array")
      }
      return JSONNode(.array(items), at: start)
    case "string", "date", "data":
      return JSONNode(.string(empty ? "" : try text(of: name)), at: start)
    case "integer", "real":
      let text = (empty ? "" : try self.text(of: name)).trimmingCharacters(in: .whitespacesAndNewlines)
      let valid = name == "integer" ? Int(text) != nil : (Double(text).map { $0.isFinite } ?? false)
      guard valid else { throw failure("<\(name)> holds \(OneLine.quote(text)), not a number", at: start) }
      return JSONNode(.number(JSONNumber(text)), at: start)
    case "true", "false":
      if !empty {
        skipSpace()
        try endTag(name)
      }
      return JSONNode(.bool(name == "true"), at: start)
    default:
      throw failure(
        "unknown element <\(name)>; expected dict, array, string, integer, real, true, false, date or data", at: start)
    }
  }

  private mutating func dictionary(depth: Int) throws(PropertyListReader.Failure) -> JSONObject {
    var object = JSONObject()
    while true {
      try skipMisc()
      if looking(at: "</") { break }
      let keyPosition = position
      let (name, empty) = try startTag()
      guard name == "key" else {
        throw failure("expected <key> in <dict>, found <\(name)>", at: keyPosition)
      }
      let key = empty ? "" : try text(of: "key")
      let value = try value(depth: depth + 1)
      if let first = object.append(JSONObject.Member(key: key, keyPosition: keyPosition, value: value)) {
        throw PropertyListReader.Failure(
          code: .duplicateKey,
          message:
            "duplicate key \"\(key)\" (first at line \(first.line)); UNTerm rejects duplicate keys because readers disagree on which value wins",
          position: keyPosition)
      }
    }
    try endTag("dict")
    return object
  }

  /// The text of an element up to its end tag: entities and character references resolved,
  /// CDATA taken as it is, comments dropped.
  private mutating func text(of name: String) throws(PropertyListReader.Failure) -> String {
    var out = String.UnicodeScalarView()
    while true {
      guard !atEnd else { throw failure("unexpected end of file inside <\(name)>") }
      let c = scalars[index]
      if c == "&" {
        out.append(try reference())
      } else if looking(at: "<![CDATA[") {
        let start = position
        advance(9)
        while !atEnd && !looking(at: "]]>") {
          out.append(scalars[index])
          advance()
        }
        guard !atEnd else { throw failure("unterminated CDATA section", at: start) }
        advance(3)
      } else if looking(at: "<!--") {
        try skipMisc()
      } else if c == "<" {
        if looking(at: "</") { break }
        throw failure("unexpected \(describeCurrent()) inside <\(name)>")
      } else {
        out.append(c)
        advance()
      }
    }
    try endTag(name)
    return String(out)
  }

  /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;`.
  private mutating func reference() throws(PropertyListReader.Failure) -> Unicode.Scalar {
    let start = position
    advance()
    var name = ""
    while !atEnd, scalars[index] != ";", name.unicodeScalars.count < 12 {
      name.unicodeScalars.append(scalars[index])
      advance()
    }
    guard !atEnd, scalars[index] == ";" else { throw failure("unterminated character reference", at: start) }
    advance()
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      var value: UInt32?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        value = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        value = UInt32(name.dropFirst(), radix: 10)
      }
      guard let value, let scalar = Unicode.Scalar(value), value != 0 else {
        throw failure("unknown entity &\(name);", at: start)
      }
      return scalar
    }
  }
}
