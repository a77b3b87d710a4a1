import Foundation

/// One command of the session language.
package enum ScriptCommand: Hashable, Sendable {
  case size(width: Int, height: Int)
  case device(DeviceProfile.Kind)
  case theme(String)
  case categories(String)
  case contentExtension(String)
  case passcode(String)
  case lock
  case unlock(String?)
  case push(String, identifier: String?)
  case wait(TimeInterval)
  case key(Key, count: Int)
  case longPress
  case tap
  case action(String)
  case type(String)
  case send
  case dismiss
  case center
  case expectResponse(String, text: String?)
  case expectNoResponse
  case expectScreen(String)
  case expectScreenNot(String)
  case expectBadge(Int)
  case snapshot(String)

  /// Whether the command checks something.
  package var isExpectation: Bool {
    switch self {
    case .expectResponse, .expectNoResponse, .expectScreen, .expectScreenNot, .expectBadge, .snapshot:
      return true
    default:
      return false
    }
  }
}

/// A parsed `.session` script.
package struct SessionScript: Sendable {
  /// A command with where it came from.
  package struct Line: Sendable {
    package var number: Int
    package var command: ScriptCommand
    /// The source line, for reports.
    package var source: String
  }

  package var file: String
  package var lines: [Line]

  /// A parse error: `FILE:LINE:COLUMN: error: MESSAGE`, exit code 65.
  package struct ParseError: Error, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int
    package var message: String

    package var description: String { "\(file):\(line):\(column): error: \(message)" }
  }

  /// The script's commands by name, for messages and suggestions.
  package static let commandNames = [
    "size", "device", "theme", "categories", "extension", "passcode", "lock", "unlock", "push",
    "wait", "key", "longpress", "tap", "action", "type", "send", "dismiss", "center", "expect",
    "snapshot",
  ]

  /// Parses a whole script; the first error stops parsing.
  package static func parse(_ text: String, file: String) throws(ParseError) -> SessionScript {
    var lines: [Line] = []
    var number = 0
    // Split on scalars: "\r\n" is one Character in Swift, so a Character split would miss it.
    for raw in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      var scalars = String.UnicodeScalarView(raw)
      if scalars.last == "\r" { scalars.removeLast() }
      var line = String(scalars)
      if number == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
      let tokens = try Tokenizer.tokens(line, file: file, line: number)
      guard !tokens.isEmpty else { continue }
      let command = try parseCommand(tokens, file: file, line: number)
      lines.append(Line(number: number, command: command, source: line.trimmingCharacters(in: .whitespaces)))
    }
    return SessionScript(file: file, lines: lines)
  }

  /// A token: its text, whether it was quoted, and its column.
  package struct Token: Sendable, Equatable {
    package var text: String
    package var quoted: Bool
    package var column: Int
  }

  private static func parseCommand(_ tokens: [Token], file: String, line: Int) throws(ParseError) -> ScriptCommand {
    var reader = Reader(tokens: tokens, file: file, line: line)
    let name = reader.tokens[0]
    reader.index = 1
    func fail(_ column: Int, _ message: String) -> ParseError {
      ParseError(file: file, line: line, column: column, message: message)
    }
    let command: ScriptCommand
    switch name.quoted ? "" : name.text {
    case "size":
      let t = try reader.next("a size such as 80x24")
      let parts = t.text.lowercased().split(separator: "x")
      guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 1000, h <= 1000 else {
        throw fail(t.column, "expected a size from 1x1 to 1000x1000 such as 80x24, not \"\(t.text)\"")
      }
      command = .size(width: w, height: h)
    case "device":
      let t = try reader.next("iphone or ipad")
      guard let kind = DeviceProfile.Kind(rawValue: t.text) else {
        throw fail(t.column, "expected iphone or ipad, not \"\(t.text)\"")
      }
      command = .device(kind)
    case "theme": command = .theme(try reader.next("a theme name or file").text)
    case "categories": command = .categories(try reader.next("a categories file").text)
    case "extension": command = .contentExtension(try reader.next("a content-extension descriptor file").text)
    case "passcode": command = .passcode(try reader.next("a passcode").text)
    case "lock": command = .lock
    case "unlock": command = .unlock(reader.optional()?.text)
    case "push":
      let file = try reader.next("a payload file").text
      if let keyword = reader.optional() {
        guard keyword.text == "as", !keyword.quoted else {
          throw fail(keyword.column, "expected 'as ID' or the end of the line, not \"\(keyword.text)\"")
        }
        command = .push(file, identifier: try reader.next("a request identifier after 'as'").text)
      } else {
        command = .push(file, identifier: nil)
      }
    case "wait":
      let t = try reader.next("a duration such as 2s, 250ms or 1.5s")
      guard let seconds = Self.duration(t.text) else {
        throw fail(t.column, "expected a duration such as 2s, 250ms or 1.5s, not \"\(t.text)\"")
      }
      command = .wait(seconds)
    case "key":
      let t = try reader.next("a key name or one character")
      guard let key = Key(scriptName: t.text) else {
        throw fail(
          t.column,
          "unknown key \"\(t.text)\"; expected enter, esc, space, tab, backspace, delete, up, down, left, right, home, end, or one character"
        )
      }
      var count = 1
      if let repeatToken = reader.optional() {
        guard repeatToken.text.hasPrefix("x"), let n = Int(repeatToken.text.dropFirst()), n >= 1, n <= 10_000 else {
          throw fail(repeatToken.column, "expected a repeat count such as x3, not \"\(repeatToken.text)\"")
        }
        count = n
      }
      command = .key(key, count: count)
    case "longpress": command = .longPress
    case "tap": command = .tap
    case "action": command = .action(try reader.next("an action identifier").text)
    case "type":
      let t = try reader.next("text in double quotes")
      command = .type(t.text)
    case "send": command = .send
    case "dismiss": command = .dismiss
    case "center": command = .center
    case "snapshot":
      let t = try reader.next("a snapshot name")
      var name = t.text
      if name.hasSuffix(".txt") { name.removeLast(4) }
      guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
        throw fail(t.column, "a snapshot name is a plain file name without '/'")
      }
      command = .snapshot(name)
    case "expect":
      let kind = try reader.next("response, no response, screen or badge")
      switch kind.text {
      case "response":
        var id = try reader.next("an action identifier, @default or @dismiss").text
        if id == "@default" { id = "com.apple.UNNotificationDefaultActionIdentifier" }
        if id == "@dismiss" { id = "com.apple.UNNotificationDismissActionIdentifier" }
        command = .expectResponse(id, text: reader.optional()?.text)
      case "no":
        let t = try reader.next("'response' after 'expect no'")
        guard t.text == "response" else { throw fail(t.column, "expected 'expect no response'") }
        command = .expectNoResponse
      case "screen":
        let t = try reader.next("text in double quotes, or 'not' and text")
        if t.text == "not" && !t.quoted {
          command = .expectScreenNot(try reader.next("text in double quotes after 'not'").text)
        } else {
          command = .expectScreen(t.text)
        }
      case "badge":
        let t = try reader.next("a badge number")
        guard let n = Int(t.text), n >= 0 else { throw fail(t.column, "expected a badge number, not \"\(t.text)\"") }
        command = .expectBadge(n)
      default:
        throw fail(kind.column, "expected response, no response, screen or badge after 'expect', not \"\(kind.text)\"")
      }
    default:
      let hint = Suggestion.closest(to: name.text, in: commandNames).map { "; did you mean '\($0)'?" } ?? ""
      throw fail(name.column, "unknown command \"\(name.text)\"\(hint)")
    }
    if let extra = reader.optional() {
      throw fail(extra.column, "unexpected \"\(extra.text)\" after the command")
    }
    return command
  }

  /// Durations: `250ms`, `2s`, `1.5s`, `1m`.
  package static func duration(_ text: String) -> TimeInterval? {
    for (suffix, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(suffix) {
      let number = text.dropLast(suffix.count)
      guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        let value = Double(number), value.isFinite, value >= 0, value <= 86_400 * 365
      else { return nil }
      return value * factor
    }
    return nil
  }

  private struct Reader {
    var tokens: [Token]
    var file: String
    var line: Int
    var index = 0

    mutating func next(_ expected: String) throws(ParseError) -> Token {
      guard index < tokens.count else {
        let column = tokens.last.map { $0.column + $0.text.count + ($0.quoted ? 2 : 0) } ?? 1
        throw ParseError(file: file, line: line, column: column, message: "expected \(expected)")
      }
      index += 1
      return tokens[index - 1]
    }

    mutating func optional() -> Token? {
      guard index < tokens.count else { return nil }
      index += 1
      return tokens[index - 1]
    }
  }

  /// Splits a line into tokens: spaces separate, double quotes group (with `\"`, `\\` and `\n`
  /// escapes), and `#` at the start of a token begins a comment.
  package enum Tokenizer {
    package static func tokens(_ line: String, file: String, line number: Int) throws(ParseError) -> [Token] {
      var tokens: [Token] = []
      let chars = Array(line)
      var i = 0
      while i < chars.count {
        let c = chars[i]
        if c == " " || c == "\t" {
          i += 1
          continue
        }
        if c == "#" { break }
        let column = i + 1
        if c == "\"" {
          var text = ""
          i += 1
          var closed = false
          while i < chars.count {
            let d = chars[i]
            if d == "\\" {
              guard i + 1 < chars.count else {
                throw ParseError(
                  file: file, line: number, column: i + 1, message: "unfinished escape at the end of the line")
              }
              switch chars[i + 1] {
              case "\"": text.append("\"")
              case "\\": text.append("\\")
              case "n": text.append("\n")
              default:
                throw ParseError(
                  file: file, line: number, column: i + 1,
                  message: "unknown escape \\\(chars[i + 1]); use \\\", \\\\ or \\n")
              }
              i += 2
              continue
            }
            if d == "\"" {
              closed = true
              i += 1
              break
            }
            text.append(d)
            i += 1
          }
          guard closed else {
            throw ParseError(
              file: file, line: number, column: column, message: "unterminated string: expected a closing \"")
          }
          if i < chars.count, chars[i] != " ", chars[i] != "\t" {
            throw ParseError(
              file: file, line: number, column: i + 1, message: "expected a space after the closing quote")
          }
          tokens.append(Token(text: text, quoted: true, column: column))
        } else {
          var text = ""
          while i < chars.count, chars[i] != " ", chars[i] != "\t" {
            if chars[i] == "\"" {
              throw ParseError(
                file: file, line: number, column: i + 1,
                message: "a quote must start a token; put the whole argument in double quotes")
            }
            text.append(chars[i])
            i += 1
          }
          tokens.append(Token(text: text, quoted: false, column: column))
        }
      }
      return tokens
    }
  }
}
