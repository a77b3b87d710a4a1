import Foundation
import Testing
import UNTermHeadless
import UNTermRender
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermMedia

/// MediaImages installed in a session: what the renderer draws with it.
@Suite struct RendererMediaTests {
  typealias F = MediaFixtures

  /// The cells drawn as half blocks, row by row.
  private func halfBlocks(_ grid: CellGrid) -> [[Cell]] {
    (0..<grid.height).map { y in (0..<grid.width).map { grid[$0, y] }.filter { $0.text == "▀" } }
      .filter { !$0.isEmpty }
  }

  private func present(_ url: URL, into session: Session) throws {
    let content = UNMutableNotificationContent()
    content.title = "Photo"
    content.body = "From the beach"
    content.attachments = [try UNNotificationAttachment(identifier: "photo", url: url, options: nil)]
    session.present(UNNotificationRequest(identifier: "photo", content: content, trigger: nil))
  }

  @Test func aBannerThumbnailIsCroppedBlockArt() throws {
    let folder = try F.Folder()
    let url = try folder.write("beach.png", F.pngSplit(width: 32, height: 12, top: (255, 0, 0), bottom: (0, 0, 255)))
    let session = try Fixtures.session(size: (47, 10))
    let images = MediaImages()
    session.setImages(images)
    try present(url, into: session)
    let rows = halfBlocks(session.frame().grid)
    // 8 × 3 cells; the wide image is cropped to fill them: red over blue, split mid-row 2.
    #expect(rows.map(\.count) == [8, 8, 8])
    let red = Color.rgb(255, 0, 0)
    let blue = Color.rgb(0, 0, 255)
    #expect(rows[0].allSatisfy { $0.style.foreground == red && $0.style.background == red })
    #expect(rows[1].allSatisfy { $0.style.foreground == red && $0.style.background == blue })
    #expect(rows[2].allSatisfy { $0.style.foreground == blue && $0.style.background == blue })
    _ = session.frame()
    #expect(images.statistics.decodes == 1)
  }

  @Test func checkingAnAttachmentAndDrawingItDecodeOnce() throws {
    // The check made when a service extension hands back an attachment, the banner's thumbnail
    // and the expanded view all come from one working copy of the picture.
    let folder = try F.Folder()
    let url = try folder.write("big.jpg", F.jpeg(width: 1600, height: 1200, quality: 70, layout: .progressive))
    let images = MediaImages()
    let attachment = try UNNotificationAttachment(identifier: "photo", url: url, options: nil)
    #expect(images.problem(with: attachment) == nil)
    let session = try Fixtures.session(size: (80, 30))
    session.setImages(images)
    let content = UNMutableNotificationContent()
    content.title = "Photo"
    content.attachments = [attachment]
    session.present(UNNotificationRequest(identifier: "photo", content: content, trigger: nil))
    #expect(!halfBlocks(session.frame().grid).isEmpty)
    session.send(.command(.longPress))
    #expect(!halfBlocks(session.frame().grid).isEmpty)
    #expect(images.statistics.decodes == 1)
  }

  @Test func anUndecodableImageKeepsThePlaceholderAndSaysWhy() throws {
    let folder = try F.Folder()
    let png = try F.png(width: 32, height: 32, rgba: F.noise(count: 4096))
    let url = try folder.write("broken.png", Array(png[..<(png.count / 2)]))
    let session = try Fixtures.session(size: (47, 10))
    let images = MediaImages()
    session.setImages(images)
    try present(url, into: session)
    let grid = session.frame().grid
    #expect(halfBlocks(grid).isEmpty)
    #expect(grid.lines.contains { $0.contains("▨") })
    let reference = ImageReference(attachment: nil, path: url.path, label: "broken.png")
    #expect(images.problem(for: reference) == "PNG: read beyond end of data")
  }
}
