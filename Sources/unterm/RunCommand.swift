import Foundation
import UNTermHeadless
import UNTermInput
import UNTermScript
import UNTermState

/// `unterm run`: run session scripts with expectations and snapshots; optionally play them live
/// or record an asciicast.
enum RunCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.run)
      return .success
    }
    var options = runOptions(parsed)
    guard !files.isEmpty else { throw arguments.usage("run needs at least one SCRIPT file") }
    if let junit = parsed.run.junitFile, junit.isEmpty || junit == "-" {
      throw arguments.usage("--junit needs a file name: standard output carries the run's report")
    }
    var junit = parsed.run.junitFile.map { _ in
      JUnitReport(
        timestamp: Date(), hostname: ProcessInfo.processInfo.hostName,
        workingDirectory: FileManager.default.currentDirectoryPath)
    }
    // Parse everything before running anything.
    let (scripts, unreadable) = readScripts(files, junit: &junit)
    if let unreadable {
      do {
        try finish(&junit, to: parsed.run.junitFile, skipping: "not run: another script could not be read")
      } catch {
        UNTermMain.warn(error.line)
      }
      return unreadable
    }
    let apns = try parsed.apns.makeDelivery(bundle: parsed.session.bundle, arguments)
    defer { apns?.stop() }
    options.externalPushes = apns
    for note in apns.map(APNsCommandOptions.startNotes) ?? [] { UNTermMain.warn(SafeText(sanitizing: note)) }
    let recorders = try RunRecorders(parsed)
    // While --live holds the alternate screen, what would be printed is kept and printed when the
    // terminal is given back, so the report stays on screen after the run.
    var output = RunOutput(deferred: recorders.player != nil)
    var worst = runScripts(scripts, options: options, observer: recorders.observer, junit: &junit, output: &output)
    if let error = recorders.finish() {
      // The picture the README shows is missing: said, and the run fails as for --junit.
      output.error(error.line)
      if worst == .success || worst == .failure { worst = error.exitCode }
    }
    output.flush()
    do {
      try finish(&junit, to: parsed.run.junitFile, skipping: "not run: a response's log record was lost before it")
    } catch {
      // The report CI reads is missing: that outranks a failed expectation, not a lost record.
      UNTermMain.warn(error.line)
      if worst == .success || worst == .failure { worst = error.exitCode }
    }
    return worst
  }

  /// Where every script starts: the session options and modes given, in English unless
  /// --locale says otherwise, with the trace on stderr.
  private static func runOptions(_ parsed: ParsedOptions) -> RunOptions {
    var options = RunOptions()
    options.updateSnapshots = parsed.run.updateSnapshots
    options.logFile = parsed.session.logFile
    options.modes = parsed.session
    // Scripts start in English, so they run the same everywhere, unless --locale says otherwise.
    options.modes.locale = parsed.locale ?? "en"
    options.trace = { UNTermMain.warn("trace: \($0.printed)") }
    // What a script checks and records holds right-to-left text in logical order unless
    // --bidi visual asks otherwise; the keys in a field follow the screen's own order.
    options.modes.outputBidi = parsed.bidi.fileMode
    options.modes.bidi = parsed.bidi == .terminal ? .logical : .visual
    options.mediaDirectory = parsed.session.mediaDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    options.isCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    return options
  }

  /// Reads and parses every script, saying on stderr why one cannot be, and marks each in the
  /// JUnit report (not run yet, or unreadable). `unreadable` is the exit code when any could
  /// not be read (a missing file outranks an invalid one).
  private static func readScripts(_ files: [String], junit: inout JUnitReport?) -> (
    scripts: [SessionScript], unreadable: ExitCode?
  ) {
    var scripts: [SessionScript] = []
    var parseFailed = false
    var missing = false
    for file in files {
      do throws(UNTermError) {
        let bytes = try InputFile.read(file, limit: 4 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
          let problem = UTF8Validation.firstProblem(in: bytes)
          throw UNTermError(
            .dataError, file: file, at: problem.map { .position($0.position) } ?? .file,
            "\(problem?.message ?? "invalid UTF-8"); a script is UTF-8 text")
        }
        scripts.append(try parseScript(text, file: file))
        junit?.cases.append(JUnitReport.Case(file: file, outcome: .skipped("not run")))
      } catch {
        UNTermMain.warn(error.line)
        if error.exitCode == .noInput { missing = true } else { parseFailed = true }
        junit?.cases.append(JUnitReport.Case(file: file, outcome: .unreadable(error)))
      }
    }
    return (scripts, missing ? .noInput : parseFailed ? .dataError : nil)
  }

  /// Runs the scripts in order, each one's outcome printed and put in the JUnit report, until
  /// the last or a lost log record; returns the worst exit code.
  private static func runScripts(
    _ scripts: [SessionScript], options: RunOptions, observer: (any ScriptObserver)?, junit: inout JUnitReport?,
    output: inout RunOutput
  ) -> ExitCode {
    var worst: ExitCode = .success
    var passed = 0
    // What opening the log found is said once, though every script opens it.
    var warned = Set<SafeText>()
    let warn: (SafeText) -> Void = { line in
      if warned.insert(line).inserted { UNTermMain.warn(line) }
    }
    for (index, script) in scripts.enumerated() {
      let started = ContinuousClock.now
      let result = ScriptRunner(script: script, options: options, observer: observer, warn: warn).run()
      let elapsed = ContinuousClock.now - started
      junit?.cases[index] = JUnitReport.Case(
        result, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
      report(result, of: script, to: &output)
      if let failure = result.failure {
        if worst == .success || result.exitCode != .failure { worst = result.exitCode }
        // A lost log record stops the whole run: nothing after it would be recorded reliably.
        if case .logFailed = failure.reason { break }
      } else {
        passed += 1
      }
    }
    if scripts.count > 1 {
      output.line("\(passed) of \(scripts.count) scripts passed")
    }
    return worst
  }

  /// Prints what one script did: the snapshots it recorded, then ✓ with its steps and
  /// expectations, or ✗ with the failure report.
  private static func report(_ result: ScriptResult, of script: SessionScript, to output: inout RunOutput) {
    // Recording a snapshot is news, not an error: stdout, so stderr holds errors only.
    for path in result.recorded {
      output.line("recorded snapshot \(path)")
    }
    if let failure = result.failure {
      output.line("✗ \(script.file)")
      output.line(failure.report)
      // A file that could not be loaded is an error: one line on stderr, as every command.
      if let error = failure.error { output.error(error.line) }
    } else {
      func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
      output.line("✓ \(script.file) — \(plural(result.steps, "step")), \(plural(result.expectations, "expectation"))")
    }
  }

  /// Writes the JUnit report, if one was asked for: the scripts still marked "not run" get
  /// `reason`.
  private static func finish(_ report: inout JUnitReport?, to path: String?, skipping reason: String)
    throws(UNTermError)
  {
    guard var junit = report, let path else { return }
    for index in junit.cases.indices {
      if case .skipped = junit.cases[index].outcome { junit.cases[index].outcome = .skipped(reason) }
    }
    report = junit
    try OutputFile.write(junit.xml.text, to: path, what: "the JUnit report")
  }

  private static func parseScript(_ text: String, file: String) throws(UNTermError) -> SessionScript {
    do {
      return try SessionScript.parse(text, file: file)
    } catch {
      throw UNTermError(
        .dataError, file: file, at: .position(SourcePosition(line: error.line, column: error.column)), error.message)
    }
  }
}

