import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// Localized payloads as iOS shows them: the loc keys, the hidden-previews placeholder and the
/// stack summary in the device language, switched live with `g`.
@Suite("Localized screens")
struct LocalizedScreenTests {
  private func session(
    locale: String, size: (Int, Int) = (47, 12), locked: Bool = false, stackSummary: StackSummary = .current
  ) throws -> Session {
    // As a terminal without bidi shows them: Urdu reordered and joined by UNTerm.
    try Fixtures.session(size: size) {
      $0.outputBidi = .visual
      $0.stringsPaths = [Fixtures.sample("Localization")]
      $0.locale = locale
      $0.locked = locked
      $0.stackSummary = stackSummary
    }
  }

  private func push(_ session: Session, _ name: String, as id: String? = nil) throws {
    try session.push(
      try Payload.load(Fixtures.sample(name), categories: session.state.store.categories), identifier: id)
  }

  @Test func gCyclesTheLanguageOfWhatIsOnScreen() throws {
    let s = try session(locale: "en")
    try push(s, "localized.json")
    #expect(s.frame().grid.lines[2] == " │ Game invite from Jenna                    │")
    s.send(.key(.character("g")))
    #expect(s.state.localization.locale == "ur")
    // Urdu from the right: "Jenna کی طرف سے کھیل کی دعوت".
    #expect(s.frame().grid.lines[2] == " │              ﺕﻮﻋﺩ ﯽﮐ ﻞﯿﮭﮐ ﮯﺳ ﻑﺮﻃ ﯽﮐ Jenna │")
    s.send(.key(.character("g")))
    #expect(s.state.localization.locale == "bn")
    #expect(s.frame().grid.lines[3].hasPrefix(" │ 3 জন খেলোয়াড় অপেক্ষা করছেন"))
    s.send(.key(.character("g")))
    #expect(s.state.localization.locale == "en")
    #expect(s.frame().grid.text.contains("3 players are waiting"))
  }

  @Test func theAppSeesTheTextInTheLanguageAtDelivery() throws {
    let s = try session(locale: "bn")
    var seen: UNNotificationContent?
    s.onDelivery = { seen = $0.request.content }
    try push(s, "localized.json")
    #expect(seen?.title == "Jenna-এর কাছ থেকে খেলার আমন্ত্রণ")
    #expect(seen?.subtitle == "3 জন খেলোয়াড় অপেক্ষা করছেন")
    #expect(seen?.localizedAlert?.body?.key == "GAME_INVITE_BODY")
  }

  @Test func textAServiceExtensionSetsIsShownAsItIs() throws {
    let s = try session(locale: "en")
    let payload = Fixtures.payload(
      #"{"aps":{"alert":{"title-loc-key":"GAME_INVITE_TITLE","title-loc-args":["Jenna"],"loc-key":"GAME_INVITE_BODY","loc-args":["A","B","C"]}}}"#
    )
    let request = try payload.request(identifier: "x")
    let changed = try #require(request.content.mutableCopy() as? UNMutableNotificationContent)
    changed.title = "Rewritten by the extension"
    s.present(request.replacing(content: changed))
    s.send(.key(.character("g")))
    let text = s.frame().grid.text
    #expect(text.contains("Rewritten by the extension"))
    #expect(!text.contains("Jenna"), "the body is still localized, now in Urdu")
  }

  @Test func theHiddenPreviewsPlaceholderIsLocalized() throws {
    // The categories file gives the message category's placeholder per language.
    for (locale, expected) in [("en", "1 new messages"), ("bn", "1টি নতুন বার্তা")] {
      let s = try session(locale: locale, locked: true)
      try push(s, "message-bengali.json")
      #expect(s.frame().grid.text.contains(expected), "\(locale)")
    }
  }

  /// The iOS 12 to 14 summary (`--stack-summary ios12`) in the device language.
  @Test func theStackSummaryIsLocalized() throws {
    let s = try session(locale: "bn", size: (47, 16), stackSummary: .ios12)
    let message = #"""
      {"aps":{"alert":{"title":"প্রজ্ঞা দাস","body":"আসছি","summary-arg":"প্রজ্ঞা"},"thread-id":"t","category":"message"}}
      """#
    try Fixtures.push(message, into: s, as: "a")
    try Fixtures.push(message, into: s, as: "b")
    s.send(.command(.openCenter))
    #expect(s.frame().grid.text.contains("প্রজ্ঞা-এর আরও 1টি বার্তা"))
    s.send(.command(.setLocale("en")))
    #expect(s.frame().grid.text.contains("1 more messages from প্রজ্ঞা"))
  }

  @Test func aCategoryTextCanBeAKeyOfTheAppsStrings() throws {
    // As `localizedUserNotificationString(forKey:)` defers it: the placeholder is looked up in
    // the strings, with the thread's count choosing the plural form.
    let strings = try AppStrings.load([Fixtures.sample("Localization")])
    let localization = Localization(strings: strings, locale: "en")
    let category = UNNotificationCategory(
      identifier: "game", actions: [], intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: "PLAYERS_WAITING",
      categorySummaryFormat: "%u more from %@", options: [])
    #expect(localization.placeholder(category, count: 1) == "1 player is waiting")
    #expect(localization.placeholder(category, count: 4) == "4 players are waiting")
    #expect(localization.summary(category, count: 2, argument: "Jenna") == "2 more from Jenna")
    // %@ before %u: each still takes what Apple documents for it.
    let reversed = UNNotificationCategory(
      identifier: "r", actions: [], intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: nil,
      categorySummaryFormat: "%@: %u more", options: [])
    #expect(localization.summary(reversed, count: 3, argument: "Ana") == "Ana: 3 more")
  }

  @Test func perLanguageCategoryTextsAreCheckedWhenLoaded() {
    let file = CategoriesFile.analyze(
      Array(
        #"""
        {"categories": [{"identifier": "m", "actions": [],
          "hiddenPreviewsBodyPlaceholder": {"en": "%u new", "../x": "bad", "bn": 3},
          "categorySummaryFormat": {"ur": "%u مزید %d"}}]}
        """#.utf8), file: "c.json")
    let findings = file.diagnostics.map { "\($0.pathText) \($0.code.rawValue)" }
    #expect(findings.contains("categories[0].hiddenPreviewsBodyPlaceholder[\"../x\"] invalid-value"))
    #expect(findings.contains("categories[0].hiddenPreviewsBodyPlaceholder.bn type-mismatch"))
    #expect(findings.contains("categories[0].categorySummaryFormat.ur unsupported-format"))
  }
}
