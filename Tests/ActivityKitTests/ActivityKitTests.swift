import ActivityKit
import Foundation
import Testing

@testable import ActivityKit

/// An app's attributes type, as an app writes it for iOS.
struct DeliveryAttributes: ActivityAttributes {
  public struct ContentState: Codable, Hashable {
    var status: String
    var eta: Date
    var driver: String?
  }

  var orderNumber: String
}

/// A second app type, so activities of one type are not listed as the other's.
struct ScoreAttributes: ActivityAttributes {
  struct ContentState: Codable, Hashable {
    var home: Int
    var away: Int
  }

  var match: String
}

/// The process has one activity center: these tests take it one at a time, each from empty.
@Suite("ActivityKit as app code uses it", .serialized)
struct ActivityKitTests {
  init() {
    ActivityCenter.shared.reset()
    ActivityCenter.shared.areActivitiesEnabled = true
    ActivityCenter.shared.useClock { Date(timeIntervalSince1970: 1_800_000_000) }
  }

  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("request, update, end: the content reads back as the app's type and the state follows")
  func lifecycle() async throws {
    let eta = start.addingTimeInterval(1800)
    let activity = try Activity.request(
      attributes: DeliveryAttributes(orderNumber: "A-1042"),
      content: ActivityContent(state: .init(status: "Preparing", eta: eta), staleDate: start.addingTimeInterval(3600)),
      pushType: .token)
    #expect(activity.activityState == .active)
    #expect(activity.attributes.orderNumber == "A-1042")
    #expect(activity.content.state == .init(status: "Preparing", eta: eta))
    #expect(activity.pushToken?.count == 32)
    #expect(Activity<DeliveryAttributes>.activities.map(\.id) == [activity.id])
    #expect(Activity<ScoreAttributes>.activities.isEmpty)

    await activity.update(
      ActivityContent(state: .init(status: "On its way", eta: eta, driver: "Ana"), staleDate: nil, relevanceScore: 50),
      alertConfiguration: AlertConfiguration(title: "On its way", body: "Ana is driving", sound: .default))
    #expect(activity.content.state.driver == "Ana")
    #expect(activity.content.relevanceScore == 50)
    #expect(ActivityCenter.shared.record(activity.id)?.alert?.body == "Ana is driving")

    await activity.end(
      ActivityContent(state: .init(status: "Delivered", eta: eta), staleDate: nil), dismissalPolicy: .immediate)
    #expect(activity.content.state.status == "Delivered")
    #expect(activity.activityState == .dismissed)
    #expect(Activity<DeliveryAttributes>.activities.isEmpty)
  }

  @Test("an update with an older timestamp is discarded; one after the end is ignored")
  func staleUpdates() async throws {
    let activity = try Activity.request(
      attributes: ScoreAttributes(match: "BRA–ARG"),
      content: ActivityContent(state: .init(home: 0, away: 0), staleDate: nil))
    await activity.update(
      ActivityContent(state: .init(home: 1, away: 0), staleDate: nil), alertConfiguration: nil,
      timestamp: start.addingTimeInterval(60))
    await activity.update(
      ActivityContent(state: .init(home: 9, away: 9), staleDate: nil), alertConfiguration: nil,
      timestamp: start.addingTimeInterval(30))
    #expect(activity.content.state == .init(home: 1, away: 0))
    await activity.end(nil)
    #expect(activity.activityState == .ended)
    await activity.update(ActivityContent(state: .init(home: 2, away: 0), staleDate: nil))
    #expect(activity.content.state == .init(home: 1, away: 0))
  }

