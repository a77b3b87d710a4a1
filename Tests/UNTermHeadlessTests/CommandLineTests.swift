import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermScript
@testable import UNTermState

/// The `unterm` binary as users and CI call it: exit codes, one-line errors, output formats.
@Suite("unterm command line", .hangGuard)
struct CommandLineTests {
  private func unterm(_ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try Fixtures.run(Fixtures.unterm, arguments, stdin: stdin, environment: environment)
  }

  private func write(_ text: String, _ name: String = "payload.json") throws -> String {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test func versionAndHelp() throws {
    #expect(try unterm(["--version"]).stdout.hasPrefix("unterm "))
    for args in [["--help"], ["render", "--help"], ["lint", "--help"], ["run", "--help"]] {
      let result = try unterm(args)
      #expect(result.status == 0)
      #expect(result.stdout.contains("Usage"))
    }
  }

  @Test func usageErrorsExitTwoWithOneLine() throws {
    for args in [
      ["render", "--bogus", "x.json"], ["render", "--view"], ["render", "--view", "side", "x.json"],
      ["lint"], ["render"], ["frobnicate"], ["render", "--size", "80by24", "x.json"],
      ["render", "--bidi", "rtl", "x.json"],
    ] {
      let result = try unterm(args)
      #expect(result.status == 2, "\(args)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      #expect(result.stderr.contains("error: "))
    }
  }

  /// A header value APNs refuses whatever the payload is a bad option value, as `--device
  /// android` is: exit 2 before any file is read, in every command that takes the headers.
  @Test func aHeaderValueAPNsNeverTakesIsAUsageError() throws {
    let path = try write(#"{"aps":{"alert":"Hi"}}"#)
    for (option, value) in [
      ("--priority", "7"), ("--expiration", "tomorrow"), ("--push-type", "alrt"),
      ("--collapse-id", String(repeating: "c", count: 65)), ("--topic", "com.example app"),
    ] {
      for command in ["render", "lint", "export", "push"] {
        let extra = command == "export" ? ["--curl", "--bundle", "com.example.app"] : []
        let result = try unterm([command] + extra + [option, value, path])
        #expect(result.status == 2, "\(command) \(option) \(value): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("error: ") && result.stderr.contains(option), "\(result.stderr)")
      }
    }
    let priority = try unterm(["render", "--priority", "7", path])
    #expect(priority.stderr.contains("must be 10, 5 or 1"), "\(priority.stderr)")
    // What depends on the payload is still the payload's error: a background push with an alert.
    let mismatch = try unterm(["render", "--push-type", "background", "--priority", "5", path])
    #expect(mismatch.status == 65, "\(mismatch.stderr)")
    #expect(mismatch.stderr.contains("push-type"), "\(mismatch.stderr)")
  }

  /// Written to a file or a pipe, a screen holds right-to-left text in logical order, as its
  /// reader (a browser, an editor) reorders it; `--bidi visual` asks for display order.
  @Test func renderKeepsRightToLeftTextInLogicalOrderUnlessVisualIsAsked() throws {
    let path = try write(#"{"aps":{"alert":{"title":"عائشہ","body":"مرحبا gpt-5"}}}"#)
    let base = ["render", "--size", "47x8", "--now", "2025-11-29T20:00:00Z", path]
    let piped = try unterm(base)
    #expect(piped.status == 0)
    #expect(piped.stdout.contains("│                                     عائشہ │"))
    #expect(piped.stdout.contains("│                               مرحبا gpt-5 │"))
    let visual = try unterm(["render", "--bidi", "visual"] + base.dropFirst())
    #expect(visual.stdout.contains("│                                     ﮧﺸﺋﺎﻋ │"))
    #expect(visual.stdout.contains("│                               gpt-5 ﺎﺒﺣﺮﻣ │"))
    let terminal = try unterm(["render", "--bidi", "terminal"] + base.dropFirst())
    #expect(terminal.stdout == piped.stdout)
    // Whatever the terminal the pipe was opened in.
    let konsole = try unterm(base, environment: ["KONSOLE_VERSION": "230804", "LANG": "C.UTF-8"])
    #expect(konsole.stdout == piped.stdout)
    // A picture is for a browser: logical too, byte for byte.
    let svg = try unterm(["render", "--format", "svg"] + base.dropFirst())
    #expect(svg.stdout.contains("عائشہ"), "\(svg.stdout)")
    #expect(!svg.stdout.contains("ﮧﺸﺋﺎﻋ"))
  }

  @Test func missingFileExits66() throws {
    let result = try unterm(["render", "/nonexistent/payload.json"])
    #expect(result.status == 66)
    #expect(result.stderr == "/nonexistent/payload.json: error: no such file\n")
  }

  /// A Linux file name is any bytes; one that is not UTF-8 reached the commands repaired (U+FFFD
  /// for the bad byte) and was reported as "no such file" although it exists. Every command
  /// now says what is wrong, in one line: 66 for an existing file, 2 for any other argument.
  @Test func anArgumentThatIsNotUTF8IsSaidSoNotMissing() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // The shell makes the name: a Swift String cannot hold the byte 0xFF.
    let make = #"printf '{"aps":{"alert":"x"}}' > "$(printf 'bad\377.json')""#
    #expect(try Fixtures.run("/bin/sh", ["-c", make], directory: dir.path).status == 0)
    for command in ["render", "lint", "run", "sheet --out -", "export --apns --topic a.b"] {
      let call = #"exec "$0" \#(command) "$(printf 'bad\377.json')""#
      let result = try Fixtures.run("/bin/sh", ["-c", call, Fixtures.unterm], directory: dir.path)
      #expect(result.status == 66, "\(command): \(result.stderr)")
      #expect(
        result.stderr
          == "bad\u{FFFD}.json: error: the file's name is not valid UTF-8, so UNTerm cannot name it; rename the file\n",
        "\(command): \(result.stderr)")
    }
    let option = try Fixtures.run(
      "/bin/sh", ["-c", #"exec "$0" render --size "$(printf '8\3770x24')" x.json"#, Fixtures.unterm],
      directory: dir.path)
    #expect(option.status == 2)
    #expect(option.stderr == "error: argument 3 '8\u{FFFD}0x24' is not valid UTF-8\n")
  }

  /// A category that differs from a registered one only by a character that draws nothing
  /// (a zero-width space, a soft hyphen) read `category "message" is not registered … Did you
  /// mean "message"?`: the quoted value now names it. ZWJ, which words and emoji need, stays.
  @Test func aQuotedValueNamesTheCharactersThatDrawNothing() throws {
    let categories = Fixtures.samples.appendingPathComponent("categories.json").path
    let cases: [(category: String, shown: String)] = [
      (#"message\u200b"#, "category \"message‹ZWSP›\" is not registered"),
      (#"mess\u00adage"#, "category \"mess‹SHY›age\" is not registered"),
      (#"\ufeffmessage\u2060"#, "category \"‹ZWNBSP›message‹WJ›\" is not registered"),
      (#"ক্\u200dষ"#, "category \"ক্\u{200D}ষ\" is not registered"),
    ]
    for (category, shown) in cases {
      let path = try write(#"{"aps":{"alert":"x","category":"\#(category)"}}"#)
      let result = try unterm(["lint", "--categories", categories, path])
      #expect(result.stdout.contains(shown), "\(result.stdout)")
    }
  }

  @Test func invalidPayloadExits65NamingThePath() throws {
    let path = try write(#"{"aps":{"alert":{"title":42}}}"#)
    let result = try unterm(["render", path])
    #expect(result.status == 65)
    // At the key, as lint's finding: line 1, column 18, the JSON path after the message.
    #expect(result.stderr == "\(path):1:18: error: must be a string, not a number [aps.alert.title]\n")
  }

  @Test func syntaxErrorNamesLineAndColumn() throws {
    let path = try write("{\n  \"aps\": {\"alert\": \"x\",}\n}")
    let result = try unterm(["render", path])
    #expect(result.status == 65)
    #expect(result.stderr == "\(path):2:24: error: unexpected '}'; expected a key in double quotes\n")
  }

  @Test func oversizePayloadGivesTheByteCount() throws {
    let body = String(repeating: "x", count: 4200)
    let path = try write(#"{"aps":{"alert":"\#(body)"}}"#)
    let result = try unterm(["render", path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("the payload is 4220 bytes; APNs refuses payloads over 4096 bytes"))
  }

  /// Quickly in CPU time, which a busy machine does not inflate (the three runs take a fraction
  /// of a second of it; a parser that went quadratic on the nesting would take minutes).
  @Test func badInputIsRejectedQuickly() throws {
    var cpu = 0.0
    func render(_ path: String) throws -> (status: Int32, stderr: String) {
      let child = try ChildProcess(Fixtures.unterm, ["render", path], environment: ChildProcess.environment())
      let status = ChildProcess.exitCode(try child.wait())
      cpu += child.cpuSeconds
      return (status, child.errors)
    }
    let deep = try render(try write(#"{"aps":"# + String(repeating: "[", count: 40)))
    #expect(deep.status == 65)
    #expect(deep.stderr.contains("nesting deeper than 32 levels"))
    let huge = try render(try write(String(repeating: "[", count: 100_000)))
    #expect(huge.status == 65)
    let big = try render(try write(String(repeating: " ", count: 300_000)))
    #expect(big.status == 65)
    #expect(big.stderr.contains("the file is 300000 bytes"))
    #expect(cpu < 5, "\(cpu) s of CPU time")
  }

  @Test func readsStandardInput() throws {
    let result = try unterm(
      ["render", "--now", "2026-11-29T20:00:00Z", "-"], stdin: #"{"aps":{"alert":"from stdin"}}"#)
    #expect(result.status == 0)
    #expect(result.stdout.contains("from stdin"))
  }

  @Test func colourOnlyWhenAskedAndNeverWithNoColor() throws {
    let sample = Fixtures.sample("message.json")
    #expect(!(try unterm(["render", sample]).stdout.contains("\u{1B}[")))
    #expect(try unterm(["render", "--color", "always", sample]).stdout.contains("\u{1B}["))
    #expect(
      !(try unterm(["render", "--color", "always", sample], environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
  }

  /// `--view expanded` is the newest notification's expanded view, even when the newest showed
  /// no banner (passive, or silenced by a Focus) and an older one's banner is still up.
  @Test func theExpandedViewIsTheNewestNotificationsWhenItShowedNoBanner() throws {
    let older = try write(
      #"{"aps":{"alert":"Older with a banner","interruption-level":"time-sensitive"}}"#, "older.json")
    for (newest, options) in [
      (#"{"aps":{"alert":"Newest, no banner","interruption-level":"passive"}}"#, [String]()),
      (#"{"aps":{"alert":"Newest, no banner"}}"#, ["--focus", "dnd"]),
    ] {
      let path = try write(newest, "newest.json")
      let result = try unterm(["render", "--view", "expanded", "--size", "60x8"] + options + [older, path])
      #expect(result.status == 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 8 && lines[3].contains("Newest, no banner"), "\(options)\n\(result.stdout)")
      #expect(!result.stdout.contains("Older with a banner"), "\(options)\n\(result.stdout)")
    }
    // With no banner in the way, as before: the newest notification.
    let alone = try unterm(["render", "--view", "expanded", "--size", "60x8", older])
    #expect(alone.stdout.split(separator: "\n")[3].contains("Older with a banner"), "\(alone.stdout)")
  }

  @Test func renderIsDeterministicForAGivenNow() throws {
    let args =
      [
        "render", "--now", "2026-11-29T20:00:00Z",
      ] + Fixtures.sampleCategoriesArguments + [
        "--view", "center", Fixtures.sample("message.json"), Fixtures.sample("meeting.json"),
      ]
    let a = try unterm(args)
    let b = try unterm(args)
    #expect(a.status == 0)
    expectSameScreen(b.stdout, a.stdout, "a second render of the same payloads")
    #expect(a.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 25)
  }

  @Test func lintExitCodes() throws {
    let categories = "com.example.messages=" + Fixtures.sample("categories.json")
    let clean = try unterm(["lint", "--categories", categories, Fixtures.sample("message.json")])
    #expect(clean.status == 0)
    let warned = try unterm(["lint", "--categories", categories, Fixtures.sample("wrong-category-case.json")])
    #expect(warned.status == 0)
    #expect(
      warned.stdout.contains(
        "wrong-category-case.json:4:17: warning[unknown-category]: category \"Message\" is not registered; on iOS the notification shows with no action buttons and no error. Did you mean \"message\"? [aps.category]"
      ), "\(warned.stdout)")
    let bad = try unterm(["lint", try write(#"{"aps":{"alert":"x","badge":-1}}"#)])
    #expect(bad.status == 1)
    // The bad value itself, counted by hand: {"aps":{"alert":"x","badge": is 28 characters.
    #expect(
      bad.stdout.contains(
        ":1:29: error[number-out-of-range]: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]"))
    let missing = try unterm(["lint", "/nonexistent.json"])
    #expect(missing.status == 66)
    // The totals count the file the finding is about: "in 1 file", never "in 0 files".
    #expect(missing.stdout == "/nonexistent.json:1:1: error[unreadable-file]: no such file [$]\n", "\(missing.stdout)")
    #expect(missing.stderr == "1 error, 0 warnings, 0 notes in 1 file\n", "\(missing.stderr)")
    let one = try unterm(["lint", "/nonexistent.json", Fixtures.sample("message.json")])
    #expect(one.stderr.hasSuffix(" in 2 files\n"), "\(one.stderr)")
  }

  @Test func lintJSONIsMachineReadable() throws {
    let result = try unterm([
      "lint", "--json", try write(#"{"aps":{"alert":"x","interruption-level":"urgent","relevance-score":3}}"#),
    ])
    #expect(result.status == 0)
    let items = try #require(try JSONParser.parse(Array(result.stdout.utf8)).array)
    #expect(items.count == 2)
    for item in items {
      let object = try #require(item.object)
      #expect(object.keys == ["file", "path", "severity", "code", "message", "line", "column"])
    }
    #expect(items.compactMap { $0.object?["code"]?.string } == ["unknown-interruption-level", "relevance-score-range"])
  }

  @Test func runParseErrorsStopEverythingWithExit65() throws {
    let dir = try Fixtures.temporaryDirectory()
    let good = dir.appendingPathComponent("good.session")
    try Data("push \(Fixtures.sample("message.json"))\nsnapshot should-not-exist\n".utf8).write(to: good)
    let bad = dir.appendingPathComponent("bad.session")
    try Data("push a.json\nwait soon\n".utf8).write(to: bad)
    let result = try unterm(["run", good.path, bad.path])
    #expect(result.status == 65)
    #expect(result.stderr.contains("bad.session:2:6: error: expected a duration"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("should-not-exist.txt").path))
  }

  @Test func runReportsFailuresWithExit1AndWritesTheLog() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = dir.appendingPathComponent("s.session")
    try Data(
      """
      categories com.example.messages=\(Fixtures.sample("categories.json"))
      push \(Fixtures.sample("message-bengali.json"))
      longpress
      action reply
      type "আমি আসছি"
      send
      expect response reply "আমি আসছি"
      expect badge 99
      """.utf8
    ).write(to: script)
    let log = dir.appendingPathComponent("log.jsonl").path
    let result = try unterm(["run", "--log", log, script.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("s.session:8:1: expect badge 99"))
    let logged = String(decoding: try Data(contentsOf: URL(fileURLWithPath: log)), as: UTF8.self)
    #expect(logged.contains(#""actionIdentifier":"reply","userText":"আমি আসছি","requestIdentifier":"req-1""#))
  }

  /// Issue 11 point 8: one error is one line on stderr; a recorded snapshot is news for stdout.
  @Test func runPrintsOneErrorOneLineAndSnapshotNewsOnStdout() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = dir.appendingPathComponent("s.session")
    try Data("push \(Fixtures.sample("message.json"))\nsnapshot first-look\npush nowhere.json\n".utf8).write(to: script)
    let result = try unterm(["run", script.path])
    #expect(result.status == 66)
    #expect(result.stderr == "\(dir.path)/nowhere.json: error: no such file\n")
    #expect(result.stdout.contains("recorded snapshot \(dir.path)/first-look.txt"))
    #expect(result.stdout.contains("s.session:3:1: push nowhere.json"))

    // Under CI a missing snapshot is the failure: recorded, with a report on stdout, stderr empty.
    let other = try Fixtures.temporaryDirectory().appendingPathComponent("t.session")
    try Data("push \(Fixtures.sample("message.json"))\nsnapshot first-look\n".utf8).write(to: other)
    let missing = try unterm(["run", other.path], environment: ["CI": "1"])
    #expect(missing.status == 1)
    #expect(missing.stderr == "")
    #expect(missing.stdout.contains("recorded snapshot"))
    #expect(missing.stdout.contains("t.session:2:1: snapshot first-look"))
  }

  /// A log that cannot be opened is an error on stderr too, not only in the report.
  @Test func runSaysWhyItCannotOpenTheLog() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = dir.appendingPathComponent("s.session")
    try Data("lock\n".utf8).write(to: script)
    let result = try unterm(["run", "--log", "/nonexistent/folder/log.jsonl", script.path])
    #expect(result.status == 66)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("/nonexistent/folder/log.jsonl: error: "))
  }

  @Test func lintExplainsItsCodes() throws {
    let known = try unterm(["lint", "--explain", "unknown-category"])
    #expect(known.status == 0)
    let lines = known.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "unknown-category: warning")
    #expect(lines.dropFirst().first == "The payload's category is not registered.")
    #expect(known.stdout.contains("no action buttons"))

    let typo = try unterm(["lint", "--explain", "unknown-categroy"])
    #expect(typo.status == 2)
    #expect(
      typo.stderr
        == "error: unknown lint code 'unknown-categroy'. Did you mean 'unknown-category'? (see 'unterm lint --help')\n")

    let both = try unterm(["lint", "--explain", "too-deep", "x.json"])
    #expect(both.status == 2)
    #expect(both.stderr.split(separator: "\n").count == 1)
  }

  @Test func anOptionOfAnotherCommandSaysWhichCommandsTakeIt() throws {
    let result = try unterm(["lint", "--view", "center", "x.json"])
    #expect(result.status == 2)
    #expect(
      result.stderr
        == "error: option '--view' is taken by 'unterm render', not by 'unterm lint' (see 'unterm lint --help')\n")
    let socket = try unterm(["render", "--socket", "/tmp/x.sock", "x.json"])
    #expect(
      socket.stderr.contains(
        "is taken by 'unterm', 'unterm push', 'unterm export' and 'unterm center', not by 'unterm render'"))
  }

  @Test func runHelpListsTheSessionLanguage() throws {
    let help = try unterm(["run", "--help"]).stdout
    for declaration in ScriptCommand.declarations {
      #expect(help.contains("  " + declaration.usage), "\(declaration.usage)")
    }
  }
}

/// A file a session option names is checked by every command that takes the option, whether or
/// not that command goes on to draw with it: `export` prints a command line and the interactive
/// session first checks its files (stdin is no terminal here), yet a missing categories file or
/// a broken strings file must say so with exit 66 or 65, as `render` does, never exit 0 or 1.
@Suite("Session options' files in every command", .hangGuard)
struct SessionOptionFilesTests {
  @Test func aMissingOrBrokenFileNamedByASessionOptionIsSaidByEveryCommand() throws {
    let dir = try Fixtures.temporaryDirectory()
    func write(_ name: String, _ text: String) throws -> String {
      let url = dir.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      return url.path
    }
    let payload = try write("p.json", #"{"aps":{"alert":"Hi"},"Simulator Target Bundle":"com.example.chat"}"#)
    let missing = dir.appendingPathComponent("missing.json").path
    let brokenStrings = try write("Localizable.strings", "\"greeting\" = ;\n")
    let cases: [(options: [String], status: Int32, names: String)] = [
      (["--categories", missing], 66, missing),
      (["--categories", try write("cats.json", "{bad")], 65, "cats.json"),
      (["--extension", try write("ext.json", #"{"NSExtensionAttributes":{}}"#)], 65, "ext.json"),
      (["--theme", try write("theme.json", "{")], 65, "theme.json"),
      (["--strings", dir.appendingPathComponent("nowhere.lproj").path], 66, "nowhere.lproj"),
      (["--strings", brokenStrings], 65, "Localizable.strings"),
    ]
    for command in [
      ["render"], ["sheet", "--out", dir.appendingPathComponent("s.html").path], ["export", "--simctl"], [],
    ] {
      for item in cases {
        let result = try Fixtures.run(Fixtures.unterm, command + item.options + [payload])
        #expect(result.status == item.status, "\(command) \(item.options): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(command) \(item.options): \(result.stderr)")
        #expect(result.stderr.contains(item.names) && result.stderr.contains("error: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(command) \(item.options): \(result.stdout)")
      }
    }
  }
}

@Suite("unterm lint on a folder", .hangGuard)
struct LintFolderTests {
  /// A folder holds payloads, a categories file, descriptors: each is checked as what it is.
  @Test func aWholeSamplesFolderLintsClean() throws {
    let result = try Fixtures.run(
      Fixtures.unterm,
      ["lint", Fixtures.samples.path, Fixtures.samples.appendingPathComponent("Scripts/media-card.session").path])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("categories.json:5:7: note[banner-shows-two-actions]"))
    #expect(result.stdout.contains("extension-media-card.json:9:3: warning[extension-overflow]"))
    #expect(result.stdout.contains("wrong-category-case.json:4:17: warning[unknown-category]"))
    #expect(!result.stdout.contains("missing-aps"))
  }

  @Test func aScriptWithASyntaxErrorIsAnError() throws {
    let dir = try Fixtures.temporaryDirectory()
    let script = dir.appendingPathComponent("bad.session")
    try Data("push a.json\nwiat 2s\n".utf8).write(to: script)
    let result = try Fixtures.run(Fixtures.unterm, ["lint", script.path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("bad.session:2:1: error[script-syntax]: unknown command \"wiat\"; did you mean 'wait'?"))
  }
}

@Suite("More command-line checks", .hangGuard)
struct MoreCommandLineTests {
  private func write(_ text: String, _ name: String = "payload.json") throws -> String {
    let url = try Fixtures.temporaryDirectory().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test func wholeDocumentFindingsUseTheRootPath() throws {
    let result = try Fixtures.run(Fixtures.unterm, ["lint", try write(#"{"alert":"no aps"}"#)])
    #expect(result.stdout.contains(":1:1: error[missing-aps]: "))
    #expect(result.stdout.hasSuffix(" [$]\n"))
    let json = try Fixtures.run(Fixtures.unterm, ["lint", "--json", try write("{\n\"aps\": }")])
    #expect(
      json.stdout.contains(
        #""path":"$","severity":"error","code":"invalid-json","message":"unexpected '}'; expected a value","line":2,"column":8}"#
      ))
  }

  @Test func lintChecksLocalAttachmentsAsTheServiceExtensionWould() throws {
    let result = try Fixtures.run(
      Fixtures.unterm, ["lint", try write(#"{"aps":{"alert":"x","mutable-content":1},"image-url":"missing.png"}"#)])
    #expect(result.status == 0)
    #expect(result.stdout.contains(":1:54: warning[attachment-rejected]"))
    #expect(result.stdout.contains(" [image-url]"))
    #expect(result.stdout.contains("no such file"))
  }

  @Test func pushChecksThePayloadBeforeLookingForASession() throws {
    let result = try Fixtures.run(
      Fixtures.unterm,
      ["push", "--socket", "/tmp/unterm-no-such.sock", try write(#"{"aps":{"alert":"x","badge":-1}}"#)])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(":1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]"))
  }

  @Test func lintChecksTheTheme() throws {
    let missing = try Fixtures.run(
      Fixtures.unterm, ["lint", "--theme", "/nonexistent/theme.json", Fixtures.sample("message.json")])
    #expect(missing.status == 66)
    let bad = try Fixtures.run(
      Fixtures.unterm,
      ["lint", "--theme", try write(#"{"roles":{"nope":{}}}"#, "t.json"), Fixtures.sample("message.json")])
    #expect(bad.status == 1)
    #expect(bad.stdout.contains("unknown role"))
  }

  @Test func usageErrorsPointAtHelp() throws {
    let result = try Fixtures.run(Fixtures.unterm, ["render", "--nonsense", "x.json"])
    #expect(result.stderr == "error: unknown option '--nonsense' (see 'unterm render --help')\n")
  }
}
