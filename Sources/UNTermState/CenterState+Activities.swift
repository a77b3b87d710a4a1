import ActivityKit
import Foundation
import UNTermInput

/// An activity an alert lit the screen with, until when.
package struct LitActivity: Equatable, Sendable {
  package var id: String
  package var until: Date
}

// Live Activities: pushes start, update and end them; the clock makes them stale, ended and
// dismissed (`ActivityRecord.activityState(at:)`), so the screen is a function of the state.
extension CenterState {
  /// How long an alert keeps the expanded presentation (or the iPad's banner) up.
  package static let activityAlertTime: TimeInterval = 5

  /// The activities shown now, the most relevant first.
  package var shownActivities: [ActivityRecord] { activities.shown(at: now) }

  /// The next moment an activity's presentation changes by itself: its alert's time is up, or
  /// it turns stale, ends after 8 hours or is dismissed. The interactive session wakes then.
  package var nextActivityChange: Date? {
    let alertEnds = litActivity.map(\.until).flatMap { $0 > now ? $0 : nil }
    return ([alertEnds] + activities.records.map { $0.nextChange(after: now) }).compactMap { $0 }.min()
  }

  /// The activity lighting the screen now, if an alert does.
  package var litActivityRecord: ActivityRecord? {
    guard let lit = litActivity, lit.until > now, let record = activities.record(lit.id),
      record.activityState(at: now) != .dismissed
    else { return nil }
    return record
  }

  /// Carries a Live Activity push out, saying in the activity pane what it did or why the
  /// device ignored it.
  mutating func receiveActivity(_ push: ActivityPush, name: String?) -> Outcome {
    let record: ActivityRecord
    do throws(ActivityRefusal) {
      record = try activities.apply(push, id: name, at: now)
    } catch {
      note(.warning, "Live Activity \(push.event.rawValue) ignored: \(OneLine.flatten(error.description))")
      return Outcome()
    }
    let name = OneLine.flatten(record.id)
    switch push.event {
    case .start:
      note(.info, "Live Activity \(name) started (\(OneLine.flatten(record.attributesType)))")
    case .update:
      note(.info, "Live Activity \(name) updated\(push.alert == nil ? "" : ", with an alert")")
    case .end:
      let gone = record.dismissal.map { " It leaves the Lock Screen at \(time(of: $0))." } ?? ""
      note(.info, "Live Activity \(name) ended.\(gone)")
    }
    if push.alert != nil && push.event != .end {
      litActivity = LitActivity(id: record.id, until: now.addingTimeInterval(Self.activityAlertTime))
    }
    return Outcome()
  }
}
