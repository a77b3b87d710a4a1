/// The process exit codes of the contract.
package enum ExitCode: Int32, Sendable {
  case success = 0
  case failure = 1
  case usage = 2
  case dataError = 65
  case noInput = 66
  /// An output file cannot be created or written (`sheet --out`).
  case cannotCreate = 73
  case software = 70
  /// An output could not be written or synced: a response that `--log` lost (sysexits' EX_IOERR).
  case ioError = 74
}

/// An error that ends a command: one line for stderr and an exit code.
package struct UNTermError: Error, Sendable, CustomStringConvertible {
  package var exitCode: ExitCode
  /// The file at fault, if any.
  package var file: String?
  /// `LINE:COL`, a JSON path, or empty.
  package var location: String
  /// What went wrong, ready for a terminal: values from the input are sanitized where the
  /// message interpolates them.
  package var message: SafeText

  package init(_ exitCode: ExitCode, file: String? = nil, location: String = "", _ message: SafeText) {
    self.exitCode = exitCode
    self.file = file
    self.location = location
    self.message = message
  }

  /// Wraps a diagnostic of error severity.
  package init(_ diagnostic: Diagnostic, exitCode: ExitCode = .dataError) {
    self.init(
      exitCode, file: diagnostic.file, location: diagnostic.location.description,
      diagnostic.message)
  }

  /// `FILE[:LOCATION]: error: MESSAGE` on one line, as the contract prints errors: the file
  /// name and the location (a payload's keys) are sanitized.
  package var line: SafeText {
    guard let file else { return "error: \(message.oneLine)" }
    return location.isEmpty
      ? "\(file): error: \(message.oneLine)" : "\(file):\(location): error: \(message.oneLine)"
  }

  package var description: String { line.text }
}
