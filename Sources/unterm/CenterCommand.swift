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
    case "tokens", "offline", "fail":
      return try apns(verb, rest, parsed: parsed, socket: socket, arguments)
    default:
      let hint =
        Suggestion.closest(to: verb, in: ["list", "remove", "clear", "tokens", "offline", "fail"]).map {
          " (did you mean '\($0)'?)"
        } ?? ""
      throw arguments.usage("center takes list, remove ID ... or clear, not '\(OneLine.flatten(verb))'\(hint)")
    }
  }

  /// `tokens [--expire APP]`, `offline on|off`, `fail REASON [N]`: the APNs endpoint's device.
  private static func apns(
    _ verb: String, _ rest: [String], parsed: ParsedOptions, socket: String, _ arguments: Arguments
  ) throws(UNTermError) -> ExitCode {
    let command: CenterCommands.Command
    switch (verb, rest.count) {
    case ("tokens", 0): command = parsed.center.expire.map { .expireToken($0) } ?? .tokens
    case ("offline", 1) where rest[0] == "on" || rest[0] == "off": command = .offline(rest[0] == "on")
    case ("fail", 1), ("fail", 2):
      guard let count = rest.count == 2 ? Int(rest[1]) : 1, count > 0 else {
        throw arguments.usage("center fail REASON [N]: N is a number of requests, 1 or more")
      }
      command = .fail(rest[0], count: count)
    case ("offline", _): throw arguments.usage("center offline takes on or off")
    case ("fail", _): throw arguments.usage("center fail takes an APNs reason and a number: fail ServiceUnavailable 3")
    default: throw arguments.usage("center tokens takes no arguments (--expire APP makes an app's token unregistered)")
    }
    let reply = try PushClient.center([command], socket: socket).first ?? ""
    guard command == .tokens else {
      Console.line(SafeText(sanitizing: reply))
      return .success
    }
    if parsed.center.json {
      Console.line(SafeText(sanitizing: reply))
      return .success
    }
    guard let root = (try? JSONParser.parse(Array(reply.utf8)))?.object else {
      throw UNTermError(.failure, "the session answered with something that is not a list of tokens")
    }
    var lines = ["APP  TOKEN"]
    for member in root.members {
      let state = member.value.object?["unregistered"]?.string.map { "  unregistered since \($0)" } ?? ""
      lines.append(
        "\(OneLine.flatten(member.key))  \(OneLine.flatten(member.value.object?["token"]?.string ?? ""))\(state)")
    }
    Console.line(SafeText(sanitizing: lines.joined(separator: "\n"), multiline: true))
    return .success
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
