import Foundation
import UNTermInput

/// Reads theme files: `{"name": "...", "roles": {"title": {"fg": "white", "bg": 236,
/// "bold": true}, ...}}`. Colours are names (`black` … `white`, `bright-red`…, `default`),
/// numbers 0–255 or `#RRGGBB`; attributes are `bold`, `dim`, `italic`, `underline`, `reverse`.
package enum ThemeLoader {
  private static let colorNames: [String: UInt8] = [
    "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6,
    "white": 7, "bright-black": 8, "gray": 8, "grey": 8, "bright-red": 9, "bright-green": 10,
    "bright-yellow": 11, "bright-blue": 12, "bright-magenta": 13, "bright-cyan": 14,
    "bright-white": 15,
  ]
  private static let attributeNames: [String: Attributes] = [
    "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
  ]

  /// Loads a theme file.
  ///
  /// - Throws: `UNTermError` naming the file and the key at fault (exit code 65), or 66 when the
  ///   file is missing.
  package static func load(path: String) throws(UNTermError) -> Theme {
    let bytes = try InputFile.read(path)
    return try parse(bytes, file: path)
  }

  /// Parses theme JSON.
  package static func parse(_ bytes: [UInt8], file: String) throws(UNTermError) -> Theme {
    let document: JSONNode
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      throw UNTermError(.dataError, file: file, at: .position(error.position), error.message)
    }
    guard let root = document.object else {
      throw UNTermError(.dataError, file: file, at: .file, "a theme must be a JSON object with \"roles\"")
    }
    /// A problem with the value at `path`, at its key or its value as `code`'s anchor says. A
    /// theme is refused whole, so lint reports it as an error: `number-out-of-range` for a
    /// colour number, `invalid-file` for the rest.
    func fail(_ code: LintCode, _ path: JSONPath, _ message: SafeText) -> UNTermError {
      let finding: LintCode = code == .numberOutOfRange ? .numberOutOfRange : .invalidFile
      return UNTermError(
        Diagnostic(
          file: file, location: DiagnosticLocation(path, in: document, for: code), code: finding, message: message))
    }
    var name = (file as NSString).lastPathComponent
    if name.hasSuffix(".json") { name.removeLast(5) }
    for member in root.members {
      switch member.key {
      case "name":
        guard let value = member.value.string else {
          throw fail(.typeMismatch, JSONPath([.key("name")]), "must be a string")
        }
        name = value
      case "roles", "description": break
      default:
        throw fail(
          .unknownKey, JSONPath([.key(member.key)]), "unknown key; a theme has \"name\", \"description\" and \"roles\"")
      }
    }
    guard let rolesNode = root["roles"] else {
      throw fail(.missingKey, .root, "missing \"roles\"")
    }
    guard let roles = rolesNode.object else {
      throw fail(.typeMismatch, JSONPath([.key("roles")]), "must be an object mapping roles to styles")
    }
    var styles: [Role: Style] = [:]
    for member in roles.members {
      let path = JSONPath([.key("roles"), .key(member.key)])
      guard let role = Role(rawValue: member.key) else {
        let hint =
          Suggestion.closest(to: member.key, in: Role.allCases.map(\.rawValue)).map {
            "; did you mean \"\($0)\"?"
          } ?? ""
        throw fail(.unknownKey, path, "unknown role \"\(member.key)\"\(hint)")
      }
      guard let spec = member.value.object else {
        throw fail(.typeMismatch, path, "must be an object like {\"fg\": \"white\", \"bold\": true}")
      }
      var style = Style()
      for item in spec.members {
        let itemPath = path.appending(item.key)
        switch item.key {
        case "fg", "bg":
          let color = try color(item.value, path: itemPath, fail: fail)
          if item.key == "fg" { style.foreground = color } else { style.background = color }
        default:
          guard let attribute = attributeNames[item.key] else {
            throw fail(.unknownKey, itemPath, "unknown key; expected fg, bg, bold, dim, italic, underline or reverse")
          }
          guard let on = item.value.bool else { throw fail(.typeMismatch, itemPath, "must be true or false") }
          if on { style.attributes.insert(attribute) }
        }
      }
      styles[role] = style
    }
    return Theme(name: name, styles: styles)
  }

  private static func color(
    _ node: JSONNode, path: JSONPath, fail: (LintCode, JSONPath, SafeText) -> UNTermError
  ) throws(UNTermError) -> Color {
    if let n = node.number {
      guard let value = Double(n.text), InputNumber.colorNumber.accepts(value) else {
        let key = path.components.last.flatMap { if case .key(let k) = $0 { k } else { nil } }
        throw fail(.numberOutOfRange, path, InputNumber.colorNumber.complaint(n.text, key: key))
      }
      let i = UInt8(clamping: Int(saturating: value))
      return i < 16 ? .ansi(i) : .indexed(i)
    }
    guard let text = node.string else {
      throw fail(.typeMismatch, path, "a colour is a name, a number 0–255 or \"#RRGGBB\"")
    }
    if text == "default" { return .terminalDefault }
    if let index = colorNames[text] { return .ansi(index) }
    if text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) {
      return .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
    let hint = Suggestion.closest(to: text, in: colorNames.keys).map { "; did you mean \"\($0)\"?" } ?? ""
    throw fail(.invalidValue, path, "unknown colour \(OneLine.quote(text)); expected a name, 0–255 or #RRGGBB\(hint)")
  }
}
