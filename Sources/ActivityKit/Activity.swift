import Foundation

/// Why ActivityKit refused to start an activity.
public enum ActivityAuthorizationError: Error, Equatable, Hashable, Sendable, LocalizedError {
  /// The attributes and content state together pass 4 KB.
  case attributesTooLarge
  /// The person turned Live Activities off for the app.
  case denied
  /// The device runs as many activities as it will.
  case globalMaximumExceeded
  /// The app runs as many activities as it may.
  case targetMaximumExceeded
  /// The app is not in the foreground.
  case visibility
  /// The device has no Live Activities.
  case unsupported
  case unsupportedTarget
  case persistenceFailure
  case reconnectNotPermitted
  case unentitled
  case malformedActivityIdentifier
  case missingProcessIdentifier

  public var errorDescription: String? {
    switch self {
    case .attributesTooLarge: return "The activity's attributes and content state are larger than 4 KB."
    case .denied: return "Live Activities are turned off for the app."
    case .globalMaximumExceeded: return "The device runs as many Live Activities as it allows."
    case .targetMaximumExceeded: return "The app runs as many Live Activities as it may."
    case .visibility: return "An activity can be started only while the app is in the foreground."
    case .unsupported, .unsupportedTarget: return "Live Activities are not supported here."
    case .persistenceFailure: return "The activity could not be kept."
    case .reconnectNotPermitted: return "The activity cannot be reconnected."
    case .unentitled: return "The app is not entitled to Live Activities."
    case .malformedActivityIdentifier: return "The activity identifier is malformed."
    case .missingProcessIdentifier: return "The process has no identifier."
    }
  }
}

/// Whether the app may start Live Activities, and whether it may update them often.
public final class ActivityAuthorizationInfo: @unchecked Sendable {
  public init() {}

  /// Whether the person allows the app's Live Activities (Settings; on in UNTerm unless a
  /// session turns them off).
  public var areActivitiesEnabled: Bool { ActivityCenter.shared.areActivitiesEnabled }
  /// Whether frequent updates are allowed (`NSSupportsLiveActivitiesFrequentUpdates`).
  public var frequentPushesEnabled: Bool { ActivityCenter.shared.frequentPushesEnabled }

  public var activityEnablementUpdates: AsyncStream<Bool> {
    AsyncStream { continuation in
      continuation.yield(areActivitiesEnabled)
      continuation.finish()
    }
  }

  public var frequentPushEnablementUpdates: AsyncStream<Bool> {
    AsyncStream { continuation in
      continuation.yield(frequentPushesEnabled)
      continuation.finish()
    }
  }
}

/// One of the app's Live Activities, read as the app's own types: `attributes` as given,
/// `content.state` decoded from the activity's state with `JSONDecoder`'s default strategies,
/// as iOS decodes a push's `content-state`.
public final class Activity<Attributes: ActivityAttributes>: Identifiable, @unchecked Sendable {
  public let id: String
  public let attributes: Attributes

  init(id: String, attributes: Attributes, content: ActivityContent<Attributes.ContentState>) {
    self.id = id
    self.attributes = attributes
    lastContent = content
  }

  private var record: ActivityRecord? { ActivityCenter.shared.record(id) }

  /// The content shown now. When the newest state does not decode into the app's
  /// `ContentState` (a push the app's widget could not read), the last one that did.
  public var content: ActivityContent<Attributes.ContentState> {
    lock.lock()
    defer { lock.unlock() }
    guard let record else { return lastContent }
    if let decoded = try? ActivityPayload.decode(Attributes.ContentState.self, from: record.state) {
      lastContent = ActivityContent(state: decoded, staleDate: record.staleDate, relevanceScore: record.relevanceScore)
    }
    return lastContent
  }

  private let lock = NSLock()

  /// The newest content that decoded.
  private var lastContent: ActivityContent<Attributes.ContentState>

  @available(*, deprecated, renamed: "content.state")
  public var contentState: Attributes.ContentState { content.state }

  public var activityState: ActivityState {
    record?.activityState(at: ActivityCenter.shared.now) ?? .dismissed
  }

  /// The token APNs updates this activity by, when it was started with `pushType: .token`.
  public var pushToken: Data? { record?.pushToken }

  /// The push token now and whenever it changes.
  public var pushTokenUpdates: AsyncStream<Data> {
    let token = pushToken
    return AsyncStream { continuation in
      if let token { continuation.yield(token) }
      continuation.finish()
    }
  }

  /// The activity's state now; the stream ends when it is dismissed.
  public var activityStateUpdates: AsyncStream<ActivityState> { updates { $0.activityState } }

  /// The content now and after every update.
  public var contentUpdates: AsyncStream<ActivityContent<Attributes.ContentState>> { updates { $0.content } }

  private func updates<Value>(_ read: @escaping @Sendable (Activity) -> Value) -> AsyncStream<Value> {
    AsyncStream { continuation in
      continuation.yield(read(self))
      let id = self.id
      // The app's state type need not be Sendable; the center calls observers one at a time.
      let sink = Unchecked(continuation)
      let key = ActivityCenter.shared.observe { [weak self] record in
        guard record.id == id, let self else { return }
        sink.value.yield(read(self))
        if record.activityState(at: ActivityCenter.shared.now) == .dismissed { sink.value.finish() }
      }
      continuation.onTermination = { _ in ActivityCenter.shared.stopObserving(key) }
    }
  }

