import Foundation
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermShell
import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// `unterm render`: deliver payloads in order and print one screen.
enum RenderCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, payloads) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.render)
      return .success
    }
    guard !payloads.isEmpty else { throw arguments.usage("render needs at least one PAYLOAD file (or - for stdin)") }
    guard parsed.watch else {
      // A terminal too small for any screen: say so and what to do, rather than print a screen
      // that only says it (the live --watch keeps the message, as the session does, and grows).
      if parsed.render.size == nil, let terminal = ScreenSize.terminal(),
        terminal.width < Renderer.minimumWidth || terminal.height < Renderer.minimumHeight
      {
        throw arguments.usage(
          "the terminal is \(terminal.width)x\(terminal.height), smaller than the \(Renderer.minimumWidth)x\(Renderer.minimumHeight) render draws at least; give --size"
        )
      }
      Console.write(try screen(parsed, payloads))
      return .success
    }
    let configuration = parsed.session
    try WatchOption.requireFiles(configuration.watchedFiles(payloads: payloads), arguments)
    // The first screen must load, as without --watch: a mistyped path is said at once.
    let first = try screen(parsed, payloads)
    // On a terminal each screen replaces the last; through a pipe, a form feed separates them.
    let onTerminal = isatty(STDOUT_FILENO) == 1
    let clear: SafeText = onTerminal ? "\u{1B}[H\u{1B}[2J" : "\u{0C}"
    Console.write((onTerminal ? clear : "") + first)
    try WatchLoop.run(
      watching: configuration.watchedFiles(payloads: payloads), resizes: onTerminal && parsed.render.size == nil
    ) { _ in
      do throws(UNTermError) {
        Console.write(clear + (try screen(parsed, payloads)))
      } catch {
        // The last good screen stays; the error goes under it, until a save fixes it.
        UNTermMain.warn(error.line)
      }
      return configuration.watchedFiles(payloads: payloads)
    }
  }

  /// One screen, as the options ask for it, ready to print (a final line feed included).
  private static func screen(_ parsed: ParsedOptions, _ payloads: [String]) throws(UNTermError) -> SafeText {
    var configuration = parsed.session
    // A printed screen stays on a terminal UNTerm no longer controls.
    // A picture is a file for a browser, wherever it is printed.
    let picture = parsed.render.format == .html || parsed.render.format == .svg
    configuration.bidi = TerminalBidi.mode(
      parsed.bidi, environment: ProcessEnvironment.value, controlsTerminal: false,
      isTerminal: isatty(STDOUT_FILENO) == 1 && !picture)
    configuration.outputBidi = configuration.bidi
    configuration.locale = parsed.deviceLanguage
    let view = parsed.render.view
    let output = Output(parsed.render)
    // Plain text shows no style: the default theme is then not loaded at all.
    configuration.stylesShown = output != .text
    var request = ScreenRequest(configuration: configuration, payloads: payloads, now: parsed.render.now ?? Date())
    request.timeZone = .system
    request.view = view
    let size = parsed.render.size ?? ScreenSize.terminal() ?? ScreenSize(width: 80, height: 24)
    (request.width, request.height) = (size.width, size.height)
    let trace: ((TraceLine) -> Void)? = configuration.trace ? { UNTermMain.warn("trace: \($0.printed)") } : nil
    let frame = try RenderPipeline.frame(for: request, trace: trace)
    // A picture's title: made only for a picture.
    var title: String {
      var title = "\(DeviceProfile.profile(configuration.device).displayName) · \(view.rawValue) · "
      for (index, payload) in payloads.enumerated() {
        if index > 0 { title += ", " }
        title += payload == "-" ? "stdin" : (payload as NSString).lastPathComponent
      }
      return title
    }
    switch output {
    // Pictures are markup made with the XML escaper; they pass the sanitizer too, as they may be
    // printed on a terminal (a file name in the title, say, holds no control there either).
    case .svg:
      return SafeText(sanitizing: frame.grid.svg(bidiSpans: frame.bidiSpans, title: title), multiline: true) + "\n"
    case .html: return SafeText(sanitizing: frame.grid.html(bidiSpans: frame.bidiSpans, title: title), multiline: true)
    case .text: return SafeText(sanitizing: frame.grid.text, multiline: true) + "\n"
    case .ansi:
      let depth = ColorDepth.detect(environment: ProcessEnvironment.value)
      return frame.grid.ansiText(depth: depth == .none ? .sixteen : depth) + "\n"
    }
  }

  /// What is printed: `--format`, else text or ANSI colour as `--color`, `NO_COLOR` and stdout
  /// say.
  enum Output {
    case text, ansi, html, svg

    init(_ options: RenderOptions) {
      switch (options.format, options.color) {
      case (.svg, _): self = .svg
      case (.html, _): self = .html
      case (.text, _), (nil, .never): self = .text
      case (.ansi, _), (nil, .always): self = Self.noColor ? .text : .ansi
      case (nil, .auto): self = !Self.noColor && isatty(STDOUT_FILENO) == 1 ? .ansi : .text
      }
    }

    /// `NO_COLOR` is set and not empty (https://no-color.org).
    private static var noColor: Bool {
      guard let value = getenv("NO_COLOR") else { return false }
      return value.pointee != 0
    }
  }
}

extension ScreenSize {
  /// The size of the terminal on stdout, if it is one.
  static func terminal() -> ScreenSize? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return ScreenSize(width: Int(size.ws_col), height: Int(size.ws_row))
  }
}
