import Foundation
import UNTermHeadless
import UNTermInput
import UNTermScript
import UNTermShell

#if canImport(Glibc)
  import Glibc
#endif

/// `unterm [SESSION OPTIONS] [PAYLOAD ...]`: the interactive notification center.
enum InteractiveCommand {
  static func run(_ arguments: Arguments, demo: Bool) throws(UNTermError) -> ExitCode {
    let (parsed, payloads) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.interactive)
      return .success
    }
    let socket = parsed.socket ?? LiveDelivery.defaultSocketPath()
    if parsed.watch { try WatchOption.requireFiles(parsed.session.watchedFiles(payloads: payloads), arguments) }
    // A missing or broken file is the first thing to say (exit 66 or 65), terminal or not.
    try parsed.session.checkFiles(payloads: payloads)
    if let problem = InteractiveEntry.terminalProblem() {
      throw UNTermError(
        .failure,
        "\(problem). Without a terminal, print a screen with `unterm render PAYLOAD...` or run a scripted session with `unterm run SCRIPT...`"
      )
    }
    ensureBacktraceSettings()
    var options = parsed.session
    options.bidi = TerminalBidi.mode(
      parsed.bidi, environment: ProcessEnvironment.value, controlsTerminal: true)
    options.locale = parsed.deviceLanguage
    var feeder: DemoFeeder?
    if demo {
      guard let samples = Resources.samples else {
        throw UNTermError(.noInput, "cannot find SamplePayloads/ for the demo; set UNTERM_HOME to UNTerm's folder")
      }
      let script = samples.appendingPathComponent("demo.session").path
      let text = String(decoding: try InputFile.read(script), as: UTF8.self)
      do {
        feeder = DemoFeeder(script: try SessionScript.parse(text, file: script), start: Date())
      } catch {
        throw UNTermError(
          .dataError, file: script, at: .position(SourcePosition(line: error.line, column: error.column)), error.message
        )
      }
    }
    let session = try SessionFactory.make(options, now: Date(), timeZone: .system)
    let apns = try parsed.apns.makeDelivery(bundle: options.bundle, arguments)
    for note in apns.map(APNsCommandOptions.startNotes) ?? [] {
      session.send(.notice(.info, note, revealsContent: false))
    }
    if options.trace {
      session.traceOutput = { line in session.queue.post { session.send(.notice(.trace, line.printed.text)) } }
    }
    var delivered: [LivePreview.Payload] = []
    for path in payloads {
      // Each file keeps its identifier: `--watch` re-delivers it under the same one.
      let identifier = session.nextRequestIdentifier()
      try session.push(
        try Payload.load(path, categories: session.state.store.registry, headers: options.apnsHeaders),
        identifier: identifier)
      delivered.append(LivePreview.Payload(file: path, identifier: identifier))
    }
    let preview = parsed.watch ? try LivePreview(session: session, payloads: delivered) : nil
    try InteractiveEntry.run(
      session, delivery: InteractiveEntry.Delivery(socketPath: socket), feeder: feeder, preview: preview, apns: apns)
    return .success
  }

  /// The Swift runtime reads SWIFT_BACKTRACE at launch, so a crash report goes to stderr
  /// instead of an interactive prompt on the curses screen only if it is set before the
  /// process starts: set it and run this program again.
  private static func ensureBacktraceSettings() {
    guard ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil else { return }
    setenv("SWIFT_BACKTRACE", "interactive=no,output-to=stderr", 1)
    let argv = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", argv)
    // If exec fails, carry on without it.
  }
}

/// `unterm push`: deliver payloads into the running interactive session.
enum PushCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.push)
      return .success
    }
    let socket = parsed.socket ?? LiveDelivery.defaultSocketPath()
    guard !files.isEmpty else { throw arguments.usage("push needs at least one PAYLOAD file (or - for stdin)") }
    var payloads: [(name: String, bytes: [UInt8])] = []
    var invalid: [Int: UNTermError] = [:]
    for (index, file) in files.enumerated() {
      let bytes = try InputFile.read(file)
      // Check each payload here too, so a bad file is reported the same with or without a
      // session (exit 65). It is still sent: the session refuses it in its activity pane.
      let analyzed = PayloadAnalyzer.analyze(
        bytes, file: file, categories: nil, headers: parsed.session.apnsHeaders, bundle: parsed.pushBundle)
      if let error = analyzed.diagnostics.first(where: {
        $0.severity == .error
      }) {
        invalid[index] = UNTermError(error)
      }
      let name = file == "-" ? "-" : URL(fileURLWithPath: file).standardizedFileURL.path
      payloads.append((name, bytes))
    }
    let results: [PushClient.Result]
    do {
      results = try PushClient.push(
        payloads, headers: parsed.session.apnsHeaders, bundle: parsed.pushBundle, socket: socket)
    } catch {
      if let first = invalid.min(by: { $0.key < $1.key }) { throw first.value }
      throw error
    }
    var worst = ExitCode.success
    for (index, (file, result)) in zip(files, results).enumerated() {
      switch result {
      // The answers come from the socket: one sanitized line each.
      case .delivered(let id):
        Console.line("\(file): delivered as \(id)")
      case .rejected(let message):
        UNTermMain.warn(invalid[index]?.line ?? SafeText(sanitizing: message))
        worst = .dataError
      }
    }
    return worst
  }
}
