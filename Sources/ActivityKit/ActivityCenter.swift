import Foundation

/// One Live Activity as the system keeps it, whatever the app's types: its attributes and its
/// content state as JSON (as a push carries them), its dates and its tokens. `Activity<A>` reads
/// it as the app's own types; the emulator's session draws it.
package struct ActivityRecord: Sendable, Equatable {
  package var id: String
  /// The attributes type's name, as a push's `attributes-type` gives it.
  package var attributesType: String
  package var attributes: Data
  package var state: Data
  package var staleDate: Date?
  package var relevanceScore: Double
  package var started: Date
  /// The newest update's timestamp: an older one is ignored.
  package var updated: Date
  package var ended: Date?
  package var dismissal: Date?
  package var pushToken: Data?
  /// Set by the person or the system removing it.
  package var dismissedNow = false
  /// The newest update's alert, if it had one: the screen lights with it.
  package var alert: ActivityAlert?
  /// Counts changes: 0 when started, one more at each update or end.
  package var revision = 0
  /// The state's keys as the newest push wrote them, when known (`ActivityPush.contentStateKeys`).
  package var stateKeys: [String]?

  /// Where the activity is at `now`: active for 8 hours, stale past its stale date, ended, then
  /// dismissed at its dismissal date.
  package func activityState(at now: Date) -> ActivityState {
    if dismissedNow { return .dismissed }
    if let end = end(at: now) { return now >= dismissalDate(endedAt: end) ? .dismissed : .ended }
    if let staleDate, now >= staleDate { return .stale }
    return .active
  }

  /// When it ended, by a push or the app, or 8 hours after it started; `nil` while it runs.
  package func end(at now: Date) -> Date? {
    let limit = started.addingTimeInterval(ActivityLimits.activeDuration)
    return ended ?? (now >= limit ? limit : nil)
  }

  /// When it leaves the Lock Screen after ending at `end`: its dismissal date, or 4 hours later.
  package func dismissalDate(endedAt end: Date) -> Date {
    dismissal ?? ActivityUIDismissalPolicy.default.dismissalDate(endedAt: end)
  }

  /// The next moment its state changes by itself after `now` (stale, ended, dismissed).
  package func nextChange(after now: Date) -> Date? {
    guard activityState(at: now) != .dismissed else { return nil }
    let end = ended ?? started.addingTimeInterval(ActivityLimits.activeDuration)
    return [staleDate, end, dismissalDate(endedAt: end)].compactMap { $0 }.filter { $0 > now }.min()
  }
}

/// An update's alert, as a push's `aps.alert` or an app's `AlertConfiguration` gives it.
package struct ActivityAlert: Sendable, Equatable {
  package var title: String
  package var body: String
  /// The sound file, or `nil` for the default sound.
  package var sound: String?

  package init(title: String, body: String, sound: String?) {
    self.title = title
    self.body = body
    self.sound = sound
  }
}

/// Why a change to an activity was not made, as the activity pane and the harness say it.
package struct ActivityRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// Every Live Activity of a device, as values: what starts, updates, ends and dismisses them,
/// on a clock given to each change. The session's state holds one (pushes from files, scripts
/// and the APNs endpoint); `ActivityCenter` holds the process's for app code.
package struct ActivityBoard: Sendable, Equatable {
  /// Every activity, in the order started (dismissed ones too, until `reset`).
  package private(set) var records: [ActivityRecord] = []
  private var nextNumber = 1

  package init() {}

  package func record(_ id: String) -> ActivityRecord? { records.first { $0.id == id } }

  /// The activities shown at `now` (not dismissed): the highest relevance first, then the first
  /// started, as iOS orders the Lock Screen and picks the Dynamic Island's.
  package func shown(at now: Date) -> [ActivityRecord] {
    records.enumerated().filter { $0.element.activityState(at: now) != .dismissed }
      .sorted { ($0.element.relevanceScore, -$0.offset) > ($1.element.relevanceScore, -$1.offset) }.map(\.element)
  }

  /// Starts an activity named `id` (by default `activity-N`); it gets a push token when it takes
  /// pushes.
  package mutating func start(
    attributesType: String, attributes: Data, state: Data, staleDate: Date?, relevanceScore: Double,
    tokens: Bool, id: String? = nil, alert: ActivityAlert? = nil, keys: [String]? = nil, at now: Date
  ) throws(ActivityRefusal) -> ActivityRecord {
    guard attributes.count + state.count <= ActivityLimits.dataBytes else {
      throw ActivityRefusal(
        "the attributes and content state take \(attributes.count + state.count) bytes; ActivityKit allows 4096 (attributesTooLarge)"
      )
    }
    let name = id ?? "activity-\(nextNumber)"
    guard record(name)?.activityState(at: now) ?? .dismissed == .dismissed else {
      throw ActivityRefusal("an activity named \(name) is already running")
    }
    var record = ActivityRecord(
      id: name, attributesType: attributesType, attributes: attributes, state: state, staleDate: staleDate,
      relevanceScore: relevanceScore, started: now, updated: now)
    if tokens { record.pushToken = ActivityCenter.token(number: nextNumber) }
    record.alert = alert
    record.stateKeys = keys
    nextNumber += 1
    records.removeAll { $0.id == name }
    records.append(record)
    return record
  }

  /// Updates an activity's content; `timestamp` older than its newest update is ignored, as is
  /// any update once it ended.
  package mutating func update(
    _ id: String, state: Data, staleDate: Date?, relevanceScore: Double, timestamp: Date? = nil,
    alert: ActivityAlert? = nil, keys: [String]? = nil, at now: Date
  ) throws(ActivityRefusal) -> ActivityRecord {
    try change(id, at: now) { record throws(ActivityRefusal) in
      let current = record.activityState(at: now)
      guard current != .ended, current != .dismissed else {
        throw ActivityRefusal("\(id) has ended: updates to it are ignored")
      }
      let stamp = timestamp ?? now
      guard stamp >= record.updated else {
        throw ActivityRefusal(
          "the update's timestamp is older than \(id)'s newest (\(ISO8601DateFormatter().string(from: record.updated))): it is ignored"
        )
      }
      guard record.attributes.count + state.count <= ActivityLimits.dataBytes else {
        throw ActivityRefusal("the content state would take \(id) past ActivityKit's 4096 bytes")
      }
      record.state = state
      record.staleDate = staleDate
      record.relevanceScore = relevanceScore
      record.updated = stamp
      record.alert = alert
      record.stateKeys = keys
      record.revision += 1
    }
  }

  /// Ends an activity, with its final content if given, dismissed as `policy` says.
  package mutating func end(
    _ id: String, state: Data?, staleDate: Date?, relevanceScore: Double?, policy: ActivityUIDismissalPolicy,
    timestamp: Date? = nil, keys: [String]? = nil, at now: Date
  ) throws(ActivityRefusal) -> ActivityRecord {
    try change(id, at: now) { record throws(ActivityRefusal) in
      guard record.ended == nil, !record.dismissedNow else { throw ActivityRefusal("\(id) has already ended") }
      if let state {
        record.state = state
        record.stateKeys = keys
      }
      if let staleDate { record.staleDate = staleDate }
      if let relevanceScore { record.relevanceScore = relevanceScore }
      record.updated = max(record.updated, timestamp ?? now)
      record.ended = now
      record.dismissal = policy.dismissalDate(endedAt: now)
      record.alert = nil
      record.revision += 1
    }
  }

  /// The person removes the activity from the Lock Screen.
  package mutating func dismiss(_ id: String, at now: Date) throws(ActivityRefusal) -> ActivityRecord {
    try change(id, at: now) { record in
      record.dismissedNow = true
      record.revision += 1
    }
  }

  private mutating func change(
    _ id: String, at now: Date, _ body: (inout ActivityRecord) throws(ActivityRefusal) -> Void
  ) throws(ActivityRefusal) -> ActivityRecord {
    guard let index = records.firstIndex(where: { $0.id == id }) else {
      throw ActivityRefusal("no activity is named \(id)")
    }
    var record = records[index]
    try body(&record)
    records[index] = record
    return record
  }
}

