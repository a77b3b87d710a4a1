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
  /// For a JPEG, the size of libjpeg's fastest decode (its 1/8 scale) of the whole upright
  /// picture; `nil` for other pictures.
  package var fastSize: Size?

  /// A size in pixels.
  package struct Size: Hashable, Sendable {
    package var width: Int
    package var height: Int
  }

  /// Height ÷ width.
  package var aspectRatio: Double { Double(height) / Double(width) }
}

/// A decoded picture as the caches keep it: upright RGB pixels of a region of the picture,
/// area-averaged to a size, alpha already composited over the background.
package struct DecodedImage: Hashable, Sendable {
  /// Width of `rgb` in pixels.
  package var width: Int
  /// Height of `rgb` in pixels.
  package var height: Int
  /// Row-major RGB triples, `width × height × 3` bytes.
  package var rgb: [UInt8]
  /// The part of the upright picture these pixels show (`.whole` for a working copy).
  package var region: UnitRect
  /// Full-size width of the upright picture (the stored width, or the stored height for EXIF
  /// orientations that turn the picture a quarter).
  package var sourceWidth: Int
  /// Full-size height of the upright picture.
  package var sourceHeight: Int
  /// The JPEG scale decoded at is `scaleNumerator / scaleDenominator` (1/8 … 8/8; 1/1 for PNG
  /// and GIF).
  package var scaleNumerator: Int
  package var scaleDenominator: Int
  /// Progressive JPEG scans read (1 otherwise; 7 for an interlaced PNG's passes).
  package var scans: Int
  /// The container format.
  package var format: ImageFormat

  /// The colour at a pixel.
  package func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    let i = (y * width + x) * 3
    return (rgb[i], rgb[i + 1], rgb[i + 2])
  }
}

/// Where encoded bytes come from.
enum MediaInput {
  case bytes([UInt8])
  /// An open file, read from its first byte a block at a time.
  case file(MediaFile)
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
    let (fastWidth, fastHeight) =
      orientation.swapsAxes ? (info.fast_height, info.fast_width) : (info.fast_width, info.fast_height)
    return ImageHeader(
      width: Int(width), height: Int(height), format: format, interlaced: info.interlaced != 0,
      orientation: orientation,
      fastSize: fastWidth > 0 && fastHeight > 0 ? ImageHeader.Size(width: Int(fastWidth), height: Int(fastHeight)) : nil
    )
  }

  /// A region of a picture (a GIF's first frame), area-averaged to a size, within the limits.
  ///
  /// The decoder never holds the whole picture: PNG and GIF rows stream into the reducer, a
  /// JPEG is decoded by libjpeg at the smallest DCT scale that still covers the size and only
  /// the rows and columns of the region are decoded.
  ///
  /// - Parameters:
  ///   - region: the part of the upright picture, in fractions of its size.
  ///   - size: the upright size of the result, in pixels.
  ///   - orientation: the JPEG's EXIF orientation (`.up` for other formats); the region and
  ///     the size are turned to the stored picture's axes and the result turned upright.
  ///   - background: the colour transparent pixels are composited over.
  static func decode(
    _ input: MediaInput, limits: MediaLimits, region: UnitRect = .whole, size: (width: Int, height: Int),
    orientation: ExifOrientation, background: (r: UInt8, g: UInt8, b: UInt8)
  ) throws(MediaError) -> DecodedImage {
    var caps = cmd_limits()
    caps.max_width = clamp32(limits.maxWidth)
    caps.max_height = clamp32(limits.maxHeight)
    caps.max_pixels = UInt64(max(1, limits.maxPixels))
    caps.max_scans = clamp32(limits.maxScans)
    caps.max_millis = limits.timeBudgetMilliseconds
    caps.max_decoder_memory = UInt64(max(0, limits.maxDecoderMemory))
    let stored = orientation.storedRect(of: region)
    let storedSize = orientation.swapsAxes ? (size.height, size.width) : (size.width, size.height)
    var target = cmd_target()
    target.width = clamp32(storedSize.0)
    target.height = clamp32(storedSize.1)
    target.x = stored.x
    target.y = stored.y
    target.region_width = stored.width
    target.region_height = stored.height
    target.background = (background.r, background.g, background.b)
    var image = cmd_image()
    var message = [CChar](repeating: 0, count: 256)
    let status: Int32
    switch input {
    case .bytes(let bytes):
      guard !bytes.isEmpty else { throw MediaError(.truncated, "the file is empty") }
      status = bytes.withUnsafeBufferPointer { data in
        message.withUnsafeMutableBufferPointer { err in
          guard let base = data.baseAddress else { return Int32(CMD_ERR_ARGUMENT) }
          return cmd_decode_scaled(base, data.count, &caps, &target, &image, err.baseAddress, err.count)
        }
      }
    case .file(let file):
      guard file.size > 0 else { throw MediaError(.truncated, "the file is empty") }
      status = file.withDescriptor { fd in
        message.withUnsafeMutableBufferPointer { err in
          cmd_decode_scaled_fd(fd, &caps, &target, &image, err.baseAddress, err.count)
        }
      }
    }
    defer { cmd_free(&image) }
    guard status == Int32(CMD_OK), let pixels = image.pixels, let format = ImageFormat(code: image.format),
      image.channels == 3, image.byte_count == Int(image.width) * Int(image.height) * 3
    else {
      throw error(status == Int32(CMD_OK) ? Int32(CMD_ERR_CORRUPT) : status, message)
    }
    let rgb = Array(UnsafeBufferPointer(start: pixels, count: image.byte_count))
    let upright = orientation.apply(to: rgb, width: Int(image.width), height: Int(image.height))
    let source =
      orientation.swapsAxes
      ? (Int(image.source_height), Int(image.source_width)) : (Int(image.source_width), Int(image.source_height))
    return DecodedImage(
      width: upright.width, height: upright.height, rgb: upright.rgb, region: region, sourceWidth: source.0,
      sourceHeight: source.1, scaleNumerator: Int(image.scale_num), scaleDenominator: Int(image.scale_denom),
      scans: Int(image.scans), format: format)
  }

  /// `decode` of bytes in memory, with the JPEG's own EXIF orientation.
  package static func decode(
    _ bytes: [UInt8], limits: MediaLimits, region: UnitRect = .whole, size: (width: Int, height: Int),
    background: (r: UInt8, g: UInt8, b: UInt8)
  ) throws(MediaError) -> DecodedImage {
    let orientation = bytes.starts(with: [0xFF, 0xD8]) ? ExifOrientation.of(jpeg: bytes) : .up
    return try decode(
      .bytes(bytes), limits: limits, region: region, size: size, orientation: orientation, background: background)
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
