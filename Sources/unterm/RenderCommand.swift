import Foundation
import UNTermCore
import UNTermHeadless
import UNTermRender

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
    let configuration = parsed.session
    let view = parsed.render.view
    let color = parsed.render.color
    guard !payloads.isEmpty else { throw arguments.usage("render needs at least one PAYLOAD file (or - for stdin)") }
    var request = ScreenRequest(configuration: configuration, payloads: payloads, now: parsed.render.now ?? Date())
    request.timeZone = .current
    request.view = view
    let size = parsed.render.size ?? ScreenSize.terminal() ?? ScreenSize(width: 80, height: 24)
    (request.width, request.height) = (size.width, size.height)
    let trace: ((TraceLine) -> Void)? = configuration.trace ? { UNTermMain.warn("trace: \($0.printed)") } : nil
    let frame = try RenderPipeline.frame(for: request, trace: trace)
    let names = payloads.map { $0 == "-" ? "stdin" : ($0 as NSString).lastPathComponent }
    let title =
      "\(DeviceProfile.profile(configuration.device).displayName) · \(view.rawValue) · "
      + names.joined(separator: ", ")
    let environment = ProcessInfo.processInfo.environment
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    let useColor: Bool
    switch (parsed.render.format, color) {
    // Pictures are markup made with the XML escaper; they pass the sanitizer too, as they may be
    // printed on a terminal (a file name in the title, say, holds no control there either).
    case (.svg, _):
      Console.line(SafeText(sanitizing: frame.grid.svg(title: title), multiline: true))
      return .success
    case (.html, _):
      Console.write(SafeText(sanitizing: frame.grid.html(title: title), multiline: true))
      return .success
    case (.text, _), (nil, .never): useColor = false
    case (.ansi, _), (nil, .always): useColor = !noColor
    case (nil, .auto): useColor = !noColor && isatty(STDOUT_FILENO) == 1
    }
    if useColor {
      let depth = ColorDepth.detect(environment: environment)
      Console.line(frame.grid.ansiText(depth: depth == .none ? .sixteen : depth))
    } else {
      Console.line(SafeText(sanitizing: frame.grid.text, multiline: true))
    }
    return .success
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
