import Foundation
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermShell

/// `unterm center list [--json] | remove ID ... | clear`: the running session's center.
enum CenterCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, words) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.center)
      return .success
    }
    let socket = parsed.socket ?? LiveDelivery.defaultSocketPath()
    guard let verb = words.first else { throw arguments.usage("center needs list, remove ID ... or clear") }
    let rest = Array(words.dropFirst())
    switch verb {
    case "list":
      guard rest.isEmpty else { throw arguments.usage("center list takes no arguments") }
      let reply = try PushClient.center([.list], socket: socket).first ?? "{}"
      if parsed.center.json {
        // The session's JSON writer escapes every control; the sanitizer keeps that so.
        Console.line(SafeText(sanitizing: reply))
      } else {
        Console.line(try listing(reply))
      }
      return .success
    case "remove":
      guard !rest.isEmpty else { throw arguments.usage("center remove needs at least one ID") }
      let replies = try PushClient.center(rest.map { .remove($0) }, socket: socket)
      for (id, reply) in zip(rest, replies) {
        if reply == CenterCommands.removed {
          Console.line("removed \(id)")
        } else {
          // iOS ignores an identifier nothing has (removeDeliveredNotifications is a silent
          // no-op for it): not an error, but a warning line, so a typo is seen.
          UNTermMain.warn(
            "warning: no notification has the identifier \(OneLine.quote(id, limit: 80)) (delivered, held or pending); nothing removed, as iOS ignores it"
          )
        }
      }
      return .success
    case "clear":
      guard rest.isEmpty else { throw arguments.usage("center clear takes no arguments") }
      let count = try PushClient.center([.clear], socket: socket).first ?? "0"
      Console.line("cleared \(count) notification\(count == "1" ? "" : "s")")
      return .success
    default:
      let hint = Suggestion.closest(to: verb, in: ["list", "remove", "clear"]).map { " (did you mean '\($0)'?)" } ?? ""
      throw arguments.usage("center takes list, remove ID ... or clear, not '\(OneLine.flatten(verb))'\(hint)")
    }
  }

  /// The list as a table, a line per notification: status, identifier, date, app (bundle
  /// identifier), thread, category.
  static func listing(_ json: String) throws(UNTermError) -> SafeText {
    guard let root = (try? JSONParser.parse(Array(json.utf8)))?.object else {
      throw UNTermError(.failure, "the session answered with something that is not a list")
    }
    var rows: [[String]] = [["STATUS", "IDENTIFIER", "DATE", "APP", "THREAD", "CATEGORY"]]
    for status in ["delivered", "held", "pending"] {
      for item in root[status]?.array ?? [] {
        guard let entry = item.object else { continue }
        func field(_ key: String) -> String {
          let value = OneLine.flatten(entry[key]?.string ?? "")
          return value.isEmpty ? "-" : value
        }
        rows.append([
          status, field("identifier"), field("date"), field("bundleIdentifier"), field("threadIdentifier"),
          field("categoryIdentifier"),
        ])
      }
    }
    if rows.count == 1 { return "no notifications" }
    // Every cell was flattened (sanitized) above.
    let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
    let table = rows.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
      }.joined(separator: "  ")
    }.joined(separator: "\n")
    return SafeText(sanitizing: table, multiline: true)
  }
}