  /// Starts an activity. `pushType: .token` gives it a push token for APNs updates.
  public static func request(
    attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
  ) throws -> Activity<Attributes> {
    guard ActivityCenter.shared.areActivitiesEnabled else { throw ActivityAuthorizationError.denied }
    let encoder = JSONEncoder()
    let record: ActivityRecord
    do {
      let attributesData = try encoder.encode(attributes)
      let state = try encoder.encode(content.state)
      record = try ActivityCenter.shared.change { board, now throws(ActivityRefusal) in
        try board.start(
          attributesType: ActivityPayload.typeName(of: Attributes.self), attributes: attributesData, state: state,
          staleDate: content.staleDate, relevanceScore: content.relevanceScore, tokens: pushType != nil,
          id: UUID().uuidString, at: now)
      }
    } catch is ActivityRefusal {
      throw ActivityAuthorizationError.attributesTooLarge
    }
    return Activity(id: record.id, attributes: attributes, content: content)
  }

  @available(*, deprecated, renamed: "request(attributes:content:pushType:)")
  public static func request(
    attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
  ) throws -> Activity<Attributes> {
    try request(
      attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
  }

  /// The app's activities of this attributes type that are not dismissed, in the order started.
  public static var activities: [Activity<Attributes>] {
    let name = ActivityPayload.typeName(of: Attributes.self)
    let now = ActivityCenter.shared.now
    return ActivityCenter.shared.all.compactMap { record in
      guard record.attributesType == name, record.activityState(at: now) != .dismissed else { return nil }
      return activity(for: record)
    }
  }

  /// Every activity of this type as it starts, by the app or by a push.
  public static var activityUpdates: AsyncStream<Activity<Attributes>> {
    let name = ActivityPayload.typeName(of: Attributes.self)
    return AsyncStream { continuation in
      let seen = Unchecked(Set(ActivityCenter.shared.all.map(\.id)))
      let lock = NSLock()
      let key = ActivityCenter.shared.observe { record in
        guard record.attributesType == name else { return }
        lock.lock()
        let isNew = seen.value.insert(record.id).inserted
        lock.unlock()
        if isNew, let activity = activity(for: record) { continuation.yield(activity) }
      }
      continuation.onTermination = { _ in ActivityCenter.shared.stopObserving(key) }
    }
  }

  /// The push-to-start token: a server starts the app's activities with it (iOS 17.2).
  public static var pushToStartToken: Data? { ActivityCenter.shared.pushToStartToken }

  public static var pushToStartTokenUpdates: AsyncStream<Data> {
    AsyncStream { continuation in
      if let token = pushToStartToken { continuation.yield(token) }
      continuation.finish()
    }
  }

  /// The typed activity for a record whose attributes and state decode as this type's.
  private static func activity(for record: ActivityRecord) -> Activity<Attributes>? {
    guard let attributes = try? ActivityPayload.decode(Attributes.self, from: record.attributes),
      let state = try? ActivityPayload.decode(Attributes.ContentState.self, from: record.state)
    else { return nil }
    let content = ActivityContent(state: state, staleDate: record.staleDate, relevanceScore: record.relevanceScore)
    return Activity(id: record.id, attributes: attributes, content: content)
  }

  /// Changes what the activity shows.
  public func update(_ content: ActivityContent<Attributes.ContentState>) async {
    await update(content, alertConfiguration: nil, timestamp: nil)
  }

  /// Changes what the activity shows, lighting the screen with an alert.
  public func update(_ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration?)
    async
  {
    await update(content, alertConfiguration: alertConfiguration, timestamp: nil)
  }

  /// Changes what the activity shows; an update whose `timestamp` is older than the newest one
  /// is discarded (iOS 17.2).
  public func update(
    _ content: ActivityContent<Attributes.ContentState>, alertConfiguration: AlertConfiguration?, timestamp: Date?
  ) async {
    guard let state = try? JSONEncoder().encode(content.state) else { return }
    let alert = alertConfiguration.map {
      ActivityAlert(title: $0.title.key, body: $0.body.key, sound: $0.sound.fileName)
    }
    let id = self.id
    _ = try? ActivityCenter.shared.change { board, now throws(ActivityRefusal) in
      try board.update(
        id, state: state, staleDate: content.staleDate, relevanceScore: content.relevanceScore, timestamp: timestamp,
        alert: alert, at: now)
    }
  }

  @available(*, deprecated, renamed: "update(_:)")
  public func update(using contentState: Attributes.ContentState) async {
    await update(ActivityContent(state: contentState, staleDate: nil))
  }

  /// Ends the activity, with its final content if given; it leaves the Lock Screen as
  /// `dismissalPolicy` says.
  public func end(
    _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default
  ) async {
    let state = content.flatMap { try? JSONEncoder().encode($0.state) }
    let id = self.id
    _ = try? ActivityCenter.shared.change { board, now throws(ActivityRefusal) in
      try board.end(
        id, state: state, staleDate: content?.staleDate, relevanceScore: content?.relevanceScore,
        policy: dismissalPolicy, at: now)
    }
  }

  @available(*, deprecated, renamed: "end(_:dismissalPolicy:)")
  public func end(
    using contentState: Attributes.ContentState? = nil, dismissalPolicy: ActivityUIDismissalPolicy = .default
  )
    async
  {
    await end(contentState.map { ActivityContent(state: $0, staleDate: nil) }, dismissalPolicy: dismissalPolicy)
  }
}

/// A value handed to the center's observers, which it calls one at a time (or under a lock).
final class Unchecked<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