  @Test("stale at its stale date; ended after 8 hours; dismissed 4 hours after the end (.default), or at .after's date")
  func clock() async throws {
    var now = start
    ActivityCenter.shared.useClock { [now] in now }
    let activity = try Activity.request(
      attributes: ScoreAttributes(match: "A–B"),
      content: ActivityContent(state: .init(home: 0, away: 0), staleDate: start.addingTimeInterval(600)))
    func at(_ seconds: TimeInterval) -> ActivityState {
      now = start.addingTimeInterval(seconds)
      ActivityCenter.shared.useClock { [now] in now }
      return activity.activityState
    }
    #expect(at(599) == .active)
    #expect(at(600) == .stale)
    #expect(at(8 * 3600 - 1) == .stale)
    #expect(at(8 * 3600) == .ended)
    #expect(at(12 * 3600 - 1) == .ended)
    #expect(at(12 * 3600) == .dismissed)
    #expect(
      ActivityUIDismissalPolicy.after(start.addingTimeInterval(60)).dismissalDate(endedAt: start)
        == start.addingTimeInterval(60))
    #expect(
      ActivityUIDismissalPolicy.after(start.addingTimeInterval(9 * 3600)).dismissalDate(endedAt: start)
        == start.addingTimeInterval(4 * 3600))
  }

  @Test("attributes and state past 4 KB are attributesTooLarge; Live Activities turned off are denied")
  func refusals() throws {
    #expect(throws: ActivityAuthorizationError.attributesTooLarge) {
      try Activity.request(
        attributes: ScoreAttributes(match: String(repeating: "x", count: 5000)),
        content: ActivityContent(state: .init(home: 0, away: 0), staleDate: nil))
    }
    ActivityCenter.shared.areActivitiesEnabled = false
    #expect(ActivityAuthorizationInfo().areActivitiesEnabled == false)
    #expect(throws: ActivityAuthorizationError.denied) {
      try Activity.request(
        attributes: ScoreAttributes(match: "A–B"),
        content: ActivityContent(state: .init(home: 0, away: 0), staleDate: nil))
    }
  }

  @Test("a content-state decodes as iOS decodes it: a Date is seconds since 2001, and each mistake names its path")
  func decodingAsIOSDoes() throws {
    let state = #"{"status":"On its way","eta":820000000}"#
    let decoded = try ActivityPayload.decode(DeliveryAttributes.ContentState.self, from: Data(state.utf8))
    #expect(decoded.eta == Date(timeIntervalSinceReferenceDate: 820_000_000))
    // Unix seconds decode without an error, 31 years late: lint's job to say so.
    let unix = try ActivityPayload.decode(
      DeliveryAttributes.ContentState.self, from: Data(#"{"status":"x","eta":1800000000}"#.utf8))
    #expect(unix.eta > Date(timeIntervalSince1970: 1_800_000_000).addingTimeInterval(30 * 365 * 86400))
    let cases: [(String, String)] = [
      (#"{"eta":1}"#, "content-state.status: missing; the app's type needs it (keys match property names exactly)"),
      (
        #"{"status":null,"eta":1}"#,
        "content-state.status: null, where the app's type needs a string (only an optional may be null or left out)"
      ),
      (
        #"{"status":"x","eta":"2026-12-03T10:00:00Z"}"#,
        "content-state.eta: expected a number (a Date is seconds since 2001-01-01, JSONDecoder's default), found a string"
      ),
      (#"{"status":"x","eta":1,"driver":7}"#, "content-state.driver: expected a string, found a number"),
    ]
    for (json, message) in cases {
      #expect(
        ActivityPayload.check(DeliveryAttributes.ContentState.self, Data(json.utf8), root: "content-state") == message)
    }
    #expect(ActivityPayload.check(DeliveryAttributes.ContentState.self, Data(state.utf8), root: "content-state") == nil)
  }

  @Test("activityUpdates yields an activity as it starts; contentUpdates yields each update")
  func sequences() async throws {
    let started = Task { () -> String? in
      for await activity in Activity<ScoreAttributes>.activityUpdates { return activity.attributes.match }
      return nil
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    let activity = try Activity.request(
      attributes: ScoreAttributes(match: "POR–ESP"),
      content: ActivityContent(state: .init(home: 0, away: 0), staleDate: nil))
    #expect(await started.value == "POR–ESP")
    let scores = Task { () -> [Int] in
      var seen: [Int] = []
      for await content in activity.contentUpdates {
        seen.append(content.state.home)
        if seen.count == 3 { break }
      }
      return seen
    }
    try await Task.sleep(nanoseconds: 50_000_000)
    await activity.update(ActivityContent(state: .init(home: 1, away: 0), staleDate: nil))
    await activity.update(ActivityContent(state: .init(home: 2, away: 0), staleDate: nil))
    #expect(await scores.value == [0, 1, 2])
  }

  @Test(
    "pushes start, update and end an activity the app reads as its own type; a late or alert-less push is refused with why"
  )
  func pushes() throws {
    func push(_ aps: String) throws(ActivityRefusal) -> ActivityPush {
      try ActivityPush(payload: Data("{\"aps\":\(aps)}".utf8))
    }
    let t = Int(start.timeIntervalSince1970)
    #expect(throws: ActivityRefusal("a start without aps.alert is accepted by APNs and dropped by the device")) {
      try ActivityCenter.shared.apply(
        try push(
          #"{"event":"start","timestamp":\#(t),"attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"B-7"},"content-state":{"status":"Preparing","eta":820000000}}"#
        ))
    }
    let started = try ActivityCenter.shared.apply(
      try push(
        #"{"event":"start","timestamp":\#(t),"attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"B-7"},"content-state":{"status":"Preparing","eta":820000000},"alert":{"title":"Order B-7","body":"We are on it"}}"#
      ))
    let activity = try #require(Activity<DeliveryAttributes>.activities.first)
    #expect(activity.id == started.id)
    #expect(activity.attributes.orderNumber == "B-7")
    #expect(activity.content.state.eta == Date(timeIntervalSinceReferenceDate: 820_000_000))
    let token = try #require(activity.pushToken)
    _ = try ActivityCenter.shared.apply(
      try push(
        #"{"event":"update","timestamp":\#(t + 60),"content-state":{"status":"On its way","eta":820000600,"driver":"Ana"},"relevance-score":75}"#
      ), token: token)
    #expect(activity.content.state.driver == "Ana")
    #expect(activity.content.relevanceScore == 75)
    #expect(throws: ActivityRefusal.self) {
      try ActivityCenter.shared.apply(
        try push(#"{"event":"update","timestamp":\#(t + 30),"content-state":{"status":"Old","eta":1}}"#), token: token)
    }
    #expect(activity.content.state.status == "On its way")
    _ = try ActivityCenter.shared.apply(
      try push(
        #"{"event":"end","timestamp":\#(t + 90),"content-state":{"status":"Delivered","eta":820000600},"dismissal-date":\#(t + 1800)}"#
      ), token: token)
    #expect(activity.activityState == .ended)
    #expect(activity.content.state.status == "Delivered")
    #expect(ActivityCenter.shared.record(activity.id)?.dismissal == start.addingTimeInterval(1800))
    #expect(throws: ActivityRefusal(#"aps.event is "begin"; expected start, update or end"#)) {
      try push(#"{"event":"begin"}"#)
    }
  }
}
