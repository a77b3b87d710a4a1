import UNTermInput

/// What `--watch` asks of a command line, whichever command takes it.
enum WatchOption {
  /// `--watch` needs a file to watch: standard input is read once and cannot be.
  static func requireFiles(_ files: [String], _ arguments: Arguments) throws(UNTermError) {
    guard files.isEmpty else { return }
    throw arguments.usage(
      "--watch has no file to watch: give payload files (standard input cannot be watched) or --categories, --extension or a theme file"
    )
  }
}
