import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermScript
@testable import unterm

/// Each list UNTerm has — command-line options, keys, script commands, lint codes, exit codes —
/// lives in one declaration, and `Docs/reference/` is made from it (`unterm help reference`,
/// `Scripts/gen-docs.sh`). A checked-in page that differs from what the code declares fails
/// here, with the page as it should read (issue 26.2).
@Suite("The reference pages are the declarations")
struct ReferencePagesTests {
  @Test(arguments: Reference.Topic.allCases.map(\.rawValue))
  func aCheckedInPageIsWhatTheCodeDeclares(_ name: String) throws {
    let topic = try #require(Reference.Topic(rawValue: name))
    let url = Fixtures.root.appendingPathComponent("Docs/reference/\(name).md")
    let committed = try String(contentsOf: url, encoding: .utf8)
    let declared = Reference.page(topic)
    #expect(
      committed == declared,
      "Docs/reference/\(name).md differs from the declarations: run Scripts/gen-docs.sh. It should read:\n\n\(declared)"
    )
  }

  @Test func theCommandPrintsEachPage() throws {
    for topic in Reference.Topic.allCases {
      let out = try Fixtures.run(Fixtures.unterm, ["help", "reference", topic.rawValue])
      #expect(out.status == 0)
      #expect(out.stdout == Reference.page(topic))
    }
    let wrong = try Fixtures.run(Fixtures.unterm, ["help", "reference", "nope"])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("options, keys, script, lint-codes, exit-codes"), "\(wrong.stderr)")
  }

  /// Every declared thing is in its page: no list can grow without its reference.
  @Test func everyDeclaredItemHasItsRow() {
    let options = Reference.page(.options)
    for option in OptionDeclaration.all {
      #expect(options.contains(Reference.cell("`\(option.label)`")), "\(option.name)")
    }
    let script = Reference.page(.script)
    for declaration in ScriptCommand.declarations {
      #expect(script.contains(Reference.cell("`\(declaration.usage)`")), "\(declaration.name)")
    }
    let codes = Reference.page(.lintCodes)
    for code in LintCode.allCases { #expect(codes.contains("`\(code.rawValue)`")) }
    let exits = Reference.page(.exitCodes)
    for code in ExitCode.all { #expect(exits.contains("| \(code.rawValue) | \(code.meaning) |")) }
  }
}

/// The manual page renders without a warning, names the version and every command.
@Suite("The manual page", .hangGuard)
struct ManualPageTests {
  @Test func groffRendersItWithoutAWarning() throws {
    let missing = SystemPackages.reason(.groff)
    #expect(missing == nil, "\(missing ?? "")")
    guard missing == nil, let groff = SystemPackages.path(of: "groff") else { return }
    let dir = try Fixtures.temporaryDirectory()
    let page = dir.appendingPathComponent("unterm.1")
    let printed = try Fixtures.run(Fixtures.unterm, ["help", "man"])
    #expect(printed.status == 0)
    try Data(printed.stdout.utf8).write(to: page)
    for device in ["utf8", "ps"] {
      let checked = try Fixtures.run(groff, ["-ww", "-man", "-z", "-T\(device)", page.path])
      #expect(checked.status == 0 && checked.stderr.isEmpty, "groff -T\(device): \(checked.stderr)")
    }
    let text = try Fixtures.run(groff, ["-man", "-Tutf8", "-P-cbou", page.path]).stdout
    #expect(text.contains("UNTerm \(UNTermVersion.current)"))
    for command in UNTermCommand.allCases { #expect(text.contains(command.invocation), "\(command)") }
    #expect(text.contains("EXIT STATUS") && text.contains("SESSION LANGUAGE") && text.contains("KEYS"))
  }
}
