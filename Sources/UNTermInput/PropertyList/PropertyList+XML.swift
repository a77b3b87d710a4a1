import Foundation

/// Reads an XML property list: the `plist` element (or a bare value), every element checked
/// and its place kept as `LINE:COL`.
struct XMLReader {
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
