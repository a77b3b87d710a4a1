import Foundation
import UNTermCore
import UNTermHeadless
import UNTermRender

#if canImport(Glibc)
  import Glibc
#endif

/// `unterm render`: deliver payloads in order and print one screen.
enum RenderCommand {
  enum View: String {
    case banner, expanded, center
  }

  enum ColorMode: String {
    case auto, always, never
  }

  static func run(_ input: Arguments) throws(UNTermError) -> ExitCode {
    var arguments = input
    let configuration = SessionConfigurationBox()
    var view = View.banner
    var size: (Int, Int)?
    var color = ColorMode.auto
    var now: Date?
    var wantsHelp = false
    let parser = arguments
    let payloads = try arguments.parse(
      flags: SessionOptions.flags.union(["--help", "-h"]),
      options: SessionOptions.options.union(["--view", "--size", "--color", "--now"])
    ) { (name, value) throws(UNTermError) in
      if try SessionOptions.apply(name, value, to: configuration, arguments: parser) { return }
      let value = value ?? ""
      switch name {
      case "--help", "-h": wantsHelp = true
      case "--view":
        guard let v = View(rawValue: value) else {
          throw parser.usage("--view must be banner, expanded or center, not '\(value)'")
        }
        view = v
      case "--size":
        guard let parsed = ScreenSize.parse(value) else {
          throw parser.usage("--size takes COLSxROWS from 1x1 to 1000x1000, such as 80x24, not '\(value)'")
        }
        size = parsed
      case "--color":
        guard let mode = ColorMode(rawValue: value) else {
          throw parser.usage("--color must be auto, always or never, not '\(value)'")
        }
        color = mode
      case "--now":
        guard let date = ISO8601.parse(value) else {
          throw parser.usage("--now takes an ISO 8601 time such as 2026-11-29T20:00:00Z, not '\(value)'")
        }
        now = date
      default: break
      }
    }
    if wantsHelp {
      print(Help.render)
      return .success
    }
    guard !payloads.isEmpty else { throw parser.usage("render needs at least one PAYLOAD file (or - for stdin)") }
    let clock = now ?? Date()
    let session = try SessionFactory.make(configuration.value, now: clock, timeZone: .current)
    if configuration.value.trace {
      session.traceOutput = { UNTermMain.warn("trace: " + $0) }
    }
    for path in payloads {
      let payload = try Payload.load(path, categories: session.state.store.categories)
      try session.push(payload)
      session.finishServiceExtensions(within: configuration.value.serviceTimeout)
    }
    let (width, height) = size ?? ScreenSize.terminal() ?? (80, 24)
    session.resize(width: width, height: height)
    switch view {
    case .banner: break
    case .expanded: session.send(.command(.longPress))
    case .center: session.send(.command(.openCenter))
    }
    let frame = session.frame()
    let environment = ProcessInfo.processInfo.environment
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    let useColor: Bool
    switch color {
    case .never: useColor = false
    case .always: useColor = !noColor
    case .auto: useColor = !noColor && isatty(STDOUT_FILENO) == 1
    }
    if useColor {
      let depth = ColorDepth.detect(environment: environment)
      print(frame.grid.ansiText(depth: depth == .none ? .sixteen : depth))
    } else {
      print(frame.grid.text)
    }
    return .success
  }
}

/// Screen sizes: `80x24`, and the terminal's own.
enum ScreenSize {
  static func parse(_ text: String) -> (Int, Int)? {
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
      w <= 1000, h <= 1000
    else { return nil }
    return (w, h)
  }

  /// The size of the terminal on stdout, if it is one.
  static func terminal() -> (Int, Int)? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}
