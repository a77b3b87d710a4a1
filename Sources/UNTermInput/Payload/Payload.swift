import Foundation
import UserNotificationsModel

/// A payload file turned into a notification request, with what the checks found.
package struct Payload: @unchecked Sendable {
  /// The file name as the user gave it (`-` for standard input).
  package var file: String
  /// The content, present unless the payload has errors.
  package var content: UNNotificationContent?
  /// The payload facts beyond the content.
  package var info: UNRemotePayloadInfo
  /// Every finding, in file order.
  package var diagnostics: [Diagnostic]
  /// The parsed document, when it parsed.
  package var document: JSONNode?
  /// The payload as APNs would be sent it: the file's bytes less its `apns-headers` object.
  package var sentBytes: [UInt8] = []

  /// Whether this is a Live Activity push (`aps.event`, or `apns-push-type: liveactivity`): it
  /// starts, updates or ends an activity, and shows no notification.
  package var isLiveActivity: Bool {
    info.headers.pushType == "liveactivity" || document?.object?["aps"]?.object?["event"] != nil
  }

  /// The keys of `aps.content-state` in the order the file writes them.
  package var contentStateKeys: [String]? {
    document?.object?["aps"]?.object?["content-state"]?.object?.members.map(\.key)
  }

  /// Whether any finding is an error.
  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The first URL key the built-in service extension reads, with its value.
  package var attachmentURL: (key: String, value: String)? {
    guard let root = document?.object else { return nil }
    return PayloadAnalyzer.urlKey(root).map { (key: $0.0, value: $0.1) }
  }

  /// A request for this payload, or the first error as a `UNTermError` (exit code 65).
  package func request(identifier: String) throws(UNTermError) -> UNNotificationRequest {
    guard let content, !hasErrors else {
      if let error = diagnostics.first(where: { $0.severity == .error }) {
        throw UNTermError(error)
      }
      throw UNTermError(.dataError, file: file, "the payload could not be loaded")
    }
    return UNNotificationRequest(
      identifier: identifier, content: content, trigger: UNPushNotificationTrigger(),
      remote: info)
  }

  /// Loads and checks a payload file (or `-`); `headers` are the command line's APNs headers,
  /// `bundle` the app `unterm push --bundle` names.
  package static func load(
    _ path: String, categories: CategoryRegistry? = nil, headers: APNsHeaders = APNsHeaders(), bundle: String? = nil
  ) throws(UNTermError) -> Payload {
    let bytes = try InputFile.read(path)
    return PayloadAnalyzer.analyze(bytes, file: path, categories: categories, headers: headers, bundle: bundle)
  }

  /// Loads and checks a payload file with categories that serve every app.
  package static func load(
    _ path: String, categories: [String: UNNotificationCategory], headers: APNsHeaders = APNsHeaders()
  ) throws(UNTermError) -> Payload {
    try load(path, categories: CategoryRegistry(everyApp: categories), headers: headers)
  }
}
