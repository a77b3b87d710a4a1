import CMediaDecode
import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// PNGs through the C decoder and its Swift wrapper: sizes, colours, interlacing, the reducer, and
/// hostile PNGs.
@Suite("PNG decoding") struct PNGDecoderTests: MediaDecoderTesting {
  @Test func pngDecodesToItsSizeAndColours() throws {
    let png = try F.png(rows: [
      [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)],
      [(10, 20, 30, 255), (200, 100, 50, 255), (0, 0, 0, 0)],
    ])
    let header = try MediaDecoder.probe(png)
    #expect(header == ImageHeader(width: 3, height: 2, format: .png, interlaced: false))
    let image = try decode(png)
    #expect(image.width == 3 && image.height == 2)
    #expect(image.sourceWidth == 3 && image.scaleDenominator == 1 && image.format == .png)
    #expect(image.pixel(x: 1, y: 0) == (0, 255, 0))
    #expect(image.pixel(x: 1, y: 1) == (200, 100, 50))
  }

  @Test func transparentPixelsAreCompositedOverTheBackground() throws {
    let png = try F.png(rows: [[(255, 255, 255, 0), (255, 0, 0, 255)]])
    let image = try MediaDecoder.decode(png, limits: limits, size: (2, 1), background: (0, 0, 200))
    #expect(image.pixel(x: 0, y: 0) == (0, 0, 200))
    #expect(image.pixel(x: 1, y: 0) == (255, 0, 0))
  }

  @Test func largePicturesAreAveragedRowByRow() throws {
    let png = try F.pngSideBySide(width: 2048, height: 4, left: (255, 0, 0), right: (0, 0, 255))
    let image = try decode(png, size: (2, 1))
    #expect(image.width == 2 && image.height == 1)
    #expect(image.sourceWidth == 2048 && image.sourceHeight == 4)
    #expect(image.pixel(x: 0, y: 0) == (255, 0, 0) && image.pixel(x: 1, y: 0) == (0, 0, 255))
    // Three output pixels over four: each weighs the source pixels by how much of them it
    // covers (0 and 1/3 of 255, then 2/3 and 2/3), not whole pixels.
    let row = try F.png(rows: [[(0, 0, 0, 255), (255, 255, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255)]])
    let three = try decode(row, size: (3, 1))
    #expect([0, 1, 2].map { three.pixel(x: $0, y: 0).r } == [64, 255, 64])
    // Enlarging: a 2 × 1 picture over 4 pixels repeats each, with no blend at the seam.
    let two = try F.png(rows: [[(255, 0, 0, 255), (0, 0, 255, 255)]])
    let wide = try decode(two, size: (4, 1))
    #expect((0..<4).map { wide.pixel(x: $0, y: 0).r } == [255, 255, 0, 0])
  }

  @Test func aRegionIsCutBeforeAveraging() throws {
    // Left half red, right half blue: the right quarter alone is all blue, and a region that
    // straddles the middle is half and half.
    let png = try F.pngSideBySide(width: 64, height: 8, left: (255, 0, 0), right: (0, 0, 255))
    let right = try decode(png, size: (4, 2), region: UnitRect(x: 0.75, y: 0, width: 0.25, height: 1))
    #expect((0..<4).allSatisfy { right.pixel(x: $0, y: 1) == (0, 0, 255) })
    #expect(right.region == UnitRect(x: 0.75, y: 0, width: 0.25, height: 1))
    let middle = try decode(png, size: (2, 1), region: UnitRect(x: 0.25, y: 0, width: 0.5, height: 1))
    #expect(middle.pixel(x: 0, y: 0) == (255, 0, 0) && middle.pixel(x: 1, y: 0) == (0, 0, 255))
    // The same for a JPEG decoded at a reduced scale with a crop.
    var pixels: [UInt8] = []
    for _ in 0..<256 { for x in 0..<512 { pixels += x < 256 ? [250, 10, 10] : [10, 10, 250] } }
    let jpeg = try F.jpeg(width: 512, height: 256, pixels: pixels)
    for size in [(4, 2), (100, 50)] {
      let cut = try decode(jpeg, size: size, region: UnitRect(x: 0.6, y: 0.25, width: 0.4, height: 0.5))
      let (r, _, b) = cut.pixel(x: size.0 / 2, y: size.1 / 2)
      #expect(b > 200 && r < 40, "\(size)")
    }
  }

  @Test func interlacedPNGsPutEveryPassWhereItBelongs() throws {
    // An Adam7 PNG: every pass lands where it belongs, so a 2 × 2 reduction of a four-colour
    // picture is its four quarters (read from pass 1 alone, every 8th pixel both ways, which
    // already has a pixel for each), and the full size is the picture itself (all 7 passes).
    let width = 16
    let height = 16
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let c: (UInt8, UInt8, UInt8) =
          y < 8 ? (x < 8 ? (255, 0, 0) : (0, 255, 0)) : (x < 8 ? (0, 0, 255) : (255, 255, 255))
        rgba += [c.0, c.1, c.2, 255]
      }
    }
    let png = try F.pngInterlaced(width: width, height: height, rgba: rgba)
    #expect(try MediaDecoder.probe(png).interlaced)
    let quarters = try decode(png, size: (2, 2))
    #expect(quarters.pixel(x: 0, y: 0) == (255, 0, 0) && quarters.pixel(x: 1, y: 0) == (0, 255, 0))
    #expect(quarters.pixel(x: 0, y: 1) == (0, 0, 255) && quarters.pixel(x: 1, y: 1) == (255, 255, 255))
    #expect(quarters.scans == 1)
    let full = try decode(png)
    #expect(full.pixel(x: 7, y: 7) == (255, 0, 0) && full.pixel(x: 8, y: 9) == (255, 255, 255))
    #expect(full.scans == 7)
  }

  @Test func anInterlacedPNGThumbnailReadsOnlyThePassesItNeeds() throws {
    // Passes 1 … p fill a grid of every 8th, then 4th, 2nd pixel; a thumbnail stops at the first
    // grid that gives each of its pixels one, and looks like the same picture stored plainly
    // (a gentle gradient: within 8 levels, what a grid sample and an 8 × 8 average differ by).
    let width = 64
    let height = 48
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { rgba += [UInt8(x * 2), UInt8(y * 2), 128, 255] }
    }
    let interlaced = try F.pngInterlaced(width: width, height: height, rgba: rgba)
    let plain = try F.png(width: width, height: height, rgba: rgba)
    let cases: [(size: (Int, Int), passes: Int)] = [
      ((8, 6), 1), ((16, 6), 2), ((16, 12), 3), ((32, 12), 4), ((32, 24), 5), ((64, 24), 6), ((64, 48), 7),
    ]
    for (size, passes) in cases {
      let thumbnail = try decode(interlaced, size: size)
      let reference = try decode(plain, size: size)
      #expect(thumbnail.scans == passes, "\(size)")
      let difference = zip(thumbnail.rgb, reference.rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(difference <= 8, "\(size): \(difference)")
    }
    // The full size is exactly the picture.
    #expect(try decode(interlaced).rgb == decode(plain).rgb)
  }

  @Test func everyPNGLayoutDecodesAsLibpngDoes() throws {
    // Gray of 1 to 16 bits, RGB, palette (with and without transparency), gray + alpha and
    // RGBA of 8 and 16 bits, plain and interlaced, at sizes that end mid-byte and mid-pass, and
    // gray and RGB with a colour key (which libpng reads): each pixel is what libpng's own
    // decode gives (16-bit samples scaled as png_set_scale_16 does), over the background.
    let layouts: [(type: Int, depths: [Int])] = [
      (0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16]),
    ]
    let background: (UInt8, UInt8, UInt8) = (10, 20, 200)
    for (type, depths) in layouts {
      for depth in depths {
        for interlaced in [false, true] {
          for alpha in type == 0 || type == 2 || type == 3 ? [false, true] : [false] {
            for (width, height) in [(1, 1), (7, 5), (33, 17), (3, 40), (301, 29)] {
              let name = "type \(type), \(depth) bits, interlaced \(interlaced), alpha \(alpha), \(width)×\(height)"
              let png = try F.pngVariant(
                width: width, height: height, colorType: type, depth: depth, interlaced: interlaced, alpha: alpha)
              let image = try MediaDecoder.decode(
                png, limits: limits, size: (width, height), background: (background.0, background.1, background.2))
              #expect(image.rgb == (try F.libpngRGB(png, background: background)), "\(name)")
            }
          }
        }
      }
    }
  }

  @Test func theReducerGivesTheAreaMeansPixels() throws {
    // The reducer (cmd_reduce_rows) must give the pixels of the area mean written out plainly
    // (`areaMean`): every channel count, whole ratios both ways (2:1, 3:1, 1:2, …) and ratios
    // that are not whole (500×375 to 250×188, in small), a region, enlarging, output rows over many source rows and over whole source rows
    // only (no partly covered row).
    let seed = TestSeed()
    var generator = seed.generator
    let cases: [(width: Int, height: Int, size: (Int, Int), region: (Double, Double, Double, Double), white: Bool)] = [
      (97, 600, (7, 2), (0, 0, 1, 1), false),
      (19, 512, (3, 2), (0, 0, 1, 1), true),
      (64, 64, (8, 8), (0, 0, 1, 1), false),
      (133, 71, (17, 9), (0, 0, 1, 1), false),
      (50, 40, (120, 90), (0, 0, 1, 1), false),
      (211, 157, (23, 19), (0.13, 0.21, 0.6, 0.5), false),
      (1, 300, (1, 3), (0, 0, 1, 1), false),
      (100, 75, (50, 38), (0, 0, 1, 1), false),
      (66, 34, (33, 17), (0, 0, 1, 1), false),
      (99, 45, (33, 15), (0, 0, 1, 1), false),
      (67, 35, (16, 35), (0, 0, 1, 1), false),
      (21, 13, (42, 39), (0, 0, 1, 1), false),
      (37, 29, (37, 29), (0, 0, 1, 1), false),
      (125, 94, (16, 12), (0, 0, 1, 1), false),
    ]
    for channels in 1...4 {
      for item in cases {
        let count = item.width * item.height * channels
        let pixels = (0..<count).map { _ in item.white ? 255 : UInt8.random(in: 0...255, using: &generator) }
        var target = cmd_target()
        target.width = UInt32(item.size.0)
        target.height = UInt32(item.size.1)
        (target.x, target.y, target.region_width, target.region_height) = item.region
        target.background = channels == 2 && item.width % 2 == 0 ? (90, 90, 90) : (200, 100, 50)
        let expected = Self.areaMean(pixels, width: item.width, height: item.height, channels: channels, target)
        var image = cmd_image()
        var message = [CChar](repeating: 0, count: 200)
        let status = cmd_reduce_rows(
          pixels, UInt32(item.width), UInt32(item.height), UInt32(channels), &target, &image, &message,
          message.count)
        defer { cmd_free(&image) }
        try #require(status == 0, "\(MediaFixtures.text(of: message)), \(seed)")
        let reduced = Array(UnsafeBufferPointer(start: image.pixels, count: image.byte_count))
        #expect(reduced == expected, "\(channels) channels, \(item.width)×\(item.height) to \(item.size), \(seed)")
      }
    }
  }

  /// The reducer's definition written out plainly: each output pixel is the mean of the source
  /// pixels its part of the region covers, each weighted by its overlap in 1/256 of a pixel
  /// along each axis (a pixel narrower than 1/256 takes the pixel under it), rounded half up,
  /// with transparent pixels composited over the background first (gray stays one channel
  /// over a gray background).
  static func areaMean(_ pixels: [UInt8], width: Int, height: Int, channels: Int, _ target: cmd_target) -> [UInt8] {
    struct Span {
      var first = 0, last = 0, firstWeight = 0, lastWeight = 0, total = 0
      func weight(_ p: Int) -> Int { p == first ? firstWeight : p + 1 == last ? lastWeight : 256 }
    }
    func spans(_ count: Int, from: Int, to: Int, size: Int) -> [Span] {
      (0..<count).map { k in
        let a = from + (to - from) * k / count
        let b = from + (to - from) * (k + 1) / count
        guard b > a else {
          let pixel = min(a / 256, size - 1)
          return Span(first: pixel, last: pixel + 1, firstWeight: 1, lastWeight: 1, total: 1)
        }
        let first = a / 256
        let last = max(first + 1, min(size, (b + 255) / 256))
        return Span(
          first: first, last: last, firstWeight: min((first + 1) * 256, b) - a,
          lastWeight: b - max((last - 1) * 256, a), total: b - a)
      }
    }
    func unit(_ value: Double) -> Double { min(1, max(0, value)) }
    func range(_ start: Double, _ length: Double, _ size: Int) -> (Int, Int) {
      var low = Int((unit(start) * Double(size) * 256).rounded())
      var high = Int((unit(start + length) * Double(size) * 256).rounded())
      if high <= low { high = low + 1 }
      if high > size * 256 { (low, high) = (size * 256 - 1, size * 256) }
      return (low, high)
    }
    let (x0, x1) = range(target.x, target.region_width, width)
    let (y0, y1) = range(target.y, target.region_height, height)
    let columns = spans(Int(target.width), from: x0, to: x1, size: width)
    let rows = spans(Int(target.height), from: y0, to: y1, size: height)
    let background = [Int(target.background.0), Int(target.background.1), Int(target.background.2)]
    let grayWork = channels == 1 || (channels == 2 && background[0] == background[1] && background[1] == background[2])
    func over(_ value: Int, _ alpha: Int, _ back: Int) -> Int { (value * alpha + back * (255 - alpha) + 127) / 255 }
    // A source pixel's working value in channel c (0 … 2).
    func value(_ x: Int, _ y: Int, _ c: Int) -> Int {
      let p = (y * width + x) * channels
      switch channels {
      case 1: return Int(pixels[p])
      case 2: return over(Int(pixels[p]), Int(pixels[p + 1]), background[grayWork ? 0 : c])
      case 3: return Int(pixels[p + c])
      default:
        let alpha = Int(pixels[p + 3])
        return alpha == 255 ? Int(pixels[p + c]) : over(Int(pixels[p + c]), alpha, background[c])
      }
    }
    var out: [UInt8] = []
    for row in rows {
      for column in columns {
        for c in 0..<3 {
          var sum = 0
          for y in row.first..<row.last {
            for x in column.first..<column.last {
              sum += row.weight(y) * column.weight(x) * value(x, y, grayWork ? 0 : c)
            }
          }
          let total = row.total * column.total
          out.append(UInt8(min(255, (sum + total / 2) / total)))
        }
      }
    }
    return out
  }

  @Test func largePNGsGiveLibpngsPixelsAndErrors() throws {
    // Over 1 MiB of image data: the pixels are libpng's, in RGB and RGBA of 8 and 16 bits, at
    // full size, and reduced; cut short, it is truncated.
    let background: (UInt8, UInt8, UInt8) = (10, 20, 200)
    for (type, depth) in [(2, 8), (6, 8), (6, 16)] {
      let png = try F.pngVariant(width: 700, height: 500, colorType: type, depth: depth, interlaced: false)
      let image = try MediaDecoder.decode(png, limits: limits, size: (700, 500), background: background)
      #expect(image.rgb == (try F.libpngRGB(png, background: background)), "type \(type), \(depth) bits")
      #expect(try decode(png, size: (70, 50)).rgb.count == 70 * 50 * 3)
      #expect(failure(Array(png[..<(png.count * 3 / 5)]), size: (70, 50))?.kind == .truncated, "type \(type)")
    }
    // A row with filter type 5 near the top; and random stored rows with one byte of the
    // compressed data changed late.
    var generator = SeededGenerator(seed: 14)
    var rows: [(filter: UInt8, bytes: [UInt8])] = []
    for row in 0..<500 {
      let bytes = (0..<700 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
      rows.append((UInt8(row == 3 ? 5 : row % 5), bytes))
    }
    let badFilter = try F.pngFiltered(width: 700, colorType: 2, rows: rows)
    let error = failure(badFilter, size: (70, 50))
    #expect(
      error?.kind == .corrupt && error?.message.contains("bad adaptive filter value") == true,
      "\(String(describing: error))")
    var broken = try F.pngFiltered(
      width: 700, colorType: 2, rows: rows.map { ($0.filter == 5 ? 4 : $0.filter, $0.bytes) })
    #expect(failure(broken, size: (70, 50)) == nil)
    broken[broken.count - 5000] ^= 0x55
    #expect(failure(broken, size: (70, 50))?.kind == .corrupt)
    // Out of time (the budget rounds up to 1 ms).
    let large = try F.pngVariant(width: 2000, height: 1000, colorType: 2, depth: 8, interlaced: false)
    var tight = MediaLimits.standard
    tight.timeBudget = .zero
    #expect(failure(large, limits: tight, size: (70, 50))?.kind == .timedOut)
  }

  @Test func aHugePNGHeaderIsRejectedBeforeDecoding() throws {
    let small = try F.png(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16))
    let huge = F.pngClaiming(width: 100_000, height: 100_000, from: small)
    #expect(try MediaDecoder.probe(huge).width == 100_000)
    var error: MediaError?
    let elapsed = seconds { error = failure(huge) }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.contains("100000x100000") == true)
    #expect(elapsed < 1)
  }

  @Test func aTruncatedPNGIsRejected() throws {
    let png = try F.png(width: 64, height: 64, rgba: F.noise(count: 64 * 64 * 4))
    for cut in [png.count / 2, png.count - 13, 40] {
      let error = failure(Array(png[..<cut]))
      #expect(error?.kind == .truncated, "cut at \(cut): \(String(describing: error))")
    }
    #expect(failure(Array(png[..<20]))?.kind == .truncated)
  }

  @Test func textAndProfileBombsInPNGsStayCheap() throws {
    let png = try F.pngSplit(width: 4, height: 4, top: (255, 0, 0), bottom: (0, 0, 255))
    // 64 MB of zeros as compressed text and as a compressed ICC profile; libpng stops
    // inflating ancillary chunks at its 8 MB chunk limit.
    let zeros = try F.deflatedZeros(64 << 20)
    #expect(zeros.count < 200_000)
    let ztxt = F.chunk("zTXt", Array("Comment".utf8) + [0, 0] + zeros)
    let iccp = F.chunk("iCCP", Array("bomb".utf8) + [0, 0] + zeros)
    for bomb in [F.png(png, inserting: [ztxt]), F.png(png, inserting: [iccp])] {
      var result: Result<DecodedImage, MediaError>?
      let elapsed = seconds { result = Result { () throws(MediaError) in try decode(bomb) } }
      #expect(elapsed < 2)
      // The pixels still decode: the bomb chunk is dropped, not inflated to 64 MB.
      let image = try #require(try? result?.get())
      #expect(image.pixel(x: 0, y: 0) == (255, 0, 0))
    }
  }
}
