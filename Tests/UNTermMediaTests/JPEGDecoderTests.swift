import CMediaDecode
import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// JPEGs through the C decoder and its Swift wrapper: sizes, colours, scales, and hostile JPEGs.
@Suite("JPEG decoding") struct JPEGDecoderTests: MediaDecoderTesting {
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
}
