import Foundation

/// The notification center's data: registered categories, delivered notifications grouped
/// into threads, pending requests and each app's badge.
///
/// This is the one store the emulator runs on. `UNUserNotificationCenter` keeps it while no
/// session is running; a running session keeps it in its state and applies the center's calls
/// to it. Delivered notifications are grouped by thread identifier (by app when there is none),
/// newest group first, newest member first. Every operation a frame needs — the first group,
/// the group after another, a group's leading member and count — costs O(log n) or amortized
/// O(1), so drawing the list costs what is visible, not what is stored.
package struct NotificationStore: @unchecked Sendable {
  /// Identifies a group: notifications of one app and one thread, or of one app without one.
  package struct GroupKey: Hashable, Sendable, CustomStringConvertible {
    package var app: String
    package var thread: String

    package init(app: String, thread: String) {
      self.app = app
      self.thread = thread
    }

    package var description: String { thread.isEmpty ? app : "\(app)/\(thread)" }
  }

  /// A request waiting for its trigger.
  package struct Pending: @unchecked Sendable {
    package var request: UNNotificationRequest
    package var fireDate: Date
    package var addedSequence: Int
  }

  /// The registered categories of every app, and which app is the session's own.
  package private(set) var registry = CategoryRegistry()
  /// The default app's registered categories, by identifier (what `setNotificationCategories`
  /// registers).
  package var categories: [String: UNNotificationCategory] { registry.categories(of: registry.defaultApp) }
  /// The session's own app (`--bundle`): local requests and payloads that name no app are its.
  package var defaultApp: String {
    get { registry.defaultApp }
    set { registry.defaultApp = newValue }
  }
  /// Each app's badge number, by bundle identifier: every app has its own app-icon badge. An
  /// app with no badge has no entry (0 is never stored).
  package private(set) var badges: [String: Int] = [:]
  /// The default app's badge number (the app whose code runs, and whose badge `expect badge`
  /// and `badgeCount` read); 0 shows no badge.
  package var badge: Int { badge(of: defaultApp) }
  /// Requests waiting for their triggers, by identifier.
  package private(set) var pending: [String: Pending] = [:]

  private(set) var records: [Record] = []
  private var freeRecords: [Int32] = []
  /// Request identifier → record slot.
  private var index = SlotIndex()
  /// Groups by slot (nil: free), and the slot of each group's key.
  private(set) var groups: [Group?] = []
  private var freeGroups: [Int32] = []
  private(set) var groupSlots: [GroupKey: Int32] = [:]
  /// Groups in order of their newest member (oldest first), with stale entries left by moves.
  private(set) var order: [OrderEntry] = []
  private var sequence = 0
  private var liveCount = 0

  package init() {}

  // MARK: - Categories and badge

  /// Replaces every category an app registered (the default app's unless `app` names another),
  /// as `setNotificationCategories` does.
  package mutating func setCategories(_ newCategories: some Sequence<UNNotificationCategory>, for app: String? = nil) {
    registry.set(newCategories, for: app ?? registry.defaultApp)
  }

  /// Replaces the categories a scope registers: one app's, or those serving every app that has
  /// none of its own.
  package mutating func setCategories(_ newCategories: some Sequence<UNNotificationCategory>, scope: CategoryScope) {
    registry.set(newCategories, for: scope)
  }

  /// The category with exactly this identifier (case-sensitive) that `app` registered (the
  /// default app's unless `app` names another).
  package func category(_ identifier: String, app: String? = nil) -> UNNotificationCategory? {
    identifier.isEmpty ? nil : registry.categories(of: app ?? registry.defaultApp)[identifier]
  }

  /// The app a request belongs to: the one its payload names, else the session's own.
  package func app(of request: UNNotificationRequest) -> String { app(of: request.remote) }

  /// The app a payload is for: the one it names, else the session's own. The one place that
  /// resolves it; requests and records ask it too.
  package func app(of payload: UNRemotePayloadInfo?) -> String { payload?.app ?? registry.defaultApp }

  /// An app's badge number; 0 shows no badge.
  package func badge(of app: String) -> Int { badges[app] ?? 0 }

  /// Sets an app's badge (the default app's unless `app` names another, as the center's
  /// `setBadgeCount` does); 0 and negative values clear it.
  package mutating func setBadge(_ value: Int, for app: String? = nil) {
    badges[app ?? defaultApp] = value > 0 ? value : nil
  }

  /// Applies a request's badge to its own app: absent leaves it, 0 clears it, a number sets it.
  package mutating func applyBadge(of request: UNNotificationRequest) {
    if let number = request.content.badge { setBadge(number.intValue, for: app(of: request)) }
  }

  // MARK: - Delivered notifications

  /// How many notifications are delivered.
  package var deliveredCount: Int { liveCount }

  /// The record slot of a delivered notification.
  func slot(of id: String) -> Int32? {
    index.find(hash: id.hashValue) { records[Int($0)].identifier == id }
  }

  /// The delivered notification with this request identifier.
  package func delivered(_ id: String) -> UNNotification? {
    slot(of: id).flatMap { records[Int($0)].notification }
  }

  /// The group a notification belongs to.
  package func groupKey(of notification: UNNotification) -> GroupKey {
    GroupKey(app: app(of: notification.request), thread: notification.request.content.threadIdentifier)
  }

  /// Adds a delivered notification at the top; one with the same identifier is replaced and
  /// moves to the top.
  ///
  /// - Returns: the notification it replaced, if any.
  ///
  /// - Parameter group: the stack it joins (a Scheduled Summary's); its thread's or app's by
  ///   default.
  @discardableResult
  package mutating func deliver(_ notification: UNNotification, into group: GroupKey? = nil) -> UNNotification? {
    let id = notification.request.identifier
    let replaced = removeEntry(id)
    sequence += 1
    let key = group ?? groupKey(of: notification)
    let groupSlot: Int32
    if let existing = groupSlots[key] {
      groupSlot = existing
    } else if let free = freeGroups.popLast() {
      groupSlot = free
      groups[Int(free)] = Group(key: key)
      groupSlots[key] = free
    } else {
      groupSlot = Int32(groups.count)
      groups.append(Group(key: key))
      groupSlots[key] = groupSlot
    }
    let record = Record(notification, sequence: sequence, group: groupSlot)
    let slot: Int32
    if let free = freeRecords.popLast() {
      slot = free
      records[Int(free)] = record
    } else {
      slot = Int32(records.count)
      records.append(record)
    }
    index.insert(slot, hash: id.hashValue) { records[Int($0)].identifier.hashValue }
    liveCount += 1
    groups[Int(groupSlot)]?.members.append(Member(slot: slot, sequence: sequence))
    groups[Int(groupSlot)]?.liveCount += 1
    groups[Int(groupSlot)]?.latestSequence = sequence
    order.append(OrderEntry(sequence: sequence, group: groupSlot))
    compactIfNeeded()
    return replaced
  }

  /// Replaces a delivered notification with one of the same identifier where it stands: the
  /// same place in its group and in the list. One that moved to another group (its thread or
  /// app changed) joins that group as its newest member, as a delivery would.
  ///
  /// - Returns: `false` when no notification with this identifier is delivered.
  @discardableResult
  package mutating func replaceDelivered(_ notification: UNNotification) -> Bool {
    let id = notification.request.identifier
    guard let slot = slot(of: id) else { return false }
    let record = records[Int(slot)]
    guard let key = groups[Int(record.group)]?.key, groupKey(of: notification) == key else {
      deliver(notification)
      return true
    }
    // The same identifier, so the same place in the index.
    records[Int(slot)] = Record(notification, sequence: record.sequence, group: record.group)
    return true
  }

  /// Removes delivered notifications; unknown identifiers are ignored, as on iOS.
  package mutating func removeDelivered(_ ids: some Sequence<String>) {
    for id in ids { removeEntry(id) }
    compactIfNeeded()
  }

  /// Removes every delivered notification.
  package mutating func removeAllDelivered() {
    records = []
    freeRecords = []
    index = SlotIndex()
    groups = []
    freeGroups = []
    groupSlots = [:]
    order = []
    liveCount = 0
  }

  /// Every delivered notification, newest first.
  package var deliveredNewestFirst: [UNNotification] {
    records.filter { $0.content != nil }.sorted { $0.sequence > $1.sequence }.compactMap(\.notification)
  }

  /// One app's delivered notifications, newest first: what that app's center reports, as an
  /// app sees only its own.
  package func deliveredNewestFirst(of app: String) -> [UNNotification] {
    records.filter { $0.content != nil && self.app(of: $0) == app }.sorted { $0.sequence > $1.sequence }
      .compactMap(\.notification)
  }

  /// The app a record belongs to, as `app(of:)` tells for its request.
  private func app(of record: Record) -> String { app(of: record.remote?.info) }

  /// Whether a removal of this reach takes a notification of `app`: every app's, or the default
  /// app's only. The one place that rule lives; the session's summary-held notifications ask it
  /// too (`reaches(_:_:)`).
  private func reaches(_ reach: UNRemovalReach, app: String) -> Bool {
    reach == .everyApp || app == registry.defaultApp
  }

  /// Whether a removal of this reach takes the request's notification.
  package func reaches(_ reach: UNRemovalReach, _ request: UNNotificationRequest) -> Bool {
    reaches(reach, app: app(of: request))
  }

  /// Removes the delivered notifications with these identifiers that a removal of this reach
  /// takes: an app's center takes only its own, so another app's notification with one of them
  /// stays, as an unknown identifier is ignored.
  package mutating func removeDelivered(_ ids: some Sequence<String>, reaching reach: UNRemovalReach) {
    removeDelivered(
      ids.filter { id in slot(of: id).map { reaches(reach, app: app(of: records[Int($0)])) } ?? false })
  }

  /// Removes every delivered notification a removal of this reach takes.
  package mutating func removeAllDelivered(reaching reach: UNRemovalReach) {
    let ids = records.filter { $0.content != nil && reaches(reach, app: app(of: $0)) }.map(\.identifier)
    if ids.count == liveCount {
      removeAllDelivered()
    } else {
      removeDelivered(ids)
    }
  }

  @discardableResult
  private mutating func removeEntry(_ id: String) -> UNNotification? {
    guard let slot = slot(of: id), let notification = records[Int(slot)].notification else { return nil }
    index.remove(slot, hash: id.hashValue) { records[Int($0)].identifier.hashValue }
    let record = records[Int(slot)]
    records[Int(slot)] = .free
    freeRecords.append(slot)
    liveCount -= 1
    let groupSlot = Int(record.group)
    guard var group = groups[groupSlot] else { return notification }
    group.liveCount -= 1
    if group.liveCount == 0 {
      groups[groupSlot] = nil
      groupSlots[group.key] = nil
      freeGroups.append(record.group)
      return notification
    }
    if group.latestSequence == record.sequence {
      // The group now sorts by its newest remaining member.
      let newest = group.members.last { isLive($0) }?.sequence ?? 0
      group.latestSequence = newest
      // The member's own entry from its delivery may still be in `order` (sequences are
      // unique to a delivery): reuse it rather than add a second live entry for the group.
      let at = Self.lowerBound(order, newest, by: \.sequence)
      if at >= order.count || order[at].sequence != newest {
        order.insert(OrderEntry(sequence: newest, group: record.group), at: at)
      }
    }
    if group.members.count > 2 * group.liveCount + 64 {
      group.members = group.members.filter { isLive($0) }
    }
    groups[groupSlot] = group
    return notification
  }

  func isLive(_ member: Member) -> Bool { records[Int(member.slot)].sequence == member.sequence }

  func isLive(_ entry: OrderEntry) -> Bool {
    groups[Int(entry.group)]?.latestSequence == entry.sequence
  }

  /// The first index whose sequence is not less than `value`, in an array sorted by sequence.
  static func lowerBound<T>(_ array: [T], _ value: Int, by sequence: (T) -> Int) -> Int {
    var low = 0
    var high = array.count
    while low < high {
      let mid = (low + high) / 2
      if sequence(array[mid]) < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Drops stale bookkeeping once it outweighs the live part, keeping operations amortized O(1).
  private mutating func compactIfNeeded() {
    if order.count > 2 * groupSlots.count + 64 {
      order = order.filter { isLive($0) }
    }
  }

  // MARK: - Pending requests

  /// Schedules a request for its trigger's date; one with the same identifier is replaced.
  package mutating func schedule(_ request: UNNotificationRequest, fireDate: Date) {
    sequence += 1
    pending[request.identifier] = Pending(
      request: request, fireDate: fireDate, addedSequence: sequence)
    if pending.count > Self.pendingLimit {
      // iOS keeps 64 pending requests per app; testing reports the most recently added win.
      let oldest = pending.values.min { $0.addedSequence < $1.addedSequence }
      if let oldest { pending[oldest.request.identifier] = nil }
    }
  }

  /// iOS's limit of pending requests per app.
  package static let pendingLimit = 64

  /// Removes pending requests; unknown identifiers are ignored.
  package mutating func removePending(_ ids: some Sequence<String>) {
    for id in ids { pending[id] = nil }
  }

  /// Removes every pending request.
  package mutating func removeAllPending() { pending = [:] }

  /// The earliest date a pending request fires.
  /// (A request that never fires, a location trigger's, waits at `Date.distantFuture`.)
  package var nextFireDate: Date? { pending.values.lazy.map(\.fireDate).filter { $0 != .distantFuture }.min() }

  /// Takes the requests due at `now`, earliest first, rescheduling repeating ones.
  package mutating func takeDue(at now: Date) -> [UNNotificationRequest] {
    let due = pending.values.filter { $0.fireDate <= now }.sorted { $0.fireDate < $1.fireDate }
    for item in due {
      pending[item.request.identifier] = nil
      if let trigger = item.request.trigger, trigger.repeats,
        let next = trigger.fireDate(after: max(now, item.fireDate))
      {
        pending[item.request.identifier] = Pending(
          request: item.request, fireDate: next, addedSequence: item.addedSequence)
      }
    }
    return due.map(\.request)
  }
}
