import CMediaFixtures
import Foundation
import Testing
import UNTermTestSupport

/// Image and audio fixtures made at test time, and a scratch folder for them.
enum MediaFixtures {
  /// The text a C decoder wrote into its message buffer (up to the first NUL).
  static func text(of message: [CChar]) -> String {
    String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  struct FixtureError: Error, CustomStringConvertible {
    var description: String
  }

  // MARK: - PNG

  /// RGBA pixels as a PNG (libpng's writer).
  static func png(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = rgba.withUnsafeBufferPointer {
      cmf_encode_png($0.baseAddress, UInt32(width), UInt32(height), &out, &length)
    }
    guard status == 0, let out else { throw FixtureError(description: "PNG encoding failed (\(status))") }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  /// RGBA pixels as an interlaced (Adam7) PNG.
  static func pngInterlaced(width: Int, height: Int, rgba: [UInt8]) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = rgba.withUnsafeBufferPointer {
      cmf_encode_png_interlaced($0.baseAddress, UInt32(width), UInt32(height), &out, &length)
    }
    guard status == 0, let out else { throw FixtureError(description: "PNG encoding failed (\(status))") }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  /// A PNG of a colour type (0 gray, 2 RGB, 3 palette, 4 gray + alpha, 6 RGBA) and bit depth,
  /// written with every filter type libpng picks among (see cmf_encode_png_variant).
  static func pngVariant(
    width: Int, height: Int, colorType: Int, depth: Int, interlaced: Bool, alpha: Bool = false, noise: Int = 40,
    seed: UInt32 = 7
  ) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = cmf_encode_png_variant(
      UInt32(width), UInt32(height), Int32(colorType), Int32(depth), interlaced ? 1 : 0, alpha ? 1 : 0,
      Int32(noise), seed, &out, &length)
    guard status == 0, let out else { throw FixtureError(description: "PNG encoding failed (\(status))") }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  /// libpng's own decode of a PNG as RGB over a background (see cmf_decode_png_reference).
  static func libpngRGB(_ png: [UInt8], background: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let colour = [background.0, background.1, background.2]
    let status = png.withUnsafeBufferPointer { bytes in
      colour.withUnsafeBufferPointer {
        cmf_decode_png_reference(bytes.baseAddress, bytes.count, $0.baseAddress, &out, &width, &height)
      }
    }
    guard status == 0, let out else { throw FixtureError(description: "libpng could not decode the PNG (\(status))") }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: Int(width) * Int(height) * 3))
  }

