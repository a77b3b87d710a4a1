import Foundation
import Testing
import UNTermHeadless
import UNTermRender
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermMedia

/// A list card shows its attachment's thumbnail on the right, as iOS's Notification Center and
/// lock screen do and as the banner does: the same code, the same rules.
@Suite struct ListThumbnailTests {
  typealias F = MediaFixtures
  static let red = Color.rgb(255, 0, 0)
  static let blue = Color.rgb(0, 0, 255)

  /// The picture cells drawn, row by row.
  private func halfBlocks(_ grid: CellGrid) -> [[Cell]] {
    (0..<grid.height).map { y in (0..<grid.width).map { grid[$0, y] }.filter { $0.text == "▀" } }
      .filter { !$0.isEmpty }
  }

  private func request(
    _ id: String, title: String, body: String, thread: String = "", image: URL?, hidden: Bool = false
  ) throws -> UNNotificationRequest {
    let content = UNMutableNotificationContent()
    content.title = title
    content.body = body
    content.threadIdentifier = thread
    if let image {
      content.attachments = [
        try UNNotificationAttachment(
          identifier: id, url: image, options: hidden ? [UNNotificationAttachmentOptionsThumbnailHiddenKey: true] : nil)
      ]
    }
    return UNNotificationRequest(identifier: id, content: content, trigger: nil)
  }

  private func list(
    _ requests: [UNNotificationRequest], size: (Int, Int) = (47, 9), images: MediaImages = MediaImages(),
    open: Bool = true, configure: (inout SessionConfiguration) -> Void = { _ in }
  ) throws -> Session {
    let session = try Fixtures.session(size: size, configure: configure)
    session.setImages(images)
    for request in requests { session.present(request) }
    if open { session.send(.command(.openCenter)) }
    return session
  }

  @Test func aCardWithAnImageShowsItsThumbnailBesideItsText() throws {
    let folder = try F.Folder()
    let url = try folder.write("red.png", F.pngSplit(width: 16, height: 16, top: (255, 0, 0), bottom: (255, 0, 0)))
    let images = MediaImages()
    let session = try list([try request("a", title: "Ana", body: "New photo", image: url)], images: images)
    let grid = session.frame().grid
    expectScreen(
      grid,
      [
        " Notification Center",
        "",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                                   now ┃",
        " ┃ Ana                              ▀▀▀▀▀▀▀▀ ┃",
        " ┃ New photo                        ▀▀▀▀▀▀▀▀ ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        "",
        " iPhone · Unlocked │ Space actions  ? keys",
      ])
    let rows = halfBlocks(grid)
    #expect(rows.map(\.count) == [8, 8])
    #expect(rows.joined().allSatisfy { $0.style.foreground == Self.red && $0.style.background == Self.red })
    // Frames after the first draw from the cache: the list never decodes per frame.
    for _ in 0..<5 { _ = session.frame() }
    #expect(images.statistics.decodes == 1)
  }

  @Test func aCollapsedStackShowsOnlyItsTopCardsThumbnail() throws {
    let folder = try F.Folder()
    let red = try folder.write("red.png", F.pngSplit(width: 16, height: 16, top: (255, 0, 0), bottom: (255, 0, 0)))
    let blue = try folder.write("blue.png", F.pngSplit(width: 16, height: 16, top: (0, 0, 255), bottom: (0, 0, 255)))
    let session = try list(
      [
        try request("old", title: "Ana", body: "Older photo", thread: "ana", image: blue),
        try request("new", title: "Ana", body: "Newest photo", thread: "ana", image: red),
      ], size: (47, 10))
    let grid = session.frame().grid
    expectScreen(
      grid,
      [
        " Notification Center",
        "",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                                   now ┃",
        " ┃ Ana                              ▀▀▀▀▀▀▀▀ ┃",
        " ┃ Newest photo                     ▀▀▀▀▀▀▀▀ ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        "    1 more notification",
        "",
        " iPhone · Unlocked │ ↑↓ move  ? keys",
      ])
    // Only the top card's own picture: red, never the older card's blue.
    #expect(halfBlocks(grid).joined().allSatisfy { $0.style.background == Self.red })
    #expect(halfBlocks(grid).joined().count == 16)

    // A stack whose top card has no image shows none, whatever the cards behind it carry.
    let plain = try list(
      [
        try request("old", title: "Ana", body: "Older photo", thread: "ana", image: blue),
        try request("new", title: "Ana", body: "Just text", thread: "ana", image: nil),
      ], size: (47, 10))
    #expect(halfBlocks(plain.frame().grid).isEmpty)
  }

