import Foundation

/// Where a payload's `attachment-url`, `image-url` or `media-url` points: the one reading of
/// those values, shared by the built-in service extension and lint.
package enum MediaLocation: Equatable, Sendable {
  /// An `http(s)` URL, downloaded at delivery.
  case remote(URL)
  /// A local file: a `file:` URL, an absolute path, or a path relative to the payload's folder.
  case file(URL)
  /// Another scheme, which the built-in service extension does not read.
  case unsupported

  package init(_ value: String, relativeTo payloadDirectory: URL) {
    if let url = URL(string: value), let scheme = url.scheme?.lowercased() {
      switch scheme {
      case "http", "https":
        self = .remote(url)
        return
      case "file":
        self = .file(url)
        return
      default:
        if !value.hasPrefix("/") && value.contains(":") {
          self = .unsupported
          return
        }
      }
    }
    self = .file(value.hasPrefix("/") ? URL(fileURLWithPath: value) : payloadDirectory.appendingPathComponent(value))
  }
}
