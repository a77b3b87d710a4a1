import Foundation
import Glibc
import Testing
import UNTermRender
import UserNotificationsModel

@testable import UNTermMedia

/// The image provider: block art, aspect, fitting, caches and remembered failures.
@Suite struct MediaImagesTests {
  typealias F = MediaFixtures
  let red = Color.rgb(255, 0, 0)
  let blue = Color.rgb(0, 0, 255)
  let green = Color.rgb(0, 255, 0)

  private func reference(_ url: URL) -> ImageReference {
    ImageReference(attachment: nil, path: url.path, label: url.lastPathComponent)
  }

  private func reference(attachment: UNNotificationAttachment) -> ImageReference {
    ImageReference(attachment: attachment, path: nil, label: attachment.url.lastPathComponent)
  }

  @Test func twoColourImageBecomesTopAndBottomHalves() throws {
    let folder = try F.Folder()
    let url = try folder.write("split.png", F.pngSplit(width: 4, height: 4, top: (255, 0, 0), bottom: (0, 0, 255)))
    let images = MediaImages()
    let art = try #require(images.art(of: reference(url), columns: 2, rows: 1))
    #expect(art.columns == 2 && art.rows == 1 && art.cells.count == 2)
    for cell in art.cells {
      #expect(cell.top == red)
      #expect(cell.bottom == blue)
    }
    let tall = try #require(images.art(of: reference(url), columns: 4, rows: 2))
    #expect(tall.cells.count == 8)
    #expect(tall.cells[0] == BlockArt.Pixels(top: red, bottom: red))
    #expect(tall.cells[4] == BlockArt.Pixels(top: blue, bottom: blue))
  }

  @Test func theWholeImageIsLetterboxedWithTheBackground() throws {
    let folder = try F.Folder()
    let url = try folder.write("wide.png", F.pngSplit(width: 8, height: 2, top: (255, 0, 0), bottom: (255, 0, 0)))
    let bars = Color.rgb(10, 20, 30)
    let images = MediaImages(background: bars)
    // 4 × 4 pixels; the 4:1 image takes one pixel row in the middle (row 1).
    let art = try #require(images.art(of: reference(url), columns: 4, rows: 2))
    #expect(art.cells.count == 8)
    #expect(art.cells[0...3].allSatisfy { $0 == BlockArt.Pixels(top: bars, bottom: red) })
    #expect(art.cells[4...7].allSatisfy { $0 == BlockArt.Pixels(top: bars, bottom: bars) })
  }

  @Test func thumbnailsCropToFillAndHonourTheClippingRectangle() throws {
    let folder = try F.Folder()
    let url = try folder.write(
      "pair.png", F.pngSideBySide(width: 8, height: 2, left: (255, 0, 0), right: (0, 255, 0)))
    let images = MediaImages()
    // Cropped to fill 2 × 2 pixels: the middle quarter shows, half red, half green.
    let centre = try #require(images.art(of: reference(url), columns: 2, rows: 1, crop: true))
    #expect(centre.cells == [BlockArt.Pixels(top: red, bottom: red), BlockArt.Pixels(top: green, bottom: green)])
    // A clipping rectangle over the left half shows only red.
    let clip: [AnyHashable: Any] = [
      UNNotificationAttachmentOptionsThumbnailClippingRectKey: ["X": 0.0, "Y": 0.0, "Width": 0.5, "Height": 1.0]
    ]
    let attachment = try UNNotificationAttachment(identifier: "pair", url: url, options: clip)
    let left = try #require(images.art(of: reference(attachment: attachment), columns: 2, rows: 1, crop: true))
    #expect(left.cells.allSatisfy { $0 == BlockArt.Pixels(top: red, bottom: red) })
    // Without crop the clip is ignored: the expanded view shows the whole image.
    let whole = try #require(images.art(of: reference(attachment: attachment), columns: 8, rows: 1))
    #expect(whole.cells[0].top == red && whole.cells[7].top == green)
  }

  @Test func aspectRatioComesFromTheHeaderAndIsCached() throws {
    let folder = try F.Folder()
    let url = try folder.write("photo.jpg", F.jpeg(width: 40, height: 30))
    let png = try folder.write("tall.png", F.pngSplit(width: 10, height: 20, top: (0, 0, 0), bottom: (1, 1, 1)))
    let images = MediaImages()
    #expect(images.aspectRatio(of: reference(url)) == 0.75)
    #expect(images.aspectRatio(of: reference(url)) == 0.75)
    #expect(images.aspectRatio(of: reference(png)) == 2)
    #expect(images.statistics.headerReads == 2)
    #expect(images.statistics.decodes == 0)
  }

