import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermInput

/// `--strings`: files, `.lproj` folders and String Catalogs, chosen by the device language as
/// iOS chooses them.
@Suite("App strings")
struct AppStringsTests {
  private func folder(_ files: [String: String]) throws -> URL {
    let root = try Fixtures.temporaryDirectory()
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root
  }

  @Test func theSampleStringsHaveEnglishBengaliAndUrdu() throws {
    let strings = try AppStrings.load([Fixtures.sample("Localization")])
    #expect(strings.locales == ["bn", "en", "ur"])
    let field = UNLocalizedAlert.Field(key: "GAME_INVITE_BODY", arguments: ["Jenna", "Frank", "Monopoly"])
    let expected = [
      "en": "Jenna and Frank invited you to play Monopoly",
      "bn": "Jenna এবং Frank আপনাকে Monopoly খেলতে আমন্ত্রণ জানিয়েছেন",
      "ur": "Jenna اور Frank نے آپ کو Monopoly کھیلنے کی دعوت دی ہے",
    ]
    for (locale, text) in expected {
      #expect(Localization(strings: strings, locale: locale).text(field, device: "iphone") == text)
    }
    // Plurals from the .stringsdict, by each language's rules (Urdu: one is only 1).
    let players = { (n: String, locale: String) in
      Localization(strings: strings, locale: locale).text(
        UNLocalizedAlert.Field(key: "PLAYERS_WAITING", arguments: [n]), device: "iphone")
    }
    #expect(players("1", "en") == "1 player is waiting")
    #expect(players("3", "en") == "3 players are waiting")
    #expect(players("0", "en") == "Nobody is waiting yet")
    #expect(players("1", "ur") == "1 کھلاڑی انتظار کر رہا ہے")
    #expect(players("0", "ur") == "0 کھلاڑی انتظار کر رہے ہیں")
  }

  @Test func theDeviceLanguageChoosesTheTable() throws {
    let root = try folder([
      "en.lproj/Localizable.strings": "\"HI\" = \"Hello\";\n\"ONLY_EN\" = \"English only\";",
      "ur.lproj/Localizable.strings": "\"HI\" = \"سلام\";",
      "pt_BR.lproj/Localizable.strings": "\"HI\" = \"Olá\";",
    ])
    let strings = try AppStrings.load([root.path])
    #expect(strings.tableName(for: "ur_PK.UTF-8") == "ur")
    #expect(strings.tableName(for: "pt-BR") == "pt-BR")
    #expect(strings.tableName(for: "pt") == "pt-BR")
    #expect(strings.tableName(for: "de") == "en", "a language the app lacks gets English")
    // A key missing from the chosen table is not taken from another: iOS shows the key.
    let urdu = Localization(strings: strings, locale: "ur")
    #expect(urdu.text(UNLocalizedAlert.Field(key: "ONLY_EN", arguments: []), device: "iphone") == "ONLY_EN")
    #expect(urdu.text(UNLocalizedAlert.Field(key: "HI", arguments: []), device: "iphone") == "سلام")
  }

