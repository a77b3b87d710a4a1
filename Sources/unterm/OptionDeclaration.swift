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
  case interactive, render, lint, run, log, push, sheet, export, center, completion

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
    case .center: return "list | remove ID ... | clear"
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
    case .center: return "list or remove the running session's notifications, as the app's center can"
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
    case .center: return .words(["list", "remove", "clear"])
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
  var environment = APNsExport.Environment.development
  var simulator = "booted"
}

struct CenterCommandOptions: Sendable {
  var json = false
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

/// A screen size, `80x24`.
struct ScreenSize: Sendable, Equatable {
  var width: Int
  var height: Int
}

/// How an option's value is read, checked and named (in the manner of swift-argument-parser's
/// `ExpressibleByArgument`): the placeholder the help shows, and what a bad value is told.
struct OptionValue<Value: Sendable>: Sendable {
  /// `FILE`, `iphone|ipad`.
  let placeholder: String
  /// Completes "--NAME …, not 'VALUE'": "must be iphone or ipad", "takes a duration such as 30s".
  let expectation: String
  /// What a shell offers for the value (`unterm completion`).
  var completion = ValueCompletion.none
  let parse: @Sendable (String) -> Value?
}

/// What a shell's completion offers for a value or an argument.
enum ValueCompletion: Sendable, Equatable {
  /// Nothing: the user types it.
  case none
  /// One of these words.
  case words([String])
  /// Files with one of these extensions (any file when empty), and folders to reach them;
  /// `folders` also offers folders as values of their own (a strings folder).
  case files([String], folders: Bool = false)
  /// Folders.
  case directories
  /// The themes' names, and theme files.
  case themes
  /// The lint codes (`--explain`).
  case lintCodes
}

extension OptionValue where Value == String {
  /// Any text: a file, a name, a code. `FILE` completes files, `DIR` folders, `PATH` either.
  static func text(_ placeholder: String) -> OptionValue {
    let completion: ValueCompletion
    switch placeholder {
    case "FILE": completion = .files([])
    case "DIR": completion = .directories
    case "PATH": completion = .files([], folders: true)
    case "NAME|FILE": completion = .themes
    default: completion = .none
    }
    return OptionValue(placeholder: placeholder, expectation: "takes \(placeholder)", completion: completion) { $0 }
  }

  /// A file of these kinds (`--extension FILE`: .json or .plist), or their folders too.
  static func file(_ placeholder: String, extensions: [String], folders: Bool = false) -> OptionValue {
    OptionValue(
      placeholder: placeholder, expectation: "takes \(placeholder)", completion: .files(extensions, folders: folders)
    ) { $0 }
  }
}

extension OptionValue where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
  /// One of an enumeration's raw values; the placeholder and the message list them all.
  static var choice: OptionValue {
    // Joined by hand: `joined(separator:)` is not specialized here, and its first call looks up
    // witness tables at run time, a cost every start would pay for every choice.
    var placeholder = ""
    var list = ""
    let names = Value.allCases.map(\.rawValue)
    for (index, name) in names.enumerated() {
      if index > 0 {
        placeholder += "|"
        list += index == names.count - 1 ? " or " : ", "
      }
      placeholder += name
      list += name
    }
    return OptionValue(placeholder: placeholder, expectation: "must be \(list)", completion: .words(names)) {
      Value(rawValue: $0)
    }
  }
}

extension OptionValue where Value == String {
  /// An APNs request header's value, refused here when APNs would refuse it whatever the
  /// payload (`APNsRules.isWellFormed`); what depends on the payload is checked with each one.
  static func apnsHeader(_ field: APNsHeaders.Field, _ placeholder: String) -> OptionValue {
    OptionValue(placeholder: placeholder, expectation: APNsRules.wellFormed(field)) {
      APNsRules.isWellFormed(field, $0) ? $0 : nil
    }
  }

  /// A language as `LANG` writes it (`bn`, `ur_PK.UTF-8`, `pt-BR`), normalized (`ur-PK`).
  static var locale: OptionValue {
    OptionValue(placeholder: "LANG", expectation: "takes a language such as en, bn, ur or pt-BR") {
      AppStrings.isLocaleName($0) ? AppStrings.normalize($0) : nil
    }
  }
}

extension OptionValue where Value == TimeInterval {
  /// `30s`, `500ms`, `1.5s`: more than zero.
  static var duration: OptionValue {
    OptionValue(placeholder: "DURATION", expectation: "takes a duration such as 30s or 500ms") {
      SessionScript.duration($0).flatMap { $0 > 0 ? $0 : nil }
    }
  }

