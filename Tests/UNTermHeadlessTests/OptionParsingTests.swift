import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermState
@testable import unterm

/// The option table drives parsing: every option is taken by the commands it names, sets
/// something, is refused by the others, and bad values say what is expected.
@Suite("Command-line options")
struct OptionParsingTests {
  /// A value for each placeholder, not the default where there is one; a choice takes its last.
  private func example(_ placeholder: String) -> String {
    let values = [
      "FILE": "x.json", "NAME|FILE": "dark", "CODE": "1234", "NAME": "Mail", "DIR": "/tmp", "DURATION": "2s",
      "COLSxROWS": "100x30", "ISO8601": "2026-11-29T20:00:00Z", "X": "2", "PATH": "/tmp/s.sock", "LANG": "bn",
      "iphone,ipad": "ipad", "unlocked,locked": "locked", "banner,expanded,center": "list,banner",
      "NAME|FILE,…": "dark,default", "off|dnd|NAME": "Work", "APP,…": "Messages,com.example.chat",
      "HH:MM[,HH:MM…]": "08:00,18:00", "banner,list,sound,badge|none": "none", "SIZE,…": "l,ax3", "TYPE": "alert",
      "ID": "match-7", "UNIX-TIME": "0", "BUNDLE-ID": "com.example.app", "DEVICE": "iPhone 16",
      "[ID=]FILE": "com.example.chat=x.json", "[ID=]NAME": "com.example.chat=Chat", "[HOST:]PORT": "8443",
      "KEYID=FILE.p8": "ABC123DEFG=AuthKey_ABC123DEFG.p8", "TEAMID": "TEAM123456",
      "[ID=]HEX": "com.example.chat=" + String(repeating: "ab", count: 32),
    ]
    if let value = values[placeholder] { return value }
    #expect(placeholder.contains("|") && placeholder == placeholder.lowercased(), "no example for \(placeholder)")
    return placeholder.split(separator: "|").last.map(String.init) ?? placeholder
  }

  private func parse(_ arguments: [String], _ command: UNTermCommand) throws(UNTermError) -> (ParsedOptions, [String]) {
    let parsed = try Arguments(arguments, command: command).parse()
    return (parsed.options, parsed.positionals)
  }

  @Test func everyOptionIsTakenByItsCommandsAndSetsSomething() throws {
    let untouched = String(describing: ParsedOptions())
    for command in UNTermCommand.allCases {
      for option in OptionDeclaration.taken(by: command) {
        var forms = option.names.map { [$0] }
        if let placeholder = option.value {
          let value = example(placeholder)
          forms = option.names.flatMap { [[$0, value], ["\($0)=\(value)"]] }
        }
        for form in forms {
          let (options, positionals) = try parse(form + ["p.json"], command)
          #expect(positionals == ["p.json"], "\(form)")
          #expect(String(describing: options) != untouched, "\(command.invocation) \(form) sets nothing")
        }
      }
    }
  }

  /// Two options of one command may not share a name (two commands may: `--format`).
  @Test func noCommandTakesTwoOptionsOfOneName() {
    for command in UNTermCommand.allCases {
      let names = OptionDeclaration.taken(by: command).flatMap(\.names)
      #expect(Set(names).count == names.count, "\(command.invocation): \(names)")
    }
  }

  @Test func everyOtherCommandRefusesAnOptionNamingTheCommandsThatTakeIt() {
    for command in UNTermCommand.allCases {
      // A command's own option of the same name (`--json` of lint and of log) is not refused.
      let names = Set(OptionDeclaration.taken(by: command).flatMap(\.names))
      for option in OptionDeclaration.all where !option.commands.contains(command) && !names.contains(option.name) {
        do {
          _ = try parse([option.name, "x"], command)
          Issue.record("\(command.invocation) took \(option.name)")
        } catch {
          #expect(error.exitCode == .usage)
          #expect(error.message.contains("'\(option.name)' is taken by"), "\(error.message)")
        }
      }
    }
  }

