/// The process exit codes of the contract, in numeric order (`allCases` is that order).
package enum ExitCode: Int32, Sendable, CaseIterable {
  case success = 0
  case failure = 1
  case usage = 2
  case dataError = 65
  case noInput = 66
  case software = 70
  /// An output file cannot be created or written (`sheet --out`, `run --junit`, `run --cast`).
  case cannotCreate = 73
  /// An output could not be written or synced: a response that `--log` lost (sysexits' EX_IOERR).
  case ioError = 74

  /// What the code means, whichever command exits with it (each command's help narrows it).
  package var meaning: String {
    switch self {
    case .success: return "success (lint: no errors; warnings allowed)"
    case .failure:
      return "lint found an error; a script expectation failed; push or center found no "
        + "running session; the interactive session has no terminal"
    case .usage: return "usage error: an unknown option, a missing or bad argument"
    case .dataError:
      return "input data invalid: a payload, categories file, descriptor, theme or script "
        + "that cannot be loaded (log: a damaged line)"
    case .noInput: return "an input file is missing or unreadable"
    case .software: return "internal error (a bug)"
    case .cannotCreate:
      return "an output file cannot be created or written "
        + "(sheet --out, run --junit, run --cast, run --svg)"
    case .ioError: return "a response could not be written or synced to --log"
    }
  }

  /// Every code, in numeric order.
  package static var all: [ExitCode] { allCases }
}

/// An error that ends a command: one line for stderr and an exit code.
package struct UNTermError: Error, Sendable, CustomStringConvertible {
  package var exitCode: ExitCode
  /// The file at fault, if any.
  package var file: String?
  /// Where in the file: the line and column, and the JSON path when there is one; nil when
  /// the problem is not at a place in the file (it is missing, say).
  package var location: DiagnosticLocation?
  /// What went wrong, ready for a terminal: values from the input are sanitized where the
  /// message interpolates them.
  package var message: SafeText
  /// The finding behind the error, when it came from one (lint reports it with its code).
  package var diagnostic: Diagnostic?

  package init(_ exitCode: ExitCode, file: String? = nil, at location: DiagnosticLocation? = nil, _ message: SafeText) {
    self.exitCode = exitCode
    self.file = file
    self.location = location
    self.message = message
  }

  /// Wraps a diagnostic of error severity.
  /// The exit code is `exitCode` when given, else 66 for a file that is missing or unreadable
  /// (`unreadable-file`, such as the Info.plist a descriptor names) and 65 for anything else.
  package init(_ diagnostic: Diagnostic, exitCode: ExitCode? = nil) {
    let code = exitCode ?? (diagnostic.code == .unreadableFile ? .noInput : .dataError)
    self.init(code, file: diagnostic.file, at: diagnostic.location, diagnostic.message)
    self.diagnostic = diagnostic
  }

  /// `FILE[:LINE:COL]: error: MESSAGE[ [JSON.PATH]]` on one line, as lint prints its findings
  /// (the path closes the line when the error is about a value in a document): the file name
  /// and the path (a payload's keys) are sanitized.
  package var line: SafeText {
    guard let file else { return "error: \(message.oneLine)" }
    guard let location else { return "\(file): error: \(message.oneLine)" }
    let path: SafeText = location.path.components.isEmpty ? "" : " [\(location.path.description)]"
    return "\(file):\(location.position.line):\(location.position.column): error: \(message.oneLine)\(path)"
  }

  package var description: String { line.text }
}