/// What watches the scripts as they run: the asciicast (`--cast`), the live player (`--live`)
/// and the animated SVG (`--svg`).
private struct RunRecorders {
  let cast: CastWriter?
  let player: LivePlayer?
  let svg: SVGRecorder?
  /// All of them as one observer; nil when there are none.
  let observer: (any ScriptObserver)?

  /// - Throws: `.cannotCreate` when the cast's file cannot be made.
  init(_ parsed: ParsedOptions) throws(UNTermError) {
    let speed = parsed.run.speed
    var cast: CastWriter?
    if let castFile = parsed.run.castFile {
      do {
        cast = try CastWriter(path: castFile, speed: speed, bidi: parsed.bidi)
      } catch {
        let folder = (castFile as NSString).deletingLastPathComponent
        let reason: SafeText =
          FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder)
          ? "cannot create the recording file" : "no such folder \(folder)"
        // An output that cannot be made, as for --junit and sheet --out (sysexits' EX_CANTCREAT).
        throw UNTermError(.cannotCreate, file: castFile, reason)
      }
    }
    self.cast = cast
    player = parsed.run.live ? LivePlayer(speed: speed, bidi: parsed.bidi) : nil
    svg = parsed.run.svgFile.map { SVGRecorder(path: $0, speed: speed) }
    var observers: [any ScriptObserver] = []
    if let cast { observers.append(cast) }
    if let svg { observers.append(svg) }
    if let player { observers.append(player) }
    observer = observers.isEmpty ? nil : ScriptObservers(observers)
  }

  /// Closes the cast, gives the terminal back and writes the SVG; returns why the SVG could
  /// not be written, if it could not.
  func finish() -> UNTermError? {
    cast?.close()
    player?.finish()
    do {
      try svg?.write()
    } catch {
      return error
    }
    return nil
  }
}

/// What `run` prints: at once, or — while `--live` holds the alternate screen — kept until the
/// terminal is given back, in order, each line to its own stream.
struct RunOutput {
  private let deferred: Bool
  private var kept: [(text: SafeText, isError: Bool)] = []

  init(deferred: Bool) { self.deferred = deferred }

  /// A line for stdout.
  mutating func line(_ text: SafeText) { emit(text, isError: false) }

  /// An error line for stderr.
  mutating func error(_ text: SafeText) { emit(text, isError: true) }

  private mutating func emit(_ text: SafeText, isError: Bool) {
    guard deferred else {
      write(text, isError: isError)
      return
    }
    kept.append((text, isError))
  }

  /// Prints what was kept.
  mutating func flush() {
    for line in kept { write(line.text, isError: line.isError) }
    kept = []
  }

  private func write(_ text: SafeText, isError: Bool) {
    Console.line(text, to: isError ? .standardError : .standardOutput)
  }
}
