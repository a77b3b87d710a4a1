import ActivityKit
import Foundation
import UNTermInput
import UNTermState

/// A Live Activity as a test reads it back: the app's own attributes, its content with the
/// state decoded as iOS decodes a push's `content-state`, and where it is in its life on the
/// harness's clock.
public struct HarnessActivity<Attributes: ActivityAttributes> {
  /// Its name: `as` given to the start, or `activity-1`, `activity-2`… in start order.
  public var id: String
  public var attributes: Attributes
  public var content: ActivityContent<Attributes.ContentState>
  public var activityState: ActivityState
}

/// Why a Live Activity's JSON does not decode into the app's types: the JSON path and what was
/// wrong, as a backend team needs it (`content-state.eta: expected a number …, found a string`).
public struct ActivityDecodingError: Error, Equatable, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

extension UNTermHarness {
  /// Starts an activity as a server's push-to-start does: the app's attributes and first
  /// content, encoded as ActivityKit encodes them, with an alert (a start without one is
  /// dropped). Returns its name.
  @discardableResult
  public func startActivity<A: ActivityAttributes>(
    _ attributes: A, content: ActivityContent<A.ContentState>, alert: AlertConfiguration, as name: String? = nil
  ) async throws -> String {
    var aps = try fields(content)
    aps["event"] = "start"
    aps["attributes-type"] = ActivityPayload.typeName(of: A.self)
    aps["attributes"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(attributes))
    aps["alert"] = Self.alert(alert)
    try await pushActivity(aps, name: name)
    return name ?? onSession { $0.state.activities.records.last?.id ?? "" }
  }

  /// Updates the activity `name` as a server's update push does; `timestamp` defaults to the
  /// harness's clock.
  public func updateActivity<State: Codable & Hashable>(
    _ name: String, content: ActivityContent<State>, alert: AlertConfiguration? = nil, timestamp: Date? = nil
  ) async throws {
    var aps = try fields(content, timestamp: timestamp)
    aps["event"] = "update"
    if let alert { aps["alert"] = Self.alert(alert) }
    try await pushActivity(aps, name: name)
  }

  /// Ends the activity `name` with its final content; `dismissalDate` removes it then (by
  /// default it stays on the Lock Screen up to 4 hours).
  public func endActivity<State: Codable & Hashable>(
    _ name: String, content: ActivityContent<State>, dismissalDate: Date? = nil
  ) async throws {
    var aps = try fields(content)
    aps["event"] = "end"
    if let dismissalDate { aps["dismissal-date"] = dismissalDate.timeIntervalSince1970 }
    try await pushActivity(aps, name: name)
  }

  /// Pushes a Live Activity payload given as JSON text (from the backend under test): the same
  /// as `push`, named for an `expect`.
  public func pushActivity(_ payload: String, as name: String? = nil) async throws {
    _ = try await push(payload, as: name)
  }

  /// The activity `name` read as the app's types; throws `ActivityDecodingError` naming the JSON
  /// path when its attributes or content state do not decode, as they would fail on a device.
  public func activity<A: ActivityAttributes>(_ name: String, as type: A.Type) throws -> HarnessActivity<A> {
    let (record, now) = onSession { ($0.state.activities.record(name), $0.state.now) }
    guard let record else {
      throw ActivityDecodingError(description: "no Live Activity is named \(name)")
    }
    if let failure = ActivityPayload.check(A.self, record.attributes, root: "attributes")
      ?? ActivityPayload.check(A.ContentState.self, record.state, root: "content-state")
    {
      throw ActivityDecodingError(description: failure)
    }
    let attributes = try ActivityPayload.decode(A.self, from: record.attributes)
    let state = try ActivityPayload.decode(A.ContentState.self, from: record.state)
    return HarnessActivity(
      id: record.id, attributes: attributes,
      content: ActivityContent(state: state, staleDate: record.staleDate, relevanceScore: record.relevanceScore),
      activityState: record.activityState(at: now))
  }

  /// The `aps` fields of a content: its state as ActivityKit encodes it, dates in Unix seconds.
  private func fields<State: Codable & Hashable>(_ content: ActivityContent<State>, timestamp: Date? = nil) throws
    -> [String: Any]
  {
    let now = onSession { $0.state.now }
    var aps: [String: Any] = [
      "timestamp": Int((timestamp ?? now).timeIntervalSince1970),
      "content-state": try JSONSerialization.jsonObject(with: JSONEncoder().encode(content.state)),
      "relevance-score": content.relevanceScore,
    ]
    if let stale = content.staleDate { aps["stale-date"] = stale.timeIntervalSince1970 }
    return aps
  }

  private static func alert(_ alert: AlertConfiguration) -> [String: Any] {
    var fields: [String: Any] = ["title": alert.title.key, "body": alert.body.key]
    if let sound = alert.sound.fileName { fields["sound"] = sound }
    return fields
  }

  private func pushActivity(_ aps: [String: Any], name: String?) async throws {
    let data = try JSONSerialization.data(withJSONObject: ["aps": aps], options: [.sortedKeys])
    _ = try await push(String(decoding: data, as: UTF8.self), as: name)
  }
}
