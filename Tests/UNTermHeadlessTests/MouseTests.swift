import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermCore
@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermShell

/// Clicks land where things are drawn: a click on a list card taps that notification, a long
/// press opens it, a click on an action chooses it.
@Suite("Mouse")
struct MouseTests {
  private func click(_ session: Session, on text: String, long: Bool = false) throws {
    let frame = session.frame()
    let row = try #require(frame.grid.lines.firstIndex { $0.contains(text) })
    let column = try #require(
      frame.grid.lines[row].range(of: text).map {
        frame.grid.lines[row].distance(from: frame.grid.lines[row].startIndex, to: $0.lowerBound)
      })
    let target = try #require(frame.target(x: column + 1, y: row))
    for event in InteractiveShell.events(for: target, long: long) { session.send(event) }
  }

  @Test func clicksTapLongPressesOpenAndActionsAreChosen() throws {
    let session = try Fixtures.session(size: (80, 30))
    var got: [String] = []
    session.onResponse = { r, _ in got.append(r.actionIdentifier) }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"First","body":"one"},"category":"meeting-invite","thread-id":"a"}}"#, into: session,
      as: "first")
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Second","body":"two"},"category":"meeting-invite","thread-id":"b"}}"#, into: session,
      as: "second")
    session.send(.command(.openCenter))
    try click(session, on: "First", long: true)
    #expect(session.state.expanded?.notification.request.identifier == "first")
    try click(session, on: "Decline")
    #expect(got == ["decline"])
    try click(session, on: "Second")
    #expect(got == ["decline", "com.apple.UNNotificationDefaultActionIdentifier"])
  }
}