  @Test func theThumbnailHiddenOptionLeavesTheCardWithoutOne() throws {
    let folder = try F.Folder()
    let url = try folder.write("red.png", F.pngSplit(width: 16, height: 16, top: (255, 0, 0), bottom: (255, 0, 0)))
    let session = try list([try request("a", title: "Ana", body: "New photo", image: url, hidden: true)])
    expectScreen(
      session.frame().grid,
      [
        " Notification Center",
        "",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                                   now ┃",
        " ┃ Ana                                       ┃",
        " ┃ New photo                                 ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        "",
        " iPhone · Unlocked │ Space actions  ? keys",
      ])
  }

  @Test func aLockedDeviceWithHiddenPreviewsShowsNoThumbnailInTheList() throws {
    let folder = try F.Folder()
    let url = try folder.write("red.png", F.pngSplit(width: 16, height: 16, top: (255, 0, 0), bottom: (255, 0, 0)))
    let broken = try folder.write("broken.png", Array("not an image at all".utf8))
    let session = try list(
      [
        try request("a", title: "Ana", body: "New photo", image: url),
        try request("b", title: "Rui", body: "Another", thread: "rui", image: broken),
      ], size: (47, 14))
    #expect(halfBlocks(session.frame().grid).count == 2)
    session.send(.command(.lock))
    let grid = session.frame().grid
    #expect(halfBlocks(grid).isEmpty, "\(grid.text)")
    // Neither the picture nor the unreadable image's line, which would name the file.
    #expect(!grid.text.contains("▨"))
    #expect(!grid.text.contains("photo"))
  }

  @Test func anUnreadableImageSaysSoOnTheCardInsteadOfAThumbnail() throws {
    let folder = try F.Folder()
    let broken = try folder.write("broken.png", Array("not an image at all".utf8))
    let session = try list([try request("a", title: "Ana", body: "New photo", image: broken)])
    let grid = session.frame().grid
    #expect(halfBlocks(grid).isEmpty)
    #expect(grid.lines[5].hasPrefix(" ┃ ▨ image unavailable — "), "\(grid.text)")
  }

  @Test func aFortyColumnTerminalKeepsTheThumbnailAndALargeTextSizeDropsItFirst() throws {
    let folder = try F.Folder()
    let url = try folder.write("red.png", F.pngSplit(width: 16, height: 16, top: (255, 0, 0), bottom: (255, 0, 0)))
    let item = try request("a", title: "Ana", body: "New photo from the beach", image: url)
    let session = try list([item], size: (40, 9))
    expectScreen(
      session.frame().grid,
      [
        " Notification Center",
        "",
        " ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        " ┃ App                            now ┃",
        " ┃ Ana                       ▀▀▀▀▀▀▀▀ ┃",
        " ┃ New photo from the beach  ▀▀▀▀▀▀▀▀ ┃",
        " ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        "",
        " iPhone · Unlocked │ ? keys",
      ])
    // At the narrowest screen and a large text size the text would get too few letters
    // beside the picture: the picture goes, the text keeps the card's width, as in the banner.
    for open in [true, false] {
      let narrow = try list([item], size: (24, 9), open: open) { $0.textSize = .accessibility2 }
      let grid = narrow.frame().grid
      #expect(halfBlocks(grid).isEmpty, "\(grid.text)")
      #expect(grid.text.contains("New phot"), "\(grid.text)")
    }
  }
}
