import ActivityKit
import Foundation
import Testing
import UNTermTesting

/// An app's attributes type, as the app's widget target declares it.
struct PizzaAttributes: ActivityAttributes {
  struct ContentState: Codable, Hashable {
    var status: String
    var eta: Date
  }

  var order: String
}

/// A backend team's test: does our JSON decode into the app's types, and what does the screen show?
@Suite("Live Activities through the harness")
struct ActivityHarnessTests {
  @Test("start → update → stale → end → dismissed, read back as the app's own types")
  func lifecycle() async throws {
    let harness = UNTermHarness()
    let eta = UNTermHarness.startDate.addingTimeInterval(1800)
    try await harness.startActivity(
      PizzaAttributes(order: "P-12"),
      content: ActivityContent(
        state: .init(status: "Oven", eta: eta), staleDate: UNTermHarness.startDate.addingTimeInterval(600)),
      alert: AlertConfiguration(title: "Order P-12", body: "In the oven", sound: .default), as: "pizza")
    var activity = try harness.activity("pizza", as: PizzaAttributes.self)
    #expect(activity.attributes.order == "P-12")
    #expect(activity.content.state == .init(status: "Oven", eta: eta))
    #expect(activity.activityState == .active)
    #expect(harness.screen.contains { $0.contains("In the oven") })
    await harness.wait(60)
    try await harness.updateActivity(
      "pizza",
      content: ActivityContent(state: PizzaAttributes.ContentState(status: "On the bike", eta: eta), staleDate: nil))
    #expect(try harness.activity("pizza", as: PizzaAttributes.self).content.state.status == "On the bike")
    await harness.wait(3600)
    try await harness.endActivity(
      "pizza",
      content: ActivityContent(state: PizzaAttributes.ContentState(status: "Delivered", eta: eta), staleDate: nil),
      dismissalDate: UNTermHarness.startDate.addingTimeInterval(5400))
    activity = try harness.activity("pizza", as: PizzaAttributes.self)
    #expect(activity.activityState == .ended)
    await harness.wait(1800)
    #expect(try harness.activity("pizza", as: PizzaAttributes.self).activityState == .dismissed)
  }

  @Test("a backend's JSON that does not decode is named by its path: a Unix-time string, a missing field")
  func backendJSON() async throws {
    let harness = UNTermHarness()
    let t = Int(UNTermHarness.startDate.timeIntervalSince1970)
    try await harness.pushActivity(
      #"{"aps":{"event":"start","timestamp":\#(t),"attributes-type":"PizzaAttributes","attributes":{"order":"P-1"},"content-state":{"status":"Oven","eta":"2025-06-02T10:11:00Z"},"alert":{"title":"P-1","body":"Oven"}}}"#,
      as: "p1")
    #expect(
      throws: ActivityDecodingError(
        description:
          "content-state.eta: expected a number (a Date is seconds since 2001-01-01, JSONDecoder's default), found a string"
      )
    ) {
      try harness.activity("p1", as: PizzaAttributes.self)
    }
    try await harness.pushActivity(
      #"{"aps":{"event":"start","timestamp":\#(t),"attributes-type":"PizzaAttributes","attributes":{},"content-state":{"status":"Oven","eta":770000000},"alert":"Oven"}}"#,
      as: "p2")
    #expect(
      throws: ActivityDecodingError(
        description: "attributes.order: missing; the app's type needs it (keys match property names exactly)")
    ) {
      try harness.activity("p2", as: PizzaAttributes.self)
    }
  }
}
