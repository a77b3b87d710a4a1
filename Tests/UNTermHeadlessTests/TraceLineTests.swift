import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermState

/// Trace lines travel as values: the text the activity pane shows and the real-time timing
/// only `--trace` prints are separate fields, never one string cut at a hidden separator.
@Suite("Trace lines", .serialized, .hangGuard)
struct TraceLineTests {
  private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [TraceLine] = []
    func append(_ line: TraceLine) {
      lock.lock()
      stored.append(line)
      lock.unlock()
    }
    var all: [TraceLine] {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
  }

  private func session() throws -> (Session, Lines) {
    let session = try Fixtures.session()
    let lines = Lines()
    session.traceOutput = { lines.append($0) }
    return (session, lines)
  }

  @Test func theTimingIsAFieldTheScreenNeverShows() throws {
    let png = TestImages.png(width: 4, height: 2) { _, _ in (0, 128, 255) }
    let server = try LoopbackHTTPServer(routes: ["/pic": .init(contentType: "image/png", body: png)])
    defer { server.stop() }
    let (session, lines) = try session()
    try Fixtures.push(
      #"{"aps":{"alert":"hi","mutable-content":1},"media-url":"\#(server.url("/pic"))"}"#, into: session)
    // The download takes real time, however long the machine makes it.
    Eventually.wait(between: session.settleServiceExtensions) { session.state.store.delivered("req-1") != nil }
    let download = try #require(lines.all.first { $0.text.hasSuffix("downloaded \(png.count) bytes") })
    #expect(download.text == "req-1: downloaded \(png.count) bytes")
    #expect(download.timing?.hasPrefix("in ") == true)
    #expect(download.printed == "\(download.text) \(download.timing ?? "")")
    let handler = try #require(lines.all.first { $0.text == "req-1: content handler called" })
    #expect(handler.timing?.hasPrefix("after ") == true)
    let pane = session.state.notices.filter { $0.kind == .trace }.map(\.text)
    #expect(pane.contains(download.text))
    #expect(pane.contains(handler.text))
    #expect(!pane.contains { $0.contains(" ms") || $0.hasSuffix(" s") })
  }

  /// The old separator was U+001F: an identifier holding one was cut in two, and the rest
  /// was taken for timing and kept off the screen.
  @Test func aLineHoldingTheOldSeparatorArrivesWhole() throws {
    let (session, lines) = try session()
    try Fixtures.push(#"{"aps":{"alert":"hi","mutable-content":1}}"#, into: session, as: "a\u{1F}b")
    session.settleServiceExtensions()
    let line = try #require(lines.all.first { $0.text.contains("nothing to attach") })
    #expect(line.text == "a\u{1F}b: no attachment-url, image-url or media-url; nothing to attach")
    #expect(line.timing == nil)
    #expect(session.state.notices.contains { $0.text == line.text })
  }
}
