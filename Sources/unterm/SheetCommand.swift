import Foundation
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermShell

/// `unterm sheet`: a design sheet, one self-contained HTML file showing every payload across
/// devices, lock states, views and themes.
enum SheetCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.sheet)
      return .success
    }
    guard !files.isEmpty else { throw arguments.usage("sheet needs at least one PAYLOAD file (or - for stdin)") }
    let options = parsed.sheet
    guard !options.out.isEmpty else { throw arguments.usage("--out needs a file name (or - for standard output)") }
    if parsed.watch && options.out == "-" {
      throw arguments.usage("--watch rewrites the sheet's file on every save: give --out FILE, not standard output")
    }
    let first = try make(parsed, files, arguments)
    if options.out == "-" {
      Console.write(SafeText(sanitizing: first.html, multiline: true))
      return .success
    }
    try OutputFile.write(first.html, to: options.out, what: "the sheet")
    Console.line(first.summary)
    guard parsed.watch else { return .success }
    try WatchOption.requireFiles(first.watched, arguments)
    var watched = first.watched
    try WatchLoop.run(watching: watched, ignoring: [options.out], resizes: false) { _ in
      // Whole or not at all: a file that does not load leaves the last sheet as it was.
      do throws(UNTermError) {
        let sheet = try make(parsed, files, arguments)
        try OutputFile.write(sheet.html, to: options.out, what: "the sheet")
        Console.line(sheet.summary)
        watched = sheet.watched
      } catch {
        UNTermMain.warn(error.line)
      }
      return watched
    }
  }

  /// The sheet the options ask for: its HTML, the line that says what was written, and the
  /// files it was made from (for `--watch`: the files given, and the Info.plists descriptors
  /// among them name).
  private static func make(
    _ parsed: ParsedOptions, _ files: [String], _ arguments: Arguments
  ) throws(UNTermError) -> (html: String, summary: SafeText, watched: [String]) {
    let options = parsed.sheet
    var configuration = parsed.session
    // A page for a browser, which reorders right-to-left text itself.
    configuration.outputBidi = parsed.bidi.fileMode
    if parsed.bidi == .visual { configuration.bidi = .visual }
    // A session option given alone narrows the matrix to itself (`--device ipad`: iPad only).
    let narrowed = options.narrowedBy
    var matrix = DesignSheet.Matrix()
    matrix.devices = options.devices ?? (narrowed.contains("--device") ? [configuration.device] : matrix.devices)
    matrix.states = options.states ?? (narrowed.contains("--locked") ? [.locked] : matrix.states)
    matrix.themes = options.themes ?? [configuration.theme]
    if let views = options.views { matrix.views = views }
    let inputs = try sort(files, into: &configuration, arguments: arguments)
    guard !inputs.payloads.isEmpty else {
      throw arguments.usage("sheet needs at least one PAYLOAD among its files; none of them is a payload")
    }
    let lint = LintCommand.check(
      configuration, files: inputs.payloads.filter { $0 != "-" } + inputs.scripts, strict: false,
      devices: Set(matrix.devices))
    let trace: ((TraceLine) -> Void)? = configuration.trace ? { UNTermMain.warn("trace: \($0.printed)") } : nil
    let sheet = try DesignSheet.make(
      payloads: inputs.payloads, configuration: configuration, matrix: matrix, findings: lint.report.diagnostics,
      lintedFiles: lint.count, now: parsed.render.now ?? Date(), trace: trace)
    let html = sheet.html
    let screens = sheet.sections.reduce(0) { $0 + $1.screens.count }
    let payloads = sheet.sections.count
    return (
      html,
      "\(options.out): \(payloads) payload\(payloads == 1 ? "" : "s"), \(screens) screen\(screens == 1 ? "" : "s"), \(html.utf8.count) bytes",
      configuration.watchedFiles(payloads: files)
    )
  }

  /// Sorts the files as `lint` does, so `unterm sheet SamplePayloads/*.json` works: a categories
  /// file among them is registered, descriptors serve their categories (each file once, however
  /// often it is named), scripts are linted, a folder gives its files, and the rest are payloads
  /// in the order given.
  private static func sort(
    _ files: [String], into configuration: inout SessionConfiguration, arguments: Arguments
  ) throws(UNTermError) -> (payloads: [String], scripts: [String]) {
    var inputs = LintInputs(categoriesFiles: [], extensionFiles: [])
    var payloads: [String] = []
    for file in files {
      if file == "-" {
        payloads.append(file)
        continue
      }
      var failure: UNTermError?
      let before = inputs.payloads.count
      inputs.classify(file) { failure = failure ?? $0 }
      if let failure { throw failure }
      payloads += inputs.payloads[before...].map(\.0)
    }
    func key(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
    var categories = configuration.categoriesFile.map { [$0] } ?? []
    for file in inputs.categoriesFiles where !categories.contains(where: { key($0) == key(file) }) {
      categories.append(file)
    }
    if categories.count > 1 {
      throw arguments.usage(
        "a sheet registers one categories file, but \(categories[0]) and \(categories[1]) were both given")
    }
    configuration.categoriesFile = categories.first
    // A categories file among the files serves every app, as in lint: each payload's app
    // registers it too (a folder of samples holds several apps' payloads).
    if let found = inputs.categoriesFiles.first {
      var apps: [String] = []
      for path in payloads where path != "-" {
        if let app = (try? Payload.load(path, headers: configuration.apnsHeaders))?.info.app, !apps.contains(app),
          !configuration.categoriesFiles.contains(where: { $0.app == app })
        {
          apps.append(app)
        }
      }
      configuration.categoriesFiles += apps.map { AppCategoriesFile(app: $0, path: found) }
    }
    var extensions: [String] = []
    for file in configuration.extensionFiles + inputs.extensionFiles
    where !extensions.contains(where: { key($0) == key(file) }) {
      extensions.append(file)
    }
    configuration.extensionFiles = extensions
    return (payloads, inputs.scripts.map(\.0))
  }
}
