import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermShell
@testable import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// Payloads delivered into a running session: `unterm push` over the socket and files dropped
/// into the inbox. The suites under here open sockets, inboxes and hundreds of connections, and
/// count the process's threads and descriptors: they run one test at a time.
@Suite("Live delivery", .serialized, .hangGuard)
enum LiveDeliveryTests {}

extension LiveDeliveryTests {
  /// Payloads reach the session by both ways in, each socket with its inbox, and the empty center
  /// names the ways that listen (10.12).
  @Suite("Delivering into the session")
  struct IntoTheSession: LiveDeliveryTesting {
    @Test func socketAndInboxDeliverIntoTheSession() throws {
      let dir = try Fixtures.temporaryDirectory()
      let session = try Fixtures.session()
      let inbox = dir.appendingPathComponent("inbox")
      let delivery = LiveDelivery(session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
      let notes = delivery.start()
      defer { delivery.stop() }
      #expect(notes.count == 2)
      #expect(mode(dir.appendingPathComponent("s.sock").path) == 0o600)

      // The socket: answered on the session's thread, so drain while the client waits.
      let path = dir.appendingPathComponent("s.sock").path
      let payload = Array(#"{"aps":{"alert":"over the socket"}}"#.utf8)
      let bad = Array(#"{"aps":{"alert":"x","badge":-1}}"#.utf8)
      let answers = try #require(push([("/tmp/a.json", payload), ("/tmp/b.json", bad)], to: path, session: session))
      guard case .delivered(let id) = answers[0], case .rejected(let message) = answers[1] else {
        Issue.record("unexpected answers \(answers)")
        return
      }
      #expect(session.state.store.delivered(id)?.request.content.body == "over the socket")
      #expect(
        message.contains(
          "/tmp/b.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]")
      )

      // The inbox: a dropped file arrives and is moved aside.
      try Data(#"{"aps":{"alert":"dropped in"}}"#.utf8).write(to: inbox.appendingPathComponent("drop.json"))
      waitUntil(session) { delivered(session, "dropped in") }
      #expect(delivered(session, "dropped in"))
      #expect(FileManager.default.fileExists(atPath: inbox.appendingPathComponent("delivered/drop.json").path))
    }

    /// An empty center offers only the ways in that listen: the push and the inbox in the
    /// interactive session, the push alone without an inbox, none on a printed screen.
    @Test func anEmptyCenterNamesOnlyTheWaysInThatListen() throws {
      let dir = try Fixtures.temporaryDirectory()
      func hints(_ session: Session) -> [String] {
        let lines = session.frame().grid.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let empty = lines.firstIndex(of: "No notifications") else { return ["(no empty center)"] }
        return Array(lines[(empty + 1)...].prefix { !$0.isEmpty })
      }
      let both = try Fixtures.session()
      let withInbox = LiveDelivery(
        session: both, socketPath: dir.appendingPathComponent("a.sock").path, inbox: dir.appendingPathComponent("in"))
      _ = withInbox.start()
      defer { withInbox.stop() }
      #expect(hints(both) == ["deliver one with `unterm push FILE`", "or drop a .json file in the inbox"])

      let pushOnly = try Fixtures.session()
      let socketOnly = LiveDelivery(
        session: pushOnly, socketPath: dir.appendingPathComponent("b.sock").path, inbox: nil)
      _ = socketOnly.start()
      defer { socketOnly.stop() }
      #expect(hints(pushOnly) == ["deliver one with `unterm push FILE`"])

      // render, run and the harness have no socket and no inbox.
      #expect(hints(try Fixtures.session()) == [])
      let silent = dir.appendingPathComponent("silent.json")
      try Data(#"{"aps":{"content-available":1}}"#.utf8).write(to: silent)
      let printed = try Fixtures.run(Fixtures.unterm, ["render", "--size", "60x12", silent.path])
      #expect(printed.stdout.contains("No notifications"), "\(printed.stdout)")
      #expect(!printed.stdout.contains("unterm push"), "\(printed.stdout)")
      #expect(!printed.stdout.contains("inbox"), "\(printed.stdout)")
    }

    @Test func eachSocketHasAnInboxOfItsOwn() throws {
      #expect(LiveDelivery.inbox(forSocket: LiveDelivery.defaultSocketPath()) == LiveDelivery.defaultInbox())
      #expect(LiveDelivery.inbox(forSocket: "/srv/qa/a.sock").path == "/srv/qa/a.sock.inbox")
      let dir = try Fixtures.temporaryDirectory()
      let first = try Fixtures.session()
      let second = try Fixtures.session()
      let a = LiveDelivery(session: first, socketPath: dir.appendingPathComponent("a.sock").path)
      let b = LiveDelivery(session: second, socketPath: dir.appendingPathComponent("b.sock").path)
      #expect(a.start().last == "Watching \(dir.path)/a.sock.inbox for dropped .json/.apns files")
      #expect(b.start().last == "Watching \(dir.path)/b.sock.inbox for dropped .json/.apns files")
      defer {
        a.stop()
        b.stop()
      }
      try Data(#"{"aps":{"alert":"for b only"}}"#.utf8).write(
        to: dir.appendingPathComponent("b.sock.inbox/drop.json"))
      waitUntil(second) { delivered(second, "for b only") }
      first.drain()
      #expect(delivered(second, "for b only"))
      #expect(!delivered(first, "for b only"))
    }

    @Test func aRefusedPushIsReportedInTheSessionToo() throws {
      let dir = try Fixtures.temporaryDirectory()
      let session = try Fixtures.session()
      let socket = dir.appendingPathComponent("s.sock").path
      let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
      _ = delivery.start()
      defer { delivery.stop() }
      let bad = Array(#"{"aps":{"alert":"x","badge":-1}}"#.utf8)
      let answers = try #require(push([("/tmp/q\u{1B}[2J.json", bad)], to: socket, session: session))
      guard case .rejected(let message) = answers.first else {
        Issue.record("unexpected answers \(answers)")
        return
      }
      #expect(
        message == "/tmp/q␛[2J.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]")
      #expect(
        errors(session) == [
          "Refused a push: /tmp/q␛[2J.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]"
        ])
    }

    // MARK: - In tmux, as a user does it

    @Test(.enabled(if: TmuxDriver.isAvailable))
    func theInteractiveSessionWatchesTheInboxBesideItsSocket() throws {
      let dir = try Fixtures.temporaryDirectory()
      let socket = dir.appendingPathComponent("qa.sock").path
      let tmux = try TmuxDriver(width: 100, height: 30)
      defer { tmux.kill() }
      tmux.type("LANG=C.UTF-8 \(Fixtures.unterm) --socket \(socket) \(Fixtures.sample("message.json")); echo DONE")
      tmux.keys("Enter")
      try tmux.waitFor("Ana Lima")
      try Data(#"{"aps":{"alert":"beside the socket"}}"#.utf8).write(
        to: URL(fileURLWithPath: socket + ".inbox/drop.json"))
      try tmux.waitFor("beside the socket")
      let refused = try Fixtures.run(
        Fixtures.unterm, ["push", "--socket", socket, write(#"{"aps":{"alert":"x","badge":-1}}"#, in: dir)])
      #expect(refused.status == 65)
      #expect(refused.stderr.contains("error: badge must be a whole number from 0 to 2147483647, not -1"))
      try tmux.waitFor("Refused a push")
      tmux.type("q")
      try tmux.waitFor("DONE")
    }
  }
}
