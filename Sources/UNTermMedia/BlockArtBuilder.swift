import UNTermRender

/// A rectangle in fractions of an image's width and height (0…1), origin at the top left.
package struct UnitRect: Hashable, Sendable {
  package var x: Double
  package var y: Double
  package var width: Double
  package var height: Double

  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The whole image.
  package static let whole = UnitRect(x: 0, y: 0, width: 1, height: 1)

  /// A rectangle clamped inside the image, or `nil` when nothing of it is inside.
  package init?(clamping x: Double, y: Double, width: Double, height: Double) {
    guard x.isFinite, y.isFinite, width.isFinite, height.isFinite else { return nil }
    let left = min(1, max(0, x))
    let top = min(1, max(0, y))
    let right = min(1, max(0, x + width))
    let bottom = min(1, max(0, y + height))
    guard right - left > 0.0001, bottom - top > 0.0001 else { return nil }
    self.init(x: left, y: top, width: right - left, height: bottom - top)
  }
}

/// How an image lands in a block-art area of `columns × 2·rows` square pixels (each cell is
/// two pixels tall): which part of the image shows, where, and how large a decode it needs.
struct ArtGeometry: Hashable {
  /// Pixel size of the area.
  var areaWidth: Int
  var areaHeight: Int
  /// The part of the image shown, in fractions of the whole image.
  var shown: UnitRect
  /// Where it is drawn in the area, in pixels; the rest is background.
  var x: Int
  var y: Int
  var width: Int
  var height: Int

  /// Fits `region` of an image into the area: letterboxed (whole region visible, centred) or,
  /// with `crop`, filling the area and cutting the region's overflow evenly from both sides.
  init(sourceWidth: Int, sourceHeight: Int, region: UnitRect, columns: Int, rows: Int, crop: Bool) {
    areaWidth = columns
    areaHeight = rows * 2
    let regionWidth = max(Double(sourceWidth) * region.width, 1e-9)
    let regionHeight = max(Double(sourceHeight) * region.height, 1e-9)
    let scaleX = Double(areaWidth) / regionWidth
    let scaleY = Double(areaHeight) / regionHeight
    if crop {
      let scale = max(scaleX, scaleY)
      let keepX = min(1, Double(areaWidth) / scale / regionWidth)
      let keepY = min(1, Double(areaHeight) / scale / regionHeight)
      shown = UnitRect(
        x: region.x + region.width * (1 - keepX) / 2, y: region.y + region.height * (1 - keepY) / 2,
        width: region.width * keepX, height: region.height * keepY)
      (x, y, width, height) = (0, 0, areaWidth, areaHeight)
    } else {
      let scale = min(scaleX, scaleY)
      shown = region
      width = min(areaWidth, max(1, Int(saturating: (regionWidth * scale).rounded())))
      height = min(areaHeight, max(1, Int(saturating: (regionHeight * scale).rounded())))
      x = (areaWidth - width) / 2
      y = (areaHeight - height) / 2
    }
  }

  /// The smallest size of the whole image that gives at least one pixel per area pixel,
  /// capped at the stored size.
  func neededSize(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
    let w = (Double(width) / max(shown.width, 1e-9) - 1e-9).rounded(.up)
    let h = (Double(height) / max(shown.height, 1e-9) - 1e-9).rounded(.up)
    return (
      Int(saturating: min(Double(sourceWidth), max(1, w))), Int(saturating: min(Double(sourceHeight), max(1, h)))
    )
  }
}

/// Builds half-block art from a decoded image.
enum BlockArtBuilder {
  /// Art of exactly `columns × rows` cells: each cell's top and bottom are the average colours
  /// of the image blocks under its upper and lower pixel. The image may show only part of the
  /// picture (`image.region`), as long as it holds `g.shown`.
  static func art(
    of image: DecodedImage, geometry g: ArtGeometry, columns: Int, rows: Int,
    background: (r: UInt8, g: UInt8, b: UInt8)
  ) -> BlockArt {
    let r = image.region
    let startX = (g.shown.x - r.x) / r.width
    let startY = (g.shown.y - r.y) / r.height
    let xs = spans(count: g.width, start: startX, length: g.shown.width / r.width, pixels: image.width)
    let ys = spans(count: g.height, start: startY, length: g.shown.height / r.height, pixels: image.height)
    let fill = Color.rgb(background.r, background.g, background.b)
    func color(_ px: Int, _ py: Int) -> Color {
      let ix = px - g.x
      let iy = py - g.y
      guard ix >= 0, ix < xs.count, iy >= 0, iy < ys.count else { return fill }
      let (x0, x1) = xs[ix]
      let (y0, y1) = ys[iy]
      var r = 0
      var gr = 0
      var b = 0
      image.rgb.withUnsafeBufferPointer { rgb in
        for y in y0..<y1 {
          var i = (y * image.width + x0) * 3
          for _ in x0..<x1 {
            r += Int(rgb[i])
            gr += Int(rgb[i + 1])
            b += Int(rgb[i + 2])
            i += 3
          }
        }
      }
      let n = (x1 - x0) * (y1 - y0)
      return .rgb(UInt8((r + n / 2) / n), UInt8((gr + n / 2) / n), UInt8((b + n / 2) / n))
    }
    var cells: [BlockArt.Pixels] = []
    cells.reserveCapacity(columns * rows)
    for row in 0..<rows {
      for column in 0..<columns {
        cells.append(BlockArt.Pixels(top: color(column, row * 2), bottom: color(column, row * 2 + 1)))
      }
    }
    return BlockArt(columns: columns, rows: rows, cells: cells)
  }

  /// For each of `count` output pixels, the half-open range of image pixels it averages.
  private static func spans(count: Int, start: Double, length: Double, pixels: Int) -> [(Int, Int)] {
    guard count > 0, pixels > 0 else { return [] }
    return (0..<count).map { i in
      let from = (start + length * Double(i) / Double(count)) * Double(pixels)
      let to = (start + length * Double(i + 1) / Double(count)) * Double(pixels)
      let lower = min(pixels - 1, max(0, Int(saturating: (from + 1e-9).rounded(.down))))
      let upper = min(pixels, max(lower + 1, Int(saturating: (to - 1e-9).rounded(.up))))
      return (lower, upper)
    }
  }
}
