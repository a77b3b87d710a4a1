import UserNotificationsModel

/// Caps for reading and decoding one image.
///
/// The defaults keep one decode under about 64 MB (a 4096 × 4096 PNG as RGBA) and 2 seconds,
/// and follow the limits libjpeg-turbo's own fuzzers use for progressive scans.
package struct MediaLimits: Hashable, Sendable {
  /// Largest file read, in bytes: iOS's limit for image attachments (10 MB).
  package var maxFileBytes: Int
  /// Largest width as stored in the file.
  package var maxWidth: Int
  /// Largest height as stored in the file.
  package var maxHeight: Int
  /// Largest width × height as stored in the file.
  package var maxPixels: Int
  /// Largest number of progressive JPEG scans.
  package var maxScans: Int
  /// Budget for one decode, in the decoding thread's CPU time (not wall-clock time, so a busy
  /// machine does not make a good image undrawable).
  package var timeBudget: Duration
  /// Cap on libjpeg's large working buffers (progressive coefficient arrays), in bytes.
  package var maxDecoderMemory: Int
  /// Longest side of the copy kept in the cache; larger decodes are averaged down to it.
  package var maxCachedSide: Int

  package init(
    maxFileBytes: Int = UNAttachmentKind.image.maximumByteCount, maxWidth: Int = 16_384,
    maxHeight: Int = 16_384, maxPixels: Int = 4096 * 4096, maxScans: Int = 500,
    timeBudget: Duration = .seconds(2), maxDecoderMemory: Int = 256 << 20, maxCachedSide: Int = 1024
  ) {
    self.maxFileBytes = maxFileBytes
    self.maxWidth = maxWidth
    self.maxHeight = maxHeight
    self.maxPixels = maxPixels
    self.maxScans = maxScans
    self.timeBudget = timeBudget
    self.maxDecoderMemory = maxDecoderMemory
    self.maxCachedSide = maxCachedSide
  }

  /// The limits `MediaImages` uses unless told otherwise.
  package static let standard = MediaLimits()

  /// The time budget in whole milliseconds, at least 1.
  var timeBudgetMilliseconds: UInt32 {
    let (seconds, attoseconds) = timeBudget.components
    let millis = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return UInt32(max(1, min(Double(UInt32.max), millis.rounded(.up))))
  }
}
