import Foundation
import UNTermHeadless
import UNTermInput
import UNTermRender
import UserNotificationsModel

/// `unterm log FILE`: reads a response log back, one response a line (sanitized) or, with
/// `--json`, as JSON Lines; damaged lines go to stderr with their line numbers.
enum LogCommand {
  /// The largest log read back.
  static let sizeLimit = 1 << 30

  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.log)
      return .success
    }
    guard let file = files.first else { throw arguments.usage("log needs a FILE (a response log)") }
    guard files.count == 1 else { throw arguments.usage("log reads one FILE at a time") }
    let contents = ResponseLog.scan(try InputFile.read(file, limit: sizeLimit))
    var out: SafeText = ""
    for record in contents.records {
      out += parsed.log.json ? JSONWriter.safeText(record.value) : line(record)
      out += "\n"
      if out.text.utf8.count >= 1 << 16 {
        Console.write(out)
        out = ""
      }
    }
    Console.write(out)
    for damage in contents.damage {
      UNTermMain.warn("\(file):\(damage.line): error: line \(damage.line) is damaged: \(damage.reason)")
    }
    if contents.tornTail != nil {
      UNTermMain.warn(
        "\(file):\(contents.lineCount): warning: the last line is cut off (a record cut short by a crash or a full disk, never acknowledged); skipped"
      )
    }
    return contents.damage.isEmpty ? .success : .dataError
  }

  /// One response as a line a person reads: date, request, action, the reply text, and the rest
  /// in brackets; every field sanitized, line breaks shown as ␊.
  static func line(_ record: LogRecord) -> SafeText {
    let action: SafeText
    switch record.actionIdentifier {
    case UNNotificationDefaultActionIdentifier: action = "@default"
    case UNNotificationDismissActionIdentifier: action = "@dismiss"
    default: action = "\(record.actionIdentifier)"
    }
    var parts: [SafeText] = ["\(record.date ?? "-")", "\(record.requestIdentifier)", action]
    if let text = record.userText { parts.append("“\(text)”") }
    var details: [SafeText] = []
    if let category = record.categoryIdentifier, !category.isEmpty { details.append("category \(category)") }
    if let thread = record.threadIdentifier, !thread.isEmpty { details.append("thread \(thread)") }
    if let device = record.device { details.append("\(device)") }
    if let locked = record.locked { details.append(locked ? "locked" : "unlocked") }
    if let app = record.bundleIdentifier, !app.isEmpty { details.append("app \(app)") }
    if !details.isEmpty { parts.append("(\(details.joined(separator: ", ")))") }
    return parts.joined(separator: "  ")
  }
}
