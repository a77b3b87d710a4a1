import Foundation
import UNTermRender
import UserNotificationsModel

/// Decodes image attachments into half-block art for the renderer.
///
/// Only files a caller passes in are read (through `ImageReference.path` or a file URL
/// attachment), with iOS's 10 MB image size cap and the decoder's pixel, scan and time caps.
/// The file is streamed through the decoder, which never holds the whole picture.
///
/// Two caches, both keyed by the file's identity (device, inode, size, modification time):
/// a working copy of the whole picture, area-averaged to a few hundred pixels a side (a JPEG's
/// 1/8 scale when that is enough), from which art of any size up to its resolution is built;
/// and the art itself per size, so redraws and re-renders decode nothing. A size or a clipped
/// region that needs more detail than the working copy has is decoded on its own, at exactly
/// the art's pixels (a JPEG only in the rows and columns of the region). A failure is
/// remembered for that file version, so a broken file is not decoded again on every frame;
/// `problem(for:)` says why.
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
    var file: MediaFile.Identity
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
  /// Working copies of whole pictures: at most 32 files and 32 MB of pixels.
  private var images = RecentCache<MediaFile.Identity, DecodedImage>(capacity: 32, maxCost: 32 << 20)
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
    do throws(MediaError) {
      return try header(key).aspectRatio
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
    let artKey = ArtKey(file: key.identity, columns: columns, rows: rows, crop: crop, region: region)
    if let cached = arts.value(for: artKey) {
      statistics.artCacheHits += 1
      return cached
    }
    do throws(MediaError) {
      let header = try header(key)
      let geometry = ArtGeometry(
        sourceWidth: header.width, sourceHeight: header.height, region: region, columns: columns, rows: rows,
        crop: crop)
      let decoded = try pixels(key, header: header, geometry: geometry, clipped: region != .whole)
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

  /// The working copy in the cache for an image, if any (for tests and diagnostics).
  package func cachedImage(for image: ImageReference) -> DecodedImage? {
    guard case .success(let key) = version(of: image) else { return nil }
    return images.value(for: key.identity)
  }

  /// The latest decode, working copy or region (for tests and diagnostics).
  package private(set) var lastDecoded: DecodedImage?

  // MARK: - Files

  /// The file version an image names, or why it cannot be used.
  private func version(of image: ImageReference) -> Result<MediaFile.Key, MediaError> {
    if let attachment = image.attachment, attachment.format.kind != .image {
      let kind = attachment.format.kind == .movie ? "movie frames are" : "audio has no picture and is"
      return .failure(MediaError(.notAnImage, "\(attachment.format.displayName) \(kind) not decoded"))
    }
    // iOS types an attachment by its name or hint; content of another type is unreadable.
    if let mismatch = image.attachment?.contentMismatch {
      return .failure(MediaError(.unsupported, mismatch))
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
    images.removeAll { $0 == key.identity }
    arts.removeAll { $0.file == key.identity }
  }

  /// Opens the file a key names, refusing it when it changed since the key was taken.
  private func open(_ key: MediaFile.Key) throws(MediaError) -> MediaFile {
    let file = try MediaFile(path: key.path)
    guard file.key == key else { throw MediaError(.unreadable, "the file changed while it was read") }
    return file
  }

  /// The header, read once per file version.
  private func header(_ key: MediaFile.Key) throws(MediaError) -> ImageHeader {
    if let header = headers[key] { return header }
    let header = try readHeader(key)
    headers[key] = header
    return header
  }

  /// The header from the file's first bytes (enough for the EXIF block of a JPEG), or from all
  /// of it when the header runs longer.
  private func readHeader(_ key: MediaFile.Key) throws(MediaError) -> ImageHeader {
    let file = try open(key)
    statistics.headerReads += 1
    let prefix = try file.read(at: 0, count: 160 * 1024)
    do throws(MediaError) {
      return try MediaDecoder.probe(prefix)
    } catch  where error.kind == .truncated && file.size > Int64(prefix.count) {
      return try MediaDecoder.probe(file.readAll(limit: limits.maxFileBytes))
    }
  }

  /// Longest side of a working copy unless the art needs more (a JPEG stops at the size of
  /// libjpeg's fastest decode, its 1/8 scale).
  private static let workingSide = 512

  /// Pixels that hold what the art shows: the working copy when it has the detail; else a new
  /// working copy of the whole picture, grown to the art's need unless the art shows a clipped
  /// part (a thumbnail's clipping rectangle), whose region alone is then decoded at the art's
  /// own pixels.
  private func pixels(
    _ key: MediaFile.Key, header: ImageHeader, geometry: ArtGeometry, clipped: Bool
  ) throws(MediaError) -> DecodedImage {
    let need = geometry.neededSize(sourceWidth: header.width, sourceHeight: header.height)
    func covers(_ size: (width: Int, height: Int)) -> Bool { size.width >= need.width && size.height >= need.height }
    if let working = images.value(for: key.identity), covers((working.width, working.height)) {
      return working
    }
    let plain = workingSize(header)
    if covers(plain) || !clipped {
      let size = covers(plain) ? plain : grown(plain, to: need)
      let working = try decode(key, header: header, region: .whole, size: size)
      images.insert(working, for: key.identity, cost: working.rgb.count)
      return working
    }
    return try decode(key, header: header, region: geometry.shown, size: (geometry.width, geometry.height))
  }

  /// A working copy's size: the picture fitted in `workingSide`, and for a JPEG no more than
  /// libjpeg's 1/8 scale gives.
  private func workingSize(_ header: ImageHeader) -> (width: Int, height: Int) {
    let longer = max(header.width, header.height)
    let fit = { (side: Int) in longer <= Self.workingSide ? side : max(1, side * Self.workingSide / longer) }
    var width = fit(header.width)
    var height = fit(header.height)
    if let fast = header.fastSize {
      width = min(width, fast.width)
      height = min(height, fast.height)
    }
    return (width, height)
  }

  /// A working copy grown to what the art needs, its longer side at most `limits.maxCachedSide`.
  private func grown(_ size: (width: Int, height: Int), to need: (width: Int, height: Int)) -> (width: Int, height: Int)
  {
    var width = max(size.width, need.width)
    var height = max(size.height, need.height)
    let cap = max(1, limits.maxCachedSide)
    if max(width, height) > cap {
      let larger = max(width, height)
      width = max(1, width * cap / larger)
      height = max(1, height * cap / larger)
    }
    return (width, height)
  }

  private func decode(
    _ key: MediaFile.Key, header: ImageHeader, region: UnitRect, size: (width: Int, height: Int)
  ) throws(MediaError) -> DecodedImage {
    let file = try open(key)
    statistics.decodes += 1
    let decoded = try MediaDecoder.decode(
      .file(file), limits: limits, region: region, size: size, orientation: header.orientation, background: fill)
    lastDecoded = decoded
    return decoded
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
