import CMediaDecode

/// The still-image formats the decoder draws.
package enum ImageFormat: String, Hashable, Sendable {
  case png, jpeg, gif

  init?(code: Int32) {
    switch Int(code) {
    case Int(CMD_FORMAT_PNG): self = .png
    case Int(CMD_FORMAT_JPEG): self = .jpeg
    case Int(CMD_FORMAT_GIF): self = .gif
    default: return nil
    }
  }
}

/// What an image header says.
package struct ImageHeader: Hashable, Sendable {
  /// Width in pixels as stored (a GIF's logical screen).
  package var width: Int
  /// Height in pixels as stored.
  package var height: Int
  /// The container format.
  package var format: ImageFormat
  /// A progressive JPEG, or an interlaced PNG.
  package var interlaced: Bool
  /// A JPEG's EXIF orientation; `width` and `height` are already the upright picture's.
  package var orientation: ExifOrientation = .up

  /// Height ÷ width.
  package var aspectRatio: Double { Double(height) / Double(width) }
}

/// A decoded image as the cache keeps it: upright RGB rows, alpha already composited over the
/// background, possibly averaged down from what the decoder produced.
package struct DecodedImage: Hashable, Sendable {
  /// Width of `rgb` in pixels.
  package var width: Int
  /// Height of `rgb` in pixels.
  package var height: Int
  /// Row-major RGB triples, `width × height × 3` bytes.
  package var rgb: [UInt8]
  /// Full-size width of the upright picture (the stored width, or the stored height for EXIF
  /// orientations that turn the picture a quarter).
  package var sourceWidth: Int
  /// Full-size height of the upright picture.
  package var sourceHeight: Int
  /// Upright width the decoder produced, before any averaging down for the cache.
  package var decodedWidth: Int
  /// Upright height the decoder produced, before any averaging down for the cache.
  package var decodedHeight: Int
  /// The JPEG scale used when decoding: 1, 2, 4 or 8 (1 for PNG and GIF).
  package var scaleDenominator: Int
  /// Progressive JPEG scans read (1 otherwise).
  package var scans: Int
  /// The container format.
  package var format: ImageFormat

  /// The colour at a pixel.
  package func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    let i = (y * width + x) * 3
    return (rgb[i], rgb[i + 1], rgb[i + 2])
  }
}

/// The one place that calls the C decoder: header probes and bounded decodes.
package enum MediaDecoder {
  /// Reads the header only: size and format. Works on a prefix of the file.
  package static func probe(_ bytes: [UInt8]) throws(MediaError) -> ImageHeader {
    guard !bytes.isEmpty else { throw MediaError(.truncated, "the file is empty") }
    var info = cmd_info()
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer { data in
      message.withUnsafeMutableBufferPointer { err in
        guard let base = data.baseAddress else { return Int32(CMD_ERR_ARGUMENT) }
        return cmd_probe(base, data.count, &info, err.baseAddress, err.count)
      }
    }
    guard status == Int32(CMD_OK), let format = ImageFormat(code: info.format) else {
      throw error(status, message)
    }
    let orientation = format == .jpeg ? ExifOrientation.of(jpeg: bytes) : .up
    let (width, height) = orientation.swapsAxes ? (info.height, info.width) : (info.width, info.height)
    return ImageHeader(
      width: Int(width), height: Int(height), format: format, interlaced: info.interlaced != 0,
      orientation: orientation)
  }

  /// Decodes an image within the limits.
  ///
  /// - Parameters:
  ///   - target: the smallest size of the whole (upright) image the caller needs; a JPEG at
  ///     least 2, 4 or 8 times larger in both directions is decoded at that reduced scale.
  /// - Returns: the image turned upright when a JPEG records an EXIF orientation.
  ///   - background: the colour transparent pixels are composited over.
  package static func decode(
    _ bytes: [UInt8], limits: MediaLimits, target: (width: Int, height: Int),
    background: (r: UInt8, g: UInt8, b: UInt8)
  ) throws(MediaError) -> DecodedImage {
    guard !bytes.isEmpty else { throw MediaError(.truncated, "the file is empty") }
    var caps = cmd_limits()
    caps.max_width = clamp32(limits.maxWidth)
    caps.max_height = clamp32(limits.maxHeight)
    caps.max_pixels = UInt64(max(1, limits.maxPixels))
    caps.max_scans = clamp32(limits.maxScans)
    caps.max_millis = limits.timeBudgetMilliseconds
    caps.max_decoder_memory = UInt64(max(0, limits.maxDecoderMemory))
    let orientation = bytes.starts(with: [0xFF, 0xD8]) ? ExifOrientation.of(jpeg: bytes) : .up
    let stored = orientation.swapsAxes ? (target.height, target.width) : (target.width, target.height)
    var image = cmd_image()
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer { data in
      message.withUnsafeMutableBufferPointer { err in
        guard let base = data.baseAddress else { return Int32(CMD_ERR_ARGUMENT) }
        return cmd_decode(
          base, data.count, &caps, clamp32(stored.0), clamp32(stored.1), &image, err.baseAddress,
          err.count)
      }
    }
    defer { cmd_free(&image) }
    guard status == Int32(CMD_OK), let pixels = image.pixels, let format = ImageFormat(code: image.format),
      image.channels == 3 || image.channels == 4,
      image.byte_count == Int(image.width) * Int(image.height) * Int(image.channels)
    else {
      throw error(status == Int32(CMD_OK) ? Int32(CMD_ERR_CORRUPT) : status, message)
    }
    let decoded = UnsafeBufferPointer(start: pixels, count: image.byte_count)
    let reduced = PixelReduction.rgb(
      decoded, width: Int(image.width), height: Int(image.height), channels: Int(image.channels),
      maxSide: max(1, limits.maxCachedSide), background: background)
    let upright = orientation.apply(to: reduced.rgb, width: reduced.width, height: reduced.height)
    func turned(_ w: UInt32, _ h: UInt32) -> (Int, Int) {
      orientation.swapsAxes ? (Int(h), Int(w)) : (Int(w), Int(h))
    }
    let source = turned(image.source_width, image.source_height)
    let decodedSize = turned(image.width, image.height)
    return DecodedImage(
      width: upright.width, height: upright.height, rgb: upright.rgb, sourceWidth: source.0,
      sourceHeight: source.1, decodedWidth: decodedSize.0, decodedHeight: decodedSize.1,
      scaleDenominator: Int(image.scale_denom), scans: Int(image.scans), format: format)
  }

  private static func clamp32(_ value: Int) -> UInt32 { UInt32(max(0, min(Int(UInt32.max), value))) }

  private static func error(_ status: Int32, _ message: [CChar]) -> MediaError {
    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let kind: MediaError.Kind
    switch Int(status) {
    case Int(CMD_ERR_UNSUPPORTED): kind = .unsupported
    case Int(CMD_ERR_TRUNCATED): kind = .truncated
    case Int(CMD_ERR_TOO_LARGE): kind = .tooLarge
    case Int(CMD_ERR_TOO_MANY_SCANS): kind = .tooManyScans
    case Int(CMD_ERR_TIMEOUT): kind = .timedOut
    case Int(CMD_ERR_NO_MEMORY): kind = .outOfMemory
    default: kind = .corrupt
    }
    return MediaError(kind, text.isEmpty ? "the image cannot be decoded" : text)
  }
}
