import Foundation
import UNTermHeadless
import UNTermInput
import UNTermLint
import UNTermRender
import UNTermScript
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// The commands of `unterm`.
enum UNTermCommand: String, CaseIterable, Sendable {
  case interactive, render, lint, run, log, push, sheet, export, center, apns, completion

  /// How a user types it: `unterm`, `unterm render`.
  var invocation: String { self == .interactive ? "unterm" : "unterm \(rawValue)" }

  /// What follows the options.
  var positionals: String {
    switch self {
    case .interactive: return "[PAYLOAD ...]"
    case .render, .lint, .push, .sheet: return "PAYLOAD ..."
    case .run: return "SCRIPT ..."
    case .log: return "FILE"
    case .export: return "PAYLOAD ..."
    case .center: return "list | remove ID ... | clear | tokens | offline on|off | fail REASON [N]"
    case .apns: return "ca"
    case .completion: return "bash|zsh|fish"
    }
  }

  /// What the command does, for the main help.
  var summary: String {
    switch self {
    case .interactive: return "interactive notification center (needs a terminal)"
    case .render: return "print one screen; no terminal needed"
    case .lint: return "check payloads, categories and extensions"
    case .run: return "run session scripts (expectations, snapshots)"
    case .log: return "read a response log back, one response a line"
    case .push: return "deliver into a running interactive session"
    case .sheet: return "a design sheet: every payload on every device, lock state, view and theme, as one HTML file"
    case .export: return "print what sends a payload to a real Simulator or device: simctl, .apns or curl to APNs"
    case .center:
      return
        "list or remove the running session's notifications, as the app's center can; its APNs device's tokens, offline state and failures"
    case .apns: return "the APNs endpoint's private CA: where it is and its PEM, for a client to trust"
    case .completion: return "print a completion script for bash, zsh or fish"
    }
  }

  /// What a shell completes for the arguments after the options.
  var argumentCompletion: ValueCompletion {
    switch self {
    case .interactive, .render, .push, .export: return .files(["json", "apns"])
    case .lint, .sheet:
      return .files(["json", "apns", "session", "plist", "strings", "stringsdict", "xcstrings"], folders: true)
    case .run: return .files(["session"])
    case .log: return .files([])
    case .center: return .words(["list", "remove", "clear", "tokens", "offline", "fail"])
    case .apns: return .words(["ca"])
    case .completion: return .words(["bash", "zsh", "fish"])
    }
  }
}

/// What every option of every command sets. Each command reads the parts it takes.
struct ParsedOptions: Sendable {
  var session = SessionConfiguration()
  var render = RenderOptions()
  var lint = LintOptions()
  var run = RunCommandOptions()
  var sheet = SheetOptions()
  var log = LogCommandOptions()
  var export = ExportOptions()
  var center = CenterCommandOptions()
  var apns = APNsCommandOptions()
  /// `--socket`: where the interactive session listens and `push` connects.
  var socket: String?
  /// `unterm push --bundle`: the app the pushed payloads are for, over their own.
  var pushBundle: String?
  /// `--watch`: reload and redraw on every save of a file on the command line.
  var watch = false
  /// `--bidi` as given; each command resolves `auto` for where its screens go.
  var bidi = BidiSetting.auto
  /// `--locale` as given; `nil` means the environment's.
  var locale: String?

  /// The device language: `--locale`, else `LC_ALL`, `LC_MESSAGES`, then `LANG`.
  var deviceLanguage: String {
    locale ?? AppStrings.environmentLocale(ProcessEnvironment.value)
  }
  var help = false
}

struct RenderOptions: Sendable {
  /// The views `render` draws: the runtime's list (`RenderPipeline` draws them).
  typealias View = ScreenRequest.View

  enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, never
  }

  /// The output's form: text (what `--color never` prints), ANSI colour, or a picture.
  enum Format: String, CaseIterable, Sendable {
    case text, ansi, html, svg
  }

  var view = View.banner
  var size: ScreenSize?
  var color = ColorMode.auto
  var format: Format?
  var now: Date?
}

