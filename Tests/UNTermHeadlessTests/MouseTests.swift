import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermShell
@testable import UNTermState

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

  /// A stack's list controls take clicks too: its summary row fans it out, as a click on its
  /// card does, and the "Show less" row above a fanned-out stack collapses it, as `s` does.
  @Test func clicksFanAStackOutAndShowLessCollapsesIt() throws {
    let session = try Fixtures.session(size: (47, 24))
    defer { session.detach() }
    let message = #"{"aps":{"alert":{"title":"Ana Lima","body":"Are we still on for N?"},"thread-id":"chat"}}"#
    try Fixtures.push(message.replacingOccurrences(of: "N", with: "8"), into: session, as: "older")
    try Fixtures.push(message.replacingOccurrences(of: "N", with: "9"), into: session, as: "newer")
    session.send(.command(.openCenter))
    #expect(session.frame().grid.text.contains("1 more notification"), "\(session.frame().grid.text)")
    try click(session, on: "1 more notification")
    #expect(session.state.fannedOutGroup != nil)
    #expect(session.frame().grid.lines.contains(" ▴ Show less · s"))
    #expect(session.frame().grid.text.contains("Are we still on for 8?"))
    try click(session, on: "Show less")
    #expect(session.state.fannedOutGroup == nil)
    #expect(!session.frame().grid.text.contains("Show less"))
    #expect(!session.frame().grid.text.contains("Are we still on for 8?"))
    // A long press on it collapses the stack too (there is nothing to long-press there).
    try click(session, on: "1 more notification")
    try click(session, on: "Show less", long: true)
    #expect(session.state.fannedOutGroup == nil)
    #expect(session.state.expanded == nil)
  }
}
