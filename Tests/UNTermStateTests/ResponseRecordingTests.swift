import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState
@testable import UserNotificationsModel

/// Issue 18.1 in the core: with a log, a response waits for the session's word that its record
/// is on disk; the answer marks it recorded or not, and the log's health follows.
@Suite("Responses wait for the log")
struct ResponseRecordingTests {
  private func state(keepsLog: Bool) -> CenterState {
    var s = CenterState(now: Fixtures.now)
    var settings = CenterSettings()
    settings.keepsLog = keepsLog
    _ = s.handle(.configure(settings))
    return s
  }

  private func tapNew(_ id: String, in s: inout CenterState) -> Int? {
    let content = UNMutableNotificationContent()
    content.body = "Body \(id)"
    let n = UNNotification(
      request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: Fixtures.now)
    _ = s.handle(.deliver(n, presentation: CenterState.backgroundPresentation(for: content)))
    return s.handle(.command(.tap)).effects.compactMap { effect -> Int? in
      if case .respond(let recorded) = effect { return recorded.entry }
      return nil
    }.first
  }

  @Test func withALogAResponseIsPendingUntilTheSessionAnswers() throws {
    var s = state(keepsLog: true)
    #expect(s.logHealth == .healthy)
    let first = try #require(tapNew("a", in: &s))
    #expect(s.responses.map(\.recording) == [.pending])
    _ = s.handle(.responseLogged(first, .notRecorded("No space left on device")))
    #expect(s.responses.map(\.recording) == [.notRecorded("No space left on device")])
    #expect(s.logHealth == .failing("No space left on device"))

    let second = try #require(tapNew("b", in: &s))
    #expect(second == first + 1)
    #expect(s.responses.last?.recording == .pending)
    _ = s.handle(.responseLogged(second, .recorded))
    #expect(s.responses.map(\.recording) == [.notRecorded("No space left on device"), .recorded])
    #expect(s.logHealth == .healthy)
  }

  @Test func withoutALogThereIsNothingToWaitFor() throws {
    var s = state(keepsLog: false)
    _ = try #require(tapNew("a", in: &s))
    #expect(s.responses.map(\.recording) == [.notLogged])
    #expect(s.logHealth == .none)
  }

  /// An answer for a response the pane no longer lists (or none at all) still says how the log is.
  @Test func anAnswerWithoutAnEntryStillSetsTheLogsHealth() {
    var s = state(keepsLog: true)
    _ = s.handle(.responseLogged(nil, .notRecorded("Input/output error")))
    #expect(s.logHealth == .failing("Input/output error"))
    #expect(s.responses.isEmpty)
  }
}