/// What `unterm sheet` shows, and where it writes.
struct SheetOptions: Sendable {
  var out = "unterm-sheet.html"
  var devices: [DeviceProfile.Kind]?
  var states: [DesignSheet.LockState]?
  var views: [DesignSheet.View]?
  var themes: [String]?
  /// `--device` and `--locked`, when given: they narrow the matrix when its own list is not
  /// (`--device ipad` alone means iPad only). (`--theme` needs no mark: it is the default of
  /// `--themes`.)
  var narrowedBy: Set<String> = []
}

struct LintOptions: Sendable {
  /// `--json`: `--format json`, as before `--format` came.
  var json = false
  var format: LintFormat?
  var strict = false
  /// `--device` when given: `--strict` holds designs to that device's budget only.
  var device: DeviceProfile.Kind?
  var explain: String?
  /// `--text-sizes`: the Dynamic Type sizes `--strict` holds designs at.
  var textSizes: [DynamicTypeSize]?
}

extension LintOptions {
  /// The form findings are printed in: `--format`, or `json` for `--json`; `--json` with
  /// another `--format` is a usage error.
  func outputFormat(_ arguments: Arguments) throws(UNTermError) -> LintFormat {
    if json, let format, format != .json {
      throw arguments.usage("--json is --format json; it cannot go with --format \(format.rawValue)")
    }
    return format ?? (json ? .json : .text)
  }
}

struct LogCommandOptions: Sendable {
  var json = false
}

/// What `unterm export` prints.
struct ExportOptions: Sendable {
  enum Form: String, Sendable {
    case simctl, curl, apns
  }

  /// The forms asked for; exactly one must be.
  var forms: [Form] = []
  /// `--local`: `--curl` to the running session's APNs endpoint.
  var local = false
  var environment = APNsExport.Environment.development
  var simulator = "booted"
}

struct CenterCommandOptions: Sendable {
  var json = false
  /// `tokens --expire APP`.
  var expire: String?
}

struct RunCommandOptions: Sendable {
  var updateSnapshots = false
  var castFile: String?
  /// `--svg FILE`: an animated SVG of the scripts as they play.
  var svgFile: String?
  /// `--junit FILE`: where the JUnit XML report goes.
  var junitFile: String?
  var live = false
  var speed = 1.0
}

/// Some commands, as bits: the option table is made at every start, and a set of commands
/// (`Set<UNTermCommand>`) cost each start a run-time conformance lookup.
struct UNTermCommands: OptionSet, Hashable, Sendable {
  let rawValue: UInt16

  init(rawValue: UInt16) { self.rawValue = rawValue }

  init(_ command: UNTermCommand) {
    switch command {
    case .interactive: rawValue = 1 << 0
    case .render: rawValue = 1 << 1
    case .lint: rawValue = 1 << 2
    case .run: rawValue = 1 << 3
    case .log: rawValue = 1 << 4
    case .push: rawValue = 1 << 5
    case .sheet: rawValue = 1 << 6
    case .export: rawValue = 1 << 7
    case .center: rawValue = 1 << 8
    case .completion: rawValue = 1 << 9
    case .apns: rawValue = 1 << 10
    }
  }

  static var interactive: Self { Self(.interactive) }
  static var render: Self { Self(.render) }
  static var lint: Self { Self(.lint) }
  static var run: Self { Self(.run) }
  static var log: Self { Self(.log) }
  static var push: Self { Self(.push) }
  static var sheet: Self { Self(.sheet) }
  static var export: Self { Self(.export) }
  static var center: Self { Self(.center) }
  static var completion: Self { Self(.completion) }
  static var apns: Self { Self(.apns) }
  /// Every command.
  static var all: Self { UNTermCommand.allCases.reduce(into: []) { $0.insert(Self($1)) } }

  /// Whether one command is among these.
  func contains(_ command: UNTermCommand) -> Bool { contains(Self(command)) }
}

/// One command-line option: its names, its value, its help, the commands that take it, and how
/// it sets `ParsedOptions`. Parsing, `--help`, the suggestions for a mistyped option and the
/// README check all read `OptionDeclaration.all`.
struct OptionDeclaration: Sendable {
  /// Where the help and README list an option, and which commands take the options there.
  enum Section: CaseIterable, Sendable {
    case session, modes, headers, render, lint, run, log, delivery, apns, sheet, watch, export, center, general

