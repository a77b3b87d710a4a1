import CMediaDecode
import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// What the decoder suites share: standard limits over a black background, and decodes that
/// give the image, the error, or the CPU time taken.
protocol MediaDecoderTesting {}

extension MediaDecoderTesting {
  typealias F = MediaFixtures
  var limits: MediaLimits { .standard }
  var black: (r: UInt8, g: UInt8, b: UInt8) { (0, 0, 0) }

  /// The whole picture at its full size (every output pixel is one source pixel), or at `size`.
  func decode(
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
  func failure(_ bytes: [UInt8], limits: MediaLimits = .standard, size: (Int, Int) = (8, 6)) -> MediaError? {
    do {
      _ = try decode(bytes, limits: limits, size: size)
      return nil
    } catch {
      return error
    }
  }

  /// The CPU time `body` takes (not wall-clock time: a busy machine must not fail these).
  func seconds(_ body: () -> Void) -> Double {
    CPUTime.seconds(body)
  }
}