  @Test func aLargeJPEGDecodesOnceToAWorkingCopyAndRendersFromTheCaches() throws {
    let folder = try F.Folder()
    let url = try folder.write("big.jpg", F.jpeg(width: 4000, height: 3000, quality: 60))
    let images = MediaImages()
    let art = try #require(images.art(of: reference(url), columns: 40, rows: 20))
    #expect(art.columns == 40 && art.rows == 20 && art.cells.count == 800)
    // The working copy is libjpeg's fastest decode, the 1/8 scale: 500 × 375.
    let cached = try #require(images.cachedImage(for: reference(url)))
    #expect(cached.scaleNumerator == 1 && cached.scaleDenominator == 8)
    #expect(cached.width == 500 && cached.height == 375 && cached.region == .whole)

    let again = images.art(of: reference(url), columns: 40, rows: 20)
    #expect(again == art)
    #expect(images.statistics.decodes == 1)
    #expect(images.statistics.artCacheHits == 1)
    // Another size is built from the same working copy.
    _ = images.art(of: reference(url), columns: 8, rows: 3, crop: true)
    #expect(images.statistics.decodes == 1)
    #expect(images.statistics.artBuilds == 2)
    // A size needing more pixels than the 1/8 scale decodes again, at a finer scale.
    _ = images.art(of: reference(url), columns: 600, rows: 200)
    #expect(images.statistics.decodes == 2)
    #expect(images.cachedImage(for: reference(url))?.scaleNumerator == 2)
  }

  @Test func theSameFileUnderAnotherNameIsNotDecodedAgain() throws {
    let folder = try F.Folder()
    let url = try folder.write("photo.png", F.pngSplit(width: 64, height: 64, top: (255, 0, 0), bottom: (0, 0, 255)))
    let link = folder.url.appendingPathComponent("alias.png")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
    let images = MediaImages()
    let first = images.art(of: reference(url), columns: 4, rows: 2)
    #expect(images.art(of: reference(link), columns: 4, rows: 2) == first)
    #expect(images.statistics.decodes == 1 && images.statistics.artCacheHits == 1)
  }

  @Test func aClipThatNeedsMoreDetailIsDecodedOnItsOwn() throws {
    // A thumbnail clipped to a small corner of a large picture: the working copy would give
    // it a few pixels, so the corner alone is decoded at the thumbnail's pixels.
    let folder = try F.Folder()
    var rgba: [UInt8] = []
    for y in 0..<1200 {
      for x in 0..<1600 { rgba += x < 40 && y < 40 ? [255, 255, 0, 255] : [0, 0, 90, 255] }
    }
    let url = try folder.write("map.png", F.png(width: 1600, height: 1200, rgba: rgba))
    let clip: [AnyHashable: Any] = [
      UNNotificationAttachmentOptionsThumbnailClippingRectKey: ["X": 0.0, "Y": 0.0, "Width": 0.025, "Height": 1 / 30.0]
    ]
    let attachment = try UNNotificationAttachment(identifier: "map", url: url, options: clip)
    let images = MediaImages()
    let art = try #require(images.art(of: reference(attachment: attachment), columns: 20, rows: 10, crop: true))
    #expect(art.cells.allSatisfy { $0 == BlockArt.Pixels(top: .rgb(255, 255, 0), bottom: .rgb(255, 255, 0)) })
    let decoded = try #require(images.lastDecoded)
    #expect(decoded.width == 20 && decoded.height == 20)
    #expect(decoded.region == UnitRect(x: 0, y: 0, width: 0.025, height: 1 / 30.0))
  }

  @Test func aFailureIsRememberedAndExplained() throws {
    let folder = try F.Folder()
    let png = try F.png(width: 32, height: 32, rgba: F.noise(count: 4096))
    let url = try folder.write("cut.png", Array(png[..<(png.count / 2)]))
    let images = MediaImages()
    #expect(images.problem(for: reference(url)) == nil)
    #expect(images.art(of: reference(url), columns: 10, rows: 5) == nil)
    #expect(images.art(of: reference(url), columns: 10, rows: 5) == nil)
    #expect(images.art(of: reference(url), columns: 12, rows: 6) == nil)
    #expect(images.statistics.decodes == 1)
    let problem = try #require(images.problem(for: reference(url)))
    #expect(problem.contains("PNG"))
    #expect(images.aspectRatio(of: reference(url)) == nil)

    // A new version of the file is tried again.
    try folder.write("cut.png", F.pngSplit(width: 2, height: 4, top: (255, 0, 0), bottom: (0, 0, 255)))
    #expect(images.art(of: reference(url), columns: 1, rows: 1)?.cells == [BlockArt.Pixels(top: red, bottom: blue)])
    #expect(images.problem(for: reference(url)) == nil)
  }

