import CMediaDecode
import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// The C decoder through its Swift wrapper: sizes, colours, and every hostile-input case.
@Suite struct MediaDecoderTests {
  typealias F = MediaFixtures
  let limits = MediaLimits.standard
  let black: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)

  /// The whole picture at its full size (every output pixel is one source pixel), or at `size`.
  private func decode(
    _ bytes: [UInt8], limits: MediaLimits = .standard, size: (Int, Int)? = nil, region: UnitRect = .whole
  ) throws(MediaError) -> DecodedImage {
    var full = (1, 1)
    if let size {
      full = size
    } else {
      let header = try MediaDecoder.probe(bytes)
      full = (header.width, header.height)
    }
    return try MediaDecoder.decode(
      bytes, limits: limits, region: region, size: (full.0, full.1), background: black)
  }

  /// The error a decode throws, or nil when it succeeds, at `size` (a thumbnail by default).
  private func failure(_ bytes: [UInt8], limits: MediaLimits = .standard, size: (Int, Int) = (8, 6)) -> MediaError? {
    do {
      _ = try decode(bytes, limits: limits, size: size)
      return nil
    } catch {
      return error
    }
  }

  /// The CPU time `body` takes (not wall-clock time: a busy machine must not fail these).
  private func seconds(_ body: () -> Void) -> Double {
    CPUTime.seconds(body)
  }

  // MARK: - PNG

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

  // MARK: - JPEG

  @Test func jpegDecodesToItsSizeAndColour() throws {
    let jpeg = try F.jpegSolid(width: 24, height: 16, (250, 20, 20))
    // libjpeg's fastest decode, its 1/8 scale, serves up to 3 × 2.
    #expect(
      try MediaDecoder.probe(jpeg)
        == ImageHeader(
          width: 24, height: 16, format: .jpeg, interlaced: false, fastSize: ImageHeader.Size(width: 3, height: 2)))
    let image = try decode(jpeg)
    #expect(image.width == 24 && image.height == 16 && image.format == .jpeg)
    let (r, g, b) = image.pixel(x: 5, y: 5)
    #expect(abs(Int(r) - 250) <= 8 && g <= 30 && b <= 30)
  }

  @Test func progressiveAndGrayscaleJPEGsDecode() throws {
    let progressive = try F.jpeg(width: 40, height: 30, layout: .progressive)
    #expect(try MediaDecoder.probe(progressive).interlaced)
    let image = try decode(progressive)
    #expect(image.width == 40 && image.scans > 1)
    let gray = try F.jpeg(width: 8, height: 8, components: 1, pixels: [UInt8](repeating: 128, count: 64))
    let decoded = try decode(gray)
    #expect(decoded.pixel(x: 3, y: 3) == (128, 128, 128))
  }

  @Test func adobeCMYKJPEGsBecomeRGB() throws {
    // Inverted CMYK as Adobe writes it: red is C=0 M=100% Y=100% K=0, stored as 255-value.
    let red: [UInt8] = [255, 0, 0, 255]
    let jpeg = try F.jpeg(width: 8, height: 8, components: 4, pixels: (0..<64).flatMap { _ in red })
    let (r, g, b) = try decode(jpeg).pixel(x: 4, y: 4)
    #expect(r >= 240 && g <= 15 && b <= 15)
  }

  @Test func aLargeJPEGDecodesAtTheSmallestScaleThatCoversTheSize() throws {
    for layout in [F.JPEGLayout.baseline, .progressive] {
      let jpeg = try F.jpeg(width: 4000, height: 3000, quality: 60, layout: layout)
      let small = try decode(jpeg, size: (40, 30))
      #expect(small.scaleNumerator == 1 && small.scaleDenominator == 8)
      #expect(small.width == 40 && small.height == 30)
      #expect(small.sourceWidth == 4000 && small.sourceHeight == 3000)
      // 500 × 375 is the 1/8 scale exactly; one pixel more needs 2/8, and 1001 needs 3/8.
      #expect(try decode(jpeg, size: (500, 375)).scaleNumerator == 1)
      #expect(try decode(jpeg, size: (501, 375)).scaleNumerator == 2)
      #expect(try decode(jpeg, size: (1001, 10)).scaleNumerator == 3)
      // A region needs its share of the picture at the size asked: a quarter at 200 pixels
      // wide is 800 of the picture, 2/8.
      let quarter = UnitRect(x: 0.5, y: 0.5, width: 0.25, height: 0.25)
      #expect(try decode(jpeg, size: (200, 150), region: quarter).scaleNumerator == 2)
    }
  }

  @Test(arguments: [(200, 120), (1024, 1024)])
  func theSmallestScaleGivesLibjpegsPixels(_ width: Int, _ height: Int) throws {
    // A thumbnail at 1/8 is libjpeg's own 1/8 decode: a grey picture (one component, its 1 × 1
    // inverse DCT, which the fast DCT shares) matches it exactly, baseline and progressive,
    // from memory and from a file read a block at a time, and decoded side by side.
    var generator = SeededGenerator(seed: 11)
    let gray = (0..<width * height).map { i in
      UInt8((i % width + i / width) % 200) &+ UInt8.random(in: 0...40, using: &generator)
    }
    for layout in [F.JPEGLayout.baseline, .progressive] {
      let jpeg = try F.jpeg(width: width, height: height, components: 1, pixels: gray, quality: 85, layout: layout)
      let (w, h) = ((width + 7) / 8, (height + 7) / 8)
      let dc = try decode(jpeg, size: (w, h))
      #expect(dc.scaleNumerator == 1 && dc.width == w)
      let reference = try F.libjpegEighth(jpeg)
      #expect(reference.count == w * h)
      #expect((0..<w * h).allSatisfy { dc.rgb[$0 * 3] == reference[$0] }, "\(layout) \(width)×\(height)")
      // The same read from a file, a block at a time.
      let folder = try F.Folder()
      let file = try MediaFile(path: try folder.write("gray.jpg", jpeg).path)
      let fromFile = try MediaDecoder.decode(
        .file(file), limits: .standard, size: (w, h), orientation: .up, background: black)
      #expect(fromFile.rgb == dc.rgb)
      let expected = (0..<w * h).flatMap { [reference[$0], reference[$0], reference[$0]] }
      let (limits, background) = (self.limits, black)
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        let image = try? MediaDecoder.decode(jpeg, limits: limits, size: (w, h), background: background)
        #expect(image?.rgb == expected, "decoded side by side")
      }
    }
  }

  @Test func aTruncatedJPEGIsRejected() throws {
    for layout in [F.JPEGLayout.baseline, .progressive] {
      let jpeg = try F.jpeg(width: 64, height: 64, pixels: F.noise(count: 64 * 64 * 3), layout: layout)
      for cut in [jpeg.count * 6 / 10, jpeg.count - 2, 300, 3] {
        // A thumbnail (libjpeg's 1/8 scale) and the full size both refuse it.
        for size in [(8, 8), (64, 64)] {
          let error = failure(Array(jpeg[..<cut]), size: size)
          #expect(error?.kind == .truncated, "\(layout) cut at \(cut), \(size): \(String(describing: error))")
        }
      }
    }
  }

  /// Found by the `media` fuzz target: libjpeg skips a marker segment whose length is 0 or 1, so
  /// the decoder drew a JPEG the header check calls corrupt. Both now refuse it, at every
  /// scale, from memory and from a file.
  @Test func aMarkerWithALengthBelowTwoIsCorruptForTheProbeAndTheDecoder() throws {
    let jpeg = try F.jpeg(width: 64, height: 64)
    let folder = try F.Folder()
    for length: UInt8 in [0, 1] {
      let bad = Array(jpeg[..<2]) + [0xFF, 0xE0, 0x00, length] + Array(jpeg[2...])
      #expect(throws: MediaError.self) { try MediaDecoder.probe(bad) }
      for size in [(64, 64), (8, 8)] {
        #expect(failure(jpeg, size: size) == nil)
        #expect(failure(bad, size: size)?.kind == .corrupt, "\(size): \(String(describing: failure(bad, size: size)))")
        let file = try MediaFile(path: try folder.write("bad-\(length).jpg", bad).path)
        #expect(throws: MediaError.self) {
          try MediaDecoder.decode(.file(file), limits: .standard, size: size, orientation: .up, background: black)
        }
      }
    }
  }

  /// Found by the `media` fuzz target: a Huffman table with more codes of a length than the
  /// length allows (here 200 one-bit codes) overflowed the lookup table of the hand-written DC
  /// decoder UNTerm once had. libjpeg, which never builds that table (a valid table of the same
  /// class replaces it before the scan), draws the picture, at a thumbnail's scale and at full
  /// size, from memory and from a file.
  @Test func aHuffmanTableReplacedBeforeTheScanIsDrawnAsLibjpegDrawsIt() throws {
    let jpeg = try F.jpeg(width: 64, height: 64, components: 1)
    let table: [UInt8] = [0x00, 200] + [UInt8](repeating: 0, count: 15) + [UInt8](repeating: 0, count: 200)
    let length = table.count + 2
    let bad = Array(jpeg[..<2]) + [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 0xFF)] + table + Array(jpeg[2...])
    let folder = try F.Folder()
    let file = try MediaFile(path: try folder.write("bad-huffman.jpg", bad).path)
    for size in [(8, 8), (64, 64)] {
      let drawn = try decode(bad, size: size)
      #expect(drawn.rgb == (try decode(jpeg, size: size)).rgb, "\(size)")
      let fromFile = try MediaDecoder.decode(
        .file(file), limits: .standard, size: size, orientation: .up, background: black)
      #expect(fromFile.rgb == drawn.rgb)
    }
  }

  @Test func aJPEGClaimingOverFourGigapixelsIsRejectedQuickly() throws {
    let jpeg = try F.jpeg(width: 16, height: 16)
    let huge = try F.jpegClaiming(width: 65_535, height: 65_535, from: jpeg)
    var error: MediaError?
    let elapsed = seconds { error = failure(huge) }
    #expect(error?.kind == .tooLarge)
    #expect(elapsed < 1)
  }

  @Test func aProgressiveHeaderThatWouldAllocateGigabytesIsStoppedByTheMemoryCap() throws {
    // The LJT-01-003 pattern: a tiny progressive file whose header asks for a whole-image
    // coefficient buffer of gigabytes. With the pixel caps lifted, libjpeg's memory cap still
    // stops it before the allocation.
    let jpeg = try F.jpeg(width: 16, height: 16, layout: .progressive)
    let huge = try F.jpegClaiming(width: 60_000, height: 40_000, from: jpeg)
    var loose = MediaLimits.standard
    (loose.maxWidth, loose.maxHeight, loose.maxPixels) = (65_535, 65_535, 1 << 40)
    loose.maxDecoderMemory = 64 << 20
    var error: MediaError?
    let elapsed = seconds { error = failure(huge, limits: loose) }
    #expect(error?.kind == .outOfMemory, "\(String(describing: error))")
    #expect(elapsed < 2)
    // With the standard caps it never gets that far.
    #expect(failure(huge)?.kind == .tooLarge)
  }

  @Test func aProgressiveJPEGWithTooManyScansIsRejectedInBudget() throws {
    let jpeg = try F.jpeg(width: 16, height: 16, components: 1, pixels: F.noise(count: 256), layout: .manyScans)
    var error: MediaError?
    let elapsed = seconds { error = failure(jpeg) }
    #expect(error?.kind == .tooManyScans)
    #expect(elapsed < 2)
    // The file itself is valid: with a higher cap all 694 scans decode.
    var loose = MediaLimits.standard
    loose.maxScans = 1000
    #expect(try decode(jpeg, limits: loose).scans == 694)
  }

  @Test func repeatedScansAreRejectedAsCorruptInBudget() throws {
    let jpeg = try F.jpeg(width: 32, height: 32, components: 1, pixels: F.noise(count: 1024), layout: .progressive)
    let bomb = try F.jpegRepeatingLastScan(jpeg, times: 2000)
    var error: MediaError?
    let elapsed = seconds { error = failure(bomb) }
    // libjpeg refuses the first repeated scan (its progression warning, an error here), long
    // before the scan cap is reached.
    #expect(error?.kind == .corrupt, "\(String(describing: error))")
    #expect(String(describing: error).contains("Inconsistent progression sequence"))
    #expect(elapsed < 2)
  }

  @Test func theTimeBudgetStopsADecode() throws {
    // 694 scans over 1024 blocks take far longer than the 1 ms budget (zero rounds up to 1).
    let jpeg = try F.jpeg(
      width: 256, height: 256, components: 1, pixels: F.noise(count: 65_536), layout: .manyScans)
    var tight = MediaLimits.standard
    tight.maxScans = 0
    tight.timeBudget = .zero
    var error: MediaError?
    let elapsed = seconds { error = failure(jpeg, limits: tight, size: (256, 256)) }
    #expect(error?.kind == .timedOut, "\(String(describing: error))")
    #expect(elapsed < 2)
  }

  // MARK: - GIF

  /// giflib clears its 16 KB code table at every clear code, so a 1 × 1 GIF whose image data is
  /// three megabytes of clear codes kept it inside one line's decode for 20 s of CPU and then
  /// drew the pixel. The budget is now looked at as giflib reads, and stops it.
  @Test func aGIFOfClearCodesIsStoppedByTheTimeBudget() throws {
    var bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0xF7, 0, 0]  // a 256-colour table
    bytes += [UInt8](repeating: 0, count: 768)
    bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 8]  // a 1 × 1 frame, 8-bit codes (9 bits wide)
    var packed: [UInt8] = []
    packed.reserveCapacity(3 << 20)
    var (buffer, count): (UInt32, Int) = (0, 0)
    func put(_ code: UInt32) {
      buffer |= code << count
      count += 9
      while count >= 8 {
        packed.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        count -= 8
      }
    }
    for _ in 0..<2_600_000 { put(256) }  // clear
    put(0)
    put(257)  // end
    if count > 0 { packed.append(UInt8(buffer & 0xFF)) }
    for start in stride(from: 0, to: packed.count, by: 255) {
      let block = packed[start..<min(start + 255, packed.count)]
      bytes.append(UInt8(block.count))
      bytes += block
    }
    bytes += [0, 0x3B]
    var tight = MediaLimits.standard
    tight.timeBudget = .milliseconds(200)
    var error: MediaError?
    let elapsed = seconds { error = failure(bytes, limits: tight, size: (1, 1)) }
    #expect(error?.kind == .timedOut, "\(String(describing: error))")
    #expect(error?.message == "GIF decoding ran out of time")
    #expect(elapsed < 2, "\(elapsed) s")
  }

  @Test func gifFirstFrameDecodes() throws {
    let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 0, 255), (0, 255, 0), (9, 9, 9)]
    let indices: [UInt8] = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    for interlaced in [false, true] {
      let gif = F.gif(width: 4, height: 4, indices: indices, palette: palette, interlaced: interlaced)
      #expect(try MediaDecoder.probe(gif).format == .gif)
      let image = try decode(gif)
      #expect(image.width == 4 && image.height == 4 && image.format == .gif)
      #expect(image.pixel(x: 0, y: 0) == (255, 0, 0))
      #expect(image.pixel(x: 3, y: 1) == (0, 0, 255))
      #expect(image.pixel(x: 0, y: 2) == (0, 255, 0))
      #expect(image.pixel(x: 3, y: 3) == (9, 9, 9))
    }
    let clear = F.gif(width: 2, height: 1, indices: [0, 1], palette: palette, transparent: 0)
    let image = try MediaDecoder.decode(clear, limits: limits, size: (2, 1), background: (1, 2, 3))
    #expect(image.pixel(x: 0, y: 0) == (1, 2, 3))
    #expect(image.pixel(x: 1, y: 0) == (0, 0, 255))
  }

  @Test func aGIFFrameSitsAtItsPlaceOnTheScreen() throws {
    // A 2 × 2 frame at (1, 1) of a 4 × 3 screen: around it the screen is transparent (the
    // background shows); a frame at (3, 0) shows only the column that is on the screen.
    let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 0, 255), (0, 255, 0), (9, 9, 9)]
    func placed(left: UInt8, top: UInt8) -> [UInt8] {
      var gif = F.gif(width: 2, height: 2, indices: [0, 1, 2, 3], palette: palette)
      (gif[6], gif[8]) = (4, 3)  // the screen
      #expect(gif[25] == 0x2C)
      (gif[26], gif[28]) = (left, top)  // the frame's place
      return gif
    }
    let background: (UInt8, UInt8, UInt8) = (7, 7, 7)
    let inside = try MediaDecoder.decode(placed(left: 1, top: 1), limits: limits, size: (4, 3), background: background)
    let rows = (0..<3).map { y in (0..<4).map { x in inside.pixel(x: x, y: y) }.map { [$0.r, $0.g, $0.b] } }
    let bg: [UInt8] = [7, 7, 7]
    #expect(rows == [[bg, bg, bg, bg], [bg, [255, 0, 0], [0, 0, 255], bg], [bg, [0, 255, 0], [9, 9, 9], bg]])
    let edge = try MediaDecoder.decode(placed(left: 3, top: 0), limits: limits, size: (4, 3), background: background)
    #expect(edge.pixel(x: 3, y: 0) == (255, 0, 0) && edge.pixel(x: 3, y: 1) == (0, 255, 0))
    #expect(edge.pixel(x: 2, y: 0) == background && edge.pixel(x: 3, y: 2) == background)
  }

  @Test func everyCutOfAGIFIsRefusedAndNothingElseIs() throws {
    let gif = F.gif(width: 8, height: 8, indices: (0..<64).map { UInt8($0 % 4) }, palette: [(1, 2, 3), (4, 5, 6)])
    #expect(failure(gif) == nil)
    for cut in 6..<gif.count - 1 {  // shorter is no GIF at all
      let error = failure(Array(gif[..<cut]))
      #expect(error?.kind == .truncated || error?.kind == .corrupt, "cut at \(cut): \(String(describing: error))")
    }
    // No colour table at all (the global one's flag cleared, no local one).
    var bare = Array(gif[..<13]) + Array(gif[25...])
    bare[10] &= 0x7F
    #expect(failure(bare)?.message == "GIF image has no colour table")
  }

  @Test func brokenGIFsAreRejected() throws {
    let gif = F.gif(width: 8, height: 8, indices: [UInt8](repeating: 1, count: 64), palette: [(0, 0, 0), (1, 1, 1)])
    #expect(failure(Array(gif[..<(gif.count - 12)]))?.kind == .truncated)
    var huge = gif
    huge[6] = 0xFF
    huge[7] = 0xFF
    huge[8] = 0xFF
    huge[9] = 0xFF
    #expect(failure(huge)?.kind == .tooLarge)
  }

  // MARK: - Hostile input

  @Test func corruptFilesNeverEndTheProcess() throws {
    let seeds: [[UInt8]] = [
      try F.jpeg(width: 32, height: 24, pixels: F.noise(count: 32 * 24 * 3)),
      try F.jpeg(width: 32, height: 24, layout: .progressive),
      try F.png(width: 16, height: 16, rgba: F.noise(count: 1024)),
      F.gif(width: 8, height: 8, indices: (0..<64).map { UInt8($0 % 4) }, palette: [(1, 2, 3), (4, 5, 6)]),
    ]
    let randomSeed = TestSeed()
    var generator = randomSeed.generator
    var outcomes = (ok: 0, failed: 0)
    let elapsed = seconds {
      for seed in seeds {
        for round in 0..<150 {
          var bytes = seed
          switch round % 3 {
          case 0:  // flip a few bytes anywhere after the signature
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
              bytes[Int.random(in: 4..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
          case 1:  // cut anywhere
            bytes = Array(bytes[..<Int.random(in: 1..<bytes.count, using: &generator)])
          default:  // garbage in the middle
            let at = Int.random(in: 4..<bytes.count, using: &generator)
            bytes.insert(contentsOf: F.noise(count: 32, seed: UInt64(round + 1)), at: at)
          }
          let header = try? MediaDecoder.probe(bytes)
          if failure(bytes) == nil { outcomes.ok += 1 } else { outcomes.failed += 1 }
          // The full size as well, when the header gives a sane one (libjpeg for JPEGs).
          if let header, header.width * header.height <= 1 << 16 {
            _ = failure(bytes, size: (header.width, header.height))
          }
        }
      }
    }
    #expect(outcomes.ok + outcomes.failed == 600)
    #expect(outcomes.failed > 300, "\(randomSeed)")
    #expect(elapsed < 5)
  }

  @Test func notAnImageIsUnsupported() {
    #expect(failure(Array("hello, world".utf8))?.kind == .unsupported)
    #expect(failure([])?.kind == .truncated)
    #expect(throws: MediaError.self) { try MediaDecoder.probe([0xFF, 0xD8, 0xFF]) }
  }
}
