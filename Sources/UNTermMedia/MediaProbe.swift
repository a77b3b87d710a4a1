import Foundation
import UserNotificationsModel

/// Reads an audio or movie file's duration from its container header.
///
/// Pure Swift with bounded reads: at most a few hundred small reads at explicit offsets, never
/// the whole file, and any malformed, truncated or unexpected data gives `nil`.
package enum MediaProbe {
  /// Largest number of chunks or boxes walked at one level.
  private static let maxChunks = 512
  /// How far into an MP3 (after its ID3 tag) the first frame is looked for.
  private static let mp3SearchWindow = 64 * 1024

  /// The duration in seconds: WAV (data bytes ÷ byte rate), AIFF (frames ÷ sample rate from
  /// COMM), MP4/M4A/MOV (mvhd duration ÷ timescale), MP3 (Xing/Info or VBRI frame count, else
  /// a constant-bit-rate estimate from the first frame). `nil` when unknown.
  package static func duration(of url: URL) -> Double? {
    guard url.isFileURL, let file = try? MediaFile(path: url.path) else { return nil }
    let reader = Reader(file: file)
    guard let head = reader.bytes(at: 0, upTo: 64), let format = UNAttachmentFormat(sniffing: head)
    else { return nil }
    let seconds: Double?
    switch format {
    case .wav: seconds = wav(reader)
    case .aiff: seconds = aiff(reader)
    case .mp4, .m4a: seconds = mp4(reader)
    case .mp3: seconds = mp3(reader)
    default: seconds = nil
    }
    guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
    return seconds
  }

  // MARK: - WAV

  /// RIFF chunks: `fmt ` gives the byte rate, `data` the size of the samples.
  private static func wav(_ reader: Reader) -> Double? {
    var byteRate: Double?
    var dataSize: Int64?
    var offset: Int64 = 12
    for _ in 0..<maxChunks where offset + 8 <= reader.size {
      guard let header = reader.bytes(at: offset, count: 8) else { return nil }
      let id = String(decoding: header[0..<4], as: UTF8.self)
      let size = Int64(le32(header, 4))
      let body = offset + 8
      if id == "fmt " {
        guard size >= 16, let fmt = reader.bytes(at: body, count: 16) else { return nil }
        let rate = Double(le32(fmt, 8))
        let sampleRate = Double(le32(fmt, 4))
        let blockAlign = Double(le16(fmt, 12))
        byteRate = rate > 0 ? rate : sampleRate * blockAlign
      } else if id == "data" {
        // Streamed files may leave the size at 0 or 0xFFFFFFFF: use what the file holds.
        let available = reader.size - body
        dataSize = size == 0 || size == 0xFFFF_FFFF || size > available ? available : size
        if byteRate != nil { break }
      }
      offset = body + size + (size & 1)
    }
    guard let byteRate, byteRate > 0, let dataSize else { return nil }
    return Double(dataSize) / byteRate
  }

  // MARK: - AIFF

  /// The COMM chunk: sample frames ÷ sample rate (an 80-bit extended float).
  private static func aiff(_ reader: Reader) -> Double? {
    var offset: Int64 = 12
    for _ in 0..<maxChunks where offset + 8 <= reader.size {
      guard let header = reader.bytes(at: offset, count: 8) else { return nil }
      let id = String(decoding: header[0..<4], as: UTF8.self)
      let size = Int64(be32(header, 4))
      if id == "COMM" {
        guard size >= 18, let comm = reader.bytes(at: offset + 8, count: 18) else { return nil }
        let frames = Double(be32(comm, 2))
        guard let rate = extended80(Array(comm[8..<18])), rate.isFinite, rate > 0 else { return nil }
        return frames / rate
      }
      offset += 8 + size + (size & 1)
    }
    return nil
  }

  /// An IEEE 754 80-bit extended value (sign, 15-bit exponent, 64-bit mantissa with an
  /// explicit integer bit), or `nil` for infinities and NaNs.
  static func extended80(_ bytes: [UInt8]) -> Double? {
    guard bytes.count == 10 else { return nil }
    let exponent = (Int(bytes[0] & 0x7F) << 8) | Int(bytes[1])
    var mantissa: UInt64 = 0
    for byte in bytes[2..<10] { mantissa = (mantissa << 8) | UInt64(byte) }
    if exponent == 0x7FFF { return nil }
    if exponent == 0 && mantissa == 0 { return 0 }
    let magnitude = Double(mantissa) * pow(2, Double(exponent - 16383 - 63))
    return bytes[0] & 0x80 != 0 ? -magnitude : magnitude
  }

  // MARK: - MP4 / M4A / MOV

  /// The movie header (`moov` → `mvhd`): duration ÷ timescale.
  private static func mp4(_ reader: Reader) -> Double? {
    guard let moov = box("moov", in: reader, from: 0, to: reader.size),
      let mvhd = box("mvhd", in: reader, from: moov.body, to: moov.end),
      let body = reader.bytes(at: mvhd.body, upTo: min(32, Int(mvhd.end - mvhd.body)))
    else { return nil }
    guard let version = body.first else { return nil }
    let timescale: UInt32
    let duration: UInt64
    if version == 1 {
      guard body.count >= 32 else { return nil }
      timescale = be32(body, 20)
      duration = (UInt64(be32(body, 24)) << 32) | UInt64(be32(body, 28))
      guard duration != UInt64.max else { return nil }
    } else {
      guard body.count >= 20 else { return nil }
      timescale = be32(body, 12)
      duration = UInt64(be32(body, 16))
      guard duration != UInt64(UInt32.max) else { return nil }
    }
    guard timescale > 0 else { return nil }
    return Double(duration) / Double(timescale)
  }

  /// The first box of a type between two offsets: where its body starts and where it ends.
  private static func box(
    _ type: String, in reader: Reader, from start: Int64, to end: Int64
  ) -> (body: Int64, end: Int64)? {
    var offset = start
    for _ in 0..<maxChunks where offset + 8 <= end {
      guard let header = reader.bytes(at: offset, count: 8) else { return nil }
      var size = Int64(be32(header, 0))
      var headerSize: Int64 = 8
      if size == 1 {
        guard let large = reader.bytes(at: offset + 8, count: 8) else { return nil }
        let value = (UInt64(be32(large, 0)) << 32) | UInt64(be32(large, 4))
        guard value <= UInt64(Int64.max) else { return nil }
        size = Int64(value)
        headerSize = 16
      } else if size == 0 {
        size = end - offset
      }
      guard size >= headerSize, size <= end - offset else { return nil }
      if String(decoding: header[4..<8], as: UTF8.self) == type {
        return (offset + headerSize, offset + size)
      }
      offset += size
    }
    return nil
  }

  // MARK: - MP3

  /// The first MPEG audio frame after any ID3v2 tag: a Xing/Info or VBRI frame count when
  /// present, else the file's audio bytes at the first frame's bit rate.
  private static func mp3(_ reader: Reader) -> Double? {
    var start: Int64 = 0
    if let id3 = reader.bytes(at: 0, count: 10), id3.count == 10,
      String(decoding: id3[0..<3], as: UTF8.self) == "ID3"
    {
      let size = id3[6..<10].reduce(Int64(0)) { ($0 << 7) | Int64($1 & 0x7F) }
      start = 10 + size + (id3[5] & 0x10 != 0 ? 10 : 0)
    }
    guard let window = reader.bytes(at: start, upTo: mp3SearchWindow), window.count >= 4 else { return nil }
    var index = 0
    while index + 4 <= window.count {
      if let frame = MPEGFrame(window, at: index), confirmsNextFrame(frame, window, at: index) {
        let frameStart = start + Int64(index)
        if let frames = xingFrames(frame, window, at: index) ?? vbriFrames(window, at: index) {
          return Double(frames) * Double(frame.samplesPerFrame) / Double(frame.sampleRate)
        }
        var end = reader.size
        if end - 128 >= frameStart, let tag = reader.bytes(at: end - 128, count: 3),
          String(decoding: tag, as: UTF8.self) == "TAG"
        {
          end -= 128
        }
        return Double(end - frameStart) * 8 / Double(frame.bitrate)
      }
      index += 1
    }
    return nil
  }

  /// A following frame header agrees with this one, or the window ends before it.
  private static func confirmsNextFrame(_ frame: MPEGFrame, _ bytes: [UInt8], at index: Int) -> Bool {
    let next = index + frame.length
    guard next + 4 <= bytes.count else { return true }
    guard let following = MPEGFrame(bytes, at: next) else { return false }
    return following.version == frame.version && following.layer == frame.layer
      && following.sampleRate == frame.sampleRate
  }

  /// The frame count in a Xing or Info header, which sits after the frame's side information.
  private static func xingFrames(_ frame: MPEGFrame, _ bytes: [UInt8], at index: Int) -> UInt32? {
    guard frame.layer == 3 else { return nil }
    let side: Int
    switch (frame.version == 1, frame.mono) {
    case (true, true): side = 17
    case (true, false): side = 32
    case (false, true): side = 9
    case (false, false): side = 17
    }
    let tag = index + 4 + side
    guard tag + 12 <= bytes.count else { return nil }
    let id = String(decoding: bytes[tag..<tag + 4], as: UTF8.self)
    guard id == "Xing" || id == "Info", be32(bytes, tag + 4) & 1 != 0 else { return nil }
    let frames = be32(bytes, tag + 8)
    return frames > 0 ? frames : nil
  }

  /// The frame count in a Fraunhofer VBRI header, 32 bytes after the frame header.
  private static func vbriFrames(_ bytes: [UInt8], at index: Int) -> UInt32? {
    let tag = index + 4 + 32
    guard tag + 18 <= bytes.count, String(decoding: bytes[tag..<tag + 4], as: UTF8.self) == "VBRI"
    else { return nil }
    let frames = be32(bytes, tag + 14)
    return frames > 0 ? frames : nil
  }

  /// An MPEG-1/2/2.5 audio frame header.
  private struct MPEGFrame {
    /// 1 for MPEG-1, 2 for MPEG-2, 25 for MPEG-2.5.
    var version: Int
    var layer: Int
    /// Bits per second.
    var bitrate: Int
    var sampleRate: Int
    var mono: Bool
    var length: Int

    var samplesPerFrame: Int {
      switch layer {
      case 1: return 384
      case 2: return 1152
      default: return version == 1 ? 1152 : 576
      }
    }

    init?(_ bytes: [UInt8], at index: Int) {
      guard index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xE0 == 0xE0 else {
        return nil
      }
      let b1 = bytes[index + 1]
      let b2 = bytes[index + 2]
      let b3 = bytes[index + 3]
      switch (b1 >> 3) & 3 {
      case 0: version = 25
      case 2: version = 2
      case 3: version = 1
      default: return nil
      }
      switch (b1 >> 1) & 3 {
      case 1: layer = 3
      case 2: layer = 2
      case 3: layer = 1
      default: return nil
      }
      let bitrateIndex = Int(b2 >> 4)
      let rateIndex = Int((b2 >> 2) & 3)
      guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
      let table: [Int]
      switch (version == 1, layer) {
      case (true, 1): table = [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
      case (true, 2): table = [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
      case (true, _): table = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
      case (false, 1): table = [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
      case (false, _): table = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
      }
      bitrate = table[bitrateIndex - 1] * 1000
      let rates = [44100, 48000, 32000]
      sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
      mono = b3 >> 6 == 3
      let padding = Int((b2 >> 1) & 1)
      switch layer {
      case 1: length = (12 * bitrate / sampleRate + padding) * 4
      case 3 where version != 1: length = 72 * bitrate / sampleRate + padding
      default: length = 144 * bitrate / sampleRate + padding
      }
      guard length >= 4 else { return nil }
    }
  }

  // MARK: - Reading

  /// Bounded reads from a file that turn every failure into `nil`.
  private struct Reader {
    let file: MediaFile
    var size: Int64 { file.size }

    /// Exactly `count` bytes (at most 1 MB) from an offset; `nil` when the file ends first.
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
      guard let bytes = bytes(at: offset, upTo: count), bytes.count == count else { return nil }
      return bytes
    }

    /// Between 1 and `count` bytes (at most 1 MB) from an offset; `nil` past the end.
    func bytes(at offset: Int64, upTo count: Int) -> [UInt8]? {
      guard offset >= 0, offset < size, count > 0, count <= 1 << 20 else { return nil }
      let bytes = try? file.read(at: offset, count: count)
      guard let bytes, !bytes.isEmpty else { return nil }
      return bytes
    }
  }

  private static func le16(_ b: [UInt8], _ i: Int) -> UInt16 {
    guard i + 2 <= b.count else { return 0 }
    return UInt16(b[i]) | UInt16(b[i + 1]) << 8
  }

  private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
    guard i + 4 <= b.count else { return 0 }
    return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
  }

  private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    guard i + 4 <= b.count else { return 0 }
    return UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
}
