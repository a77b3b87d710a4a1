/// UNTerm's version: the one place it is written. `unterm --version`, the manual page, SARIF's
/// tool and the changelog's check read it here.
package enum UNTermVersion {
  /// The release this source is, as CHANGELOG.md's newest release heading names it.
  package static let current = "0.1.0"
}