/// Every Live Activity of the process for app code: those it started with `Activity.request`
/// and those pushes started. Thread-safe; one clock (the session's, when one is attached).
package final class ActivityCenter: @unchecked Sendable {
  package static let shared = ActivityCenter()

  private let lock = NSLock()
  private var board = ActivityBoard()
  private var observers: [UUID: @Sendable (ActivityRecord) -> Void] = [:]
  private var clock: @Sendable () -> Date = { Date() }
  private var enabled = true
  private var frequent = false

  package init() {}

  /// Whether the person allows Live Activities (Settings › the app › Live Activities).
  package var areActivitiesEnabled: Bool {
    get { locked { enabled } }
    set { locked { enabled = newValue } }
  }

  /// Whether frequent updates are allowed (`NSSupportsLiveActivitiesFrequentUpdates`).
  package var frequentPushesEnabled: Bool {
    get { locked { frequent } }
    set { locked { frequent = newValue } }
  }

  /// The token a server starts activities with (one per app; UNTerm's device has one app).
  package var pushToStartToken: Data? { Self.token(number: 0) }

  /// The time activities are measured on.
  package var now: Date {
    lock.lock()
    let clock = clock
    lock.unlock()
    return clock()
  }

  /// Measures time on another clock (a session's virtual one).
  package func useClock(_ clock: @escaping @Sendable () -> Date) { locked { self.clock = clock } }

  /// Every activity, in the order started.
  package var all: [ActivityRecord] { locked { board.records } }

  package func record(_ id: String) -> ActivityRecord? { locked { board.record(id) } }

  /// Calls `observer` with every record as it changes; returns the key that stops it.
  @discardableResult
  package func observe(_ observer: @escaping @Sendable (ActivityRecord) -> Void) -> UUID {
    let key = UUID()
    locked { observers[key] = observer }
    return key
  }

  package func stopObserving(_ key: UUID) { _ = locked { observers.removeValue(forKey: key) } }

  /// Makes a change to the board at the clock's time, and tells the observers.
  package func change(_ body: (inout ActivityBoard, Date) throws(ActivityRefusal) -> ActivityRecord)
    throws(ActivityRefusal) -> ActivityRecord
  {
    let now = self.now
    lock.lock()
    let result: Result<ActivityRecord, ActivityRefusal>
    do throws(ActivityRefusal) {
      result = .success(try body(&board, now))
    } catch {
      result = .failure(error)
    }
    let watching = Array(observers.values)
    lock.unlock()
    let record = try result.get()
    for observer in watching { observer(record) }
    return record
  }

  /// Forgets every activity (a new session).
  package func reset() { locked { board = ActivityBoard() } }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// A push token of 32 bytes, distinct per activity and stable for its number.
  static func token(number: Int) -> Data {
    var bytes = [UInt8](repeating: 0, count: 32)
    var value = UInt64(number) &* 0x9E37_79B9_7F4A_7C15
    for i in 0..<32 {
      value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes[i] = UInt8(truncatingIfNeeded: value >> 33)
    }
    return Data(bytes)
  }
}
