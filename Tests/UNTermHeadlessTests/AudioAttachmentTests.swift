import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel

@Suite("Audio attachments", .hangGuard)
struct AudioAttachmentTests {
  @Test func playerLineShowsTheDurationAndTogglesPlayback() throws {
    let session = try Fixtures.session(size: (80, 20))
    try session.push(try Payload.load(Fixtures.sample("voice-memo.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    #expect(session.frame().grid.text.contains("▶ Play 0:00 / 0:03 · WAV · voice-memo.wav"))
    session.send(.key(.character("p")))
    #expect(session.frame().grid.text.contains("❚❚ Pause 0:00 / 0:03 · WAV"))
  }

  /// The player counts the time played on the session's clock and stops at the clip's length,
  /// as the system's player does; a pause keeps the place and a play after the end starts over.
  @Test func playerShowsTheTimePlayedAndStopsAtTheEnd() throws {
    let session = try Fixtures.session(size: (80, 20))
    try session.push(try Payload.load(Fixtures.sample("voice-memo.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    func player() -> String {
      guard let line = session.frame().grid.lines.first(where: { $0.contains(" · WAV · ") }),
        let from = line.firstIndex(where: { $0 == "▶" || $0 == "❚" }), let to = line.range(of: " · WAV")
      else { return "no player line" }
      return String(line[from..<to.lowerBound])
    }
    let start = session.state.now
    session.send(.key(.character("p")))
    // The clock ticks each second while it plays, so the interactive session redraws.
    #expect(session.nextDeadline == start.addingTimeInterval(1))
    session.advance(to: start.addingTimeInterval(1.5))
    #expect(player() == "❚❚ Pause 0:01 / 0:03")
    session.send(.key(.character("p")))
    #expect(session.nextDeadline == nil)
    session.advance(to: start.addingTimeInterval(60))
    #expect(player() == "▶ Play 0:01 / 0:03")
    session.send(.key(.character("p")))
    session.advance(to: start.addingTimeInterval(61))
    #expect(player() == "❚❚ Pause 0:02 / 0:03")
    // It stops at the end by itself and does not count on.
    session.advance(to: start.addingTimeInterval(120))
    #expect(player() == "▶ Play 0:03 / 0:03")
    #expect(session.state.expanded?.isMediaPlaying == false)
    session.send(.key(.character("p")))
    #expect(player() == "❚❚ Pause 0:00 / 0:03")
  }
}
