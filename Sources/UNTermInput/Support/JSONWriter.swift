/// Writes compact JSON with keys in the order given, escaping every control and bidi-control
/// character, so a line of output holds nothing a terminal would act on.
package enum JSONWriter {
  /// A JSON value to write.
  package indirect enum Value: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])

    package static func == (a: Value, b: Value) -> Bool { write(a) == write(b) }
  }

  package static func write(_ value: Value) -> String {
    var out = ""
    append(value, to: &out)
    return out
  }

  private static func append(_ value: Value, to out: inout String) {
    switch value {
    case .string(let s): out += quote(s)
    case .int(let i): out += String(i)
    case .double(let d):
      out += d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(Int(saturating: d)) : String(d)) : "null"
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        append(item, to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, (key, item)) in members.enumerated() {
        if i > 0 { out += "," }
        out += quote(key)
        out += ":"
        append(item, to: &out)
      }
      out += "}"
    }
  }

  /// A JSON string literal.
  package static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x22: out += "\\\""
      case 0x5C: out += "\\\\"
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0x08: out += "\\b"
      case 0x0C: out += "\\f"
      case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069,
        0x2028, 0x2029:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
