/// A place in a source file: 1-based line and column (columns count Unicode scalars).
package struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package var description: String { "\(line):\(column)" }
}

/// A JSON number kept as its source text, so nothing is rounded before it is checked.
package struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
  package var text: String

  package init(_ text: String) { self.text = text }

  /// The value as an integer, when it is written as one and fits.
  package var integer: Int? { Int(text) }

  /// Whether the number has a fraction or exponent part.
  package var isIntegral: Bool { !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }

  /// The value as a finite double, or `nil` when it overflows.
  package var double: Double? {
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  package var description: String { text }
}

/// A parsed JSON value with the position it started at.
package struct JSONNode: Sendable {
  package enum Value: Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object(JSONObject)
  }

  package var value: Value
  package var position: SourcePosition

  package init(_ value: Value, at position: SourcePosition) {
    self.value = value
    self.position = position
  }

  /// The type's name with its article, for messages: `a string`, `an object`…
  package var typeNameWithArticle: String {
    switch value {
    case .array, .object: return "an \(typeName)"
    default: return "a \(typeName)"
    }
  }

  /// The JSON type's name, for messages: `string`, `number`, `object`…
  package var typeName: String {
    switch value {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  package var string: String? {
    if case .string(let s) = value { return s }
    return nil
  }

  package var object: JSONObject? {
    if case .object(let o) = value { return o }
    return nil
  }

  package var array: [JSONNode]? {
    if case .array(let a) = value { return a }
    return nil
  }

  package var number: JSONNumber? {
    if case .number(let n) = value { return n }
    return nil
  }

  package var bool: Bool? {
    if case .bool(let b) = value { return b }
    return nil
  }
}

/// What a finding about a value points at: the first character of the key that holds it (a
/// missing value, or one of the wrong type or a key that should not be there), or the value
/// itself (a value of the right type that is not allowed: a bad number, an unknown name).
package enum FindingAnchor: Sendable, Hashable {
  case key, value
}

extension JSONNode {
  /// Where a finding about the value at `path` points: the value's first character for
  /// `.value`, the first character of its key for `.key` (an array item has no key: its value).
  /// A path that leaves the document — a missing key — points at the key of the deepest value
  /// on it that exists. The document as a whole is at 1:1.
  package func position(of path: JSONPath, anchor: FindingAnchor) -> SourcePosition {
    let start = SourcePosition(line: 1, column: 1)
    var node = self
    var key: SourcePosition?
    var depth = 0
    for component in path.components {
      switch component {
      case .key(let name):
        guard let member = node.object?.member(name) else { return depth == 0 ? start : key ?? node.position }
        node = member.value
        key = member.keyPosition
      case .index(let i):
        guard let items = node.array, items.indices.contains(i) else {
          return depth == 0 ? start : key ?? node.position
        }
        node = items[i]
        key = nil
      }
      depth += 1
    }
    guard depth > 0 else { return start }
    return anchor == .key ? key ?? node.position : node.position
  }
}

/// A JSON object that keeps its keys in source order. Keys are unique: the parser rejects
/// duplicates.
package struct JSONObject: Sendable {
  package struct Member: Sendable {
    package var key: String
    package var keyPosition: SourcePosition
    package var value: JSONNode
  }

  package private(set) var members: [Member] = []
  private var index: [String: Int] = [:]

  package init() {}

  /// The member with a key, if there is one.
  package subscript(key: String) -> JSONNode? {
    index[key].map { members[$0].value }
  }

  /// The member with a key, with its key's position, if there is one.
  package func member(_ key: String) -> Member? {
    index[key].map { members[$0] }
  }

  /// Adds a member; returns the earlier member's position when the key is already present.
  package mutating func append(_ member: Member) -> SourcePosition? {
    if let existing = index[member.key] { return members[existing].keyPosition }
    index[member.key] = members.count
    members.append(member)
    return nil
  }

  package var keys: [String] { members.map(\.key) }
}

/// A dotted path into a JSON document, such as `aps.alert.title` or `aps.alert.loc-args[1]`.
package struct JSONPath: Hashable, Sendable, CustomStringConvertible {
  package enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  package var components: [Component] = []

  package init(_ components: [Component] = []) { self.components = components }

  package static let root = JSONPath()

  package func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }
  package func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

  package var description: String {
    var out = ""
    for component in components {
      switch component {
      case .key(let key):
        // A key that would read as path syntax (empty, or with . [ ] ") is quoted.
        if key.isEmpty || key.contains(where: { ".[]\"".contains($0) }) {
          out += "[\"" + key.replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
        } else {
          if !out.isEmpty { out += "." }
          out += key
        }
      case .index(let i):
        out += "[\(i)]"
      }
    }
    return out
  }
}