  @Test func aChangedFileIsDecodedAgain() throws {
    let folder = try F.Folder()
    let url = try folder.write("swap.png", F.pngSplit(width: 2, height: 2, top: (255, 0, 0), bottom: (255, 0, 0)))
    let images = MediaImages()
    #expect(images.art(of: reference(url), columns: 1, rows: 1)?.cells.first?.top == red)
    try folder.write("swap.png", F.pngSplit(width: 4, height: 4, top: (0, 0, 255), bottom: (0, 0, 255)))
    #expect(images.art(of: reference(url), columns: 1, rows: 1)?.cells.first?.top == blue)
    #expect(images.statistics.decodes == 2)
  }

  @Test func filesThatCannotBeImagesSayWhy() throws {
    let folder = try F.Folder()
    let images = MediaImages(limits: MediaLimits(maxFileBytes: 1000))
    let missing = folder.url.appendingPathComponent("gone.png")
    #expect(images.art(of: reference(missing), columns: 4, rows: 2) == nil)
    #expect(images.problem(for: reference(missing)) == "no such file")

    let big = try folder.write("big.png", F.png(width: 64, height: 64, rgba: F.noise(count: 64 * 64 * 4)))
    #expect(images.art(of: reference(big), columns: 4, rows: 2) == nil)
    #expect(images.problem(for: reference(big))?.contains("at most 1000 bytes") == true)
    #expect(images.statistics.decodes == 0)

    let wav = try folder.write("tone.wav", F.wav(sampleRate: 8000, channels: 1, bitsPerSample: 8, frames: 100))
    let audio = try UNNotificationAttachment(identifier: "tone", url: wav, options: nil)
    #expect(images.art(of: reference(attachment: audio), columns: 4, rows: 2) == nil)
    #expect(images.problem(for: reference(attachment: audio)) == "WAV audio has no picture and is not decoded")

    let text = try folder.write("note.png", Array("not a picture".utf8))
    #expect(images.art(of: reference(text), columns: 4, rows: 2) == nil)
    #expect(images.problem(for: reference(text)) == "not a PNG, JPEG or GIF image")

    #expect(images.art(of: reference(folder.url), columns: 4, rows: 2) == nil)
    #expect(images.problem(for: reference(folder.url)) == "not a regular file")
  }

  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let folder = try F.Folder()
    let path = folder.url.appendingPathComponent("pipe.png").path
    #expect(mkfifo(path, 0o600) == 0)
    let images = MediaImages()
    let fifo = ImageReference(attachment: nil, path: path, label: "pipe.png")
    #expect(images.aspectRatio(of: fifo) == nil)
    #expect(images.art(of: fifo, columns: 4, rows: 2) == nil)
    #expect(images.problem(for: fifo) == "not a regular file")
  }

  @Test func emptyOrAbsurdAreasGiveNoArt() throws {
    let folder = try F.Folder()
    let url = try folder.write("dot.png", F.pngSplit(width: 2, height: 2, top: (1, 1, 1), bottom: (2, 2, 2)))
    let images = MediaImages()
    #expect(images.art(of: reference(url), columns: 0, rows: 3) == nil)
    #expect(images.art(of: reference(url), columns: 3, rows: -1) == nil)
    #expect(images.art(of: reference(url), columns: 1_000_000, rows: 1) == nil)
    #expect(images.problem(for: reference(url)) == nil)
  }

  @Test func providersWithoutCropStillDrawThumbnails() {
    final class Plain: ImageProvider {
      var calls = 0
      func aspectRatio(of image: ImageReference) -> Double? { nil }
      func art(of image: ImageReference, columns: Int, rows: Int) -> BlockArt? {
        calls += 1
        return nil
      }
    }
    let plain = Plain()
    let provider: any ImageProvider = plain
    _ = provider.art(of: ImageReference(attachment: nil, path: "/x", label: "x"), columns: 2, rows: 1, crop: true)
    #expect(plain.calls == 1)
  }
}
