import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermState

/// The compiler keeps the single-writer rule: code outside UNTermState can read every stored
/// property of `CenterState` but assign to none of them. Each property is found by reflection,
/// so a new one declared writable fails here.
@Suite("Only the core writes the state", .hangGuard)
struct SingleWriterCompileTests {
  private func typecheck(_ source: String) throws -> (status: Int32, errors: [String]) {
    try Typecheck.run(source)
  }

  @Test func noStoredPropertyCanBeAssignedFromAnotherModule() throws {
    let properties = Mirror(reflecting: CenterState(now: Fixtures.now)).children.compactMap(\.label)
    #expect(properties.count >= 20, "\(properties)")
    let reads = properties.map { "  _ = s.\($0)" }.joined(separator: "\n")
    let writes = properties.map { "  s.\($0) = s.\($0)" }.joined(separator: "\n")
    let prelude = "import Foundation\nimport UNTermState\n\nfunc outside() {\n  var s = CenterState(now: Date())\n"
    // Reading and sending events compiles, so the failures below are about the setters only.
    let allowed = try typecheck(prelude + reads + "\n  _ = s.handle(.key(.enter))\n}\n")
    #expect(allowed.status == 0, "\(allowed.errors.joined(separator: "\n"))")
    // Nor can a core helper that takes the state `inout` be borrowed to change it.
    let refused = try typecheck(prelude + writes + "\n  ListLayout.scrollToFocus(&s)\n}\n")
    #expect(refused.status != 0)
    #expect(refused.errors.contains { $0.contains("'scrollToFocus'") }, "ListLayout.scrollToFocus is reachable")
    for property in properties {
      #expect(
        refused.errors.contains { $0.contains("'\(property)' setter is inaccessible") },
        "s.\(property) can be assigned outside UNTermState")
    }
  }

  /// A response reaches the delegate and the log only as the state recorded it in the
  /// Responses pane: no other module can make the `.respond` effect's value.
  @Test func onlyTheUpdateMakesAResponseForTheApp() throws {
    let prelude = """
      import Foundation
      import UNTermState
      import UserNotifications

      func outside(_ n: UNNotification, _ context: ResponseContext, _ effect: Effect) {
        if case .respond(let recorded) = effect { _ = recorded.response.actionIdentifier }

      """
    let reading = try typecheck(prelude + "}\n")
    #expect(reading.status == 0, "\(reading.errors.joined(separator: "\n"))")
    let making = try typecheck(
      prelude
        + "  _ = Effect.respond(RecordedResponse(UNNotificationResponse(notification: n, actionIdentifier: \"x\"), context))\n}\n"
    )
    #expect(making.status != 0)
    #expect(making.errors.contains { $0.contains("initializer is inaccessible") }, "\(making.errors)")
  }
}
