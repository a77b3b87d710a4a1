import Foundation
import UserNotificationsModel

/// Checks an APNs payload the way APNs and iOS would treat it, and builds its content.
///
/// Errors are what APNs or `simctl push` would refuse (size, shape, types); warnings are what
/// iOS accepts but silently handles differently from what the author probably meant.
package enum PayloadAnalyzer {
  /// APNs refuses larger payloads (413 PayloadTooLarge).
  package static let maximumPayloadBytes = 4096
  /// The keys the built-in service extension reads a media URL from, in order.
  package static let attachmentURLKeys = ["attachment-url", "image-url", "media-url"]
  /// The key `simctl` and the Simulator read the target app from.
  package static let simulatorTargetBundleKey = "Simulator Target Bundle"

  /// The payload's size as APNs counts it: every byte as sent, whitespace included.
  package static func payloadByteCount(_ bytes: [UInt8]) -> Int { bytes.count }

  /// The app an `apns-topic` header names: the topic less its push type's suffix (`.voip`).
  package static func app(fromTopic headers: APNsHeaders) -> String? {
    guard var topic = headers.topic, !topic.isEmpty else { return nil }
    if let suffix = headers.pushType.flatMap(APNsPushType.init(rawValue:))?.topicSuffix, topic.hasSuffix(suffix),
      topic.count > suffix.count
    {
      topic = String(topic.dropLast(suffix.count))
    }
    return topic
  }

  /// Checks a payload and builds its content.
  ///
  /// - Parameters:
  ///   - categories: categories that serve every app (a caller that knows no apps).
  ///   - headers: the APNs request headers given on the command line; they override the file's
  ///     `apns-headers` object, which is not part of the payload (nor of its size).
  package static func analyze(
    _ bytes: [UInt8], file: String, categories: [String: UNNotificationCategory],
    headers options: APNsHeaders = APNsHeaders(), bundle: String? = nil
  ) -> Payload {
    analyze(bytes, file: file, categories: CategoryRegistry(everyApp: categories), headers: options, bundle: bundle)
  }

  /// Checks a payload and builds its content.
  ///
  /// - Parameters:
  ///   - categories: each app's registered categories, or `nil` when none were given; the
  ///     payload's category is looked up among its own app's only.
  ///   - headers: the APNs request headers given on the command line; they override the file's
  ///     `apns-headers` object, which is not part of the payload (nor of its size).
  ///   - bundle: the app named by `unterm push --bundle`: it wins over the file's, as the
  ///     bundle argument of `simctl push` does.
  package static func analyze(
    _ bytes: [UInt8], file: String, categories: CategoryRegistry?,
    headers options: APNsHeaders = APNsHeaders(), bundle: String? = nil
  ) -> Payload {
    var sink = DiagnosticSink(file: file)
    var parsed: JSONNode?
    var failure: JSONParser.Failure?
    do {
      parsed = try JSONParser.parse(bytes)
    } catch {
      failure = error
    }
    let (sent, fileHeaders, headerFindings) = splitHeaders(bytes, parsed: parsed, file: file)
    let headers = fileHeaders.overridden(by: options)
    let size = payloadByteCount(sent)
    var info = UNRemotePayloadInfo(file: file, byteCount: size)
    info.headers = headers
    var payload = Payload(file: file, content: nil, info: info, diagnostics: [], document: nil, sentBytes: sent)
    checkSize(size, headers: headers, withoutHeaders: sent.count != bytes.count, &sink)
    sink.append(contentsOf: headerFindings)
    guard let document = parsed else {
      if let failure { sink.report(failure.kind.lintCode, at: .position(failure.position), failure.message) }
      payload.diagnostics = sink.diagnostics
      return payload
    }
    payload.document = document
    sink.document = document
    guard let root = document.object else {
      sink.report(
        .notAnObject, .root,
        "the payload is \(document.typeNameWithArticle); it must be an object with an \"aps\" dictionary")
      payload.diagnostics = sink.diagnostics
      return payload
    }

    let content = UNMutableNotificationContent()
    content.userInfo = userInfo(of: root, file: file, &sink)
    if let id = targetBundle(of: root, &sink) { info.bundleIdentifier = id }
    guard let aps = apsDictionary(of: root, &sink) else {
      payload.diagnostics = sink.diagnostics
      return payload
    }
    info.app = bundle ?? info.bundleIdentifier ?? app(fromTopic: headers)
    checkAps(aps, content: content, categories: categories, headers: headers, options: options, info: &info, &sink)

    if let (key, _) = urlKey(root), !info.mutableContent {
      sink.report(
        .attachmentWithoutMutableContent, JSONPath([.key(key)]),
        "the built-in service extension attaches \(key) only when aps.mutable-content is 1")
    }

    payload.info = info
    payload.diagnostics = sink.diagnostics
    payload.content = sink.hasErrors ? nil : content
    return payload
  }

  /// The payload as sent (the file, less its `apns-headers` object), the headers that object
  /// gives, and the findings about them, which point into the document as every other finding does.
  private static func splitHeaders(_ bytes: [UInt8], parsed: JSONNode?, file: String) -> (
    sent: [UInt8], headers: APNsHeaders, diagnostics: [Diagnostic]
  ) {
    var sent = bytes
    var headerSink = DiagnosticSink(file: file, document: parsed)
    var fileHeaders = APNsHeaders()
    if let root = parsed?.object, let node = root[APNsRules.headersKey] {
      if let spans = JSONMemberSpans(bytes) { sent = spans.removing([APNsRules.headersKey], from: bytes) }
      fileHeaders = readHeaders(node, &headerSink)
    }
    return (sent, fileHeaders, headerSink.diagnostics)
  }

  /// Reports a payload larger than APNs takes for its push type (`withoutHeaders`: its size is
  /// the file's less its `apns-headers`).
  private static func checkSize(_ size: Int, headers: APNsHeaders, withoutHeaders: Bool, _ sink: inout DiagnosticSink) {
    let limit = headers.pushType.flatMap(APNsPushType.init(rawValue:))?.payloadLimit ?? maximumPayloadBytes
    if size > limit {
      let what = limit == maximumPayloadBytes ? "payloads" : "\(headers.pushType ?? "") payloads"
      sink.report(
        .payloadTooLarge, at: .file,
        "the payload is \(size) bytes\(withoutHeaders ? " without its apns-headers" : ""); APNs refuses \(what) over \(limit) bytes (413 PayloadTooLarge)"
      )
    }
  }

  /// The payload's keys as iOS puts them in `userInfo`: all but `Simulator Target Bundle` and
  /// `apns-headers`.
  private static func userInfo(of root: JSONObject, file: String, _ sink: inout DiagnosticSink) -> [AnyHashable: Any] {
    var userInfo: [AnyHashable: Any] = [:]
    for member in root.members where member.key != simulatorTargetBundleKey && member.key != APNsRules.headersKey {
      // The aps dictionary's numbers are range-checked by key when aps is checked (one error each is enough).
      let path = JSONPath([.key(member.key)])
      var unreported = DiagnosticSink(file: file)
      let converted =
        member.key == "aps"
        ? foundationValue(member.value, path: path, &unreported) : foundationValue(member.value, path: path, &sink)
      if let value = converted {
        userInfo[member.key] = value
      }
    }
    return userInfo
  }

  /// The payload's `Simulator Target Bundle`; `nil` when there is none or (reported) it is not
  /// a non-empty string.
  private static func targetBundle(of root: JSONObject, _ sink: inout DiagnosticSink) -> String? {
    guard let bundle = root[simulatorTargetBundleKey] else { return nil }
    if let id = bundle.string, !id.isEmpty { return id }
    sink.report(
      .typeMismatch, JSONPath([.key(simulatorTargetBundleKey)]),
      "must be the target app's bundle identifier as a non-empty string")
    return nil
  }

  /// The payload's `aps` dictionary; `nil`, reported, when it is missing or not a dictionary.
  private static func apsDictionary(of root: JSONObject, _ sink: inout DiagnosticSink) -> JSONObject? {
    guard let apsNode = root["aps"] else {
      sink.report(
        .missingAps, .root,
        "the payload has no \"aps\" dictionary; APNs and simctl require one (custom keys go next to it)"
      )
      return nil
    }
    guard let aps = apsNode.object else {
      sink.report(
        .typeMismatch, JSONPath([.key("aps")]), "\"aps\" must be a dictionary, not \(apsNode.typeNameWithArticle)")
      return nil
    }
    return aps
  }

  /// Checks the `aps` dictionary, building `content` and the flags of `info`, then the APNs
  /// headers against what it holds.
  private static func checkAps(
    _ aps: JSONObject, content: UNMutableNotificationContent, categories: CategoryRegistry?, headers: APNsHeaders,
    options: APNsHeaders, info: inout UNRemotePayloadInfo, _ sink: inout DiagnosticSink
  ) {
    var checker = ApsChecker(aps: aps, path: JSONPath([.key("aps")]), content: content, sink: sink)
    checker.check(categories: categories, app: info.app)
    sink = checker.sink
    info.mutableContent = checker.mutableContent
    info.contentAvailable = checker.contentAvailable
    let contents = APNsRules.Contents(
      hasAlert: aps["alert"] != nil, hasSound: aps["sound"] != nil, hasBadge: aps["badge"] != nil,
      contentAvailable: checker.contentAvailable, targetBundle: info.bundleIdentifier)
    APNsRules.check(headers, fromOptions: Set(options.fields.map(\.field)), contents: contents, sink: &sink)
  }

  /// The file's `apns-headers` object: the five headers, as strings (the priority and the
  /// expiration may be whole numbers); anything else is reported and left out.
  private static func readHeaders(_ node: JSONNode, _ sink: inout DiagnosticSink) -> APNsHeaders {
    var headers = APNsHeaders()
    let path = JSONPath([.key(APNsRules.headersKey)])
    guard let object = node.object else {
      sink.report(
        .typeMismatch, path,
        "must be an object of APNs headers (apns-push-type, apns-priority, …), not \(node.typeNameWithArticle)")
      return headers
    }
    for member in object.members {
      let keyPath = path.appending(member.key)
      guard let field = APNsHeaders.Field(rawValue: member.key) else {
        let names = APNsHeaders.Field.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: member.key, in: names).map { ". Did you mean \"\($0)\"?" } ?? ""
        sink.report(
          .unknownApnsHeader, keyPath,
          "\(OneLine.quote(member.key)) is not an APNs header UNTerm reads (\(names.joined(separator: ", "))); it is ignored\(hint)"
        )
        continue
      }
      if let text = member.value.string {
        headers[field] = text
      } else if let number = member.value.number, number.isIntegral, field == .priority || field == .expiration {
        headers[field] = number.text
      } else {
        sink.report(
          .unknownApnsHeader, keyPath,
          "must be a string\(field == .priority || field == .expiration ? " or a whole number" : ""), not \(member.value.typeNameWithArticle); it is ignored"
        )
      }
    }
    return headers
  }

  package static func urlKey(_ root: JSONObject) -> (String, String)? {
    for key in attachmentURLKeys {
      if let value = root[key]?.string, !value.isEmpty { return (key, value) }
    }
    return nil
  }

  /// Converts a JSON value to the Foundation types iOS puts in `userInfo`.
  ///
  /// Numbers become `NSNumber`, so `as? Int` and `as? Double` both work as on iOS.
  package static func foundationValue(
    _ node: JSONNode, path: JSONPath, _ sink: inout DiagnosticSink
  ) -> Any? {
    switch node.value {
    case .null: return NSNull()
    case .bool(let b): return NSNumber(value: b)
    case .string(let s): return s
    case .number(let n):
      if n.isIntegral, let i = n.integer { return NSNumber(value: i) }
      if let d = n.double { return NSNumber(value: d) }
      sink.report(.numberOutOfRange, path, "the number \(n.text.prefix(40)) is out of range")
      return nil
    case .array(let items):
      return items.enumerated().compactMap { foundationValue($1, path: path.appending($0), &sink) }
    case .object(let object):
      var dict: [String: Any] = [:]
      for member in object.members {
        if let value = foundationValue(member.value, path: path.appending(member.key), &sink) {
          dict[member.key] = value
        }
      }
      return dict
    }
  }
}
