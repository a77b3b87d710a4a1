#if canImport(Glibc)
  import Glibc
#endif

/// This process's environment, one variable at a time (`getenv`). Code that reads a few
/// variables at start asks here: `ProcessInfo.processInfo.environment` copies every variable
/// into a new dictionary at each call, which cost `unterm render` about a tenth of its start-up
/// instructions.
package enum ProcessEnvironment {
  /// The value of a variable, or nil when it is not set.
  package static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