  /// libjpeg's own 1/8-scale decode of a JPEG, as gray samples.
  static func libjpegEighth(_ jpeg: [UInt8]) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let status = jpeg.withUnsafeBufferPointer {
      cmf_decode_jpeg_eighth($0.baseAddress, $0.count, &out, &width, &height)
    }
    guard status == 0, let out else { throw FixtureError(description: "libjpeg failed (\(status))") }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: Int(width * height)))
  }

  /// A PNG of one colour per pixel, given row by row.
  static func png(rows: [[(UInt8, UInt8, UInt8, UInt8)]]) throws -> [UInt8] {
    let rgba = rows.flatMap { $0.flatMap { [$0.0, $0.1, $0.2, $0.3] } }
    return try png(width: rows[0].count, height: rows.count, rgba: rgba)
  }

  /// A PNG whose top half is one colour and bottom half another.
  static func pngSplit(
    width: Int, height: Int, top: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)
  ) throws -> [UInt8] {
    var rgba: [UInt8] = []
    for y in 0..<height {
      let c = y < height / 2 ? top : bottom
      for _ in 0..<width { rgba += [c.0, c.1, c.2, 255] }
    }
    return try png(width: width, height: height, rgba: rgba)
  }

  /// A PNG whose left half is one colour and right half another.
  static func pngSideBySide(
    width: Int, height: Int, left: (UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8)
  ) throws -> [UInt8] {
    var rgba: [UInt8] = []
    for _ in 0..<height {
      for x in 0..<width {
        let c = x < width / 2 ? left : right
        rgba += [c.0, c.1, c.2, 255]
      }
    }
    return try png(width: width, height: height, rgba: rgba)
  }

  /// Noise, so the compressed data is as long as the pixels.
  static func noise(count: Int, seed: UInt64 = 42) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  /// One PNG chunk: length, type, data and CRC.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    let crc = typed.withUnsafeBufferPointer { cmf_crc32($0.baseAddress, $0.count) }
    return be32(UInt32(data.count)) + typed + be32(crc)
  }

  /// A non-interlaced PNG of `colorType` (0 gray, 2 RGB, 4 gray and alpha, 6 RGBA) and `depth`
  /// (8 or 16) from rows as stored: each row's filter type and its filtered bytes (any bytes are
  /// a valid filtered row), so a test chooses which filters follow one another.
  static func pngFiltered(
    width: Int, colorType: UInt8, depth: UInt8 = 8, rows: [(filter: UInt8, bytes: [UInt8])]
  ) throws -> [UInt8] {
    let raw = rows.flatMap { [$0.filter] + $0.bytes }
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    guard raw.withUnsafeBufferPointer({ cmf_deflate($0.baseAddress, $0.count, &out, &length) }) == 0, let out else {
      throw FixtureError(description: "deflate failed")
    }
    defer { cmf_free(out) }
    let header = be32(UInt32(width)) + be32(UInt32(rows.count)) + [depth, colorType, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", Array(UnsafeBufferPointer(start: out, count: length))) + chunk("IEND", [])
  }

  /// A PNG with its IHDR size replaced (and its CRC fixed).
  static func pngClaiming(width: UInt32, height: UInt32, from png: [UInt8]) -> [UInt8] {
    var bytes = png
    let ihdr = Array(bytes[16..<29])
    var patched = be32(width) + be32(height) + Array(ihdr[8...])
    patched = chunk("IHDR", patched)
    bytes.replaceSubrange(8..<33, with: patched)
    return bytes
  }

  /// A PNG with extra chunks right after IHDR.
  static func png(_ png: [UInt8], inserting chunks: [[UInt8]]) -> [UInt8] {
    var bytes = png
    bytes.insert(contentsOf: chunks.flatMap { $0 }, at: 33)
    return bytes
  }

  /// `count` zero bytes compressed with zlib: a decompression bomb's payload.
  static func deflatedZeros(_ count: Int) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    guard cmf_deflate_zeros(count, &out, &length) == 0, let out else {
      throw FixtureError(description: "deflate failed")
    }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  // MARK: - JPEG

  enum JPEGLayout: Int32 {
    case baseline = 0
    case progressive = 1
    case manyScans = 2
  }

  /// A JPEG of the given pixels (1, 3 or 4 bytes per pixel), or of a gradient when `pixels` is
  /// nil so large images need no buffer in Swift.
  static func jpeg(
    width: Int, height: Int, components: Int = 3, pixels: [UInt8]? = nil, quality: Int = 90,
    layout: JPEGLayout = .baseline
  ) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status: Int32
    if let pixels {
      status = pixels.withUnsafeBufferPointer { data in
        cmf_encode_jpeg(
          data.baseAddress, UInt32(width), UInt32(height), Int32(components), Int32(quality),
          layout.rawValue, &out, &length, &message, message.count)
      }
    } else {
      status = cmf_encode_jpeg(
        nil, UInt32(width), UInt32(height), Int32(components), Int32(quality), layout.rawValue, &out,
        &length, &message, message.count)
    }
    guard status == 0, let out else {
      let text = MediaFixtures.text(of: message)
      throw FixtureError(description: "JPEG encoding failed: \(text)")
    }
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  /// A JPEG of one colour.
  static func jpegSolid(width: Int, height: Int, _ c: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
    let pixels = (0..<width * height).flatMap { _ in [c.0, c.1, c.2] }
    return try jpeg(width: width, height: height, pixels: pixels)
  }

  /// Offsets of the markers in a JPEG (outside entropy-coded data every 0xFF starts one).
  static func markers(_ jpeg: [UInt8]) -> [(offset: Int, code: UInt8)] {
    var result: [(Int, UInt8)] = []
    var i = 2
    while i + 1 < jpeg.count {
      if jpeg[i] == 0xFF, jpeg[i + 1] != 0x00, jpeg[i + 1] != 0xFF, !(0xD0...0xD7).contains(jpeg[i + 1]) {
        result.append((i, jpeg[i + 1]))
        i += 2
      } else {
        i += 1
      }
    }
    return result
  }

  /// A JPEG with its frame header's size replaced.
  static func jpegClaiming(width: UInt16, height: UInt16, from jpeg: [UInt8]) throws -> [UInt8] {
    guard let sof = markers(jpeg).first(where: { [0xC0, 0xC1, 0xC2].contains($0.code) }) else {
      throw FixtureError(description: "no SOF")
    }
    var bytes = jpeg
    let at = sof.offset + 5  // marker (2), length (2), precision (1)
    bytes[at] = UInt8(height >> 8)
    bytes[at + 1] = UInt8(height & 0xFF)
    bytes[at + 2] = UInt8(width >> 8)
    bytes[at + 3] = UInt8(width & 0xFF)
    return bytes
  }

  /// A progressive JPEG whose last scan (with its Huffman tables) is repeated: the shape of
  /// the "thousands of scans" CPU attack, which libjpeg only reports with warnings.
  static func jpegRepeatingLastScan(_ jpeg: [UInt8], times: Int) throws -> [UInt8] {
    let found = markers(jpeg)
    guard let sos = found.lastIndex(where: { $0.code == 0xDA }),
      let eoi = found.last(where: { $0.code == 0xD9 })
    else { throw FixtureError(description: "no scans") }
    var start = found[sos].offset
    if sos > 0, found[sos - 1].code == 0xC4 { start = found[sos - 1].offset }
    let scan = Array(jpeg[start..<eoi.offset])
    var bytes = Array(jpeg[..<eoi.offset])
    for _ in 0..<times { bytes += scan }
    return bytes + [0xFF, 0xD9]
  }

  /// A JPEG with an Exif APP1 segment recording an orientation, right after SOI.
  static func jpeg(_ jpeg: [UInt8], orientation: UInt16, littleEndian: Bool = false) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] {
      littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }
    func u32(_ v: UInt32) -> [UInt8] { littleEndian ? (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } : be32(v) }
    var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
    tiff += u16(42) + u32(8) + u16(2)
    tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)  // Make, inline ASCII
    tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
    tiff += u32(0)
    let body = Array("Exif\0\0".utf8) + tiff
    let segment: [UInt8] = [0xFF, 0xE1] + be16(body.count + 2) + body
    return Array(jpeg[..<2]) + segment + Array(jpeg[2...])
  }

  // MARK: - GIF

  /// A GIF of colour indices with a 4-colour table, LZW-coded with a clear code after every
  /// second index so codes stay 3 bits wide.
  static func gif(
    width: Int, height: Int, indices: [UInt8], palette: [(UInt8, UInt8, UInt8)],
    transparent: UInt8? = nil, interlaced: Bool = false
  ) -> [UInt8] {
    var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF1, 0, 0]  // 4-colour table
    for i in 0..<4 {
      let c = i < palette.count ? palette[i] : (0, 0, 0)
      bytes += [c.0, c.1, c.2]
    }
    if let transparent {
      bytes += [0x21, 0xF9, 4, 1, 0, 0, transparent, 0]
    }
    bytes += [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [interlaced ? 0x40 : 0]
    // Interlaced images store rows in pass order.
    var order = Array(0..<height)
    if interlaced {
      order = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { Array(stride(from: $0.0, to: height, by: $0.1)) }
    }
    let stream = order.flatMap { y in indices[(y * width)..<(y * width + width)] }
    var codes: [UInt32] = []
    for (n, index) in stream.enumerated() {
      if n % 2 == 0 { codes.append(4) }  // clear
      codes.append(UInt32(index))
    }
    codes.append(5)  // end
    var packed: [UInt8] = []
    var buffer: UInt32 = 0
    var count = 0
    for code in codes {
      buffer |= code << count
      count += 3
      while count >= 8 {
        packed.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        count -= 8
      }
    }
    if count > 0 { packed.append(UInt8(buffer & 0xFF)) }
    bytes.append(2)  // minimum code size
    var offset = 0
    while offset < packed.count {
      let n = min(255, packed.count - offset)
      bytes.append(UInt8(n))
      bytes += packed[offset..<offset + n]
      offset += n
    }
    return bytes + [0, 0x3B]
  }

  // MARK: - Audio and movie containers

  /// A PCM WAV of silence.
  static func wav(sampleRate: Int, channels: Int, bitsPerSample: Int, frames: Int) -> [UInt8] {
    let blockAlign = channels * bitsPerSample / 8
    let dataSize = frames * blockAlign
    var fmt = le16(1) + le16(channels) + le32(sampleRate) + le32(sampleRate * blockAlign)
    fmt += le16(blockAlign) + le16(bitsPerSample)
    var body = Array("WAVE".utf8)
    body += Array("fmt ".utf8) + le32(fmt.count) + fmt
    body += Array("LIST".utf8) + le32(3) + [1, 2, 3, 0]  // an odd-sized chunk with padding
    body += Array("data".utf8) + le32(dataSize) + [UInt8](repeating: 0, count: dataSize)
    return Array("RIFF".utf8) + le32(body.count) + body
  }

  /// An AIFF of silence with the sample rate as an 80-bit extended float.
  static func aiff(sampleRate: Int, frames: Int) -> [UInt8] {
    // Extended: exponent so that the 64-bit mantissa has its top bit set.
    var mantissa = UInt64(sampleRate)
    var exponent = 16383 + 63
    while mantissa & (1 << 63) == 0 {
      mantissa <<= 1
      exponent -= 1
    }
    let rate = be16(exponent) + (0..<8).map { UInt8((mantissa >> (56 - 8 * UInt64($0))) & 0xFF) }
    let comm = be16(1) + be32(UInt32(frames)) + be16(16) + rate
    let ssnd = be32(0) + be32(0) + [UInt8](repeating: 0, count: frames * 2)
    var body = Array("AIFF".utf8)
    body += Array("COMM".utf8) + be32(UInt32(comm.count)) + comm
    body += Array("SSND".utf8) + be32(UInt32(ssnd.count)) + ssnd
    return Array("FORM".utf8) + be32(UInt32(body.count)) + body
  }

  /// An MP4 box.
  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    be32(UInt32(body.count + 8)) + Array(type.utf8) + body
  }

  /// A minimal MP4: ftyp, an optional mdat before the movie box, and moov with mvhd.
  static func mp4(timescale: UInt32, duration: UInt64, version: UInt8 = 0, mdatBytes: Int = 0) -> [UInt8] {
    var mvhd: [UInt8] = [version, 0, 0, 0]
    if version == 1 {
      mvhd +=
        [UInt8](repeating: 0, count: 16) + be32(timescale) + be32(UInt32(duration >> 32))
        + be32(UInt32(duration & 0xFFFF_FFFF))
    } else {
      mvhd += [UInt8](repeating: 0, count: 8) + be32(timescale) + be32(UInt32(duration))
    }
    mvhd += [UInt8](repeating: 0, count: 80)  // rate, volume, matrix, next track
    let ftyp = box("ftyp", Array("isom".utf8) + be32(512) + Array("isomiso2mp41".utf8))
    let mdat = mdatBytes > 0 ? box("mdat", [UInt8](repeating: 0, count: mdatBytes)) : []
    let moov = box("moov", box("mvhd", mvhd) + box("trak", []))
    return ftyp + mdat + moov
  }

  /// An MP3 of `frames` silent MPEG-1 Layer III frames at 128 kb/s, 44.1 kHz, stereo, with an
  /// ID3v2 tag in front and, optionally, a Xing header claiming `xingFrames` frames.
  static func mp3(frames: Int, xingFrames: UInt32? = nil) -> [UInt8] {
    let frameLength = 144 * 128_000 / 44_100  // 417, no padding
    let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x00]
    var bytes = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
    for n in 0..<frames {
      var frame = header + [UInt8](repeating: 0, count: frameLength - 4)
      if n == 0, let xingFrames {
        frame.replaceSubrange(36..<48, with: Array("Xing".utf8) + be32(1) + be32(xingFrames))
      }
      bytes += frame
    }
    return bytes
  }

  // MARK: - Files

  /// A folder removed when the value goes away.
  final class Folder {
    let url: URL

    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "unterm-media-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes bytes to a file in the folder.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
      let file = url.appendingPathComponent(name)
      try Data(bytes).write(to: file)
      return file
    }
  }

  // MARK: - Bytes

  static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
  static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
  static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
  static func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (24 - 8 * UInt32($0))) & 0xFF) } }
}
