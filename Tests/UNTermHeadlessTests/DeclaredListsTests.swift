import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermCore
@testable import unterm

/// Each list UNTerm has — command-line options, script commands, lint codes — lives in one
/// declaration. README's tables are checked against it here; a failure prints the tables as
/// they should read.
@Suite("README keeps step with the declared lists")
struct ReadmeListsTests {
  /// README's tables with this header row, each as its body rows.
  private func tables(withHeader header: String) throws -> [[String]] {
    let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
    var tables: [[String]] = []
    var current: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line == header {
        current = []
      } else if var rows = current, line.hasPrefix("|") {
        if !line.hasPrefix("|---") { rows.append(line) }
        current = rows
      } else if let rows = current {
        tables.append(rows)
        current = nil
      }
    }
    if let current { tables.append(current) }
    return tables
  }

  /// A table row, with `|` escaped in every cell as GitHub's tables need.
  private func row(_ cells: [String]) -> String {
    "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
  }

  private func check(_ header: String, _ expected: [[String]]) throws {
    let found = try tables(withHeader: header)
    let rule = "|" + String(repeating: "---|", count: header.split(separator: "|").count)
    let wanted = expected.map { ([header, rule] + $0).joined(separator: "\n") }.joined(separator: "\n\n")
    #expect(found == expected, "README's tables headed \(header) should read:\n\n\(wanted)\n")
  }

  @Test func optionTablesMatchTheDeclarations() throws {
    let sections = OptionDeclaration.Section.allCases.filter { $0 != .general }
    let expected = sections.map { section in
      OptionDeclaration.all.filter { $0.section == section }.map { option in
        // Who takes the option, where that is not just the section's commands.
        func names(_ commands: [UNTermCommand]) -> String {
          "`" + commands.map(\.invocation).joined(separator: "`, `") + "`"
        }
        var who = ""
        if option.commands.isSuperset(of: section.commands) {
          let extra = UNTermCommand.allCases.filter { option.commands.contains($0) && !section.commands.contains($0) }
          if !extra.isEmpty { who = " (also \(names(extra)))" }
        } else {
          who = " (\(names(UNTermCommand.allCases.filter { option.commands.contains($0) })) only)"
        }
        return row(["`\(option.label)`", option.help + who, option.defaultValue ?? "—"])
      }
    }
    try check("| option | meaning | default |", expected)
  }

  @Test func sessionLanguageTableMatchesTheDeclarations() throws {
    try check(
      "| command | does |", [ScriptCommand.declarations.map { row(["`\($0.usage)`", $0.summary]) }])
  }

  @Test func lintCodeTableMatchesTheEnum() throws {
    try check(
      "| code | severity | meaning |",
      [LintCode.allCases.map { row(["`\($0.rawValue)`", $0.severity.rawValue, $0.summary]) }])
  }
}
