import Foundation

/// A Live Activity push (`apns-push-type: liveactivity`) as the device reads its `aps`: the
/// event, the content state (kept as JSON, for the app's type to decode), dates in Unix seconds,
/// the relevance, an alert, and for a start the attributes and their type's name.
package struct ActivityPush: Sendable, Equatable {
  package enum Event: String, Sendable, CaseIterable {
    case start, update, end
  }

  package var event: Event
  /// When the server sent it: an update older than the activity's newest is ignored.
  package var timestamp: Date?
  package var contentState: Data?
  /// The content state's keys in the order the payload wrote them (the JSON is kept with its
  /// keys sorted), for a plain layout that lists them as written; `nil` when not known.
  package var contentStateKeys: [String]?
  package var staleDate: Date?
  /// When an ended activity leaves the Lock Screen (`end` only).
  package var dismissalDate: Date?
  package var relevanceScore: Double?
  package var alert: ActivityAlert?
  /// The `ActivityAttributes` type's name (`start` only).
  package var attributesType: String?
  package var attributes: Data?
  /// `input-push-token: 1`: the started activity gets a token for updates.
  package var inputPushToken: Bool

  /// Reads a payload's `aps`; a payload that is not a Live Activity push is refused with why.
  package init(payload: Data) throws(ActivityRefusal) {
    guard let root = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
      throw ActivityRefusal("the payload is not a JSON object")
    }
    guard let aps = root["aps"] as? [String: Any] else { throw ActivityRefusal("the payload has no aps object") }
    guard let name = aps["event"] as? String else {
      throw ActivityRefusal("aps.event is missing: a Live Activity push says start, update or end")
    }
    guard let event = Event(rawValue: name) else {
      throw ActivityRefusal("aps.event is \"\(name)\"; expected start, update or end")
    }
    self.event = event
    timestamp = try Self.date(aps, "timestamp")
    staleDate = try Self.date(aps, "stale-date")
    dismissalDate = try Self.date(aps, "dismissal-date")
    relevanceScore = (aps["relevance-score"] as? NSNumber)?.doubleValue
    contentState = try Self.object(aps, "content-state")
    attributes = try Self.object(aps, "attributes")
    attributesType = aps["attributes-type"] as? String
    inputPushToken = (aps["input-push-token"] as? NSNumber)?.intValue == 1
    alert = Self.alert(aps["alert"])
    if event != .end && contentState == nil {
      throw ActivityRefusal("aps.content-state is missing: a \(name) carries the state the app's view shows")
    }
  }

  private static func date(_ aps: [String: Any], _ key: String) throws(ActivityRefusal) -> Date? {
    guard let value = aps[key] else { return nil }
    guard let number = value as? NSNumber, !(value is Bool) else {
      throw ActivityRefusal("aps.\(key) must be a number of seconds since 1970 (a Unix time)")
    }
    return Date(timeIntervalSince1970: number.doubleValue)
  }

  private static func object(_ aps: [String: Any], _ key: String) throws(ActivityRefusal) -> Data? {
    guard let value = aps[key] else { return nil }
    guard value is [String: Any], let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    else { throw ActivityRefusal("aps.\(key) must be an object") }
    return data
  }

  /// `alert` as a string, or an object with `title` and `body` (strings, or `loc-key` objects
  /// shown by their key), and `sound`.
  private static func alert(_ value: Any?) -> ActivityAlert? {
    func text(_ value: Any?) -> String {
      if let string = value as? String { return string }
      if let object = value as? [String: Any], let key = object["loc-key"] as? String { return key }
      return ""
    }
    if let body = value as? String { return ActivityAlert(title: "", body: body, sound: nil) }
    guard let object = value as? [String: Any] else { return nil }
    let sound = object["sound"] as? String
    return ActivityAlert(
      title: text(object["title"]), body: text(object["body"]), sound: sound == "default" ? nil : sound)
  }
}

extension ActivityBoard {
  /// Carries a push out at `now`: a start makes an activity (named `id`, or `activity-N`), an
  /// update or end changes the one whose push token is `token` (without one, `id`'s, or the
  /// newest activity not dismissed, of `attributes-type` when it is given).
  package mutating func apply(_ push: ActivityPush, token: Data? = nil, id: String? = nil, at now: Date)
    throws(ActivityRefusal) -> ActivityRecord
  {
    switch push.event {
    case .start:
      guard let type = push.attributesType, let attributes = push.attributes else {
        throw ActivityRefusal(
          "a start needs aps.attributes-type and aps.attributes: the device cannot make the app's attributes without them"
        )
      }
      guard push.alert != nil else {
        throw ActivityRefusal("a start without aps.alert is accepted by APNs and dropped by the device")
      }
      return try start(
        attributesType: type, attributes: attributes, state: push.contentState ?? Data("{}".utf8),
        staleDate: push.staleDate, relevanceScore: push.relevanceScore ?? 0, tokens: true, id: id, alert: push.alert,
        keys: push.contentStateKeys, at: now)
    case .update:
      let target = try activity(for: token, id: id, type: push.attributesType, at: now)
      return try update(
        target.id, state: push.contentState ?? target.state, staleDate: push.staleDate,
        relevanceScore: push.relevanceScore ?? target.relevanceScore, timestamp: push.timestamp, alert: push.alert,
        keys: push.contentStateKeys, at: now)
    case .end:
      let target = try activity(for: token, id: id, type: push.attributesType, at: now)
      let policy: ActivityUIDismissalPolicy =
        push.dismissalDate.map { $0 <= now ? .immediate : .after($0) } ?? .default
      return try end(
        target.id, state: push.contentState, staleDate: push.staleDate, relevanceScore: push.relevanceScore,
        policy: policy, timestamp: push.timestamp, keys: push.contentStateKeys, at: now)
    }
  }

  private func activity(for token: Data?, id: String?, type: String?, at now: Date) throws(ActivityRefusal)
    -> ActivityRecord
  {
    let live = records.filter { $0.activityState(at: now) != .dismissed }
    if let token {
      guard let match = live.first(where: { $0.pushToken == token }) else {
        throw ActivityRefusal("no activity has the push token \(token.map { String(format: "%02x", $0) }.joined())")
      }
      return match
    }
    if let id {
      guard let match = live.first(where: { $0.id == id }) else { throw ActivityRefusal("no activity is named \(id)") }
      return match
    }
    guard let match = live.last(where: { type == nil || $0.attributesType == type }) else {
      throw ActivityRefusal("there is no activity to update: a start push begins one")
    }
    return match
  }
}

extension ActivityCenter {
  /// Carries a push out on the process's activities (see `ActivityBoard.apply`).
  package func apply(_ push: ActivityPush, token: Data? = nil) throws(ActivityRefusal) -> ActivityRecord {
    try change { board, now throws(ActivityRefusal) in try board.apply(push, token: token, at: now) }
  }
}
