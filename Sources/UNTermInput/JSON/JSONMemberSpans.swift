/// Where each member of a JSON document's top-level object lies in its bytes, so a member can be
/// cut out (or one put in) without touching a byte of the rest: the payload a file sends without
/// its `apns-headers` is the file as written, minus that member.
///
/// Meant for documents `JSONParser` has accepted; on anything else it finds no members.
package struct JSONMemberSpans: Sendable {
  package struct Member: Sendable, Equatable {
    /// The key as the parser reads it (escapes decoded).
    package var key: String
    /// From the key's opening quote up to just after its value.
    package var range: Range<Int>
  }

  /// Where the top-level object's `{` is.
  package var openBrace: Int
  package var members: [Member]

  /// The spans of a document's top-level object, or `nil` when the document is not an object.
  package init?(_ bytes: [UInt8]) {
    var i = 0
    func skipSpace() {
      while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }
    // A byte-order mark is not JSON; the parser refuses one, and so does this.
    skipSpace()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
    openBrace = i
    i += 1
    members = []
    while true {
      skipSpace()
      guard i < bytes.count else { return nil }
      if bytes[i] == UInt8(ascii: "}") { return }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "\"") else { return nil }
      let start = i
      guard let keyEnd = Self.endOfString(bytes, at: i),
        let key = (try? JSONParser.parse(Array(bytes[start..<keyEnd])))?.string
      else { return nil }
      i = keyEnd
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
      i += 1
      skipSpace()
      guard let valueEnd = Self.endOfValue(bytes, at: i) else { return nil }
      i = valueEnd
      members.append(Member(key: key, range: start..<valueEnd))
    }
  }

  /// Just after the string starting at `start` (its opening quote).
  private static func endOfString(_ bytes: [UInt8], at start: Int) -> Int? {
    var i = start + 1
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: "\\"): i += 2
      case UInt8(ascii: "\""): return i + 1
      default: i += 1
      }
    }
    return nil
  }

  /// Just after the value starting at `start`: a string, a nested object or array (strings in
  /// it skipped whole), or a bare word or number.
  private static func endOfValue(_ bytes: [UInt8], at start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return endOfString(bytes, at: start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var i = start
      while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "\""):
          guard let end = endOfString(bytes, at: i) else { return nil }
          i = end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return i + 1 }
        default: break
        }
        i += 1
      }
      return nil
    default:
      var i = start
      while i < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x7D, 0x5D].contains(bytes[i]) { i += 1 }
      return i > start ? i : nil
    }
  }

  /// The document without the members named: each cut with the comma that joins it to a
  /// neighbour, so what is left is the same JSON, byte for byte, less those members.
  package func removing(_ keys: Set<String>, from bytes: [UInt8]) -> [UInt8] {
    var cuts: [Range<Int>] = []
    for (index, member) in members.enumerated() where keys.contains(member.key) {
      if index + 1 < members.count {
        // Up to the next member's key: the comma and the space after this one go with it.
        cuts.append(member.range.lowerBound..<members[index + 1].range.lowerBound)
      } else if index > 0 {
        // The last member takes the comma before it, from the end of the previous value.
        cuts.append(members[index - 1].range.upperBound..<member.range.upperBound)
      } else {
        cuts.append(member.range)
      }
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    for cut in cuts.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      let from = max(position, cut.lowerBound)
      if from > position { out += bytes[position..<from] }
      position = max(position, cut.upperBound)
    }
    if position < bytes.count { out += bytes[position...] }
    return out
  }

  /// The document with a member put first, after the `{`, in the spacing the first member has.
  package func inserting(key: String, value: String, into bytes: [UInt8]) -> [UInt8] {
    let first = members.first?.range.lowerBound ?? openBrace + 1
    let spacing = Array(bytes[(openBrace + 1)..<first])
    let member = Array("\(JSONWriter.quote(key)): \(JSONWriter.quote(value))\(members.isEmpty ? "" : ",")".utf8)
    return Array(bytes[...openBrace]) + spacing + member + Array(bytes[(openBrace + 1)...])
  }
}
