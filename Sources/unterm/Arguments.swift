import UNTermHeadless
import UNTermInput

/// A command's arguments: options in `--name value` or `--name=value` form, flags, and
/// positional arguments. `--` ends the options; `-` is a positional (stdin). Which options a
/// command takes, and how each is read, comes from `OptionDeclaration.all`.
struct Arguments {
  let items: [String]
  let command: UNTermCommand

  init(_ items: [String], command: UNTermCommand) {
    self.items = items
    self.command = command
  }

  /// A usage error (exit code 2) that points at the command's help.
  func usage(_ message: String) -> UNTermError {
    var text = message
    while text.hasSuffix(".") { text.removeLast() }
    return UNTermError(.usage, "\(text) (see '\(command.invocation) --help')")
  }

  /// Reads every option into `ParsedOptions`; what is left are the positionals.
  func parse() throws(UNTermError) -> (options: ParsedOptions, positionals: [String]) {
    // A few dozen options: a search is quicker than making a dictionary at each start.
    let declarations = OptionDeclaration.taken(by: command)
    var options = ParsedOptions()
    var positionals: [String] = []
    var index = 0
    var optionsEnded = false
    while index < items.count {
      let item = items[index]
      index += 1
      if optionsEnded || item == "-" || !item.hasPrefix("-") {
        positionals.append(item)
        continue
      }
      if item == "--" {
        optionsEnded = true
        continue
      }
      var name = item
      var inlineValue: String?
      if let equals = item.firstIndex(of: "=") {
        name = String(item[..<equals])
        inlineValue = String(item[item.index(after: equals)...])
      }
      guard let declaration = declarations.first(where: { $0.names.contains(name) }) else {
        throw unknown(name, known: declarations.flatMap(\.names))
      }
      let value: String
      if declaration.value == nil {
        if inlineValue != nil { throw usage("option '\(name)' takes no value") }
        value = ""
      } else if let inlineValue {
        value = inlineValue
      } else {
        guard index < items.count else { throw usage("option '\(name)' needs a value") }
        value = items[index]
        index += 1
      }
      do {
        try declaration.apply(&options, value)
      } catch {
        throw usage("\(name) \(error.expectation), not '\(value)'")
      }
    }
    return (options, positionals)
  }

  /// "unknown option '--veiw'. Did you mean '--view'?", or which commands take an option that
  /// this one does not.
  private func unknown(_ name: String, known: some Sequence<String>) -> UNTermError {
    let takers = OptionDeclaration.all.filter { $0.names.contains(name) }.reduce(into: UNTermCommands()) {
      $0.formUnion($1.commands)
    }
    let others = UNTermCommand.allCases.filter { takers.contains($0) }.map { "'\($0.invocation)'" }
    if !others.isEmpty {
      let list = others.dropLast().joined(separator: ", ") + (others.count > 1 ? " and " : "") + (others.last ?? "")
      return usage("option '\(name)' is taken by \(list), not by '\(command.invocation)'")
    }
    let hint = Suggestion.closest(to: name, in: known).map { " Did you mean '\($0)'?" } ?? ""
    return usage("unknown option '\(name)'.\(hint)")
  }
}
