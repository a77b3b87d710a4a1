import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia
@testable import UNTermRender

/// Durations read from container headers.
@Suite struct MediaProbeTests {
  typealias F = MediaFixtures

  private func duration(_ name: String, _ bytes: [UInt8]) throws -> Double? {
    let folder = try F.Folder()
    return MediaProbe.duration(of: try folder.write(name, bytes))
  }

  @Test func wavDurationIsDataBytesOverByteRate() throws {
    let wav = F.wav(sampleRate: 8000, channels: 1, bitsPerSample: 16, frames: 16_000)
    #expect(try duration("tone.wav", wav) == 2.0)
    let stereo = F.wav(sampleRate: 22_050, channels: 2, bitsPerSample: 8, frames: 11_025)
    #expect(try duration("stereo.wav", stereo) == 0.5)
  }

  @Test func aiffDurationIsFramesOverTheExtendedSampleRate() throws {
    #expect(try duration("tone.aiff", F.aiff(sampleRate: 44_100, frames: 88_200)) == 2.0)
    #expect(MediaProbe.extended80([0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]) == 44_100)
    #expect(MediaProbe.extended80([0x7F, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
  }

  @Test func mp4DurationComesFromTheMovieHeader() throws {
    #expect(try duration("clip.mp4", F.mp4(timescale: 600, duration: 1500)) == 2.5)
    #expect(try duration("clip.m4a", F.mp4(timescale: 1000, duration: 61_000, version: 1)) == 61)
    // The movie box after a large media box is found by skipping, not reading, the media.
    #expect(try duration("late.mov", F.mp4(timescale: 90_000, duration: 450_000, mdatBytes: 200_000)) == 5)
    #expect(try duration("zero.mp4", F.mp4(timescale: 0, duration: 10)) == nil)
  }

  /// A header can claim any length (here 1.8e19 s, past `Int.max`): the player's clock holds
  /// it to 9999 hours instead of trapping when it converts to whole seconds.
  @Test func aHeaderClaimingAnyLengthReachesThePlayerClockWithoutATrap() throws {
    let claimed = F.mp4(timescale: 1, duration: 0xFFFF_FFFF_FFFF_FFFE, version: 1)
    let seconds = try #require(try duration("huge.m4a", claimed))
    #expect(seconds > 1.8e19)
    #expect(Renderer.clock(seconds) == "9999:00:00")
    #expect(Renderer.clock(.nan) == "--:--" && Renderer.clock(.infinity) == "--:--")
    #expect(Renderer.clock(65) == "1:05")
  }

  @Test func mp3DurationFromXingOrConstantBitRate() throws {
    let cbr = try #require(try duration("cbr.mp3", F.mp3(frames: 100)))
    #expect(abs(cbr - 100 * 417 * 8 / 128_000.0) < 0.001)
    let vbr = try #require(try duration("vbr.mp3", F.mp3(frames: 3, xingFrames: 1000)))
    #expect(abs(vbr - 1000 * 1152 / 44_100.0) < 0.001)
  }

  @Test func garbageGivesNoDuration() throws {
    #expect(try duration("empty.wav", []) == nil)
    let randomSeed = TestSeed()
    var generator = randomSeed.generator
    let seeds = [
      F.wav(sampleRate: 8000, channels: 1, bitsPerSample: 16, frames: 100),
      F.aiff(sampleRate: 44_100, frames: 100), F.mp4(timescale: 600, duration: 60), F.mp3(frames: 4, xingFrames: 9),
    ]
    let folder = try F.Folder()
    for (n, seed) in seeds.enumerated() {
      for round in 0..<60 {
        var bytes = seed
        if round % 2 == 0 {
          bytes = Array(bytes[..<Int.random(in: 1..<bytes.count, using: &generator)])
        } else {
          for _ in 0..<6 {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
          }
        }
        let value = MediaProbe.duration(of: try folder.write("f\(n)-\(round)", bytes))
        #expect(value.map { $0.isFinite && $0 >= 0 } ?? true, "\(randomSeed)")
      }
    }
    #expect(MediaProbe.duration(of: try #require(URL(string: "https://example.com/a.mp3"))) == nil)
    #expect(MediaProbe.duration(of: folder.url) == nil)
  }
}
