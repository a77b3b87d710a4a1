import Foundation

/// What an app's Live Activity is about: its static data, and in `ContentState` the data that
/// changes. An app's own attributes type compiles against this unchanged:
///
/// ```swift
/// struct DeliveryAttributes: ActivityAttributes {
///   struct ContentState: Codable, Hashable {
///     var status: String
///     var eta: Date
///   }
///   var orderNumber: String
/// }
/// ```
///
/// A push's `content-state` is decoded into `ContentState` with `JSONDecoder`'s default
/// strategies, as iOS decodes it: a `Date` is a number of seconds since 2001-01-01 00:00:00 UTC,
/// not a Unix time (`ActivityPayload.decodeContentState`).
public protocol ActivityAttributes: Decodable, Encodable {
  /// The data that changes while the activity runs.
  associatedtype ContentState: Decodable, Encodable, Hashable
}

/// The content an activity shows: its state, when it turns stale, and how relevant it is
/// against the app's other activities (the highest goes to the Dynamic Island).
public struct ActivityContent<State>: Equatable, Hashable where State: Decodable, State: Encodable, State: Hashable {
  public var state: State
  /// When the state is out of date: the activity's `activityState` turns `.stale`.
  public var staleDate: Date?
  /// Higher shows first; the default is 0.
  public var relevanceScore: Double

  public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0) {
    self.state = state
    self.staleDate = staleDate
    self.relevanceScore = relevanceScore
  }
}

extension ActivityContent: Sendable where State: Sendable {}

extension ActivityContent: Codable {
  private enum CodingKeys: String, CodingKey {
    case state
    case staleDate
    case relevanceScore
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    state = try container.decode(State.self, forKey: .state)
    staleDate = try container.decodeIfPresent(Date.self, forKey: .staleDate)
    relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore) ?? 0
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
    try container.encodeIfPresent(staleDate, forKey: .staleDate)
    try container.encode(relevanceScore, forKey: .relevanceScore)
  }
}

/// Where an activity is in its life.
public enum ActivityState: Equatable, Hashable, Sendable, Codable {
  /// Shown, and taking updates.
  case active
  /// Ended: still on the Lock Screen until it is dismissed, and no longer updated.
  case ended
  /// Removed by the person or the system.
  case dismissed
  /// Its content's `staleDate` has passed; an update makes it active again.
  case stale
  /// Scheduled, not started yet.
  case pending
}

/// When an ended activity leaves the Lock Screen.
public struct ActivityUIDismissalPolicy: Equatable, Hashable, Sendable {
  enum Kind: Equatable, Hashable, Sendable {
    case `default`
    case immediate
    case after(Date)
  }

  let kind: Kind

  /// Up to four hours after it ends, or sooner if the person removes it.
  public static let `default` = ActivityUIDismissalPolicy(kind: .default)
  /// At once.
  public static let immediate = ActivityUIDismissalPolicy(kind: .immediate)
  /// At `date`, or four hours after it ends, whichever comes first.
  public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy(kind: .after(date)) }

  /// When an activity that ended at `end` is dismissed.
  package func dismissalDate(endedAt end: Date) -> Date {
    let latest = end.addingTimeInterval(ActivityLimits.lockScreenAfterEnd)
    switch kind {
    case .default: return latest
    case .immediate: return end
    case .after(let date): return min(max(date, end), latest)
    }
  }
}

/// How an activity's updates arrive from a server.
public struct PushType: Equatable, Hashable, Sendable {
  enum Kind: Equatable, Hashable, Sendable {
    case token
    case channel(String)
  }

  let kind: Kind

  /// Pushes to the activity's own token (`pushTokenUpdates`).
  public static let token = PushType(kind: .token)
  /// Broadcast pushes on a channel (iOS 18).
  public static func channel(_ channelId: String) -> PushType { PushType(kind: .channel(channelId)) }
}

/// ActivityKit's fixed limits (UNTerm's names for what Apple documents).
package enum ActivityLimits {
  /// An activity is active for at most 8 hours.
  package static let activeDuration: TimeInterval = 8 * 3600
  /// After it ends, it stays on the Lock Screen at most 4 hours.
  package static let lockScreenAfterEnd: TimeInterval = 4 * 3600
  /// Attributes and content state together: 4 KB.
  package static let dataBytes = 4096
}
