import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// Lint of Live Activity pushes: what APNs accepts with 200 and a device drops or misreads.
@Suite("Live Activity lint")
struct LiveActivityLintTests {
  private func findings(_ aps: String) -> [String] {
    Fixtures.payload(#"{"aps":\#(aps)}"#).diagnostics.map {
      "\($0.code.rawValue) \($0.location.path): \($0.message.text)"
    }
  }

  @Test("a well-formed start, update and end have no findings")
  func clean() {
    let start =
      #"{"event":"start","timestamp":1767260460,"attributes-type":"DeliveryAttributes","attributes":{"order":"B-7"},"content-state":{"status":"Preparing","eta":788956200},"stale-date":1767262260,"alert":{"title":"B-7","body":"Cooking"}}"#
    #expect(findings(start) == [])
    #expect(
      findings(#"{"event":"update","timestamp":1767260500,"content-state":{"status":"Out"},"relevance-score":75}"#)
        == [])
    #expect(
      findings(#"{"event":"end","timestamp":1767260600,"content-state":{"status":"Done"},"dismissal-date":1767264000}"#)
        == [])
  }

  @Test("a start without an alert or its attributes, a timestamp in milliseconds, null, a Unix time for a Date")
  func mistakes() {
    #expect(
      findings(
        #"{"event":"start","timestamp":1767260460000,"content-state":{"status":null,"eta":1767264060},"attributes":{"order":"B-7"}}"#
      ) == [
        "activity-start-incomplete aps.event: a Live Activity start without alert, attributes-type is accepted by APNs and dropped by the device",
        "activity-timestamp aps.timestamp: aps.timestamp 1767260460000 is in milliseconds; APNs and the device read seconds since 1970",
        "activity-null aps.content-state.status: aps.content-state.status is null: it decodes only into an optional property, and a non-optional one makes the update fail",
        "activity-date-epoch aps.content-state.eta: aps.content-state.eta 1767264060 looks like a Unix time (2026-01-01T10:41:00Z); as a Date iOS reads seconds since 2001, the year 2057; send 788956860",
      ])
  }

  @Test("an update without a timestamp; dates before it, or a dismissal more than 4 hours after; an unknown event")
  func timesAndEvents() {
    #expect(
      findings(#"{"event":"update","content-state":{"n":1}}"#) == [
        "activity-timestamp aps.event: a Live Activity update has no aps.timestamp: the device cannot tell it from an older push"
      ])
    #expect(
      findings(
        #"{"event":"end","timestamp":1767260460,"content-state":{"n":1},"stale-date":1767200000,"dismissal-date":1767300000}"#
      ) == [
        "activity-dates aps.stale-date: aps.stale-date is before the push's timestamp (2026-01-01T09:41:00Z): the activity is stale as it arrives",
        "activity-dates aps.dismissal-date: aps.dismissal-date is more than 4 hours after the push's timestamp (2026-01-01T09:41:00Z): the activity leaves the Lock Screen 4 hours after it ends",
      ])
    #expect(
      findings(#"{"event":"begin","timestamp":1767260460}"#) == [
        #"invalid-value aps.event: aps.event must be start, update or end, not "begin""#
      ])
  }
}
