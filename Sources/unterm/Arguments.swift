import UNTermCore
import UNTermHeadless

/// Command-line arguments being parsed: options in `--name value` or `--name=value` form,
/// flags, and positional arguments. `--` ends the options; `-` is a positional (stdin).
struct Arguments {
  private var items: [String]
  let command: String

  init(_ items: [String], command: String) {
    self.items = items
    self.command = command
  }

  /// A usage error (exit code 2) that points at the command's help.
  func usage(_ message: String) -> UNTermError {
    var text = message
    while text.hasSuffix(".") { text.removeLast() }
    return UNTermError(.usage, "\(text) (see 'unterm \(command.isEmpty ? "" : command + " ")--help')")
  }

  /// Takes every option, calling `handle` with its name and a way to read its value; whatever
  /// is left are the positionals.
  mutating func parse(
    flags: Set<String>, options: Set<String>,
    handle: (_ name: String, _ value: String?) throws(UNTermError) -> Void
  ) throws(UNTermError) -> [String] {
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
      if flags.contains(name) {
        if inlineValue != nil { throw usage("option '\(name)' takes no value") }
        try handle(name, nil)
      } else if options.contains(name) {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < items.count else { throw usage("option '\(name)' needs a value") }
          value = items[index]
          index += 1
        }
        try handle(name, value)
      } else {
        let known = flags.union(options)
        let hint = Suggestion.closest(to: name, in: known).map { " Did you mean '\($0)'?" } ?? ""
        throw usage("unknown option '\(name)'.\(hint)")
      }
    }
    return positionals
  }
}

/// The session options every loading command takes.
enum SessionOptions {
  static let flags: Set<String> = ["--locked", "--trace"]
  static let options: Set<String> = [
    "--categories", "--extension", "--device", "--theme", "--passcode", "--log", "--app-name",
    "--media-dir", "--service-timeout", "--previews",
  ]

  /// Applies one session option; returns `false` for options that are not session options.
  static func apply(
    _ name: String, _ value: String?, to configuration: SessionConfigurationBox,
    arguments: Arguments
  ) throws(UNTermError) -> Bool {
    let value = value ?? ""
    switch name {
    case "--categories": configuration.value.categoriesFile = value
    case "--extension": configuration.value.extensionFiles.append(value)
    case "--device":
      guard let kind = DeviceProfile.Kind(rawValue: value) else {
        throw arguments.usage("--device must be iphone or ipad, not '\(value)'")
      }
      configuration.value.device = kind
    case "--theme": configuration.value.theme = value
    case "--locked": configuration.value.locked = true
    case "--passcode": configuration.value.passcode = value
    case "--log": configuration.value.logFile = value
    case "--app-name": configuration.value.appName = value
    case "--media-dir": configuration.value.mediaDirectory = value
    case "--service-timeout":
      guard let seconds = SessionScript.duration(value), seconds > 0 else {
        throw arguments.usage("--service-timeout takes a duration such as 30s or 500ms, not '\(value)'")
      }
      configuration.value.serviceTimeout = seconds
    case "--previews":
      guard let previews = CenterState.Previews(rawValue: value) else {
        throw arguments.usage("--previews must be always, when-unlocked or never, not '\(value)'")
      }
      configuration.value.previews = previews
    case "--trace": configuration.value.trace = true
    default: return false
    }
    return true
  }
}

/// A session configuration passed by reference through option handlers.
final class SessionConfigurationBox {
  var value = SessionConfiguration()
}
