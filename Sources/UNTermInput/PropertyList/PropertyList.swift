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
