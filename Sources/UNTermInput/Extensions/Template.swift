import Foundation
import UserNotificationsModel

/// `{{…}}` templates in descriptors: `title`, `subtitle`, `body`, `categoryIdentifier`,
/// `threadIdentifier` and `userInfo.KEY` (dotted paths into nested objects).
package enum Template {
  static let fields: Set<String> = ["title", "subtitle", "body", "categoryIdentifier", "threadIdentifier"]

  /// The names used in a template.
  static func references(_ template: String) -> [String] {
    var names: [String] = []
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      names.append(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces))
      rest = rest[close.upperBound...]
    }
    return names
  }

  /// Warns about names a template cannot resolve.
  static func check(_ template: String, path: JSONPath, sink: inout DiagnosticSink) {
    if template.contains("{{") && references(template).isEmpty {
      sink.report(.templateUnclosed, path, "\"{{\" without a closing \"}}\"")
    }
    for name in references(template) where !fields.contains(name) && !name.hasPrefix("userInfo.") {
      let hint = Suggestion.closest(to: name, in: fields).map { " Did you mean {{\($0)}}?" } ?? ""
      sink.report(
        .templateUnknownField, path,
        "{{\(name)}} is not a field; use title, subtitle, body, categoryIdentifier, threadIdentifier or userInfo.KEY.\(hint)"
      )
    }
  }

  /// The `userInfo.KEY` paths a template reads, without the `userInfo.` (`progress`,
  /// `thread.0.from`).
  package static func userInfoPaths(_ template: String) -> [String] {
    references(template).filter { $0.hasPrefix("userInfo.") }.map { String($0.dropFirst("userInfo.".count)) }
  }

  /// Whether a payload's `userInfo` has the value a dotted path names (a key of a nested
  /// object, or an index of an array), even an empty one.
  package static func has(_ path: String, in userInfo: [AnyHashable: Any]) -> Bool {
    lookup(path, in: userInfo) != nil
  }

  /// The dotted paths a payload's `userInfo` holds, to suggest from: every key, nested keys and
  /// array indexes too, up to `limit` of them.
  package static func paths(in userInfo: [AnyHashable: Any], limit: Int = 500) -> [String] {
    var out: [String] = []
    func walk(_ value: Any, _ prefix: String, depth: Int) {
      guard out.count < limit, depth < 6 else { return }
      if let dict = value as? [AnyHashable: Any] {
        for key in dict.keys.compactMap({ $0 as? String }).sorted() {
          let path = prefix.isEmpty ? key : prefix + "." + key
          out.append(path)
          if let child = dict[key] { walk(child, path, depth: depth + 1) }
        }
      } else if let array = value as? [Any] {
        for (i, child) in array.prefix(20).enumerated() {
          let path = prefix + "." + String(i)
          out.append(path)
          walk(child, path, depth: depth + 1)
        }
      }
    }
    walk(userInfo, "", depth: 0)
    return out
  }

  /// The value a dotted path names in `userInfo`, if it is there.
  private static func lookup(_ path: String, in userInfo: [AnyHashable: Any]) -> Any? {
    var current: Any? = userInfo
    for part in path.split(separator: ".") {
      if let dict = current as? [AnyHashable: Any] {
        current = dict[String(part)]
      } else if let dict = current as? [String: Any] {
        current = dict[String(part)]
      } else if let array = current as? [Any], let i = Int(part), array.indices.contains(i) {
        current = array[i]
      } else {
        return nil
      }
    }
    return current
  }

  /// A template filled in from a notification; unknown names and missing keys give "".
  package static func render(_ template: String, with content: UNNotificationContent) -> String {
    var out = ""
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      out += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        out += rest[open.lowerBound...]
        return out
      }
      let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      out += value(name, content)
      rest = rest[close.upperBound...]
    }
    return out + rest
  }

  private static func value(_ name: String, _ content: UNNotificationContent) -> String {
    switch name {
    case "title": return content.title
    case "subtitle": return content.subtitle
    case "body": return content.body
    case "categoryIdentifier": return content.categoryIdentifier
    case "threadIdentifier": return content.threadIdentifier
    default:
      guard name.hasPrefix("userInfo.") else { return "" }
      switch lookup(String(name.dropFirst("userInfo.".count)), in: content.userInfo) {
      case let s as String: return s
      case let n as NSNumber: return n.stringValue
      case nil, is NSNull: return ""
      default: return ""
      }
    }
  }
}
