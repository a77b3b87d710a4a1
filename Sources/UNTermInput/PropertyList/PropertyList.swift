import Foundation

/// A value read from a property list (XML or binary), with where it was in the file.
package struct PlistNode: Sendable {
  package enum Value: Sendable {
    case string(String)
    /// Numbers keep their text as written (`1e+17`, `-1`), for messages that quote them.
    case integer(Int64, text: String)
    case real(Double, text: String)
    case bool(Bool)
    /// Dates, data, UIDs and nulls are kept only as what they are: neither strings files nor an
    /// extension's attributes hold them.
    case other(String)
    case array([PlistNode])
    case dictionary([Member])
  }

  /// A dictionary's key and value, and where its `<key>` was.
  package struct Member: Sendable {
    package var key: String
    package var keyPlace: PlistPlace
    package var value: PlistNode
  }

  package var value: Value
  /// `LINE:COL` in an XML property list, the object's byte offset in a binary one.
  package var place: PlistPlace

  package var string: String? {
    if case .string(let s) = value { return s }
    return nil
  }

  package var dictionary: [Member]? {
    if case .dictionary(let d) = value { return d }
    return nil
  }

  /// The value's type with an article, for messages.
  package var typeNameWithArticle: String {
    switch value {
    case .string: return "a string"
    case .integer: return "an integer"
    case .real: return "a real number"
    case .bool: return "a boolean"
    case .other(let name): return name
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }

  /// The tree as the JSON parser makes it, for readers whose findings name JSON paths (an
  /// extension's Info.plist): every value and key keeps its `LINE:COL` (a binary list's are
  /// 1:1), numbers their text; dates, data, UIDs and nulls are null.
  package var json: JSONNode {
    let position = place.diagnosticLocation.position
    switch value {
    case .string(let s): return JSONNode(.string(s), at: position)
    case .integer(_, let text), .real(_, let text): return JSONNode(.number(JSONNumber(text)), at: position)
    case .bool(let b): return JSONNode(.bool(b), at: position)
    case .other: return JSONNode(.null, at: position)
    case .array(let items): return JSONNode(.array(items.map(\.json)), at: position)
    case .dictionary(let members):
      var object = JSONObject()
      for member in members {
        _ = object.append(
          JSONObject.Member(
            key: member.key, keyPosition: member.keyPlace.diagnosticLocation.position, value: member.value.json))
      }
      return JSONNode(.object(object), at: position)
    }
  }
}

/// Where in a property list something is.
package enum PlistPlace: Sendable, Hashable, CustomStringConvertible {
  case position(SourcePosition)
  case offset(Int)

  /// Where a diagnostic about this place points: its line and column, or the whole file for a
  /// binary list (whose messages give the byte offset).
  package var diagnosticLocation: DiagnosticLocation {
    switch self {
    case .position(let p): return .position(p)
    case .offset: return .file
    }
  }

  package var description: String {
    switch self {
    case .position(let p): return p.description
    case .offset(let o): return "byte \(o)"
    }
  }
}

/// Why a property list could not be read.
package struct PlistError: Error, Sendable {
  package var message: String
  package var place: PlistPlace
  /// For a key a dictionary holds twice, where it first was (lint reports those apart, as
  /// `duplicate-key`).
  package var firstKey: PlistPlace?
}

/// Strict, bounded readers for Apple's XML and binary property lists: `.stringsdict` files,
/// compiled `.strings` files and extensions' Info.plists. Untrusted input: nesting is capped,
/// entity definitions (a DOCTYPE internal subset) are refused, every offset of a binary list is
/// checked, and a reference cycle is an error. Lines end at LF, CR LF or a lone CR and columns
/// count scalars, as every finding counts them.
package enum PropertyList {
  /// The deepest nesting read.
  package static let maximumDepth = 32

  /// Whether the bytes are a binary property list.
  package static func isBinary(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 8 && Array(bytes[0..<8]) == Array("bplist00".utf8)
  }

  /// Whether the bytes look like an XML property list (after an optional UTF-8 BOM and space).
  package static func isXML(_ bytes: [UInt8]) -> Bool {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    return bytes[start...].starts(with: Array("<?xml".utf8)) || bytes[start...].starts(with: Array("<plist".utf8))
      || bytes[start...].starts(with: Array("<!DOCTYPE".utf8))
  }

  /// Reads an XML or binary property list.
  package static func parse(_ bytes: [UInt8]) throws(PlistError) -> PlistNode {
    if isBinary(bytes) {
      var reader = BinaryReader(bytes)
      return try reader.read()
    }
    var reader = try XMLReader(bytes)
    return try reader.read()
  }
}

// MARK: - XML

private struct XMLReader {
  let scalars: [Unicode.Scalar]
  var index = 0
  var line = 1
  var column = 1

  init(_ bytes: [UInt8]) throws(PlistError) {
    if let problem = UTF8Validation.firstProblem(in: bytes) {
      throw PlistError(
        message: "the property list is not valid UTF-8: \(problem.message.text)", place: .position(problem.position))
    }
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
  }

  var position: PlistPlace { .position(SourcePosition(line: line, column: column)) }

  func fail(_ message: String) -> PlistError { PlistError(message: message, place: position) }

  var atEnd: Bool { index >= scalars.count }

  func peek(_ text: String) -> Bool {
    var i = index
    for scalar in text.unicodeScalars {
      guard i < scalars.count, scalars[i] == scalar else { return false }
      i += 1
    }
    return true
  }

  mutating func advance(_ count: Int = 1) {
    for _ in 0..<count where index < scalars.count {
      // A line ends at an LF, or a CR not followed by one (XML reads both as a line break).
      if scalars[index] == "\n"
        || (scalars[index] == "\r" && (index + 1 == scalars.count || scalars[index + 1] != "\n"))
      {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }
  }

  mutating func skipSpace() {
    while !atEnd, [" ", "\t", "\n", "\r"].contains(scalars[index]) { advance() }
  }

  /// Skips to just after `end`; an error naming `what` when it never comes.
  mutating func skip(past end: String, what: String) throws(PlistError) {
    let start = position
    while !atEnd {
      if peek(end) {
        advance(end.unicodeScalars.count)
        return
      }
      advance()
    }
    throw PlistError(message: "unterminated \(what)", place: start)
  }

  /// Skips space, comments and processing instructions between elements.
  mutating func skipMisc() throws(PlistError) {
    while true {
      skipSpace()
      if peek("<!--") {
        try skip(past: "-->", what: "comment")
      } else if peek("<?") {
        try skip(past: "?>", what: "processing instruction")
      } else {
        return
      }
    }
  }

  mutating func read() throws(PlistError) -> PlistNode {
    try skipMisc()
    if peek("<!DOCTYPE") {
      let start = position
      advance(9)
      var quote: Unicode.Scalar?
      while !atEnd {
        let c = scalars[index]
        if let q = quote {
          if c == q { quote = nil }
        } else if c == "\"" || c == "'" {
          quote = c
        } else if c == "[" {
          throw fail("a DOCTYPE with an internal subset (entity definitions) is not allowed in a property list")
        } else if c == ">" {
          break
        }
        advance()
      }
      guard !atEnd else { throw PlistError(message: "unterminated DOCTYPE", place: start) }
      advance()
    }
    try skipMisc()
    let tagPlace = position
    let tag = try openTag()
    let node: PlistNode
    if tag.name == "plist" {
      guard !tag.selfClosing else { throw PlistError(message: "the plist element is empty", place: tagPlace) }
      try skipMisc()
      node = try value(depth: 1)
      try skipMisc()
      try closeTag("plist")
    } else {
      node = try value(after: tag, at: tagPlace, depth: 1)
    }
    try skipMisc()
    guard atEnd else { throw fail("unexpected content after the property list") }
    return node
  }

  struct Tag {
    var name: String
    var selfClosing: Bool
  }

  /// Reads `<name attr="…" …>` or `<name/>`.
  mutating func openTag() throws(PlistError) -> Tag {
    guard !atEnd, scalars[index] == "<" else {
      throw fail(atEnd ? "unexpected end of file; expected an element" : "expected an element such as <dict>")
    }
    advance()
    var name = ""
    while !atEnd, scalars[index].properties.isAlphabetic || scalars[index] == "-" || scalars[index] == ":" {
      name.unicodeScalars.append(scalars[index])
      advance()
      guard name.count <= 32 else { throw fail("an element name is too long") }
    }
    guard !name.isEmpty else { throw fail("expected an element name after <") }
    var quote: Unicode.Scalar?
    while !atEnd {
      let c = scalars[index]
      if let q = quote {
        if c == q { quote = nil }
        if c == "<" { throw fail("'<' inside an attribute value") }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == "/" {
        advance()
        guard !atEnd, scalars[index] == ">" else { throw fail("expected '>' after '/'") }
        advance()
        return Tag(name: name, selfClosing: true)
      } else if c == ">" {
        advance()
        return Tag(name: name, selfClosing: false)
      } else if c == "<" {
        throw fail("unexpected '<' in the <\(name)> tag")
      }
      advance()
    }
    throw fail("unterminated <\(name)> tag")
  }

  mutating func closeTag(_ name: String) throws(PlistError) {
    let start = position
    guard peek("</") else { throw fail("expected </\(name)>") }
    advance(2)
    var found = ""
    while !atEnd, scalars[index] != ">", found.count <= 32 {
      found.unicodeScalars.append(scalars[index])
      advance()
    }
    guard found.trimmingCharacters(in: .whitespaces) == name, !atEnd else {
      throw PlistError(message: "expected </\(name)>, not </\(found.prefix(32))>", place: start)
    }
    advance()
  }

  /// The text of a leaf element up to its closing tag: entities decoded, CDATA kept.
  mutating func text(_ name: String) throws(PlistError) -> String {
    var out = String.UnicodeScalarView()
    while true {
      guard !atEnd else { throw fail("unterminated <\(name)>") }
      if peek("</") { break }
      if peek("<![CDATA[") {
        advance(9)
        let start = position
        while !atEnd, !peek("]]>") {
          out.append(scalars[index])
          advance()
        }
        guard !atEnd else { throw PlistError(message: "unterminated CDATA section", place: start) }
        advance(3)
        continue
      }
      if peek("<!--") {
        try skip(past: "-->", what: "comment")
        continue
      }
      let c = scalars[index]
      if c == "<" { throw fail("unexpected element inside <\(name)>") }
      if c == "&" {
        out.append(try entity())
        continue
      }
      out.append(c)
      advance()
    }
    try closeTag(name)
    return String(out)
  }

  mutating func entity() throws(PlistError) -> Unicode.Scalar {
    let start = position
    advance()
    var name = ""
    while !atEnd, scalars[index] != ";", name.count < 12 {
      name.unicodeScalars.append(scalars[index])
      advance()
    }
    guard !atEnd, scalars[index] == ";" else { throw PlistError(message: "unterminated entity &\(name)", place: start) }
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
      guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
        throw PlistError(message: "unknown or invalid entity &\(name);", place: start)
      }
      return scalar
    }
  }

  mutating func value(depth: Int) throws(PlistError) -> PlistNode {
    let place = position
    let tag = try openTag()
    return try value(after: tag, at: place, depth: depth)
  }

  mutating func value(after tag: Tag, at place: PlistPlace, depth: Int) throws(PlistError) -> PlistNode {
    guard depth <= PropertyList.maximumDepth else {
      throw PlistError(message: "nesting deeper than \(PropertyList.maximumDepth) levels", place: place)
    }
    func leaf() throws(PlistError) -> String { tag.selfClosing ? "" : try text(tag.name) }
    switch tag.name {
    case "string":
      return PlistNode(value: .string(try leaf()), place: place)
    case "integer":
      let text = try leaf().trimmingCharacters(in: .whitespacesAndNewlines)
      guard let n = Int64(text) else {
        throw PlistError(message: "\"\(text.prefix(30))\" is not an integer", place: place)
      }
      return PlistNode(value: .integer(n, text: text), place: place)
    case "real":
      let text = try leaf().trimmingCharacters(in: .whitespacesAndNewlines)
      // inf and nan are refused: no reader of a property list here takes them.
      guard let n = Double(text), n.isFinite else {
        throw PlistError(message: "\"\(text.prefix(30))\" is not a finite number", place: place)
      }
      return PlistNode(value: .real(n, text: text), place: place)
    case "true", "false":
      if !tag.selfClosing { _ = try text(tag.name) }
      return PlistNode(value: .bool(tag.name == "true"), place: place)
    case "date", "data":
      _ = try leaf()
      return PlistNode(value: .other(tag.name == "date" ? "a date" : "data"), place: place)
    case "array":
      var items: [PlistNode] = []
      if !tag.selfClosing {
        while true {
          try skipMisc()
          if peek("</") { break }
          items.append(try value(depth: depth + 1))
        }
        try closeTag("array")
      }
      return PlistNode(value: .array(items), place: place)
    case "dict":
      var members: [PlistNode.Member] = []
      var seen: [String: PlistPlace] = [:]
      if !tag.selfClosing {
        while true {
          try skipMisc()
          if peek("</") { break }
          let keyPlace = position
          let keyTag = try openTag()
          guard keyTag.name == "key" else {
            throw PlistError(message: "expected <key> in a dictionary, not <\(keyTag.name)>", place: keyPlace)
          }
          let key = keyTag.selfClosing ? "" : try text("key")
          if let first = seen[key] {
            throw PlistError(
              message: "duplicate key \"\(key.prefix(40))\" in a dictionary", place: keyPlace, firstKey: first)
          }
          seen[key] = keyPlace
          try skipMisc()
          guard !peek("</") else { throw fail("the key \"\(key.prefix(40))\" has no value") }
          members.append(PlistNode.Member(key: key, keyPlace: keyPlace, value: try value(depth: depth + 1)))
        }
        try closeTag("dict")
      }
      return PlistNode(value: .dictionary(members), place: place)
    default:
      throw PlistError(message: "<\(tag.name)> is not a property-list element", place: place)
    }
  }
}

// MARK: - Binary

private struct BinaryReader {
  let bytes: [UInt8]
  var offsetSize = 0
  var referenceSize = 0
  var objectCount = 0
  var offsets: [Int] = []
  /// Objects being read, to catch a container that contains itself.
  var reading: Set<Int> = []
  /// Objects read so far: an object shared by many containers is read once for each, so the
  /// total is capped (a few shared arrays would otherwise multiply to billions).
  var visited = 0
  static let maximumVisits = 1_000_000

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func fail(_ message: String, at offset: Int) -> PlistError {
    PlistError(message: "binary property list: \(message) (byte \(offset))", place: .offset(offset))
  }

  func unsigned(at offset: Int, size: Int) throws(PlistError) -> Int {
    guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else {
      throw fail("a number runs past the end of the file", at: offset)
    }
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
    guard value <= UInt64(Int.max) else { throw fail("a number is out of range", at: offset) }
    return Int(value)
  }

  mutating func read() throws(PlistError) -> PlistNode {
    guard bytes.count >= 8 + 32 + 1 else { throw fail("the file is too short", at: 0) }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw fail("the trailer's integer sizes are invalid", at: trailer + 6)
    }
    objectCount = try unsigned(at: trailer + 8, size: 8)
    let top = try unsigned(at: trailer + 16, size: 8)
    let tableStart = try unsigned(at: trailer + 24, size: 8)
    guard objectCount >= 1, objectCount <= bytes.count else {
      throw fail("the trailer's object count \(objectCount) is invalid", at: trailer + 8)
    }
    guard top < objectCount else { throw fail("the top object \(top) does not exist", at: trailer + 16) }
    guard tableStart >= 8, tableStart <= trailer, objectCount <= (trailer - tableStart) / offsetSize else {
      throw fail("the offset table lies outside the file", at: trailer + 24)
    }
    offsets.reserveCapacity(objectCount)
    for i in 0..<objectCount {
      let offset = try unsigned(at: tableStart + i * offsetSize, size: offsetSize)
      guard offset >= 8, offset < tableStart else {
        throw fail("object \(i)'s offset \(offset) is invalid", at: tableStart)
      }
      offsets.append(offset)
    }
    return try object(top, depth: 1)
  }

  /// The length in a marker's low nibble, or the integer object after it when the nibble is 15.
  func length(marker offset: Int) throws(PlistError) -> (count: Int, start: Int) {
    let nibble = Int(bytes[offset] & 0x0F)
    guard nibble == 0x0F else { return (nibble, offset + 1) }
    guard offset + 1 < bytes.count, bytes[offset + 1] & 0xF0 == 0x10 else {
      throw fail("a length is not an integer", at: offset + 1)
    }
    let size = 1 << Int(bytes[offset + 1] & 0x0F)
    let count = try unsigned(at: offset + 2, size: size)
    return (count, offset + 2 + size)
  }

  mutating func object(_ reference: Int, depth: Int) throws(PlistError) -> PlistNode {
    guard reference >= 0, reference < objectCount else {
      throw fail("a reference to object \(reference) is invalid", at: 0)
    }
    let offset = offsets[reference]
    guard depth <= PropertyList.maximumDepth else {
      throw fail("nesting deeper than \(PropertyList.maximumDepth) levels", at: offset)
    }
    guard offset < bytes.count else { throw fail("object \(reference) lies outside the file", at: offset) }
    visited += 1
    guard visited <= Self.maximumVisits else {
      throw fail("more than \(Self.maximumVisits) objects (shared objects count once for each use)", at: offset)
    }
    let marker = bytes[offset]
    let place = PlistPlace.offset(offset)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return PlistNode(value: .bool(false), place: place)
      case 0x09: return PlistNode(value: .bool(true), place: place)
      default: return PlistNode(value: .other("null"), place: place)
      }
    case 0x1:
      let size = 1 << Int(marker & 0x0F)
      guard size <= 8, offset + 1 + size <= bytes.count else { throw fail("an integer runs past the end", at: offset) }
      var value: UInt64 = 0
      for i in 0..<size { value = value << 8 | UInt64(bytes[offset + 1 + i]) }
      let n = Int64(bitPattern: value)
      return PlistNode(value: .integer(n, text: String(n)), place: place)
    case 0x2:
      let size = 1 << Int(marker & 0x0F)
      guard size == 4 || size == 8, offset + 1 + size <= bytes.count else {
        throw fail("a real number is invalid", at: offset)
      }
      var bits: UInt64 = 0
      for i in 0..<size { bits = bits << 8 | UInt64(bytes[offset + 1 + i]) }
      let value = size == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
      guard value.isFinite else { throw fail("a real number is not finite", at: offset) }
      return PlistNode(value: .real(value, text: "\(value)"), place: place)
    case 0x3:
      return PlistNode(value: .other("a date"), place: place)
    case 0x4:
      let (count, start) = try length(marker: offset)
      guard count <= bytes.count - start else { throw fail("data runs past the end", at: offset) }
      return PlistNode(value: .other("data"), place: place)
    case 0x5:
      let (count, start) = try length(marker: offset)
      guard count <= bytes.count - start else { throw fail("a string runs past the end", at: offset) }
      let slice = bytes[start..<(start + count)]
      guard slice.allSatisfy({ $0 < 0x80 }) else { throw fail("an ASCII string holds a byte over 127", at: offset) }
      return PlistNode(value: .string(String(decoding: slice, as: UTF8.self)), place: place)
    case 0x6:
      let (count, start) = try length(marker: offset)
      guard count <= (bytes.count - start) / 2 else { throw fail("a string runs past the end", at: offset) }
      var units: [UInt16] = []
      units.reserveCapacity(count)
      for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
      var text = String.UnicodeScalarView()
      var iterator = units.makeIterator()
      var utf16 = UTF16()
      loop: while true {
        switch utf16.decode(&iterator) {
        case .scalarValue(let s): text.append(s)
        case .emptyInput: break loop
        case .error: throw fail("a string holds a lone surrogate", at: offset)
        }
      }
      return PlistNode(value: .string(String(text)), place: place)
    case 0xA, 0xD:
      guard reading.insert(reference).inserted else { throw fail("object \(reference) contains itself", at: offset) }
      defer { reading.remove(reference) }
      let (count, start) = try length(marker: offset)
      let isDictionary = marker >> 4 == 0xD
      let references = isDictionary ? count * 2 : count
      guard count <= objectCount, references <= (bytes.count - start) / referenceSize else {
        throw fail("a container runs past the end", at: offset)
      }
      var refs: [Int] = []
      for i in 0..<references { refs.append(try unsigned(at: start + i * referenceSize, size: referenceSize)) }
      if !isDictionary {
        var items: [PlistNode] = []
        for r in refs { items.append(try object(r, depth: depth + 1)) }
        return PlistNode(value: .array(items), place: place)
      }
      var members: [PlistNode.Member] = []
      var seen: [String: PlistPlace] = [:]
      for i in 0..<count {
        let key = try object(refs[i], depth: depth + 1)
        guard let name = key.string else { throw fail("a dictionary key is not a string", at: offset) }
        if let first = seen[name] {
          var error = fail("duplicate key \"\(name.prefix(40))\"", at: offset)
          error.firstKey = first
          throw error
        }
        seen[name] = key.place
        members.append(
          PlistNode.Member(key: name, keyPlace: key.place, value: try object(refs[count + i], depth: depth + 1)))
      }
      return PlistNode(value: .dictionary(members), place: place)
    case 0x8:
      return PlistNode(value: .other("a UID"), place: place)
    default:
      throw fail("unknown object type 0x\(String(marker, radix: 16))", at: offset)
    }
  }
}
