/// Why an image could not be read or decoded; its description is the short reason the UI
/// shows as "[image unavailable: reason]".
package struct MediaError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure.
  package enum Kind: Hashable, Sendable {
    /// Not a local regular file, missing, or unreadable.
    case unreadable
    /// The file is over the size cap.
    case fileTooLarge
    /// An audio or movie attachment: there is no still image to draw.
    case notAnImage
    /// Not PNG, JPEG or GIF, or a variant the decoder does not handle.
    case unsupported
    /// The data breaks the format.
    case corrupt
    /// The data ends before the image does.
    case truncated
    /// The width, height or pixel count is over the caps.
    case tooLarge
    /// A progressive JPEG has more scans than allowed.
    case tooManyScans
    /// Decoding used more CPU time than its budget.
    case timedOut
    /// Memory ran out or the decoder's memory cap was hit.
    case outOfMemory
  }

  package var kind: Kind
  package var message: String

  package init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  package var description: String { message }
}
