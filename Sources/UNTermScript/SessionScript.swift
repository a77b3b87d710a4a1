import Foundation
import UNTermInput
import UNTermState
import UserNotificationsUI

/// What `expect activity NAME …` checks.
package enum ActivityExpectation: Hashable, Sendable {
  /// Its state on the session's clock: active, stale, ended, dismissed or pending.
  case state(String)
  /// Text its presentation shows (header, alert, fields, compact sides).
  case shows(String)

  /// The states a script may name.
  package static let states = ["active", "stale", "ended", "dismissed", "pending"]
}

/// One command of the session language, as the runner carries it out. Its grammar, help and
/// caption are declared in `ScriptCommand.declarations`.
package enum ScriptCommand: Hashable, Sendable {
  case size(width: Int, height: Int)
  case device(DeviceProfile.Kind)
  case theme(String)
  /// `[ID=]FILE` as written (`AppScoped.parse` reads it).
  case categories(String)
  case contentExtension(String)
  case passcode(String)
  /// The device language (`locale bn`).
  case locale(String)
  /// The app's strings (`strings Localization`): a strings file or folder.
  case strings(String)
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
  case expectScreen(String, region: ScreenRegion)
  case expectScreenNot(String, region: ScreenRegion)
  case expectBadge(Int)
  case snapshot(String, region: ScreenRegion)
  case mediaDirectory(String)
  /// Advances the clock to the next time of day (a Scheduled Summary's, say).
  case waitUntil(DayTime)
  /// Waits in real time for `count` pushes from outside (the APNs endpoint of
  /// `run --apns-listen`), at most `within` seconds; the script fails if they do not come.
  case waitPush(count: Int, within: TimeInterval)
  case focus(FocusMode, allow: [String]?)
  case summary([DayTime])
  case textSize(DynamicTypeSize)
  /// Brings the app to the foreground (`true`) or sends it to the background.
  case foreground(Bool)
  /// Takes the device offline (`true`) or back online: APNs holds its pushes meanwhile.
  case offline(Bool)
  /// Checks a Live Activity by name: where it is in its life, or what it shows.
  case expectActivity(String, ActivityExpectation)
  /// Removes notifications by identifier: delivered, held for the summary, or pending.
  case remove([String])
  /// Removes every delivered notification (and what the summary holds).
  case clear
  /// The session's own app from here on (`bundle com.dabba.app`), as `run --bundle`.
  case bundle(String)
  /// An app's name in headers (`app-name com.dabba.app=Dabba`; a bare NAME names the session's
  /// own app), as `--app-name`.
  case appName(app: String?, name: String)
  /// When previews show, as `--previews`.
  case previews(CenterState.Previews)
}

