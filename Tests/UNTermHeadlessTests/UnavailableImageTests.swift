import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UserNotificationsModel

/// Issue 18.5: an image that cannot be shown says so on the card.
@Suite("Images that cannot be shown say so on the card")
struct UnavailableImageTests {
  static let png = TestImages.png(width: 40, height: 20) { x, _ in (UInt8(x * 6), 0, 0) }

  /// A session that received a payload whose image is cut off halfway, through the built-in
  /// service extension.
  private func session(size: (Int, Int) = (80, 30)) throws -> Session {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.png.prefix(Self.png.count / 2)).write(to: dir.appendingPathComponent("cut.png"))
    let payload = dir.appendingPathComponent("payload.json")
    try Data(
      #"{"aps":{"alert":{"title":"Photo","body":"Look at this"},"mutable-content":1,"category":"message"},"image-url":"cut.png"}"#
        .utf8
    ).write(to: payload)
    let session = try Fixtures.session(size: size)
    try session.push(try Payload.load(payload.path, categories: session.state.store.categories))
    // Real time for the extension, however busy the machine is.
    session.finishServiceExtensions(within: 20)
    return session
  }

  private func cardLines(_ session: Session) -> [String] {
    let area = session.renderer.deviceArea(session.state)
    let frame = session.frame()
    return (area.y..<area.maxY).map { y in
      var row = ""
      for x in area.x..<area.maxX { row += frame.grid[x, y].text }
      while row.hasSuffix(" ") { row.removeLast() }
      return row
    }
  }

  @Test func theBannerShowsAPlaceholderLine() throws {
    let session = try session()
    let card = cardLines(session)
    #expect(
      Array(card.prefix(7)) == [
        "╭───────────────────────────────────────────╮",
        "│ App                                   now │",
        "│ Photo                                     │",
        "│ Look at this                              │",
        "│ ▨ image unavailable — PNG: read beyond e… │",
        "│ ▾ Reply · Like · +1 more                  │",
        "╰───────────────────────────────────────────╯",
      ], "\(card.joined(separator: "\n"))")
    // The attachment stays in the content, as on iOS; the activity pane says why it is not drawn.
    #expect(session.state.store.delivered("req-1")?.request.content.attachments.count == 1)
    #expect(
      session.state.notices.contains { $0.text.hasPrefix("req-1: attachment ") && $0.text.contains("cannot be shown") })
  }

  @Test func theListCardShowsIt() throws {
    let session = try session()
    session.send(.command(.openCenter))
    let card = cardLines(session)
    let start = try #require(card.firstIndex { $0.contains("Photo") })
    #expect(card[start + 1] == "┃ ▨ image unavailable — PNG: read beyond e… ┃", "\(card.joined(separator: "\n"))")
  }

  @Test func theExpandedViewShowsItWhereTheImageWouldBe() throws {
    let session = try session()
    session.send(.command(.longPress))
    let card = cardLines(session)
    let header = try #require(card.firstIndex { $0.contains("App") })
    #expect(
      Array(card[(header + 2)...(header + 4)]) == [
        "│ ▨ image unavailable — PNG: read beyond…   │",
        "│ Photo                                     │",
        "│ Look at this                              │",
      ], "\(card.joined(separator: "\n"))")
  }

  /// An app's own request with a broken attachment (no service extension involved) gets the same.
  @Test func anAppsOwnRequestGetsThePlaceholderToo() throws {
    let dir = try Fixtures.temporaryDirectory()
    let file = dir.appendingPathComponent("cut.png")
    try Data(Self.png.prefix(Self.png.count / 2)).write(to: file)
    let session = try Fixtures.session(size: (80, 30))
    let content = UNMutableNotificationContent()
    content.title = "Photo"
    content.attachments = [try UNNotificationAttachment(identifier: "pic", url: file)]
    session.present(UNNotificationRequest(identifier: "app-1", content: content, trigger: nil))
    #expect(cardLines(session).contains { $0.contains("▨ image unavailable — PNG") })
    #expect(session.state.notices.contains { $0.text.hasPrefix("app-1: attachment cut.png cannot be shown") })
  }

  /// Issue 17.3: a PNG named .jpg is a JPEG attachment, as iOS types it by its name; its bytes
  /// do not match, so it shows as unreadable, and the activity pane and trace say why.
  @Test func contentThatDoesNotMatchItsNameShowsAsUnreadable() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.png).write(to: dir.appendingPathComponent("photo.jpg"))
    let payload = dir.appendingPathComponent("payload.json")
    try Data(
      #"{"aps":{"alert":{"title":"Photo","body":"Look at this"},"mutable-content":1},"image-url":"photo.jpg"}"#.utf8
    ).write(to: payload)
    let session = try Fixtures.session(size: (80, 30))
    var traced: [String] = []
    session.traceOutput = { traced.append($0.text) }
    try session.push(try Payload.load(payload.path))
    session.finishServiceExtensions(within: 20)
    let attachment = try #require(session.state.store.delivered("req-1")?.request.content.attachments.first)
    #expect(attachment.type == "public.jpeg")
    let card = cardLines(session)
    #expect(card.contains("│ ▨ image unavailable — the file name says… │"), "\(card.joined(separator: "\n"))")
    let why = "the file name says JPEG but the content is PNG"
    #expect(session.state.notices.contains { $0.text.contains("photo.jpg cannot be shown — \(why)") })
    #expect(traced.contains { $0.contains("attached JPEG (\(Self.png.count) bytes) from image-url — \(why)") })
  }
}