    var title: String {
      switch self {
      case .session: return "Session options"
      case .modes: return "Modes"
      case .headers: return "APNs request headers"
      case .render: return "Render options"
      case .lint: return "Lint options"
      case .run: return "Run options"
      case .log: return "Log options"
      case .delivery: return "Live delivery"
      case .apns: return "APNs endpoint"
      case .sheet: return "Sheet options"
      case .watch: return "Live preview"
      case .export: return "Export options"
      case .center: return "Center options"
      case .general: return "Other options"
      }
    }

    /// Whether a usage line names the section (`[SESSION OPTIONS]`) instead of its options.
    var collapsesInUsage: Bool {
      self == .session || self == .modes || self == .headers || self == .render || self == .sheet
    }

    /// The commands that take the section's options (an option may name more).
    var commands: UNTermCommands {
      switch self {
      // A script starts from them too (issue 25.9): each is the script's state before its first line.
      case .session: return [.interactive, .render, .lint, .sheet, .export, .run]
      case .modes: return [.interactive, .render, .lint, .sheet, .export, .run]
      case .headers: return [.interactive, .render, .lint, .sheet, .push, .export]
      case .render: return [.render]
      case .lint: return [.lint]
      case .run: return [.run]
      case .log: return [.log]
      case .delivery: return [.interactive, .push, .center]
      case .apns: return [.interactive, .run]
      case .sheet: return [.sheet]
      case .watch: return [.interactive, .render, .sheet]
      case .export: return [.export]
      case .center: return [.center]
      case .general: return .all
      }
    }
  }

  /// A value that cannot be used, as "must be iphone or ipad" (the parser adds the name and value).
  struct Invalid: Error {
    var expectation: String
  }

  /// `--device`; then any short aliases (`-h`).
  let names: [String]
  /// The value's placeholder, or nil for a flag.
  let value: String?
  let help: String
  /// What applies without the option, if that needs saying.
  let defaultValue: String?
  let section: Section
  let commands: UNTermCommands
  /// Used on its own, as a usage line of its own (`unterm lint --explain CODE`).
  let alone: Bool
  /// What a shell completes for the value (`.none` for a flag).
  var completion = ValueCompletion.none
  /// Sets the option; a flag gets an empty value.
  let apply: @Sendable (inout ParsedOptions, String) throws(Invalid) -> Void

  var name: String { names[0] }

  /// `--device iphone|ipad`, `-h, --help`.
  var label: String {
    let spelled = names.count > 1 ? (names.dropFirst() + [names[0]]).joined(separator: ", ") : names[0]
    return value.map { "\(spelled) \($0)" } ?? spelled
  }

  /// An option with a value, taken by its section's commands and `also` others — or by
  /// `takenBy` alone when that is given.
  static func option<Value>(
    _ name: String, _ value: OptionValue<Value>, _ help: String, default defaultValue: String? = nil,
    in section: Section, also: UNTermCommands = [], takenBy: UNTermCommands? = nil, alone: Bool = false,
    complete: ValueCompletion? = nil, set: @escaping @Sendable (inout ParsedOptions, Value) -> Void
  ) -> OptionDeclaration {
    var declaration = OptionDeclaration(
      names: [name], value: value.placeholder, help: help, defaultValue: defaultValue, section: section,
      commands: takenBy ?? section.commands.union(also), alone: alone
    ) { (options, text) throws(Invalid) in
      guard let parsed = value.parse(text) else { throw Invalid(expectation: value.expectation) }
      set(&options, parsed)
    }
    declaration.completion = complete ?? value.completion
    return declaration
  }

  /// An option without a value, taken as `option` says.
  static func flag(
    _ names: String..., help: String, in section: Section, also: UNTermCommands = [],
    takenBy: UNTermCommands? = nil, set: @escaping @Sendable (inout ParsedOptions) -> Void
  ) -> OptionDeclaration {
    OptionDeclaration(
      names: names, value: nil, help: help, defaultValue: nil, section: section,
      commands: takenBy ?? section.commands.union(also), alone: false
    ) { (options, _) throws(Invalid) in set(&options) }
  }

  /// The options a command takes, in declaration order.
  static func taken(by command: UNTermCommand) -> [OptionDeclaration] {
    all.filter { $0.commands.contains(command) }
  }
}