  @Test(arguments: [
    (UNTermCommand.render, ["--view", "side"], "--view must be banner, expanded or center, not 'side'"),
    (.interactive, ["--device", "android"], "--device must be iphone or ipad, not 'android'"),
    (.lint, ["--service-timeout", "soon"], "--service-timeout takes a duration such as 30s or 500ms, not 'soon'"),
    (.lint, ["--service-timeout", "0s"], "--service-timeout takes a duration such as 30s or 500ms, not '0s'"),
    (.render, ["--previews", "sometimes"], "--previews must be always, when-unlocked or never, not 'sometimes'"),
    (
      .render, ["--size", "80by24"],
      "--size takes COLSxROWS from 24x8 (the smallest screen UNTerm draws) to 1000x1000, such as 80x24, not '80by24'"
    ),
    (
      .render, ["--size=1001x5"],
      "--size takes COLSxROWS from 24x8 (the smallest screen UNTerm draws) to 1000x1000, such as 80x24, not '1001x5'"
    ),
    (.render, ["--color", "blue"], "--color must be auto, always or never, not 'blue'"),
    (.render, ["--now", "soon"], "--now takes an ISO 8601 time such as 2026-11-29T20:00:00Z, not 'soon'"),
    (.run, ["--speed", "0"], "--speed takes a number such as 2 or 0.5, not '0'"),
    (.run, ["--speed", "nan"], "--speed takes a number such as 2 or 0.5, not 'nan'"),
    (.render, ["--format", "png"], "--format must be text, ansi, html or svg, not 'png'"),
    (.sheet, ["--devices", "iphone,andriod"], "--devices takes a comma list of iphone and ipad, not 'iphone,andriod'"),
    (.sheet, ["--states", "unlocked,"], "--states takes a comma list of unlocked and locked, not 'unlocked,'"),
    (.render, ["--locked=yes"], "option '--locked' takes no value"),
    (.render, ["--view"], "option '--view' needs a value"),
    (.render, ["--veiw", "center"], "unknown option '--veiw'. Did you mean '--view'?"),
    (.push, ["--sokcet", "/tmp/s"], "unknown option '--sokcet'. Did you mean '--socket'?"),
  ])
  func badUsageSaysWhatIsExpected(command: UNTermCommand, arguments: [String], message: String) {
    do {
      _ = try parse(["p.json"] + arguments, command)
      Issue.record("\(arguments) was taken")
    } catch {
      #expect(error.exitCode == .usage)
      #expect(error.message == "\(message) (see '\(command.invocation) --help')")
    }
  }

  @Test func positionalsKeepTheirOrderAndDoubleDashEndsTheOptions() throws {
    let (options, positionals) = try parse(["a.json", "--device", "ipad", "-", "--", "--locked", "b.json"], .render)
    #expect(positionals == ["a.json", "-", "--locked", "b.json"])
    #expect(options.session.device == .ipad)
    #expect(options.session.locked == false)
    let (repeated, _) = try parse(["--extension", "a.json", "--extension=b.plist"], .lint)
    #expect(repeated.session.extensionFiles == ["a.json", "b.plist"])
  }

  @Test func theHelpOfEachCommandListsEveryOptionItTakes() {
    for command in UNTermCommand.allCases {
      let text = Help.text(for: command)
      #expect(text.contains("Usage: \(Help.usage(command))"), "\(command)")
      for option in OptionDeclaration.taken(by: command) {
        #expect(text.contains("  \(option.label)"), "\(command.invocation) --help lacks \(option.label)")
      }
      let taken = OptionDeclaration.taken(by: command).map(\.label)
      for option in OptionDeclaration.all where !option.commands.contains(command) && !taken.contains(option.label) {
        #expect(!text.contains("  \(option.label) "), "\(command.invocation) --help lists \(option.label)")
      }
    }
    #expect(Help.main.contains("unterm lint --explain CODE"))
  }
}