/// A parsed `.session` script.
package struct SessionScript: Sendable {
  /// A command with where it came from.
  package struct Line: Sendable {
    package var number: Int
    /// The column the command starts at (after any indentation).
    package var column = 1
    package var command: ScriptCommand
    /// The source line, for reports.
    package var source: String
    /// The declaration the line was read by (its name, grammar, whether it checks something).
    package var declaration: ScriptCommandDeclaration
    /// What `--live` and casts show for the line, if anything.
    package var caption: String?

    /// Whether the line checks something: counted as an expectation; a failure ends the script.
    package var isExpectation: Bool { declaration.isExpectation }
  }

  package var file: String
  package var lines: [Line]

  /// A parse error: `FILE:LINE:COLUMN: error: MESSAGE`, exit code 65.
  package struct ParseError: Error, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int
    package var message: SafeText
    /// lint's code for it: a syntax error, or a number outside its range.
    package var code: LintCode

    package init(file: String, line: Int, column: Int, message: SafeText, code: LintCode = .scriptSyntax) {
      self.file = file
      self.line = line
      self.column = column
      self.message = message
      self.code = code
    }

    package var description: String {
      let text: SafeText = "\(file):\(line):\(column): error: \(message.oneLine)"
      return text.text
    }
  }

  /// The words a line can start with, for suggestions.
  package static var commandNames: [String] {
    var seen = Set<String>()
    return ScriptCommand.declarations.compactMap { $0.words.first }.filter { seen.insert($0).inserted }
  }

  /// Parses a whole script; the first error stops parsing.
  package static func parse(_ text: String, file: String) throws(ParseError) -> SessionScript {
    let (script, errors) = parseAll(text, file: file)
    if let first = errors.first { throw first }
    return script
  }

  /// A script's lines, as editors count them: a line ends at LF, CR LF or a lone CR, and a
  /// byte-order mark before the first is no part of it. Line N of a finding is element N - 1.
  package static func sourceLines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    var afterCR = false
    for scalar in text.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      if scalar == "\n" && afterCR { continue }
      if scalar == "\n" || scalar == "\r" {
        lines.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    lines.append(String(current))
    if lines[0].unicodeScalars.first == "\u{FEFF}" { lines[0].unicodeScalars.removeFirst() }
    return lines
  }

  /// Parses a whole script, reading on past a line with an error: the lines that parse, and
  /// every error, one per bad line (what `lint` reports in one pass).
  package static func parseAll(_ text: String, file: String) -> (script: SessionScript, errors: [ParseError]) {
    var lines: [Line] = []
    var errors: [ParseError] = []
    var number = 0
    for line in sourceLines(text) {
      number += 1
      do throws(ParseError) {
        let tokens = try Tokenizer.tokens(line, file: file, line: number)
        guard !tokens.isEmpty else { continue }
        let (declaration, parsed) = try parseCommand(tokens, file: file, line: number)
        lines.append(
          Line(
            number: number, column: tokens[0].column, command: parsed.command,
            source: line.trimmingCharacters(in: .whitespaces),
            declaration: declaration, caption: parsed.caption))
      } catch {
        errors.append(error)
      }
    }
    return (SessionScript(file: file, lines: lines), errors)
  }

  /// A token: its text, whether it was quoted, and its column.
  package struct Token: Sendable, Equatable {
    package var text: String
    package var quoted: Bool
    /// Where the token starts, and the column just after it (its closing quote included).
    /// Columns count Unicode scalars, as in every other kind of file.
    package var column: Int
    package var endColumn: Int
  }

  /// Finds the declaration a line's leading words name (the longest match: `expect screen not`
  /// before `expect screen`), then lets it read the arguments.
  private static func parseCommand(_ tokens: [Token], file: String, line: Int) throws(ParseError) -> (
    ScriptCommandDeclaration, ScriptCommandDeclaration.Parsed
  ) {
    // The leading unquoted tokens that continue some command's name.
    var matched = 0
    while matched < tokens.count, !tokens[matched].quoted,
      ScriptCommand.declarations.contains(where: {
        $0.words.count > matched && Array($0.words.prefix(matched + 1)) == tokens.prefix(matched + 1).map(\.text)
      })
    {
      matched += 1
    }
    let named = tokens.prefix(matched).map(\.text)
    // The longest of those prefixes that is a whole command's name; the rest are arguments.
    let found = (0...matched).reversed().lazy.compactMap { count in
      ScriptCommand.declarations.first { $0.words == Array(named.prefix(count)) }.map { ($0, count) }
    }.first
    var arguments = ScriptArguments(tokens: tokens, index: found?.1 ?? matched, file: file, line: line)
    guard let (declaration, _) = found else {
      let next = matched < tokens.count ? tokens[matched] : nil
      let column = next?.column ?? arguments.endColumn
      guard matched > 0 else {
        let first = tokens[0]
        let hint = Suggestion.closest(to: first.text, in: commandNames).map { "; did you mean '\($0)'?" } ?? ""
        throw ParseError(
          file: file, line: line, column: first.column, message: "unknown command \"\(first.text)\"\(hint)")
      }
      throw ParseError(
        file: file, line: line, column: column, message: continuationMessage(after: named, found: next?.text))
    }
    let parsed = try declaration.parse(&arguments)
    if let extra = arguments.optional() {
      throw arguments.fail(extra, "unexpected \"\(extra.text)\" after the command")
    }
    return (declaration, parsed)
  }

  /// "expected response, no response, screen or badge after 'expect'", or for one way on,
  /// "expected 'expect no response'".
  private static func continuationMessage(after words: [String], found: String?) -> SafeText {
    var rest: [String] = []
    for declaration in ScriptCommand.declarations
    where declaration.words.count > words.count && Array(declaration.words.prefix(words.count)) == words {
      rest.append(declaration.words.dropFirst(words.count).joined(separator: " "))
    }
    // "screen not" is a longer form of "screen": name the short one only.
    rest = rest.filter { candidate in !rest.contains { candidate.hasPrefix($0 + " ") } }
    let prefix = words.joined(separator: " ")
    let not: SafeText = found.map { ", not \"\($0)\"" } ?? ""
    if rest.count == 1 { return "expected '\(prefix) \(rest[0])'\(not)" }
    let list = rest.dropLast().joined(separator: ", ") + (rest.count > 1 ? " or " : "") + (rest.last ?? "")
    return "expected \(list) after '\(prefix)'\(not)"
  }

  /// Durations: `250ms`, `2s`, `1.5s`, `1m`, from 0 to 365 days; `nil` for anything else.
  package static func duration(_ text: String) -> TimeInterval? {
    guard let (number, factor) = durationParts(text), let value = Double(number) else { return nil }
    let seconds = value * factor
    return InputNumber.waitDuration.accepts(seconds) ? seconds : nil
  }

  /// Whether text is written as a duration (digits and a unit), whatever its size.
  package static func isDurationSyntax(_ text: String) -> Bool { durationParts(text) != nil }

  private static func durationParts(_ text: String) -> (Substring, Double)? {
    for (suffix, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)] where text.hasSuffix(suffix) {
      let number = text.dropLast(suffix.count)
      guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        number.filter({ $0 == "." }).count <= 1, number != "."
      else { return nil }
      return (number, factor)
    }
    return nil
  }

  /// Splits a line into tokens: spaces separate, double quotes group (with `\"`, `\\` and `\n`
  /// escapes), and `#` at the start of a token begins a comment.
  package enum Tokenizer {
    package static func tokens(_ line: String, file: String, line number: Int) throws(ParseError) -> [Token] {
      var tokens: [Token] = []
      // Scalars, not Characters: columns count scalars, and a quote followed by a combining
      // mark is still a quote.
      let chars = Array(line.unicodeScalars)
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
          var text = String.UnicodeScalarView()
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
              case "\"", "\\": text.append(chars[i + 1])
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
          tokens.append(Token(text: String(text), quoted: true, column: column, endColumn: i + 1))
        } else {
          var text = String.UnicodeScalarView()
          while i < chars.count, chars[i] != " ", chars[i] != "\t" {
            if chars[i] == "\"" {
              throw ParseError(
                file: file, line: number, column: i + 1,
                message: "a quote must start a token; put the whole argument in double quotes")
            }
            text.append(chars[i])
            i += 1
          }
          tokens.append(Token(text: String(text), quoted: false, column: column, endColumn: i + 1))
        }
      }
      return tokens
    }
  }
}
