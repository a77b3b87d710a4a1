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

  private static let apsKeys: Set<String> = [
    "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
    "target-content-id", "interruption-level", "relevance-score", "filter-criteria",
  ]
  private static let liveActivityKeys: Set<String> = [
    "stale-date", "content-state", "timestamp", "event", "dismissal-date", "attributes-type",
    "attributes", "input-push-token", "input-push-channel",
  ]
  private static let alertStringKeys = [
    "title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key",
    "summary-arg", "action", "action-loc-key",
  ]
  private static let alertArrayKeys = ["title-loc-args", "subtitle-loc-args", "loc-args"]

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
    // The payload as sent: the file, less its apns-headers object.
    var sent = bytes
    // Its findings point into the document, as every other finding does.
    var headerSink = DiagnosticSink(file: file, document: parsed)
    var fileHeaders = APNsHeaders()
    if let root = parsed?.object, let node = root[APNsRules.headersKey] {
      if let spans = JSONMemberSpans(bytes) { sent = spans.removing([APNsRules.headersKey], from: bytes) }
      fileHeaders = readHeaders(node, &headerSink)
    }
    let headers = fileHeaders.overridden(by: options)
    let size = payloadByteCount(sent)
    var info = UNRemotePayloadInfo(file: file, byteCount: size)
    info.headers = headers
    var payload = Payload(file: file, content: nil, info: info, diagnostics: [], document: nil, sentBytes: sent)

    let limit = headers.pushType.flatMap(APNsPushType.init(rawValue:))?.payloadLimit ?? maximumPayloadBytes
    if size > limit {
      let what = limit == maximumPayloadBytes ? "payloads" : "\(headers.pushType ?? "") payloads"
      sink.report(
        .payloadTooLarge, at: .file,
        "the payload is \(size) bytes\(sent.count != bytes.count ? " without its apns-headers" : ""); APNs refuses \(what) over \(limit) bytes (413 PayloadTooLarge)"
      )
    }
    sink.append(contentsOf: headerSink.diagnostics)
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
    var userInfo: [AnyHashable: Any] = [:]
    for member in root.members where member.key != simulatorTargetBundleKey && member.key != APNsRules.headersKey {
      // The aps dictionary's numbers are range-checked by key below (one error each is enough).
      let path = JSONPath([.key(member.key)])
      var unreported = DiagnosticSink(file: file)
      let converted =
        member.key == "aps"
        ? foundationValue(member.value, path: path, &unreported) : foundationValue(member.value, path: path, &sink)
      if let value = converted {
        userInfo[member.key] = value
      }
    }
    content.userInfo = userInfo

    if let bundle = root[simulatorTargetBundleKey] {
      if let id = bundle.string, !id.isEmpty {
        info.bundleIdentifier = id
      } else {
        sink.report(
          .typeMismatch, JSONPath([.key(simulatorTargetBundleKey)]),
          "must be the target app's bundle identifier as a non-empty string")
      }
    }

    guard let apsNode = root["aps"] else {
      sink.report(
        .missingAps, .root,
        "the payload has no \"aps\" dictionary; APNs and simctl require one (custom keys go next to it)"
      )
      payload.diagnostics = sink.diagnostics
      return payload
    }
    let apsPath = JSONPath([.key("aps")])
    guard let aps = apsNode.object else {
      sink.report(.typeMismatch, apsPath, "\"aps\" must be a dictionary, not \(apsNode.typeNameWithArticle)")
      payload.diagnostics = sink.diagnostics
      return payload
    }

    info.app = bundle ?? info.bundleIdentifier ?? app(fromTopic: headers)
    var checker = ApsChecker(aps: aps, path: apsPath, content: content, sink: sink)
    checker.check(categories: categories, app: info.app)
    sink = checker.sink
    info.mutableContent = checker.mutableContent
    info.contentAvailable = checker.contentAvailable
    let contents = APNsRules.Contents(
      hasAlert: aps["alert"] != nil, hasSound: aps["sound"] != nil, hasBadge: aps["badge"] != nil,
      contentAvailable: checker.contentAvailable, targetBundle: info.bundleIdentifier)
    APNsRules.check(headers, fromOptions: Set(options.fields.map(\.field)), contents: contents, sink: &sink)

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

  // MARK: - The aps dictionary

  private struct ApsChecker {
    let aps: JSONObject
    let path: JSONPath
    let content: UNMutableNotificationContent
    var sink: DiagnosticSink
    var mutableContent = false
    var contentAvailable = false

    init(aps: JSONObject, path: JSONPath, content: UNMutableNotificationContent, sink: DiagnosticSink) {
      self.aps = aps
      self.path = path
      self.content = content
      self.sink = sink
    }

    mutating func check(categories: CategoryRegistry?, app: String?) {
      for member in aps.members {
        let key = member.key
        let keyPath = path.appending(key)
        if PayloadAnalyzer.liveActivityKeys.contains(key) {
          sink.report(
            .liveActivityKey, keyPath,
            "\(key) is a Live Activity key; it produces no notification banner and UNTerm ignores it")
        } else if !PayloadAnalyzer.apsKeys.contains(key) {
          let hint =
            Suggestion.closest(to: key, in: PayloadAnalyzer.apsKeys).map {
              " Did you mean \"\($0)\"?"
            } ?? " Custom keys belong at the top level, next to aps."
          sink.report(
            .unknownApsKey, keyPath, "iOS ignores unknown key \"\(key)\" inside aps.\(hint)")
        }
      }
      checkAlert()
      checkBadge()
      checkSound()
      checkStrings()
      mutableContent = flag("mutable-content")
      contentAvailable = flag("content-available")
      checkInterruptionLevel()
      checkRelevance()
      checkCategory(categories, app: app)
      checkCombinations()
    }

    private mutating func typeError(_ keyPath: JSONPath, _ expected: String, _ node: JSONNode) {
      sink.report(.typeMismatch, keyPath, "must be \(expected), not \(node.typeNameWithArticle)")
    }

    private mutating func checkAlert() {
      guard let node = aps["alert"] else { return }
      let alertPath = path.appending("alert")
      if let text = node.string {
        content.body = text
        return
      }
      guard let alert = node.object else {
        typeError(alertPath, "a string or a dictionary", node)
        return
      }
      var strings: [String: String] = [:]
      var arrays: [String: [String]] = [:]
      for member in alert.members {
        let keyPath = alertPath.appending(member.key)
        if PayloadAnalyzer.alertStringKeys.contains(member.key) {
          if let s = member.value.string {
            strings[member.key] = s
          } else {
            typeError(keyPath, "a string", member.value)
          }
        } else if PayloadAnalyzer.alertArrayKeys.contains(member.key) {
          guard let items = member.value.array else {
            typeError(keyPath, "an array of strings", member.value)
            continue
          }
          var list: [String] = []
          for (i, item) in items.enumerated() {
            if let s = item.string {
              list.append(s)
            } else {
              typeError(keyPath.appending(i), "a string", item)
            }
          }
          arrays[member.key] = list
        } else if member.key == "summary-arg-count" {
          if let n = InputNumber.summaryArgCount.readInt(member.value, at: keyPath, into: &sink) {
            content.summaryArgumentCount = n
          }
        } else {
          let all = PayloadAnalyzer.alertStringKeys + PayloadAnalyzer.alertArrayKeys + ["summary-arg-count"]
          let hint = Suggestion.closest(to: member.key, in: all).map { " Did you mean \"\($0)\"?" } ?? ""
          sink.report(
            .unknownAlertKey, keyPath, "iOS ignores unknown alert key \"\(member.key)\".\(hint)")
        }
      }
      var keys = UNLocalizedAlert()
      content.title = localized(
        "title", strings: strings, arrays: arrays, key: "title-loc-key", args: "title-loc-args",
        alertPath: alertPath, into: &keys.title)
      content.subtitle = localized(
        "subtitle", strings: strings, arrays: arrays, key: "subtitle-loc-key",
        args: "subtitle-loc-args", alertPath: alertPath, into: &keys.subtitle)
      content.body = localized(
        "body", strings: strings, arrays: arrays, key: "loc-key", args: "loc-args",
        alertPath: alertPath, into: &keys.body)
      // After the fields: setting a field's text drops its key.
      if !keys.isEmpty { content.localizedAlert = keys }
      content.launchImageName = strings["launch-image"] ?? ""
      if let arg = strings["summary-arg"] {
        content.summaryArgument = arg
        sink.report(
          .deprecatedSummaryArg, alertPath.appending("summary-arg"),
          "summary-arg is deprecated and ignored since iOS 15")
      }
      for legacy in ["action", "action-loc-key"] where strings[legacy] != nil {
        sink.report(
          .legacyAlertKey, alertPath.appending(legacy),
          "\(legacy) is a pre-iOS 10 key; current iOS ignores it")
      }
    }

    /// The text for a field: the literal value, else the localization key with its arguments,
    /// the key itself as the format (as iOS shows a key the app's strings lack). The session
    /// localizes it with the app's strings (`--strings`) at delivery.
    private mutating func localized(
      _ field: String, strings: [String: String], arrays: [String: [String]], key: String,
      args: String, alertPath: JSONPath, into slot: inout UNLocalizedAlert.Field?
    ) -> String {
      if let locKey = strings[key] {
        let arguments = arrays[args] ?? []
        let placeholders = Self.placeholderCount(locKey)
        if placeholders > 0 && placeholders != arguments.count {
          sink.report(
            .locArgsMismatch, alertPath.appending(args),
            "\(key) \(OneLine.quote(locKey)) has \(placeholders) placeholder(s) but \(args) has \(arguments.count) value(s)"
          )
        }
        // Without the app's strings the key is its own format, as on iOS when the key is missing:
        // arguments fill its specifiers, and arguments without one do not appear.
        let shown: String
        if placeholders == 0 && !arguments.isEmpty {
          shown = "the key itself, without its \(arguments.count) \(args) value(s): the key has no %@ for them"
        } else if placeholders > 0 {
          shown = "the key itself as the format, its specifiers filled from \(args)"
        } else {
          shown = "the key itself"
        }
        sink.report(
          .localizationKey, alertPath.appending(key),
          "\(field) comes from \(key) \(OneLine.quote(locKey)) in the app's Localizable.strings (give them with --strings); without them UNTerm shows \(shown), as iOS does when the key is missing"
        )
        slot = UNLocalizedAlert.Field(key: locKey, arguments: arguments)
        return StringFormat.format(locKey, arguments: arguments)
      }
      if arrays[args] != nil {
        sink.report(
          .locArgsWithoutKey, alertPath.appending(args),
          "\(args) has no effect without \(key)")
      }
      return strings[field] ?? ""
    }

    private static func placeholderCount(_ format: String) -> Int {
      var count = 0
      var previousPercent = false
      for c in format {
        if previousPercent {
          if c == "@" { count += 1 }
          previousPercent = c == "%" ? false : (c.isNumber || c == "$")
          if c == "%" { continue }
        } else if c == "%" {
          previousPercent = true
        }
      }
      return count
    }

    private mutating func checkBadge() {
      guard let node = aps["badge"] else { return }
      guard let value = InputNumber.badge.readInt(node, at: path.appending("badge"), into: &sink) else { return }
      content.badge = NSNumber(value: value)
    }

    private mutating func checkSound() {
      guard let node = aps["sound"] else { return }
      let keyPath = path.appending("sound")
      if let name = node.string {
        content.sound = name == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(name))
        return
      }
      guard let dict = node.object else {
        typeError(keyPath, "a string or a critical-alert dictionary", node)
        return
      }
      var critical = false
      var name: String?
      var volume: Float?
      for member in dict.members {
        let p = keyPath.appending(member.key)
        switch member.key {
        case "critical":
          if let n = member.value.number?.integer, n == 0 || n == 1 {
            critical = n == 1
          } else if let b = member.value.bool {
            critical = b
            sink.report(.boolFlag, p, "APNs expects the number 1 here, not a boolean")
          } else {
            sink.report(.invalidValue, p, "must be 1 (critical) or 0")
          }
        case "name":
          if let s = member.value.string { name = s } else { typeError(p, "a string", member.value) }
        case "volume":
          if let v = InputNumber.soundVolume.read(member.value, at: p, into: &sink) { volume = Float(v) }
        default:
          sink.report(.unknownSoundKey, p, "iOS ignores unknown sound key \"\(member.key)\"")
        }
      }
      let soundName = (name == nil || name == "default") ? nil : name.map { UNNotificationSoundName(rawValue: $0) }
      content.sound = UNNotificationSound(name: soundName, isCritical: critical, volume: volume)
      if critical {
        sink.report(
          .criticalEntitlement, keyPath,
          "critical alerts need Apple's com.apple.developer.usernotifications.critical-alerts entitlement")
      }
    }

    private mutating func string(_ key: String) -> String? {
      guard let node = aps[key] else { return nil }
      if let s = node.string { return s }
      typeError(path.appending(key), "a string", node)
      return nil
    }

    private mutating func checkStrings() {
      if let thread = string("thread-id") { content.threadIdentifier = thread }
      if let category = string("category") { content.categoryIdentifier = category }
      if let target = string("target-content-id") { content.targetContentIdentifier = target }
      if let filter = string("filter-criteria") { content.filterCriteria = filter }
    }

    private mutating func flag(_ key: String) -> Bool {
      guard let node = aps[key] else { return false }
      let keyPath = path.appending(key)
      if let n = node.number {
        guard n.isIntegral, let value = n.integer, value == 0 || value == 1 else {
          sink.report(
            .invalidFlag, keyPath,
            "\(key) should be 1 (or absent); iOS treats \(n.text.prefix(20)) as set only if it is 1")
          return n.integer == 1
        }
        return value == 1
      }
      if let b = node.bool {
        sink.report(.boolFlag, keyPath, "APNs expects the number 1 for \(key), not \(b)")
        return b
      }
      typeError(keyPath, "the number 1", node)
      return false
    }

    private mutating func checkInterruptionLevel() {
      guard let value = string("interruption-level") else { return }
      let keyPath = path.appending("interruption-level")
      if let level = UNNotificationInterruptionLevel(payloadValue: value) {
        content.interruptionLevel = level
        if level == .critical {
          sink.report(
            .criticalEntitlement, keyPath,
            "the critical interruption level needs Apple's critical-alerts entitlement")
        }
      } else {
        let known = UNNotificationInterruptionLevel.allCases.map(\.payloadValue)
        let hint = Suggestion.closest(to: value, in: known).map { " Did you mean \"\($0)\"?" } ?? ""
        sink.report(
          .unknownInterruptionLevel, keyPath,
          "unknown interruption level \(OneLine.quote(value)); iOS falls back to \"active\". Expected one of \(known.joined(separator: ", ")).\(hint)"
        )
      }
    }

    private mutating func checkRelevance() {
      guard let node = aps["relevance-score"] else { return }
      let keyPath = path.appending("relevance-score")
      guard let n = node.number else {
        typeError(keyPath, "a number from 0 to 1", node)
        return
      }
      guard let value = Double(n.text), value.isFinite else {
        sink.report(.numberOutOfRange, keyPath, InputNumber.relevanceScore.complaint(n.text))
        return
      }
      if !InputNumber.relevanceScore.accepts(value) {
        sink.report(
          .relevanceScoreRange, keyPath,
          "relevance-score \(n.text.prefix(20)) is outside 0…1; iOS clamps it (only Live Activity updates use larger values)"
        )
      }
      content.relevanceScore = InputNumber.relevanceScore.clamp(value)
    }

    private mutating func checkCategory(_ registry: CategoryRegistry?, app: String?) {
      guard aps["category"] != nil else { return }
      let id = content.categoryIdentifier
      let keyPath = path.appending("category")
      guard let registry, !registry.isEmpty else {
        sink.report(
          .unknownCategory, keyPath,
          "category \(OneLine.quote(id)) is not registered (no categories file was given); on iOS the notification shows with no action buttons and no error"
        )
        return
      }
      let owner = app ?? registry.defaultApp
      let categories = registry.categories(of: owner)
      guard categories[id] == nil else { return }
      // Another app's category is not this one's: say whose it is, as the likely mistake.
      let others = registry.byApp.filter { $0.key != owner && $0.value[id] != nil }.keys.sorted()
      let whose =
        others.isEmpty
        ? ""
        : " It is registered for \(others.map { OneLine.quote($0) }.joined(separator: ", ")) only: a notification finds only its own app's categories (register it for this app with --categories \(owner)=FILE)."
      let hint =
        others.isEmpty
        ? Suggestion.closest(to: id, in: categories.keys).map { " Did you mean \"\($0)\"?" } ?? "" : ""
      // Say which app whenever another app registered categories: the likely mistake is the app.
      let forApp = registry.byApp.keys.contains { $0 != owner } ? " for app \(OneLine.quote(owner))" : ""
      sink.report(
        .unknownCategory, keyPath,
        "category \(OneLine.quote(id)) is not registered\(forApp); on iOS the notification shows with no action buttons and no error.\(hint)\(whose)"
      )
    }

    private mutating func checkCombinations() {
      let hasAlert = content.hasAlertText
      if mutableContent && !hasAlert {
        sink.report(
          .mutableContentWithoutAlert, path.appending("mutable-content"),
          "mutable-content is 1 but there is no alert text (title, subtitle or body); iOS runs the service extension only for notifications with alert text"
        )
      }
      if contentAvailable {
        let visible = ["alert", "sound", "badge"].filter { aps[$0] != nil }
        if !visible.isEmpty {
          sink.report(
            .contentAvailableWithAlert, path.appending("content-available"),
            "content-available is 1 together with \(visible.joined(separator: ", ")); a background update should carry only content-available (apns-push-type background, priority 5), otherwise it is sent as a visible alert"
          )
        }
      } else if !hasAlert && aps["sound"] == nil && aps["badge"] == nil {
        sink.report(
          .nothingToShow, path,
          "the notification has no alert text, sound, badge or content-available; iOS shows nothing")
      }
    }
  }
}
