import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UserNotificationsModel

@Suite("Categories file")
struct CategoriesFileTests {
  private func analyze(_ json: String) -> CategoriesFile {
    CategoriesFile.analyze(Array(json.utf8), file: "cats.json")
  }

  @Test func loadsTheContractExample() throws {
    let file = analyze(
      #"""
      {"categories":[{"identifier":"message","actions":[
        {"identifier":"reply","title":"Reply","options":["authenticationRequired"],
         "textInput":{"buttonTitle":"Send","placeholder":"Message…"}},
        {"identifier":"delete","title":"Delete","options":["destructive"],"icon":{"systemImageName":"trash"}}],
       "intentIdentifiers":[],"options":["customDismissAction"],
       "hiddenPreviewsBodyPlaceholder":"%u new messages","categorySummaryFormat":"%u more messages from %@"}]}
      """#)
    #expect(!file.hasErrors)
    let category = try #require(file.categories.first)
    #expect(category.identifier == "message")
    #expect(category.options == [.customDismissAction])
    let reply = try #require(category.actions.first as? UNTextInputNotificationAction)
    #expect(reply.options == [.authenticationRequired])
    #expect(reply.textInputButtonTitle == "Send")
    #expect(reply.textInputPlaceholder == "Message…")
    #expect(category.actions[1].options == [.destructive])
    #expect(category.actions[1].icon?.imageName == "trash")
    #expect(category.hiddenPreviewsBodyPlaceholder == "%u new messages")
  }

  @Test func identifiersMatchCaseSensitively() throws {
    var store = NotificationStore()
    store.setCategories(try Fixtures.sampleCategories().categories)
    #expect(store.category("message") != nil)
    #expect(store.category("Message") == nil)
    #expect(store.category("MESSAGE") == nil)
  }

  @Test func designReview() {
    let actions = (1...11).map { #"{"identifier":"a\#($0)","title":"A\#($0)"}"# }.joined(separator: ",")
    let file = analyze(
      #"""
      {"categories":[
        {"identifier":"big","actions":[\#(actions)]},
        {"identifier":"big","actions":[{"identifier":"a1","title":"Again"},
          {"identifier":"r","title":"Reply","textInput":{"buttonTitle":""}},{"identifier":"","title":"x"}]},
        {"identifier":"","actions":[]}]}
      """#)
    let found = Set(file.diagnostics.map(\.code.rawValue))
    #expect(
      found.isSuperset(of: [
        "too-many-actions", "banner-shows-two-actions", "duplicate-category",
        "duplicate-action-identifier", "text-input-incomplete", "empty-identifier",
      ]))
    let duplicate = file.diagnostics.first { $0.code == .duplicateActionIdentifier }
    #expect(
      duplicate?.formatted.hasPrefix("cats.json:3:48: error[duplicate-action-identifier]") == true)
    #expect(duplicate?.formatted.hasSuffix(" [categories[1].actions[0].identifier]") == true)
    // One action past the tenth "never appears"; two "never appear".
    let tooMany = file.diagnostics.first { $0.code == .tooManyActions }?.message
    #expect(tooMany?.hasSuffix(#"so "A11" never appears"#) == true, "\(tooMany ?? "")")
    let twelve = (1...12).map { #"{"identifier":"a\#($0)","title":"A\#($0)"}"# }.joined(separator: ",")
    let more = analyze(#"{"categories":[{"identifier":"big","actions":[\#(twelve)]}]}"#)
    let message = more.diagnostics.first { $0.code == .tooManyActions }?.message
    #expect(message?.hasSuffix(#"so "A11", "A12" never appear"#) == true, "\(message ?? "")")
  }

  @Test func unknownOptionsAreErrorsThatStopLoading() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("c.json").path
    try Data(
      #"{"categories":[{"identifier":"c","actions":[{"identifier":"a","title":"A","options":["destructve"]}]}]}"#.utf8
    ).write(to: URL(fileURLWithPath: path))
    do {
      _ = try CategoriesFile.load(path)
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == .dataError)
      #expect(error.description.contains("categories[0].actions[0].options[0]"))
      #expect(error.description.contains("Did you mean \"destructive\"?"))
    }
  }

  @Test func everySampleFileLoads() throws {
    let names = try Fixtures.files(in: Fixtures.samples) {
      ($0.hasSuffix(".json") || $0.hasSuffix(".apns")) && $0 != "categories.json" && !$0.hasPrefix("extension-")
    }
    let categories = try Fixtures.sampleCategories()
    #expect(!categories.hasErrors)
    for name in names {
      let payload = try Payload.load(Fixtures.sample(name), categories: categories.byIdentifier)
      #expect(!payload.hasErrors, "\(name): \(payload.diagnostics.map(\.formatted))")
    }
  }
}
