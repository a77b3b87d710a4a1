import UNTermRender

/// The image decoder sessions use, once the media module provides one.
package enum MediaSupport {
  /// A fresh image provider, or `nil` while none is linked in.
  package static func images() -> (any ImageProvider)? { nil }
}
