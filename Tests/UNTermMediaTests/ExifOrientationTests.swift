import Foundation
import Testing
import UNTermRender

@testable import UNTermMedia

/// Photos that record an EXIF orientation are shown upright.
@Suite struct ExifOrientationTests {
  typealias F = MediaFixtures

  /// 16 × 8 pixels: the left half red, the right half green (halves on 8-pixel block lines).
  private func sideBySide() throws -> [UInt8] {
    var pixels: [UInt8] = []
    for _ in 0..<8 {
      for x in 0..<16 { pixels += x < 8 ? [255, 0, 0] : [0, 255, 0] }
    }
    return try F.jpeg(width: 16, height: 8, pixels: pixels, quality: 95)
  }

  private func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.r > 200 && p.g < 60 }
  private func isGreen(_ p: (r: UInt8, g: UInt8, b: UInt8)) -> Bool { p.g > 200 && p.r < 60 }

  @Test func theOrientationTagIsReadInBothByteOrders() throws {
    let jpeg = try sideBySide()
    #expect(ExifOrientation.of(jpeg: jpeg) == .up)
    for value in 1...8 {
      #expect(ExifOrientation.of(jpeg: F.jpeg(jpeg, orientation: UInt16(value))).rawValue == value)
      #expect(ExifOrientation.of(jpeg: F.jpeg(jpeg, orientation: UInt16(value), littleEndian: true)).rawValue == value)
    }
    #expect(ExifOrientation.of(jpeg: F.jpeg(jpeg, orientation: 9)) == .up)
    // A cut or mangled Exif segment is ignored, never read past.
    let tagged = F.jpeg(jpeg, orientation: 6)
    for cut in 2..<60 { _ = ExifOrientation.of(jpeg: Array(tagged[..<cut])) }
    var mangled = tagged
    mangled[16] = 0xFF  // IFD offset far outside the segment
    #expect(ExifOrientation.of(jpeg: mangled) == .up)
  }

  @Test func quarterTurnsSwapTheSizeAndTurnThePixels() throws {
    let jpeg = try sideBySide()
    let right = F.jpeg(jpeg, orientation: 6)
    let header = try MediaDecoder.probe(right)
    #expect(header.width == 8 && header.height == 16 && header.orientation == .right)
    let image = try MediaDecoder.decode(right, limits: .standard, size: (8, 16), background: (0, 0, 0))
    #expect(image.width == 8 && image.height == 16)
    #expect(image.sourceWidth == 8 && image.sourceHeight == 16)
    #expect(isRed(image.pixel(x: 4, y: 2)) && isGreen(image.pixel(x: 4, y: 13)))

    let left = try MediaDecoder.decode(
      F.jpeg(jpeg, orientation: 8), limits: .standard, size: (8, 16), background: (0, 0, 0))
    #expect(isGreen(left.pixel(x: 4, y: 2)) && isRed(left.pixel(x: 4, y: 13)))

    let down = try MediaDecoder.decode(
      F.jpeg(jpeg, orientation: 3), limits: .standard, size: (16, 8), background: (0, 0, 0))
    #expect(down.width == 16 && isGreen(down.pixel(x: 2, y: 4)) && isRed(down.pixel(x: 13, y: 4)))

    // A region of the upright picture is cut from the right part of the stored one: the top
    // quarter of the turned picture is red, decoded at 2 × 1 (libjpeg's 1/8 scale).
    let top = try MediaDecoder.decode(
      right, limits: .standard, region: UnitRect(x: 0, y: 0, width: 1, height: 0.25), size: (2, 1),
      background: (0, 0, 0))
    #expect(top.width == 2 && top.height == 1 && isRed(top.pixel(x: 0, y: 0)) && isRed(top.pixel(x: 1, y: 0)))
    #expect(
      ExifOrientation.right.storedRect(of: UnitRect(x: 0, y: 0, width: 1, height: 0.25))
        == UnitRect(x: 0, y: 0, width: 0.25, height: 1))
  }

  @Test func theProviderShowsTurnedPhotosUpright() throws {
    let folder = try F.Folder()
    let url = try folder.write("turned.jpg", F.jpeg(try sideBySide(), orientation: 6))
    let images = MediaImages()
    let reference = ImageReference(attachment: nil, path: url.path, label: "turned.jpg")
    #expect(images.aspectRatio(of: reference) == 2)
    let art = try #require(images.art(of: reference, columns: 1, rows: 1))
    guard case .rgb(let r, let g, _) = art.cells[0].top, case .rgb(let r2, let g2, _) = art.cells[0].bottom else {
      Issue.record("expected RGB colours")
      return
    }
    #expect(r > 200 && g < 60)
    #expect(g2 > 200 && r2 < 60)
  }
}
