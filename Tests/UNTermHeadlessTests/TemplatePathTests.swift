import Foundation
import Testing
import UNTermTestSupport

/// Lint checks a descriptor's `{{userInfo.…}}` paths against the payloads it measures (issue
/// 25.8): a path no payload has is a warning with a did-you-mean from their keys, one some lack
/// is a note naming them, and a path they all have says nothing.
@Suite("Template paths against the payloads", .hangGuard)
struct TemplatePathTests {
  private func lint(_ elements: String, payloads: [String: String]) throws -> [String] {
    let dir = try Fixtures.temporaryDirectory()
    try Data(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"order","UNNotificationExtensionInitialContentSizeRatio":0.2},"view":{"elements":[\#(elements)]}}"#
        .utf8
    ).write(to: dir.appendingPathComponent("ext.json"))
    for (name, userInfo) in payloads {
      try Data(#"{"aps":{"alert":{"title":"Order","body":"b"},"category":"order"}\#(userInfo)}"#.utf8)
        .write(to: dir.appendingPathComponent(name))
    }
    let out = try Fixtures.run(
      Fixtures.unterm, ["lint", "--extension", "ext.json"] + payloads.keys.sorted(), directory: dir.path)
    return out.stdout.split(separator: "\n").map(String.init).filter { $0.contains("template-missing-key") }
  }

  @Test func aTypoInAPathGetsTheClosestKeyThePayloadsHold() throws {
    let found = try lint(#"{"progress":"{{userInfo.progres}}"}"#, payloads: ["a.json": #","progress":0.5"#])
    #expect(
      found == [
        "ext.json:1:155: warning[template-missing-key]: {{userInfo.progres}} is in none of the payloads measured (a.json), so the view shows it empty. Did you mean {{userInfo.progress}}? [view.elements[0].progress]"
      ], "\(found)")
  }

  @Test func aNestedPathAndAnArrayIndexAreFollowed() throws {
    let payload = #","order":{"rider":{"name":"Rahim"}},"items":[{"dish":"Thali"}]"#
    #expect(
      try lint(#"{"label":"{{userInfo.order.rider.name}} · {{userInfo.items.0.dish}}"}"#, payloads: ["a.json": payload])
        .isEmpty)
    let typo = try lint(#"{"label":"{{userInfo.order.ridr.name}}"}"#, payloads: ["a.json": payload])
    #expect(typo.count == 1 && typo[0].contains("Did you mean {{userInfo.order.rider.name}}?"), "\(typo)")
  }

  @Test func aPathSomePayloadsLackNamesThem() throws {
    let found = try lint(
      #"{"label":"Rider: {{userInfo.rider}}"}"#,
      payloads: ["a.json": #","rider":"Rahim""#, "b.json": "", "c.json": #","rider":"Karim""#])
    #expect(
      found == [
        "ext.json:1:152: note[template-missing-key]: {{userInfo.rider}} is missing in b.json (1 of the 3 payloads measured), so the view shows it empty there [view.elements[0].label]"
      ], "\(found)")
  }

  @Test func theExplanationSaysWhatToDo() throws {
    let out = try Fixtures.run(Fixtures.unterm, ["lint", "--explain", "template-missing-key"])
    #expect(out.status == 0)
    #expect(out.stdout.contains("closest path"), "\(out.stdout)")
  }
}
