import Foundation

// Live Activity pushes (`aps.event`): what APNs accepts and a device drops or misreads.
extension PayloadAnalyzer.ApsChecker {
  /// Seconds between 1970 and 2001: a Unix time minus this is what a `Date` decodes from.
  static let referenceOffset: Double = 978_307_200
  /// A timestamp above this (year 5138 in seconds) is in milliseconds.
  static let millisecondsFloor: Double = 1e11

  mutating func checkLiveActivity() {
    let event = aps["event"]?.string
    guard let event, ["start", "update", "end"].contains(event) else {
      sink.report(
        .invalidValue, path.appending("event"),
        "aps.event must be start, update or end, not \(aps["event"]?.string.map { "\"\($0)\"" } ?? "a \(aps["event"]?.typeName ?? "value")")"
      )
      return
    }
    if event == "start" {
      let missing = ["alert", "attributes-type", "attributes", "content-state"].filter { aps[$0] == nil }
      if !missing.isEmpty {
        sink.report(
          .activityStartIncomplete, path.appending("event"),
          "a Live Activity start without \(missing.joined(separator: ", ")) is accepted by APNs and dropped by the device"
        )
      }
    } else if aps["content-state"] == nil && event == "update" {
      sink.report(
        .missingKey, path.appending("content-state"), "a Live Activity update carries the content-state to show")
    }
    let timestamp = number("timestamp")
    if timestamp == nil && event != "start" {
      sink.report(
        .activityTimestamp, path.appending("event"),
        "a Live Activity \(event) has no aps.timestamp: the device cannot tell it from an older push")
    } else if let timestamp, timestamp > Self.millisecondsFloor {
      sink.report(
        .activityTimestamp, path.appending("timestamp"),
        "aps.timestamp \(Int(timestamp)) is in milliseconds; APNs and the device read seconds since 1970")
    }
    checkActivityDates(timestamp: timestamp.flatMap { $0 > Self.millisecondsFloor ? nil : $0 })
    for key in ["content-state", "attributes"] {
      guard let node = aps[key] else { continue }
      checkActivityValues(node, path: path.appending(key), dates: key == "content-state")
    }
  }

  private func number(_ key: String) -> Double? { aps[key]?.number.flatMap { Double($0.text) } }

  private mutating func checkActivityDates(timestamp: Double?) {
    guard let timestamp else { return }
    let sent = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: timestamp))
    if let stale = number("stale-date"), stale < timestamp {
      sink.report(
        .activityDates, path.appending("stale-date"),
        "aps.stale-date is before the push's timestamp (\(sent)): the activity is stale as it arrives")
    }
    if let dismissal = number("dismissal-date") {
      if dismissal < timestamp {
        sink.report(
          .activityDates, path.appending("dismissal-date"),
          "aps.dismissal-date is before the push's timestamp (\(sent)): the ended activity is removed at once")
      } else if dismissal > timestamp + 4 * 3600 {
        sink.report(
          .activityDates, path.appending("dismissal-date"),
          "aps.dismissal-date is more than 4 hours after the push's timestamp (\(sent)): the activity leaves the Lock Screen 4 hours after it ends"
        )
      }
    }
  }

  /// `null` anywhere, and in the content state numbers that would be Dates decades ahead.
  private mutating func checkActivityValues(_ node: JSONNode, path: JSONPath, dates: Bool) {
    switch node.value {
    case .null:
      sink.report(
        .activityNull, path,
        "\(path) is null: it decodes only into an optional property, and a non-optional one makes the update fail")
    case .object(let object):
      for member in object.members { checkActivityValues(member.value, path: path.appending(member.key), dates: dates) }
    case .array(let items):
      for (i, item) in items.enumerated() { checkActivityValues(item, path: path.appending(i), dates: dates) }
    case .number(let n):
      guard dates, let value = Double(n.text) else { return }
      let year = { (seconds: Double) in
        Calendar(identifier: .gregorian).component(.year, from: Date(timeIntervalSinceReferenceDate: seconds))
      }
      if value > Self.millisecondsFloor {
        sink.report(
          .activityDateEpoch, path,
          "\(path) \(n.text.prefix(20)) looks like milliseconds: as a Date (seconds since 2001) it is the year \(value > 3e14 ? "10000 or later" : String(year(value)))"
        )
      } else if value >= 1e9 && value < 4e9 {
        let unix = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: value))
        sink.report(
          .activityDateEpoch, path,
          "\(path) \(n.text.prefix(20)) looks like a Unix time (\(unix)); as a Date iOS reads seconds since 2001, the year \(year(value)); send \(Int(value - Self.referenceOffset))"
        )
      }
    default:
      return
    }
  }
}
