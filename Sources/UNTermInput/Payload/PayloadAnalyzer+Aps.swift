import Foundation
import UserNotificationsModel

extension PayloadAnalyzer {
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

  /// Checks the `aps` dictionary key by key, building the notification's content.
  struct ApsChecker {
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

    /// A Live Activity push (`aps.event`): it starts, updates or ends an activity, so the keys of
    /// one are expected and what a notification needs to be seen does not apply.
    var isLiveActivity: Bool { aps["event"] != nil }

    mutating func check(categories: CategoryRegistry?, app: String?) {
      for member in aps.members {
        let key = member.key
        let keyPath = path.appending(key)
        if PayloadAnalyzer.liveActivityKeys.contains(key) {
          guard !isLiveActivity else { continue }
          sink.report(
            .liveActivityKey, keyPath,
            "\(key) is a Live Activity key, but aps has no event: iOS takes this for a notification and ignores the key"
          )
        } else if !PayloadAnalyzer.apsKeys.contains(key) {
          let hint =
            Suggestion.closest(to: key, in: PayloadAnalyzer.apsKeys).map {
              " Did you mean \"\($0)\"?"
            } ?? " Custom keys belong at the top level, next to aps."
          sink.report(
            .unknownApsKey, keyPath, "iOS ignores unknown key \"\(key)\" inside aps.\(hint)")
        }
      }
      if isLiveActivity { checkLiveActivity() }
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
      let (strings, arrays) = alertFields(alert, path: alertPath)
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

    /// The alert dictionary's string and string-array values by key, reporting values of the
    /// wrong type and unknown keys; `summary-arg-count` goes straight into the content.
    private mutating func alertFields(_ alert: JSONObject, path alertPath: JSONPath) -> (
      strings: [String: String], arrays: [String: [String]]
    ) {
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
      return (strings, arrays)
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
      if !InputNumber.relevanceScore.accepts(value) && !isLiveActivity {
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
      } else if !hasAlert && aps["sound"] == nil && aps["badge"] == nil && !isLiveActivity {
        sink.report(
          .nothingToShow, path,
          "the notification has no alert text, sound, badge or content-available; iOS shows nothing")
      }
    }
  }
}
