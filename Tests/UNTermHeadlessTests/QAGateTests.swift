import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput

/// Issue 10 points 10 and 12: the QA gates (`lint`, `lint --strict`, the interactive command's
/// checks) pass or fail for reasons that are about the design.
@Suite("QA gates", .hangGuard)
struct QAGateTests {
  private func unterm(_ arguments: [String], directory: String? = nil) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try Fixtures.run(Fixtures.unterm, arguments, directory: directory)
  }

  private func write(_ text: String, _ name: String, in folder: URL? = nil) throws -> String {
    let dir = try folder ?? Fixtures.temporaryDirectory()
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  // MARK: - lint --strict

  /// Without a payload of its category, an extension's templates are empty: the height it
  /// measures proves nothing, so `--strict` fails, saying so.
  @Test func strictLintWithoutAPayloadOfTheCategoryFails() throws {
    let base =
      [
        "lint"
      ] + Fixtures.sampleCategoriesArguments + [
        "--extension",
        Fixtures.sample("extension-chat-card.json"),
      ]
    let strict = try unterm(base + ["--strict"])
    #expect(strict.status == 1, "\(strict.stdout)")
    #expect(strict.stdout.contains("error[extension-without-payload]"))
    #expect(strict.stdout.contains("no payload of category \"chat\" was given to size the view against"))
    // Not strict: a warning. A payload of another category does not count.
    let loose = try unterm(base + [Fixtures.sample("message.json")])
    #expect(loose.status == 0)
    #expect(loose.stdout.contains("warning[extension-without-payload]"))
    // With the payload, the chat card fits: strict passes.
    let sized = try unterm(
      base + ["--strict", Fixtures.sample("chat-thread.json")])
    #expect(sized.status == 0, "\(sized.stdout)")
  }

  /// The media card overflows on iPhone only: `--device` picks the budget `--strict` holds.
  @Test func strictHoldsTheGivenDeviceOrBoth() throws {
    let base =
      [
        "lint", "--strict",
      ] + Fixtures.sampleCategoriesArguments + [
        "--extension",
        Fixtures.sample("extension-media-card.json"),
      ]
    let episode = Fixtures.sample("media-episode.json")
    let both = try unterm(base + [episode])
    #expect(both.status == 1)
    let ipad = try unterm(base + ["--device", "ipad", episode])
    #expect(ipad.status == 0, "\(ipad.stdout)")
    #expect(ipad.stdout.contains("warning[extension-overflow]: on iPhone"))
    let iphone = try unterm(base + ["--device", "iphone", episode])
    #expect(iphone.status == 1)
    #expect(iphone.stdout.contains("error[extension-overflow]: on iPhone"))
  }

  // MARK: - The interactive command's files

  /// Without a terminal, a missing file is still the first thing said: exit 66, naming it.
  @Test func aMissingFileComesBeforeTheTerminalCheck() throws {
    let dir = try Fixtures.temporaryDirectory()
    let payload = try write(#"{"aps":{"alert":"hi"}}"#, "p.json", in: dir)
    let missing = dir.appendingPathComponent("missing-categories.json").path
    for arguments in [
      ["--categories", missing, payload], ["--extension", missing, payload], ["--theme", missing, payload],
      [missing],
    ] {
      let result = try unterm(arguments)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(result.stderr == "\(missing): error: no such file\n", "\(arguments)")
    }
    let broken = try write(#"{"aps":{"alert":"hi","badge":"three"}}"#, "broken.json", in: dir)
    let invalid = try unterm([broken])
    #expect(invalid.status == 65, "\(invalid.stderr)")
    #expect(invalid.stderr.hasPrefix("\(broken):1:22: error:"), "\(invalid.stderr)")
    #expect(invalid.stderr.hasSuffix(" [aps.badge]\n"), "\(invalid.stderr)")
    // With every file in place, the terminal is what is missing.
    let fine = try unterm([payload])
    #expect(fine.status == 1)
    #expect(fine.stderr.contains("unterm render"))
  }

  /// `render` as plain text loads no theme (it shows no style), but a theme it is given is still
  /// checked: a mistyped name is an error whatever the output.
  @Test func renderChecksTheThemeItIsGivenInEveryFormat() throws {
    let dir = try Fixtures.temporaryDirectory()
    let payload = try write(#"{"aps":{"alert":"hi"}}"#, "p.json", in: dir)
    for format in [["--color", "never"], ["--format", "text"], ["--format", "ansi"], ["--format", "svg"]] {
      let wrong = try unterm(["render", "--size", "40x8", "--theme", "nosuch"] + format + [payload])
      #expect(wrong.status == 66, "\(format): \(wrong.stderr)")
      #expect(wrong.stderr.hasPrefix("nosuch: error: no such theme"), "\(format): \(wrong.stderr)")
      let right = try unterm(["render", "--size", "40x8", "--theme", "dark"] + format + [payload])
      #expect(right.status == 0, "\(format): \(right.stderr)")
    }
    let plain = try unterm(["render", "--size", "40x8", "--color", "never", payload])
    #expect(plain.status == 0, "\(plain.stderr)")
    #expect(plain.stdout.contains("hi"))
  }

  // MARK: - lint of scripts and folders

  @Test func lintDescendsIntoSubFolders() throws {
    let dir = try Fixtures.temporaryDirectory()
    _ = try write(#"{"aps":{"alert":"top"}}"#, "top.json", in: dir)
    _ = try write(#"{"aps":{"alert":"x","badge":"many"}}"#, "designs/chat/deep/bad.json", in: dir)
    _ = try write("wiat 2s\n", "designs/scripts/a.session", in: dir)
    _ = try write(#"{"aps":{"alert":"hidden"},"x":1e999}"#, ".hidden/skipped.json", in: dir)
    let result = try unterm(["lint", dir.path])
    #expect(result.status == 1)
    // The key of the wrong value, counted by hand: {"aps":{"alert":"x","badge" puts it at column 21.
    #expect(
      result.stdout.contains(
        "designs/chat/deep/bad.json:1:21: error[type-mismatch]: badge must be a whole number from 0 to 2147483647, not a string [aps.badge]"
      ),
      "\(result.stdout)")
    #expect(result.stdout.contains("designs/scripts/a.session:1:1: error[script-syntax]"))
    #expect(!result.stdout.contains("skipped.json"))
    #expect(result.stderr.contains("in 3 files"), "\(result.stderr)")
  }

  /// Every bad line of a script in one pass, and every file it names that `run` would not find.
  @Test func lintReportsEveryProblemOfAScript() throws {
    let dir = try Fixtures.temporaryDirectory()
    _ = try write("{\"categories\":[]}", "cats.json", in: dir)
    _ = try write("", "there.txt", in: dir)
    let script = try write(
      """
      categories cats.json
      wiat 2s
      extension nowhere.json
      push ../../missing.json as x
      size huge
      theme no-such-theme
      theme themes/t.json
      media-dir media
      expect screen ""
      snapshot there
      snapshot not-yet card
      """, "s.session", in: dir)
    let result = try unterm(["lint", script])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map { String($0.dropFirst(script.count + 1)) }
    #expect(
      lines == [
        "2:1: error[script-syntax]: unknown command \"wiat\"; did you mean 'wait'? [$]",
        "3:11: error[script-missing-file]: extension names the extension descriptor \"nowhere.json\": no such file (paths are relative to the script's folder) [$]",
        "4:6: error[script-missing-file]: push names the payload \"../../missing.json\": no such file (paths are relative to the script's folder) [$]",
        "5:6: error[script-syntax]: expected a size from 1x1 to 1000x1000 such as 80x24, not \"huge\" [$]",
        "6:7: error[script-missing-file]: theme \"no-such-theme\" is not in Themes/ (default, dark, high-contrast, monochrome) and is not a path to a theme file [$]",
        "7:7: error[script-missing-file]: theme names the theme file \"themes/t.json\": no such file (paths are relative to the script's folder) [$]",
        "8:11: error[script-missing-file]: media-dir names the media folder \"media\": no such folder (paths are relative to the script's folder) [$]",
        "9:15: error[script-syntax]: expect screen \"\" can never fail: every screen holds the empty text; give the text to look for [$]",
        "11:10: warning[missing-snapshot]: snapshot not-yet.txt does not exist beside the script yet: the next run records it, and fails when CI is set [$]",
      ], "\(result.stdout)")
  }

  /// The sample scripts name only files that exist.
  @Test func theSampleScriptsLintClean() throws {
    let result = try unterm(["lint", Fixtures.samples.appendingPathComponent("Scripts").path])
    #expect(result.status == 0)
    #expect(!result.stdout.contains("script-"), "\(result.stdout)")
  }

  // MARK: - Findings

  /// One out-of-range number is one finding, whichever checks met it.
  @Test(arguments: ["\"badge\":1e999", "\"relevance-score\":1e999", "\"badge\":-1e400"])
  func anOutOfRangeNumberIsReportedOnce(_ member: String) throws {
    let file = try write("{\"aps\":{\"alert\":\"x\",\(member)}}", "n.json")
    let result = try unterm(["lint", file])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stdout)")
    #expect(lines.first?.contains("error[number-out-of-range]") == true)
  }

  @Test func deduplicationKeepsDistinctFindings() {
    let path = DiagnosticLocation(SourcePosition(line: 1, column: 9), path: JSONPath([.key("aps"), .key("badge")]))
    let other = DiagnosticLocation(SourcePosition(line: 1, column: 20), path: JSONPath([.key("aps"), .key("sound")]))
    let list = [
      Diagnostic(file: "a", location: path, code: .numberOutOfRange, message: "out of range"),
      Diagnostic(file: "a", location: path, code: .invalidValue, message: "must be whole"),
      Diagnostic(file: "a", location: path, code: .numberOutOfRange, message: "out of range"),
      Diagnostic(file: "a", location: other, code: .invalidValue, message: "must be whole"),
      Diagnostic(file: "b", location: path, code: .invalidValue, message: "must be whole"),
    ]
    #expect(
      Diagnostic.deduplicated(list).map { "\($0.file) \($0.pathText) \($0.code.rawValue)" } == [
        "a aps.badge number-out-of-range", "a aps.sound invalid-value", "b aps.badge invalid-value",
      ])
  }

  /// Control characters and bidi overrides in alert text are worth a warning; the marks that
  /// right-to-left text uses every day are not.
  @Test func controlAndBidiCharactersInAlertTextAreReported() throws {
    let file = try write(
      #"""
      {"aps":{"alert":{"title":"Invoice \u202Efdp.exe","subtitle":"ok\u0007","body":"two\nlines\ttab",
       "loc-key":"%@","loc-args":["\u2066x\u2069"]}}}
      """#, "bidi.json")
    let result = try unterm(["lint", file])
    #expect(result.status == 0)
    let found = result.stdout.split(separator: "\n").filter { $0.contains("control-characters") }.map {
      String($0.dropFirst(file.count + 1))
    }
    #expect(
      found == [
        "1:26: warning[control-characters]: the text holds U+202E RLO (right-to-left override) at character 9; a device shows nothing there, and a bidi override or isolate can make the text read differently from what it says [aps.alert.title]",
        "1:61: warning[control-characters]: the text holds control character U+0007 at character 3; a device shows nothing there [aps.alert.subtitle]",
        "2:29: warning[control-characters]: the text holds U+2066 LRI (left-to-right isolate) at character 1, U+2069 PDI (pop directional isolate) at character 3; a device shows nothing there, and a bidi override or isolate can make the text read differently from what it says [aps.alert.loc-args[0]]",
      ], "\(result.stdout)")
    let urdu = try write(#"{"aps":{"alert":{"title":"\u200Fعلی","body":"\u200Eok \u061C"}}}"#, "urdu.json")
    #expect(try !unterm(["lint", urdu]).stdout.contains("control-characters"))
  }

  /// An unknown key's finding reads the same wherever it is: "… is ignored", and a
  /// did-you-mean only when there is one (no stray full stop without it).
  @Test func unknownKeysReadTheSameWithAndWithoutASuggestion() throws {
    let dir = try Fixtures.temporaryDirectory()
    let categories = try write(
      #"{"categories":[{"identifier":"c","extra":1,"actions":[{"identifier":"a","title":"A","titel":"B"}]}]}"#,
      "cats.json", in: dir)
    let descriptor = try write(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"c","UNNotificationExtensionInitialContentSizeRatio":0.5,"Zebra":1},"view":{"elements":[]}}"#,
      "ext.json", in: dir)
    let payload = try write(#"{"apns-headers":{"x-zebra":"1"},"aps":{"alert":"x","category":"c"}}"#, "p.json", in: dir)
    let result = try unterm(["lint", "--categories", categories, "--extension", descriptor, payload])
    let messages = result.stdout.split(separator: "\n").filter { $0.contains("[unknown-") }.map {
      String($0.split(separator: ": ", maxSplits: 2).last ?? "")
    }
    #expect(messages.contains(#"unknown key "extra" is ignored [categories[0].extra]"#), "\(messages)")
    #expect(
      messages.contains(
        #"unknown key "titel" is ignored. Did you mean "title"? [categories[0].actions[0].titel]"#),
      "\(messages)")
    #expect(
      messages.contains { $0.hasSuffix(#"unknown attribute "Zebra" is ignored [NSExtensionAttributes.Zebra]"#) },
      "\(messages)")
    #expect(
      messages.contains { $0.contains(#""x-zebra" is not an APNs header"#) && $0.contains("; it is ignored [") },
      "\(messages)")
  }

  /// An attachment the checks let through but the session cannot draw (truncated, or too big
  /// to decode) stays attached and shows as unavailable on the card (17.3): lint says so when
  /// `--media-dir` lets it read the file.
  @Test func lintWarnsThatATruncatedOrOversizedImageCannotBeDrawnThoughItStaysAttached() throws {
    let dir = try Fixtures.temporaryDirectory()
    let media = dir.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    let png = [UInt8](try Data(contentsOf: Fixtures.samples.appendingPathComponent("media/avatar.png")))
    try Data(png.prefix(png.count / 2)).write(to: media.appendingPathComponent("truncated.png"))
    try Data(Self.claiming(width: 60_000, height: 60_000, png)).write(to: media.appendingPathComponent("huge.png"))
    try Data(png).write(to: media.appendingPathComponent("fine.png"))
    var files: [String] = []
    for name in ["truncated", "huge", "fine"] {
      files.append(
        try write(
          #"{"aps":{"alert":"x","mutable-content":1},"image-url":"../media/\#(name).png"}"#, "payloads/\(name).json",
          in: dir))
    }
    let result = try unterm(["lint", "--media-dir", media.path] + files)
    let findings = result.stdout.split(separator: "\n").filter { $0.contains("attachment-rejected") }
    #expect(findings.count == 2, "\(result.stdout)")
    #expect(
      findings.first?.contains("truncated.json:1:54: warning[attachment-rejected]: truncated.png cannot be drawn")
        == true)
    #expect(findings.first?.hasSuffix(" [image-url]") == true)
    #expect(
      findings.last?.contains("huge.json:1:54: warning[attachment-rejected]: huge.png cannot be drawn") == true)
    // Without --media-dir the files lie outside the payloads' folder: that is the finding.
    let outside = try unterm(["lint"] + files)
    #expect(!outside.stdout.contains("cannot be drawn"))
    #expect(outside.stdout.contains("outside the media folder"))
  }

  /// Issue 17.3: lint says what iOS would make of a file whose bytes do not match its name: it
  /// is attached as the name says, so the image shows as unreadable. One finding, not two.
  @Test func lintExplainsAMislabelledAttachment() throws {
    let dir = try Fixtures.temporaryDirectory()
    let png = [UInt8](try Data(contentsOf: Fixtures.samples.appendingPathComponent("media/avatar.png")))
    try Data(png).write(to: dir.appendingPathComponent("photo.jpg"))
    let file = try write(#"{"aps":{"alert":"x","mutable-content":1},"image-url":"photo.jpg"}"#, "p.json", in: dir)
    let result = try unterm(["lint", file])
    let findings = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("attachment-") }
    #expect(
      findings == [
        "\(file):1:54: warning[attachment-mislabelled]: the file name says JPEG but the content is PNG; iOS attaches it as JPEG, so the card shows it as an unreadable image (▨ image unavailable) [image-url]"
      ], "\(result.stdout)")
  }

  /// A PNG whose header claims another size, with the header's CRC fixed.
  private static func claiming(width: UInt32, height: UInt32, _ png: [UInt8]) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] {
      [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    var bytes = png
    let data = be32(width) + be32(height) + Array(png[24..<29])
    let typed = Array("IHDR".utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in typed {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    bytes.replaceSubrange(16..<33, with: data + be32(~crc))
    return bytes
  }

  // MARK: - loc-key

  /// With no strings, the key is its own format, as on iOS when the key is missing: arguments
  /// without a specifier do not appear — on screen, and in what lint says.
  @Test func aLocKeyWithoutSpecifiersShowsTheKeyAlone() throws {
    let file = try write(
      #"{"aps":{"alert":{"title-loc-key":"INVITE_TITLE","title-loc-args":["Jenna"],"loc-key":"%@ invited you","loc-args":["Frank"]}}}"#,
      "loc.json")
    let screen = try unterm(["render", "--size", "80x12", "--color", "never", file])
    #expect(screen.stdout.contains("INVITE_TITLE"))
    #expect(!screen.stdout.contains("Jenna"))
    #expect(screen.stdout.contains("Frank invited you"))
    let lint = try unterm(["lint", file])
    #expect(
      lint.stdout.contains(
        "without them UNTerm shows the key itself, without its 1 title-loc-args value(s): the key has no %@ for them"),
      "\(lint.stdout)")
    #expect(lint.stdout.contains("the key itself as the format, its specifiers filled from loc-args"))
    let guide = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Docs/payloads-and-apns.md"), encoding: .utf8)
    #expect(!guide.contains("shown as the key itself with its `loc-args`"))
    #expect(guide.contains("arguments without a specifier do not appear"))
  }
}
