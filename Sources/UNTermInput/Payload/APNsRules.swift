import Foundation
import UserNotificationsModel

/// The values of `apns-push-type`, with the topic each needs (Apple, "Sending notification
/// requests to APNs", https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns).
package enum APNsPushType: String, CaseIterable, Sendable {
  case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk

  /// What the app's bundle identifier must end with in `apns-topic` for this type.
  package var topicSuffix: String? {
    switch self {
    case .alert, .background, .mdm: return nil
    case .location: return ".location-query"
    case .voip: return ".voip"
    case .complication: return ".complication"
    case .fileprovider: return ".pushkit.fileprovider"
    case .liveactivity: return ".push-type.liveactivity"
    case .pushtotalk: return ".voip-ptt"
    }
  }

  /// Whether the notification center handles it (the others go to PushKit, Core Location,
  /// ActivityKit and so on).
  package var reachesNotificationCenter: Bool { self == .alert || self == .background }

  /// The largest payload APNs takes for the type: VoIP pushes may be 5 KB.
  package var payloadLimit: Int { self == .voip ? 5120 : PayloadAnalyzer.maximumPayloadBytes }
}

/// APNs' rules for a request's headers, checked against its payload: one place, used by the
/// payload analyzer (lint, every push) and by the session (an expired push is not delivered).
///
/// - `apns-push-type` is one of `APNsPushType`; a `background` push carries no alert, sound or
///   badge and an `alert` push more than `content-available` (Apple: the header "must accurately
///   reflect the contents of your notification's payload"), else `InvalidPushType`.
/// - `apns-priority` is 10, 5 or 1 (10 when left out); a `background` push, or one with only
///   `content-available`, may not use 10 (Apple: "Using priority 10 is an error"), else
///   `BadPriority`.
/// - `apns-collapse-id` is at most 64 bytes, else `BadCollapseId`.
/// - `apns-expiration` is a UNIX time in whole seconds (0: deliver once, now), else
///   `BadExpirationDate`; a push whose time has passed is discarded, never delivered.
/// - `apns-topic` is the app's bundle identifier with the type's suffix, else `BadTopic`; one
///   that names another app than the payload's `Simulator Target Bundle` is
///   `DeviceTokenNotForTopic`.
package enum APNsRules {
  /// The longest collapse identifier, in bytes.
  package static let collapseIDLimit = 64
  /// The priorities APNs takes.
  package static let priorities = ["10", "5", "1"]
  /// The payload's file key holding the headers; not part of the payload.
  package static let headersKey = "apns-headers"

  /// What the payload holds that the rules look at.
  package struct Contents: Sendable {
    package var hasAlert: Bool
    package var hasSound: Bool
    package var hasBadge: Bool
    package var contentAvailable: Bool
    /// The payload's `Simulator Target Bundle`, the app a real device token belongs to.
    package var targetBundle: String?

    package init(hasAlert: Bool, hasSound: Bool, hasBadge: Bool, contentAvailable: Bool, targetBundle: String?) {
      self.hasAlert = hasAlert
      self.hasSound = hasSound
      self.hasBadge = hasBadge
      self.contentAvailable = contentAvailable
      self.targetBundle = targetBundle
    }

    /// Only `content-available`: a background update.
    var isBackgroundOnly: Bool { contentAvailable && !hasAlert && !hasSound && !hasBadge }
  }

  /// Reports a finding about a header: at its option, or at its place in `apns-headers`.
  private typealias Report = (LintCode, APNsHeaders.Field, SafeText) -> Void

  /// Checks the headers. A field given on the command line (`fromOptions`) is reported as its
  /// option; the others at their place in the file's `apns-headers`.
  package static func check(
    _ headers: APNsHeaders, fromOptions: Set<APNsHeaders.Field>, contents: Contents, sink: inout DiagnosticSink
  ) {
    // Without headers there is nothing to check: UNTerm does not guess what a server sends.
    guard !headers.isEmpty else { return }
    func report(_ code: LintCode, _ field: APNsHeaders.Field, _ message: SafeText) {
      let apns: SafeText = code.apnsReason.map { " (APNs answers \($0.response))" } ?? ""
      if fromOptions.contains(field) {
        sink.report(code, at: .file, "\(option(for: field)) \(OneLine.quote(headers[field] ?? "")): \(message)\(apns)")
      } else {
        sink.report(code, JSONPath([.key(headersKey), .key(field.rawValue)]), message + apns)
      }
    }
    let pushType = checkPushType(headers, contents: contents, report)
    checkPriority(headers, pushType: pushType, contents: contents, report)
    if let id = headers.collapseID, !isWellFormed(.collapseID, id) {
      report(
        .badCollapseID, .collapseID,
        "the collapse identifier is \(id.utf8.count) bytes; APNs takes at most \(collapseIDLimit)")
    }
    if let value = headers.expiration, !isWellFormed(.expiration, value) {
      report(
        .badExpiration, .expiration,
        "the expiration must be a UNIX time in whole seconds (0 delivers once, now), not \(OneLine.quote(value))")
    }
    checkTopic(headers, pushType: pushType, contents: contents, report)
  }

  /// Checks `apns-push-type`: a known type, one that matches what the payload carries, and one
  /// the notification center handles. Returns the type, when it is a known one.
  private static func checkPushType(_ headers: APNsHeaders, contents: Contents, _ report: Report) -> APNsPushType? {
    var pushType: APNsPushType?
    if let value = headers.pushType {
      pushType = APNsPushType(rawValue: value)
      if !isWellFormed(.pushType, value) {
        let hint =
          Suggestion.closest(to: value, in: APNsPushType.allCases.map(\.rawValue)).map { " Did you mean \"\($0)\"?" }
          ?? ""
        report(
          .invalidPushType, .pushType,
          "\(OneLine.quote(value)) is not a push type; APNs takes \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", ")).\(hint)"
        )
      }
    }
    switch pushType {
    case .background?:
      let visible = [("alert", contents.hasAlert), ("sound", contents.hasSound), ("badge", contents.hasBadge)]
        .filter(\.1).map(\.0)
      if !visible.isEmpty {
        report(
          .pushTypeMismatch, .pushType,
          "a background push carries only content-available, but this payload has \(visible.joined(separator: ", ")); send it as an alert push"
        )
      }
    case .alert?:
      if contents.isBackgroundOnly {
        report(
          .pushTypeMismatch, .pushType,
          "an alert push must alert, sound or badge, but this payload has only content-available; send it as a background push (apns-priority 5)"
        )
      }
    case .some(let other) where !other.reachesNotificationCenter:
      report(
        .pushTypeNotShown, .pushType,
        "a \(other.rawValue) push goes to the app (\(other == .liveactivity ? "ActivityKit" : "PushKit or its own framework")), not to the notification center; UNTerm shows nothing for it"
      )
    default:
      break
    }
    return pushType
  }

  /// Checks `apns-priority`: one APNs takes, and not 10 (given or left out) for a background
  /// push or one with only `content-available`.
  private static func checkPriority(
    _ headers: APNsHeaders, pushType: APNsPushType?, contents: Contents, _ report: Report
  ) {
    let priority = headers.priority
    if let priority, !isWellFormed(.priority, priority) {
      report(.badPriority, .priority, "the priority must be 10, 5 or 1, not \(OneLine.quote(priority))")
    } else if priority ?? "10" == "10" && (pushType == .background || (pushType == nil && contents.isBackgroundOnly)) {
      let what = pushType == .background ? "a background push" : "a push with only content-available"
      let message: SafeText =
        "\(what) must be sent with apns-priority 5 (or 1); \(priority == nil ? "left out, it is 10, and " : "")priority 10 is an error for it"
      if priority != nil {
        report(.badPriority, .priority, message)
      } else {
        report(.badPriority, headers.pushType != nil ? .pushType : .priority, message)
      }
    }
  }

  /// Checks `apns-topic`: bundle-identifier characters, the push type's suffix, and the app the
  /// payload's `Simulator Target Bundle` names.
  private static func checkTopic(_ headers: APNsHeaders, pushType: APNsPushType?, contents: Contents, _ report: Report)
  {
    guard let topic = headers.topic else { return }
    if !isWellFormed(.topic, topic) {
      report(.badTopic, .topic, "a topic is the app's bundle identifier: letters, digits, dots and hyphens")
    } else if let suffix = pushType?.topicSuffix, !topic.hasSuffix(suffix) {
      report(
        .badTopic, .topic,
        "a \(pushType?.rawValue ?? "") push's topic is the app's bundle identifier followed by \(suffix)")
    } else if let bundle = contents.targetBundle {
      let app = PayloadAnalyzer.app(fromTopic: headers) ?? topic
      if app != bundle {
        report(
          .topicMismatch, .topic,
          "the topic names the app \(OneLine.quote(app)), but the payload's Simulator Target Bundle is \(OneLine.quote(bundle)): the device token belongs to another app"
        )
      }
    }
  }

  /// Whether a header's value can be sent at all, whatever the payload: a known push type, a
  /// priority APNs takes, a collapse identifier within its limit, a UNIX time, a topic made of
  /// bundle-identifier characters. `check` reports a value that is not (a file's `apns-headers`,
  /// an older `unterm push`); the command line refuses one as a usage error before reading any file.
  package static func isWellFormed(_ field: APNsHeaders.Field, _ value: String) -> Bool {
    switch field {
    case .pushType: return APNsPushType(rawValue: value) != nil
    case .priority: return priorities.contains(value)
    case .collapseID: return value.utf8.count <= collapseIDLimit
    case .expiration: return expirationDate(value) != nil
    case .topic:
      return !value.isEmpty && !value.contains(where: { $0.isWhitespace || $0.isNewline })
        && value.unicodeScalars.allSatisfy(\.isASCII)
    }
  }

  /// What a well-formed value of the header is, completing "--priority 7: …".
  package static func wellFormed(_ field: APNsHeaders.Field) -> String {
    switch field {
    case .pushType: return "must be a push type: \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", "))"
    case .priority: return "must be 10, 5 or 1"
    case .collapseID: return "takes at most \(collapseIDLimit) bytes"
    case .expiration: return "takes a UNIX time in whole seconds (0 delivers once, now)"
    case .topic: return "takes the app's bundle identifier: letters, digits, dots and hyphens"
    }
  }

  /// The expiration date a header value stands for; `nil` when it is not a UNIX time.
  package static func expirationDate(_ value: String) -> Date? {
    guard !value.isEmpty, value.count <= 12, value.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int(value)
    else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// When the push expired, if it did before `now`: APNs discards it and the device never gets it.
  /// `0` means "deliver once, now": it never counts as expired.
  package static func expired(_ headers: APNsHeaders, at now: Date) -> Date? {
    guard let value = headers.expiration, let date = expirationDate(value), date.timeIntervalSince1970 > 0,
      date < now
    else { return nil }
    return date
  }

  /// The command-line option for a header.
  package static func option(for field: APNsHeaders.Field) -> String {
    switch field {
    case .pushType: return "--push-type"
    case .priority: return "--priority"
    case .collapseID: return "--collapse-id"
    case .expiration: return "--expiration"
    case .topic: return "--topic"
    }
  }
}
