import UNTermInput
import UNTermScript

/// The parts of the help made from the declarations: usage lines, option sections and the
/// session language's commands, so the help cannot drift from what the parsers take.
extension Help {
  /// The help's text width.
  static let width = 100

  /// A command's usage lines: `unterm render [SESSION OPTIONS] [RENDER OPTIONS] PAYLOAD ...`,
  /// then one line per option used on its own.
  static func usageLines(_ command: UNTermCommand) -> [String] {
    let taken = OptionDeclaration.taken(by: command).filter { $0.section != .general }
    var parts = [command.invocation]
    for section in OptionDeclaration.Section.allCases {
      let options = taken.filter { $0.section == section && !$0.alone }
      guard !options.isEmpty else { continue }
      if section.collapsesInUsage && options.count > 2 {
        parts.append("[\(section.title.uppercased())]")
      } else {
        parts += options.map { "[\($0.name)\($0.value.map { " " + $0 } ?? "")]" }
      }
    }
    parts.append(command.positionals)
    return [parts.joined(separator: " ")]
      + taken.filter(\.alone).map { "\(command.invocation) \($0.name)\($0.value.map { " " + $0 } ?? "")" }
  }

  /// The usage lines, aligned under `Usage: `.
  static func usage(_ command: UNTermCommand) -> String {
    usageLines(command).joined(separator: "\n       ")
  }

  /// Every command's usage lines with what they do, for the main help.
  static var commandList: String {
    var rows: [(String, String)] = []
    for command in UNTermCommand.allCases {
      let lines = usageLines(command)
      rows.append((lines[0], command.summary))
      let alone = OptionDeclaration.taken(by: command).filter(\.alone)
      rows += zip(lines.dropFirst(), alone).map { ($0, $1.help) }
    }
    return table(rows, column: 49)
  }

  /// One section of a command's options: a title line, then one option a row.
  static func options(in section: OptionDeclaration.Section, for command: UNTermCommand) -> String {
    let options = OptionDeclaration.taken(by: command).filter { $0.section == section }
    guard !options.isEmpty else { return "" }
    let rows = options.map { option in
      (option.label, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
    }
    return "\(section.title):\n" + table(rows, column: 27)
  }

  /// Every option a command takes, by section.
  static func options(for command: UNTermCommand) -> String {
    OptionDeclaration.Section.allCases.map { options(in: $0, for: command) }.filter { !$0.isEmpty }
      .joined(separator: "\n\n")
  }

  /// The session language's commands, from `ScriptCommand.declarations`.
  static var scriptCommands: String {
    table(ScriptCommand.declarations.map { ($0.usage, $0.summary) }, column: 30)
  }

  /// Rows of `  LABEL  TEXT`, the text starting at `column` (on the next line when the label is
  /// too long) and wrapped at the help's width.
  static func table(_ rows: [(String, String)], column: Int) -> String {
    var out: [String] = []
    let indent = String(repeating: " ", count: column)
    for (label, text) in rows {
      let head = "  " + label
      let lines = wrap(text, width: width - column)
      if head.count + 2 <= column {
        out.append(head + String(repeating: " ", count: column - head.count) + lines[0])
      } else {
        out.append(head)
        out.append(indent + lines[0])
      }
      out += lines.dropFirst().map { indent + $0 }
    }
    return out.joined(separator: "\n")
  }

  /// Words filled into lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    return lines
  }
}
