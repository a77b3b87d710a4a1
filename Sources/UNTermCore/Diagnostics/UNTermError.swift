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
  package var message: String

  package init(_ exitCode: ExitCode, file: String? = nil, location: String = "", _ message: String) {
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

  /// `FILE[:LOCATION]: error: MESSAGE`, as the contract prints errors.
  package var description: String {
    var prefix = ""
    if let file {
      prefix = location.isEmpty ? "\(file): " : "\(file):\(location): "
    }
    return "\(prefix)error: \(OneLine.flatten(message))"
  }
}
