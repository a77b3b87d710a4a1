import Foundation

/// The notification center's data: registered categories, delivered notifications grouped
/// into threads, pending requests and the app badge.
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

  private struct Entry {
    var notification: UNNotification
    var sequence: Int
    var group: GroupKey
  }

  private struct Member {
    var id: String
    var sequence: Int
  }

  private struct Group {
    /// Members in delivery order (oldest first), including stale ones left by removals.
    var members: [Member] = []
    var liveCount = 0
    var latestSequence = 0
  }

  private struct OrderEntry {
    var sequence: Int
    var key: GroupKey
  }

  /// The registered categories, by identifier.
  package private(set) var categories: [String: UNNotificationCategory] = [:]
  /// The app's badge number; 0 shows no badge.
  package private(set) var badge = 0
  /// Requests waiting for their triggers, by identifier.
  package private(set) var pending: [String: Pending] = [:]

  private var entries: [String: Entry] = [:]
  private var groups: [GroupKey: Group] = [:]
  /// Groups in order of their newest member (oldest first), with stale entries left by moves.
  private var order: [OrderEntry] = []
  private var sequence = 0

  package init() {}

  // MARK: - Categories and badge

  /// Replaces every registered category, as `setNotificationCategories` does.
  package mutating func setCategories(_ newCategories: some Sequence<UNNotificationCategory>) {
    categories = [:]
    for category in newCategories { categories[category.identifier] = category }
  }

  /// The registered category with exactly this identifier (case-sensitive).
  package func category(_ identifier: String) -> UNNotificationCategory? {
    identifier.isEmpty ? nil : categories[identifier]
  }

  /// Sets the badge; negative values clear it.
  package mutating func setBadge(_ value: Int) { badge = max(0, value) }

  /// Applies a payload's badge: absent leaves it, 0 clears it, a number sets it.
  package mutating func applyBadge(of content: UNNotificationContent) {
    if let number = content.badge { setBadge(number.intValue) }
  }

  // MARK: - Delivered notifications

  /// How many notifications are delivered.
  package var deliveredCount: Int { entries.count }

  /// The delivered notification with this request identifier.
  package func delivered(_ id: String) -> UNNotification? { entries[id]?.notification }

  /// The group a notification belongs to.
  package static func groupKey(of notification: UNNotification) -> GroupKey {
    let request = notification.request
    return GroupKey(
      app: request.remote?.bundleIdentifier ?? "", thread: request.content.threadIdentifier)
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
    let key = group ?? Self.groupKey(of: notification)
    entries[id] = Entry(notification: notification, sequence: sequence, group: key)
    var group = groups[key] ?? Group()
    group.members.append(Member(id: id, sequence: sequence))
    group.liveCount += 1
    group.latestSequence = sequence
    groups[key] = group
    order.append(OrderEntry(sequence: sequence, key: key))
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
    guard var entry = entries[id] else { return false }
    guard Self.groupKey(of: notification) == entry.group else {
      deliver(notification)
      return true
    }
    entry.notification = notification
    entries[id] = entry
    return true
  }

  /// Removes delivered notifications; unknown identifiers are ignored, as on iOS.
  package mutating func removeDelivered(_ ids: some Sequence<String>) {
    for id in ids { removeEntry(id) }
    compactIfNeeded()
  }

  /// Removes every delivered notification.
  package mutating func removeAllDelivered() {
    entries = [:]
    groups = [:]
    order = []
  }

  /// Every delivered notification, newest first.
  package var deliveredNewestFirst: [UNNotification] {
    entries.values.sorted { $0.sequence > $1.sequence }.map(\.notification)
  }

  @discardableResult
  private mutating func removeEntry(_ id: String) -> UNNotification? {
    guard let entry = entries.removeValue(forKey: id) else { return nil }
    guard var group = groups[entry.group] else { return entry.notification }
    group.liveCount -= 1
    if group.liveCount == 0 {
      groups[entry.group] = nil
      return entry.notification
    }
    if group.latestSequence == entry.sequence {
      // The group now sorts by its newest remaining member.
      let newest = group.members.last { isLive($0) }?.sequence ?? 0
      group.latestSequence = newest
      // The member's own entry from its delivery may still be in `order` (sequences are
      // unique to a delivery): reuse it rather than add a second live entry for the group.
      let at = Self.lowerBound(order, newest, by: \.sequence)
      if at >= order.count || order[at].sequence != newest {
        order.insert(OrderEntry(sequence: newest, key: entry.group), at: at)
      }
    }
    groups[entry.group] = group
    compactMembers(entry.group)
    return entry.notification
  }

  private func isLive(_ member: Member) -> Bool { entries[member.id]?.sequence == member.sequence }

  private func isLive(_ entry: OrderEntry) -> Bool {
    groups[entry.key]?.latestSequence == entry.sequence
  }

  /// The first index whose sequence is not less than `value`, in an array sorted by sequence.
  private static func lowerBound<T>(_ array: [T], _ value: Int, by sequence: (T) -> Int) -> Int {
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
    if order.count > 2 * groups.count + 64 {
      order = order.filter { isLive($0) }
    }
  }

  private mutating func compactMembers(_ key: GroupKey) {
    guard var group = groups[key], group.members.count > 2 * group.liveCount + 64 else { return }
    group.members = group.members.filter { isLive($0) }
    groups[key] = group
  }

  // MARK: - Navigating groups (what the list view needs)

  /// The number of groups.
  package var groupCount: Int { groups.count }

  /// The position of a group's live entry in `order`.
  private func orderIndex(of key: GroupKey) -> Int? {
    guard let group = groups[key] else { return nil }
    let low = Self.lowerBound(order, group.latestSequence, by: \.sequence)
    return low < order.count && order[low].key == key ? low : nil
  }

  /// The group with the newest notification.
  package var newestGroup: GroupKey? {
    order.last { isLive($0) }?.key
  }

  /// The group with the oldest newest-notification (the list's last group).
  package var oldestGroup: GroupKey? {
    order.first { isLive($0) }?.key
  }

  /// The next older group after `key`.
  package func group(after key: GroupKey) -> GroupKey? {
    guard let index = orderIndex(of: key) else { return nil }
    var i = index - 1
    while i >= 0 {
      if isLive(order[i]) { return order[i].key }
      i -= 1
    }
    return nil
  }

  /// The next newer group before `key`.
  package func group(before key: GroupKey) -> GroupKey? {
    guard let index = orderIndex(of: key) else { return nil }
    var i = index + 1
    while i < order.count {
      if isLive(order[i]) { return order[i].key }
      i += 1
    }
    return nil
  }

  /// How many notifications a group holds.
  package func count(of key: GroupKey) -> Int { groups[key]?.liveCount ?? 0 }

  /// A group's newest notification.
  package func leading(of key: GroupKey) -> UNNotification? {
    guard let group = groups[key], let member = group.members.last(where: { isLive($0) }) else {
      return nil
    }
    return entries[member.id]?.notification
  }

  /// The group a delivered notification is in.
  package func groupKey(ofDelivered id: String) -> GroupKey? { entries[id]?.group }

  private func memberIndex(of id: String) -> (GroupKey, Int)? {
    guard let entry = entries[id], let group = groups[entry.group] else { return nil }
    let at = Self.lowerBound(group.members, entry.sequence, by: \.sequence)
    return at < group.members.count ? (entry.group, at) : nil
  }

  /// The next older notification in the same group.
  package func member(after id: String) -> UNNotification? {
    guard let (key, index) = memberIndex(of: id), let group = groups[key] else { return nil }
    var i = index - 1
    while i >= 0 {
      if isLive(group.members[i]) { return entries[group.members[i].id]?.notification }
      i -= 1
    }
    return nil
  }

  /// The next newer notification in the same group.
  package func member(before id: String) -> UNNotification? {
    guard let (key, index) = memberIndex(of: id), let group = groups[key] else { return nil }
    var i = index + 1
    while i < group.members.count {
      if isLive(group.members[i]) { return entries[group.members[i].id]?.notification }
      i += 1
    }
    return nil
  }

  /// A group's members, newest first, at most `limit` of them.
  package func members(of key: GroupKey, limit: Int = .max) -> [UNNotification] {
    guard let group = groups[key] else { return [] }
    var out: [UNNotification] = []
    var i = group.members.count - 1
    while i >= 0 && out.count < limit {
      if isLive(group.members[i]), let n = entries[group.members[i].id]?.notification {
        out.append(n)
      }
      i -= 1
    }
    return out
  }

  /// Where a notification sorts in the list: groups by their newest member, newest first, then
  /// members newest first. A smaller key comes first.
  package func listOrder(of id: String) -> (group: Int, member: Int)? {
    guard let entry = entries[id], let group = groups[entry.group] else { return nil }
    return (-group.latestSequence, -entry.sequence)
  }

  /// The number of notifications in the thread of `notification` (for `%u` placeholders).
  package func threadCount(of notification: UNNotification) -> Int {
    count(of: entries[notification.request.identifier]?.group ?? Self.groupKey(of: notification))
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
  package var nextFireDate: Date? { pending.values.map(\.fireDate).min() }

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