  /// A finite number that `isValid` accepts.
  static func number(
    _ placeholder: String, example: String, where isValid: @escaping @Sendable (Double) -> Bool
  ) -> OptionValue {
    OptionValue(placeholder: placeholder, expectation: "takes a number such as \(example)") {
      Double($0).flatMap { $0.isFinite && isValid($0) ? $0 : nil }
    }
  }
}

extension OptionValue where Value == ScreenSize {
  /// A screen size no smaller than the smallest screen UNTerm draws (`Renderer.minimumWidth`
  /// × `minimumHeight`): a printed screen has no terminal to grow (issue 25.7).
  static var screenSize: OptionValue {
    let most = InputNumber.maximumTerminalSide
    let least = "\(Renderer.minimumWidth)x\(Renderer.minimumHeight)"
    return OptionValue(
      placeholder: "COLSxROWS",
      expectation: "takes COLSxROWS from \(least) (the smallest screen UNTerm draws) to \(most)x\(most), such as 80x24"
    ) {
      let parts = $0.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let w = InputNumber.terminalSize.parseInt(parts[0]),
        let h = InputNumber.terminalSize.parseInt(parts[1]), w >= Renderer.minimumWidth, h >= Renderer.minimumHeight
      else { return nil }
      return ScreenSize(width: w, height: h)
    }
  }
}

extension OptionValue {
  /// A comma list of names, each read by `item`; a name given twice counts once.
  static func list<Item: Equatable & Sendable>(
    _ placeholder: String, of names: String, _ item: @escaping @Sendable (String) -> Item?
  ) -> OptionValue<[Item]> {
    OptionValue<[Item]>(placeholder: placeholder, expectation: "takes a comma list of \(names)") { text in
      var items: [Item] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let value = item(part.trimmingCharacters(in: .whitespaces)) else { return nil }
        if !items.contains(value) { items.append(value) }
      }
      return items
    }
  }
}

extension OptionValue where Value == AppScoped {
  /// `ID=VALUE` or a bare `VALUE` (`AppScoped.parse`).
  static func appScoped(_ placeholder: String) -> OptionValue {
    OptionValue(placeholder: "[ID=]\(placeholder)", expectation: AppScoped.expectation(placeholder)) {
      AppScoped.parse($0)
    }
  }

  /// `ID=FILE` or a bare `FILE`; a file that exists under the whole text is that file, so
  /// `--categories team=a.json` reads the file of that name where there is one.
  static var appScopedFile: OptionValue {
    OptionValue(placeholder: "[ID=]FILE", expectation: AppScoped.expectation("FILE"), completion: .files(["json"])) {
      FileManager.default.fileExists(atPath: $0) ? AppScoped(app: nil, value: $0) : AppScoped.parse($0)
    }
  }
}

extension OptionValue where Value == String {
  /// A bundle identifier: letters, digits, dots and hyphens.
  static var bundleIdentifier: OptionValue {
    OptionValue(
      placeholder: "ID",
      expectation: "takes a bundle identifier such as com.acme.bank (letters, digits, dots and hyphens)"
    ) { CategoryRegistry.isBundleIdentifier($0) ? $0 : nil }
  }
}

extension OptionValue where Value == FocusMode {
  /// `off`, `dnd` or a Focus's name.
  static var focus: OptionValue {
    OptionValue(
      placeholder: "off|dnd|NAME", expectation: "takes off, dnd or the name of a Focus such as Work",
      completion: .words(["off", "dnd"])
    ) { FocusMode(argument: $0) }
  }
}

extension OptionValue where Value == [DayTime] {
  /// `08:00,18:00`.
  static var dayTimes: OptionValue {
    OptionValue(placeholder: "HH:MM[,HH:MM…]", expectation: "takes times of day such as 08:00,18:00") {
      DayTime.list($0)
    }
  }
}

extension OptionValue where Value == UNNotificationPresentationOptions {
  /// `banner,list,sound,badge` or `none`.
  static var presentationOptions: OptionValue {
    OptionValue(
      placeholder: "banner,list,sound,badge|none",
      expectation: "takes a comma list of banner, list, sound and badge, or none"
    ) { UNNotificationPresentationOptions(optionList: $0) }
  }
}

extension OptionValue where Value == Date {
  static var iso8601: OptionValue {
    OptionValue(placeholder: "ISO8601", expectation: "takes an ISO 8601 time such as 2026-11-29T20:00:00Z") {
      ISO8601.parse($0)
    }
  }
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
    case session, modes, headers, render, lint, run, log, delivery, sheet, watch, export, center, general

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