  @Test func aMissingKeyIsItsOwnFormat() {
    // Arguments without a specifier in the key do not appear.
    let none = Localization()
    #expect(
      none.text(UNLocalizedAlert.Field(key: "GAME_INVITE", arguments: ["Jenna"]), device: "iphone") == "GAME_INVITE")
    #expect(
      none.text(UNLocalizedAlert.Field(key: "%@ invited you", arguments: ["Jenna"]), device: "iphone")
        == "Jenna invited you")
  }

  @Test func aStringCatalogHasPluralsDevicesAndSubstitutions() throws {
    let catalog = #"""
      {
        "sourceLanguage" : "en",
        "strings" : {
          "UNTRANSLATED" : { },
          "PHOTOS" : {
            "localizations" : {
              "en" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%@ added a photo" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%@ added %lld photos" } }
              } } },
              "ar" : { "variations" : { "plural" : {
                "zero" : { "stringUnit" : { "state" : "translated", "value" : "لا صور" } },
                "two" : { "stringUnit" : { "state" : "translated", "value" : "صورتان" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%2$lld صور" } }
              } } }
            }
          },
          "TAP" : {
            "localizations" : {
              "en" : { "variations" : { "device" : {
                "ipad" : { "stringUnit" : { "state" : "translated", "value" : "Click to open" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "Tap to open" } }
              } } }
            }
          },
          "FILES" : {
            "localizations" : {
              "bn" : {
                "stringUnit" : { "state" : "translated", "value" : "%#@files@ বাকি" },
                "substitutions" : { "files" : {
                  "argNum" : 2, "formatSpecifier" : "lld",
                  "variations" : { "plural" : {
                    "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg ফাইল (এক)" } },
                    "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg ফাইল" } }
                  } }
                } }
              }
            }
          }
        },
        "version" : "1.0"
      }
      """#
    let root = try folder(["Localizable.xcstrings": catalog])
    let strings = try AppStrings.load([root.appendingPathComponent("Localizable.xcstrings").path])
    func text(_ key: String, _ args: [String], _ locale: String, device: String = "iphone") -> String {
      Localization(strings: strings, locale: locale).text(
        UNLocalizedAlert.Field(key: key, arguments: args), device: device)
    }
    #expect(text("UNTRANSLATED", [], "en") == "UNTRANSLATED")
    #expect(text("PHOTOS", ["Ana", "1"], "en") == "Ana added a photo")
    #expect(text("PHOTOS", ["Ana", "5"], "en") == "Ana added 5 photos")
    #expect(text("PHOTOS", ["Ana", "0"], "ar") == "لا صور")
    #expect(text("PHOTOS", ["Ana", "2"], "ar") == "صورتان")
    #expect(text("PHOTOS", ["Ana", "7"], "ar") == "7 صور", "few has no form: other")
    #expect(text("TAP", [], "en") == "Tap to open")
    #expect(text("TAP", [], "en", device: "ipad") == "Click to open")
    // argNum 2: the count is the second argument; Bengali's one is 0 and 1.
    #expect(text("FILES", ["x", "0"], "bn") == "0 ফাইল (এক) বাকি")
    #expect(text("FILES", ["x", "3"], "bn") == "3 ফাইল বাকি")
  }

  @Test func brokenFilesAreOneLineErrorsWithTheirPlace() throws {
    let root = try folder([
      "en.lproj/Localizable.strings": "\"A\" = \"x\";\n\"B\" = \"y\"\n",
      "Broken.xcstrings":
        "{\"sourceLanguage\": \"en\", \"strings\": {\"K\": {\"localizations\": {\"en\": {\"stringUnit\": {}}}}}}",
      "bad.lproj/Localizable.stringsdict":
        "<plist><dict><key>K</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>one</key><string>x</string></dict></dict></dict></plist>",
    ])
    #expect {
      try AppStrings.load([root.appendingPathComponent("en.lproj").path])
    } throws: { error in
      let e = error as? UNTermError
      return e?.exitCode == .dataError
        && e?.description.hasSuffix(
          "en.lproj/Localizable.strings:3:1: error: expected ';' after the value of \"B\", not the end of the file")
          == true
    }
    #expect {
      try AppStrings.load([root.appendingPathComponent("Broken.xcstrings").path])
    } throws: { error in
      (error as? UNTermError)?.description.contains(
        "Broken.xcstrings:1:83: error: strings.K.localizations.en.stringUnit: a stringUnit needs a \"value\" string")
        == true
    }
    #expect {
      try AppStrings.load([root.appendingPathComponent("bad.lproj").path])
    } throws: { error in
      (error as? UNTermError)?.description.contains("has no \"other\" form") == true
    }
    #expect {
      try AppStrings.load([root.appendingPathComponent("missing").path])
    } throws: { error in
      (error as? UNTermError)?.exitCode == .noInput
    }
  }

  @Test(arguments: [
    ("ur_PK.UTF-8", "ur-PK"), ("bn_BD", "bn-BD"), ("C.UTF-8", "en"), ("POSIX", "en"), ("zh_Hans", "zh-Hans"),
    ("English", "en"),
  ])
  func localesAreNormalized(_ given: String, _ expected: String) {
    #expect(AppStrings.normalize(given) == expected)
  }

  @Test func theEnvironmentGivesTheDeviceLanguage() {
    #expect(AppStrings.environmentLocale(["LANG": "bn_BD.UTF-8"]) == "bn-BD")
    #expect(AppStrings.environmentLocale(["LANG": "en_US.UTF-8", "LC_ALL": "ur_PK.UTF-8"]) == "ur-PK")
    #expect(AppStrings.environmentLocale([:]) == "en")
    #expect(!AppStrings.isLocaleName("../etc"))
    #expect(AppStrings.isLocaleName("ur_PK.UTF-8"))
  }

  @Test func aCStringOrPointerSpecifierIsAKindMismatch() {
    // loc-args arrive as NSStrings: %s would read one as a C string and %p print its address.
    let problems = LocalizationLint.problems(
      LocalizedString(format: "%1$s sent %2$p and %3$@", origin: ""), arguments: ["Ana", "x", "y"])
    #expect(problems.map(\.code) == [.locArgsKindMismatch, .locArgsKindMismatch])
    #expect(problems.first?.message == "%1$s takes a C string but argument 1 is an NSString on a device; use %@")
    #expect(problems.last?.message == "%2$p takes a pointer but argument 2 is an NSString on a device; use %@")
    #expect(LocalizationLint.problems(LocalizedString(format: "%@ and %1$@", origin: ""), arguments: ["Ana"]).isEmpty)
  }
}
