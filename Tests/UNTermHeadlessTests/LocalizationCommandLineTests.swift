import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// `--strings`, `--locale`, `lint --strings` and the `locale` script command as users call them.
@Suite("Localization on the command line", .hangGuard)
struct LocalizationCommandLineTests {
  private func unterm(_ arguments: [String], environment: [String: String]? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try Fixtures.run(Fixtures.unterm, arguments, environment: environment)
  }

  private func folder(_ files: [String: String]) throws -> URL {
    let root = try Fixtures.temporaryDirectory()
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root
  }

  private var render: [String] {
    ["render", "--size", "47x8", "--now", "2025-11-29T20:00:00Z", "--strings", Fixtures.sample("Localization")]
  }

  @Test func theLocaleComesFromLangUnlessGiven() throws {
    let sample = Fixtures.sample("localized.json")
    let bengali = try unterm(render + [sample], environment: ["LANG": "bn_BD.UTF-8", "LC_ALL": ""])
    #expect(bengali.status == 0)
    #expect(bengali.stdout.contains("3 জন খেলোয়াড় অপেক্ষা করছেন"))
    let english = try unterm(render + ["--locale", "en", sample], environment: ["LANG": "bn_BD.UTF-8", "LC_ALL": ""])
    #expect(english.stdout.contains("Game invite from Jenna"))
  }

  @Test func badOptionsAndFilesExitWithOneLine() throws {
    let sample = Fixtures.sample("localized.json")
    let badLocale = try unterm(["render", "--locale", "../etc", sample])
    #expect(badLocale.status == 2)
    #expect(badLocale.stderr.contains("--locale takes a language such as en, bn, ur or pt-BR, not '../etc'"))
    let missing = try unterm(["render", "--strings", "/nonexistent/Localizable.strings", sample])
    #expect(missing.status == 66)
    let root = try folder(["en.lproj/Localizable.strings": "\"A\" = \"x\";\n\"B\" = \"y\"\n\"C\" = \"z\";\n"])
    let broken = try unterm(["render", "--strings", root.path, sample])
    #expect(broken.status == 65)
    #expect(broken.stderr.split(separator: "\n").count == 1)
    #expect(
      broken.stderr.hasSuffix(
        "en.lproj/Localizable.strings:3:1: error: expected ';' after the value of \"B\", not '\"'\n"))
  }

  @Test func lintChecksEveryLanguageForMissingKeysAndMismatchedFormats() throws {
    let root = try folder([
      "Strings/en.lproj/Localizable.strings": "\"TITLE\" = \"%@ sent %d photos\";\n\"BODY\" = \"Hello %@\";\n",
      "Strings/fr.lproj/Localizable.strings": "\"TITLE\" = \"%@ a envoyé des photos\";\n",
      "payload.json":
        #"{"aps":{"alert":{"title-loc-key":"TITLE","title-loc-args":["Ana","three"],"loc-key":"BODY","loc-args":["Ana"]}}}"#,
    ])
    let payload = root.appendingPathComponent("payload.json").path
    let result = try unterm(["lint", "--strings", root.appendingPathComponent("Strings").path, payload])
    #expect(result.status == 0, "warnings only")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix("\(payload):1:") && $0.contains(": warning[loc-args-kind-mismatch]:")
          && $0.hasSuffix(" [aps.alert.title-loc-args]")
          && $0.contains("%d takes a number but argument 2 is \"three\"")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("\(payload):1:") && $0.contains(": warning[loc-args-mismatch]:")
          && $0.hasSuffix(" [aps.alert.title-loc-args]")
          && $0.contains("in the fr strings") && $0.contains("does not use argument 2")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("\(payload):1:")
          && $0.hasSuffix(
            ": warning[missing-localization]: loc-key \"BODY\" is not in the fr strings; on a device in fr, iOS shows the key itself [aps.alert.loc-key]"
          )
      })
    #expect(!result.stdout.contains("localization-key"), "with the strings given, the note about keys is gone")
    // The same strings in JSON.
    let json = try unterm(["lint", "--json", "--strings", root.appendingPathComponent("Strings").path, payload])
    #expect(json.stdout.contains("\"code\":\"missing-localization\""))
  }

  @Test func lintReportsABrokenStringsFileAsAnError() throws {
    let root = try folder(["Strings/ur.lproj/Localizable.strings": "\"A\" = \"بے ترتیب\n"])
    let result = try unterm(["lint", root.appendingPathComponent("Strings").path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "ur.lproj/Localizable.strings:1:7: error[invalid-strings]: unterminated string: expected a closing \""))
  }

  @Test func theSamplesLintCleanInEveryLanguage() throws {
    let result = try unterm(["lint", Fixtures.sample("Localization"), Fixtures.sample("localized.json")])
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty, "\(result.stdout)")
  }

  @Test func lintFindsAScriptsMissingStrings() throws {
    let root = try folder(["s.session": "strings Nowhere\nlocale bn\n", "Here/en.lproj/Localizable.strings": "\"A\";"])
    let missing = try unterm(["lint", root.appendingPathComponent("s.session").path])
    #expect(missing.status == 1)
    #expect(
      missing.stdout.contains(
        "1:9: error[script-missing-file]: strings names the app's strings \"Nowhere\": no such file"))
    try Data("strings Here\nlocale bn\n".utf8).write(to: root.appendingPathComponent("s.session"))
    let present = try unterm(["lint", root.appendingPathComponent("s.session").path])
    #expect(present.status == 0, "\(present.stdout)")
  }

  @Test func aScriptNamesALanguageOrFailsToParse() throws {
    let root = try folder(["bad.session": "locale en\nlocale ../x\n"])
    let result = try unterm(["run", root.appendingPathComponent("bad.session").path])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("bad.session:2:8: error: expected a language such as en, bn, ur or pt-BR, not \"../x\""))
  }
}
