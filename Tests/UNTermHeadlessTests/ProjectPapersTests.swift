import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// The project's papers (issue 26.6): the version is written once and every place that shows it
/// reads it there; the changelog's newest release is that version, in Keep a Changelog's form.
@Suite("The project's papers")
struct ProjectPapersTests {
  private func read(_ name: String) throws -> String {
    try String(contentsOf: Fixtures.root.appendingPathComponent(name), encoding: .utf8)
  }

  @Test func theChangelogsNewestReleaseIsTheVersion() throws {
    let changelog = try read("CHANGELOG.md")
    let lines = changelog.split(separator: "\n").map(String.init)
    #expect(lines.first == "# Changelog")
    let releases = lines.filter { $0.hasPrefix("## [") }
    #expect(releases.first == "## [Unreleased]", "\(releases)")
    let newest = try #require(releases.dropFirst().first, "no release heading")
    #expect(newest.hasPrefix("## [\(UNTermVersion.current)] - "), "\(newest) is not \(UNTermVersion.current)")
    // Each release: ## [X.Y.Z] - YYYY-MM-DD, its changes under Added, Changed, Fixed…
    for heading in releases.dropFirst() {
      #expect(heading.wholeMatch(of: /## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}/) != nil, "\(heading)")
    }
    let kinds = Set(lines.filter { $0.hasPrefix("### ") })
    #expect(
      kinds.isSubset(of: ["### Added", "### Changed", "### Deprecated", "### Removed", "### Fixed", "### Security"]))
  }

  @Test func everyPlaceShowsTheOneVersion() throws {
    let version = try Fixtures.run(Fixtures.unterm, ["--version"])
    #expect(version.stdout == "unterm \(UNTermVersion.current)\n")
    let man = try Fixtures.run(Fixtures.unterm, ["help", "man"])
    #expect(man.stdout.contains(#".TH UNTERM 1 "" "UNTerm \#(UNTermVersion.current)""#))
    // Nowhere else in the sources is a version written.
    let main = try read("Sources/unterm/UNTermMain.swift")
    #expect(!main.contains(#""\#(UNTermVersion.current)""#))
  }

  @Test func theLicenseIsApache2() throws {
    let license = try read("LICENSE")
    #expect(license.contains("Apache License"))
    #expect(license.contains("Version 2.0, January 2004"))
    #expect(license.contains("END OF TERMS AND CONDITIONS"))
  }
}
