import Foundation
import UNTermRender
import UserNotifications

/// Decodes image attachments into half-block art for the renderer.
///
/// Only files a caller passes in are read (through `ImageReference.path` or a file URL
/// attachment), with iOS's 10 MB image size cap and the decoder's pixel, scan and time caps.
/// Decoded images are cached per file version (path, inode, size and modification time) and
/// art per image and size, so a redraw decodes nothing. A failure is remembered for that file
/// version, so a broken file is not decoded again on every frame; `problem(for:)` says why.
///
/// Thread-confined: create and use an instance on one thread (the session's).
package final class MediaImages: ImageProvider {
  /// Counters that show what the caches saved.
  package struct Statistics: Hashable, Sendable {
    /// Header-only reads for `aspectRatio(of:)`.
    package var headerReads = 0
    /// Full decodes.
    package var decodes = 0
    /// Art built from a decoded image.
    package var artBuilds = 0
    /// Art served from the cache.
    package var artCacheHits = 0
  }

  package let limits: MediaLimits
  /// The colour of letterbox bars and of transparent pixels.
  package let background: Color
  package private(set) var statistics = Statistics()

  private struct ArtKey: Hashable {
    var file: MediaFile.Key
    var columns: Int
    var rows: Int
    var crop: Bool
    var region: UnitRect
  }

  private let fill: (r: UInt8, g: UInt8, b: UInt8)
  /// The latest version seen for each path; older versions' entries are dropped.
  private var versions: [String: MediaFile.Key] = [:]
  private var headers: [MediaFile.Key: ImageHeader] = [:]
  private var failures: [MediaFile.Key: MediaError] = [:]
  /// Decoded copies: at most 32 files and 64 MB of pixels.
  private var images = RecentCache<MediaFile.Key, DecodedImage>(capacity: 32, maxCost: 64 << 20)
  /// Art: at most 512 sizes and 2 million cells.
  private var arts = RecentCache<ArtKey, BlockArt>(capacity: 512, maxCost: 1 << 21)

  /// Creates a decoder with its caps and the colour used behind the image.
  package init(limits: MediaLimits = .standard, background: Color = .rgb(0, 0, 0)) {
    self.limits = limits
    self.background = background
    let (r, g, b) = ColorDepth.rgb(of: background)
    fill = (r, g, b)
  }

  /// Most columns or rows of art built for one image.
  private static let maxSide = 4096
  /// Most cells of art built for one image.
  private static let maxCells = 1 << 18

  // MARK: - ImageProvider

  /// Height ÷ width from the image's header; `nil` when the header cannot be read or the
  /// image is already known not to decode.
  package func aspectRatio(of image: ImageReference) -> Double? {
    guard case .success(let key) = version(of: image) else { return nil }
    if let header = headers[key] { return header.aspectRatio }
    do throws(MediaError) {
      let header = try readHeader(key)
      headers[key] = header
      return header.aspectRatio
    } catch {
      failures[key] = error
      return nil
    }
  }

  /// The whole image letterboxed into `columns × rows` cells.
  package func art(of image: ImageReference, columns: Int, rows: Int) -> BlockArt? {
    art(of: image, columns: columns, rows: rows, crop: false)
  }

  /// The image as exactly `columns × rows` half-block cells.
  ///
  /// With `crop` (thumbnails) the image fills the area and its overflow is cut evenly; an
  /// attachment's `thumbnailClip` (normalized, origin top left) first selects the part shown.
  /// Without it the whole image is centred with `background` bars.
  package func art(of image: ImageReference, columns: Int, rows: Int, crop: Bool) -> BlockArt? {
    guard columns > 0, rows > 0, columns <= Self.maxSide, rows <= Self.maxSide,
      columns * rows <= Self.maxCells
    else { return nil }
    guard case .success(let key) = version(of: image) else { return nil }
    let region = crop ? clipRegion(of: image) : .whole
    let artKey = ArtKey(file: key, columns: columns, rows: rows, crop: crop, region: region)
    if let cached = arts.value(for: artKey) {
      statistics.artCacheHits += 1
      return cached
    }
    do throws(MediaError) {
      let decoded = try decodedImage(key, region: region, columns: columns, rows: rows, crop: crop)
      let geometry = ArtGeometry(
        sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight, region: region,
        columns: columns, rows: rows, crop: crop)
      let art = BlockArtBuilder.art(
        of: decoded, geometry: geometry, columns: columns, rows: rows, background: fill)
      arts.insert(art, for: artKey, cost: art.cells.count)
      statistics.artBuilds += 1
      return art
    } catch {
      failures[key] = error
      return nil
    }
  }

  // MARK: - Problems and cache inspection

  /// Why an image cannot be drawn, for a "[image unavailable: reason]" line: a missing or
  /// oversized file, an audio or movie attachment, or a decode failure remembered from an
  /// earlier `art`/`aspectRatio` call. `nil` when nothing is known to be wrong.
  package func problem(for image: ImageReference) -> String? {
    switch version(of: image) {
    case .failure(let error): return error.description
    case .success: return nil
    }
  }

  /// The decoded copy in the cache for an image, if any (for tests and diagnostics).
  package func cachedImage(for image: ImageReference) -> DecodedImage? {
    guard case .success(let key) = version(of: image) else { return nil }
    return images.value(for: key)
  }

  // MARK: - Files

  /// The file version an image names, or why it cannot be used.
  private func version(of image: ImageReference) -> Result<MediaFile.Key, MediaError> {
    if let attachment = image.attachment, attachment.format.kind != .image {
      let kind = attachment.format.kind == .movie ? "movie frames are" : "audio has no picture and is"
      return .failure(MediaError(.notAnImage, "\(attachment.format.displayName) \(kind) not decoded"))
    }
    let path: String
    if let given = image.path {
      path = given
    } else if let url = image.attachment?.url, url.isFileURL {
      path = url.path
    } else {
      return .failure(MediaError(.unreadable, "not a local file"))
    }
    let key: MediaFile.Key
    do throws(MediaError) {
      key = try MediaFile.key(of: path)
    } catch {
      return .failure(error)
    }
    if let previous = versions[path], previous != key { forget(previous) }
    versions[path] = key
    if let failure = failures[key] { return .failure(failure) }
    guard key.size <= Int64(limits.maxFileBytes) else {
      let failure = MediaError(
        .fileTooLarge, "the file is \(key.size) bytes; images may be at most \(limits.maxFileBytes) bytes")
      failures[key] = failure
      return .failure(failure)
    }
    return .success(key)
  }

  /// Drops everything cached for an older version of a file.
  private func forget(_ key: MediaFile.Key) {
    headers[key] = nil
    failures[key] = nil
    images.removeAll { $0 == key }
    arts.removeAll { $0.file == key }
  }

  /// Opens the file a key names, refusing it when it changed since the key was taken.
  private func open(_ key: MediaFile.Key) throws(MediaError) -> MediaFile {
    let file = try MediaFile(path: key.path)
    guard file.key == key else { throw MediaError(.unreadable, "the file changed while it was read") }
    return file
  }

  /// The header from the file's first bytes, or from all of it when the header runs longer.
  private func readHeader(_ key: MediaFile.Key) throws(MediaError) -> ImageHeader {
    let file = try open(key)
    statistics.headerReads += 1
    let prefix = try file.read(at: 0, count: 64 * 1024)
    do throws(MediaError) {
      return try MediaDecoder.probe(prefix)
    } catch  where error.kind == .truncated && file.size > Int64(prefix.count) {
      return try MediaDecoder.probe(file.readAll(limit: limits.maxFileBytes))
    }
  }

  /// The decoded image for a file version, decoding (again) only when the cache has no copy
  /// or its copy came from a reduced JPEG scale too small for this area.
  private func decodedImage(
    _ key: MediaFile.Key, region: UnitRect, columns: Int, rows: Int, crop: Bool
  ) throws(MediaError) -> DecodedImage {
    let cached = images.value(for: key)
    var bytes: [UInt8]?
    let source: (width: Int, height: Int)
    if let cached {
      source = (cached.sourceWidth, cached.sourceHeight)
    } else if let header = headers[key] {
      source = (header.width, header.height)
    } else {
      let all = try open(key).readAll(limit: limits.maxFileBytes)
      let header = try MediaDecoder.probe(all)
      headers[key] = header
      source = (header.width, header.height)
      bytes = all
    }
    let geometry = ArtGeometry(
      sourceWidth: source.width, sourceHeight: source.height, region: region, columns: columns,
      rows: rows, crop: crop)
    let need = cappedNeed(geometry.neededSize(sourceWidth: source.width, sourceHeight: source.height))
    if let cached,
      cached.scaleDenominator == 1
        || (cached.decodedWidth >= need.width && cached.decodedHeight >= need.height)
    {
      return cached
    }
    let data: [UInt8]
    if let bytes {
      data = bytes
    } else {
      data = try open(key).readAll(limit: limits.maxFileBytes)
    }
    statistics.decodes += 1
    let decoded = try MediaDecoder.decode(data, limits: limits, target: need, background: fill)
    images.insert(decoded, for: key, cost: decoded.rgb.count)
    return decoded
  }

  /// A needed size scaled down so its longer side is within the cached copy's cap: a larger
  /// decode would be averaged down to that anyway.
  private func cappedNeed(_ need: (width: Int, height: Int)) -> (width: Int, height: Int) {
    let longer = max(need.width, need.height)
    let cap = max(1, limits.maxCachedSide)
    guard longer > cap else { return need }
    return (max(1, need.width * cap / longer), max(1, need.height * cap / longer))
  }

  /// The attachment's thumbnail clipping rectangle, clamped to the image; the whole image
  /// when there is none.
  private func clipRegion(of image: ImageReference) -> UnitRect {
    guard let clip = image.attachment?.thumbnailClip,
      let rect = UnitRect(clamping: clip.x, y: clip.y, width: clip.width, height: clip.height)
    else { return .whole }
    return rect
  }
}
