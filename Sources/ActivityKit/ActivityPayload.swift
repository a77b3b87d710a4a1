import Foundation

/// Reading an activity's JSON as iOS reads it: `JSONDecoder` with its default strategies, so a
/// `Date` is a number of seconds since 2001-01-01 00:00:00 UTC and keys match property names
/// exactly. A failure names the JSON path, as a backend team needs to fix its payload.
package enum ActivityPayload {
  /// Decodes `data` as `type` with the default strategies.
  package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try JSONDecoder().decode(type, from: data)
  }

  /// Whether `data` decodes as `type`: `nil`, or why not, as one line naming the path under
  /// `root` (`content-state.eta: expected a number (a Date is seconds since 2001), found a string`).
  package static func check<T: Decodable>(_ type: T.Type, _ data: Data, root: String) -> String? {
    do {
      _ = try decode(type, from: data)
      return nil
    } catch let error as DecodingError {
      return describe(error, root: root, json: data)
    } catch {
      return "\(root): \(error.localizedDescription)"
    }
  }

  /// One line for a decoding error: the path, then what was wrong. With the `json` decoded, a
  /// date written as text is named as such: iOS's decoder reads a `Date` only as a number.
  package static func describe(_ error: DecodingError, root: String, json: Data? = nil) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.reduce(root) { text, key in key.intValue.map { "\(text)[\($0)]" } ?? "\(text).\(key.stringValue)" }
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): missing; the app's type needs it (keys match property names exactly)"
    case .valueNotFound(let type, let context):
      return
        "\(path(context.codingPath)): null, where the app's type needs \(describe(type)) (only an optional may be null or left out)"
    case .typeMismatch(let type, let context):
      let expected =
        type == Double.self && isDateText(at: context.codingPath, in: json) ? describe(Date.self) : describe(type)
      return "\(path(context.codingPath)): expected \(expected), \(found(context.debugDescription))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "\(root): not JSON an app's type can read (\(context.debugDescription))"
        : "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(root): \(error.localizedDescription)"
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is Date.Type: return "a number (a Date is seconds since 2001-01-01, JSONDecoder's default)"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "a whole number"
    case is Double.Type, is Float.Type: return "a number"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array<") { return "an array" }
      if name.hasPrefix("Dictionary<") || name.contains("KeyedDecodingContainer") { return "an object" }
      return name
    }
  }

  /// What the decoder found instead, from Foundation's message ("…but found number instead.").
  private static func found(_ debug: String) -> String {
    guard let range = debug.range(of: "but found ") else { return "found something else" }
    let rest = debug[range.upperBound...].replacingOccurrences(of: " instead", with: "")
      .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    if rest.hasPrefix("a ") || rest.hasPrefix("an ") || rest == "null" { return "found \(rest)" }
    return "found \(rest.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(rest)"
  }

  /// Whether the JSON value at `path` is a string that reads as a date (ISO 8601): a `Date`
  /// property written as text.
  private static func isDateText(at path: [any CodingKey], in json: Data?) -> Bool {
    guard let json, var value = try? JSONSerialization.jsonObject(with: json) else { return false }
    for key in path {
      if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
        value = array[index]
      } else if let object = value as? [String: Any], let next = object[key.stringValue] {
        value = next
      } else {
        return false
      }
    }
    guard let text = value as? String else { return false }
    return ISO8601DateFormatter().date(from: text) != nil
      || text.range(of: #"^\d{4}-\d{2}-\d{2}"#, options: .regularExpression) != nil
  }

  /// The name a push's `attributes-type` gives a type: its own name, without its module.
  package static func typeName<T>(of type: T.Type) -> String {
    let name = String(describing: type)
    return name.split(separator: ".").last.map(String.init) ?? name
  }
}
