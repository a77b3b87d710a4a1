import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState
@testable import UserNotificationsModel

/// A paste is text for a reply field and nothing anywhere else; keys no binding uses change
/// nothing, least of all an open reply.
@Suite("Pastes and unbound keys")
struct PasteAndKeyTests {
  private func stateWithMessage() throws -> CenterState {
    var s = CenterState(now: Fixtures.now)
    s.store.setCategories(try Fixtures.sampleCategories().categories)
    let content = UNMutableNotificationContent()
    content.title = "Ana"
    content.body = "Dinner?"
    content.categoryIdentifier = "message"
    let n = UNNotification(request: UNNotificationRequest(identifier: "m", content: content, trigger: nil), date: s.now)
    _ = s.handle(.deliver(n, presentation: CenterState.backgroundPresentation(for: content)))
    return s
  }

  private func sent(_ outcome: Outcome) -> [String?] {
    outcome.effects.compactMap {
      if case .respond(let recorded) = $0 {
        let r = recorded.response
        return (r as? UNTextInputNotificationResponse)?.userText ?? r.actionIdentifier
      }
      return nil
    }
  }

  @Test func aPasteIsInsertedIntoTheReplyAtTheCursorAndSentAsPasted() throws {
    var s = try stateWithMessage()
    _ = s.handle(.command(.longPress))
    _ = s.handle(.key(.character("1")))
    for c in "ab" { _ = s.handle(.key(.character(c))) }
    _ = s.handle(.key(.left))
    _ = s.handle(.paste("x\u{1B}[2J\r\ny"))
    #expect(s.expanded?.reply?.field.text == "ax\u{1B}[2J\r\nyb")
    #expect(sent(s.handle(.key(.enter))) == ["ax\u{1B}[2J\r\nyb"])
  }

  @Test func aPasteOutsideAReplyFieldDoesNothing() throws {
    var s = try stateWithMessage()
    #expect(s.handle(.paste("x")).effects.isEmpty)
    #expect(s.store.deliveredCount == 1)
    _ = s.handle(.command(.longPress))
    #expect(s.handle(.paste("1")).effects.isEmpty)
    #expect(s.expanded?.reply == nil)
    s.isHelpVisible = true
    _ = s.handle(.paste("q"))
    #expect(!s.hasQuit)
    #expect(s.isHelpVisible)
  }

  @Test(arguments: [
    Key.insert, .function(1), .function(12), .modified(.home, .control), .modified(.left, [.shift, .alt]),
    .modified(.character("1"), .alt), .modified(.character("x"), .alt), .modified(.tab, .shift),
  ])
  func unboundKeysLeaveAReplyAsItIs(_ key: Key) throws {
    var s = try stateWithMessage()
    _ = s.handle(.command(.longPress))
    _ = s.handle(.key(.character("1")))
    _ = s.handle(.key(.character("a")))
    #expect(s.handle(.key(key)).effects.isEmpty)
    #expect(s.expanded?.reply?.field.text == "a")
    #expect(sent(s.handle(.key(.enter))) == ["a"])
  }

  @Test func keysReadAsTheyArePressed() {
    #expect(Key.modified(.left, [.control, .shift]).description == "Ctrl-Shift-←")
    #expect(Key.modified(.character("x"), .alt).description == "Alt-x")
    #expect(Key.function(5).description == "F5")
    #expect(KeyModifiers(xtermParameter: 5) == .control)
    #expect(KeyModifiers(xtermParameter: 8) == [.shift, .alt, .control])
    #expect(KeyModifiers(xtermParameter: 2) == .shift)
  }
}
