import CMediaDecode
import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// The C decoder through its Swift wrapper: GIFs, and hostile input of every kind (PNGs and JPEGs
/// have suites of their own).
@Suite struct MediaDecoderTests: MediaDecoderTesting {
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
