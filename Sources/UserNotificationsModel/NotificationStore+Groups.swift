import Foundation

/// Navigating groups and their members: what the list view needs, each step O(log n) or
/// amortized O(1).
extension NotificationStore {
  /// The number of groups.
  package var groupCount: Int { groupSlots.count }

  /// The position of a group's live entry in `order`.
  private func orderIndex(of key: GroupKey) -> Int? {
    guard let slot = groupSlots[key], let group = groups[Int(slot)] else { return nil }
    let low = Self.lowerBound(order, group.latestSequence, by: \.sequence)
    return low < order.count && order[low].group == slot ? low : nil
  }

  private func key(of entry: OrderEntry) -> GroupKey? { groups[Int(entry.group)]?.key }

  /// The group with the newest notification.
  package var newestGroup: GroupKey? {
    order.last { isLive($0) }.flatMap(key(of:))
  }

  /// The group with the oldest newest-notification (the list's last group).
  package var oldestGroup: GroupKey? {
    order.first { isLive($0) }.flatMap(key(of:))
  }

  /// The next older group after `key`.
  package func group(after key: GroupKey) -> GroupKey? {
    guard let index = orderIndex(of: key) else { return nil }
    var i = index - 1
    while i >= 0 {
      if isLive(order[i]) { return self.key(of: order[i]) }
      i -= 1
    }
    return nil
  }

  /// The next newer group before `key`.
  package func group(before key: GroupKey) -> GroupKey? {
    guard let index = orderIndex(of: key) else { return nil }
    var i = index + 1
    while i < order.count {
      if isLive(order[i]) { return self.key(of: order[i]) }
      i += 1
    }
    return nil
  }

  private func group(_ key: GroupKey) -> Group? { groupSlots[key].flatMap { groups[Int($0)] } }

  /// How many notifications a group holds.
  package func count(of key: GroupKey) -> Int { group(key)?.liveCount ?? 0 }

  /// A group's newest notification.
  package func leading(of key: GroupKey) -> UNNotification? {
    guard let group = group(key), let member = group.members.last(where: { isLive($0) }) else {
      return nil
    }
    return records[Int(member.slot)].notification
  }

  /// The group a delivered notification is in.
  package func groupKey(ofDelivered id: String) -> GroupKey? {
    slot(of: id).flatMap { groups[Int(records[Int($0)].group)]?.key }
  }

  private func memberIndex(of id: String) -> (Group, Int)? {
    guard let slot = slot(of: id) else { return nil }
    let record = records[Int(slot)]
    guard let group = groups[Int(record.group)] else { return nil }
    let at = Self.lowerBound(group.members, record.sequence, by: \.sequence)
    return at < group.members.count ? (group, at) : nil
  }

  /// The next older notification in the same group.
  package func member(after id: String) -> UNNotification? {
    guard let (group, index) = memberIndex(of: id) else { return nil }
    var i = index - 1
    while i >= 0 {
      if isLive(group.members[i]) { return records[Int(group.members[i].slot)].notification }
      i -= 1
    }
    return nil
  }

  /// The next newer notification in the same group.
  package func member(before id: String) -> UNNotification? {
    guard let (group, index) = memberIndex(of: id) else { return nil }
    var i = index + 1
    while i < group.members.count {
      if isLive(group.members[i]) { return records[Int(group.members[i].slot)].notification }
      i += 1
    }
    return nil
  }

  /// A group's members, newest first, at most `limit` of them.
  package func members(of key: GroupKey, limit: Int = .max) -> [UNNotification] {
    guard let group = group(key) else { return [] }
    var out: [UNNotification] = []
    var i = group.members.count - 1
    while i >= 0 && out.count < limit {
      if isLive(group.members[i]), let n = records[Int(group.members[i].slot)].notification {
        out.append(n)
      }
      i -= 1
    }
    return out
  }

  /// Where a notification sorts in the list: groups by their newest member, newest first, then
  /// members newest first. A smaller key comes first.
  package func listOrder(of id: String) -> (group: Int, member: Int)? {
    guard let slot = slot(of: id) else { return nil }
    let record = records[Int(slot)]
    guard let group = groups[Int(record.group)] else { return nil }
    return (-group.latestSequence, -record.sequence)
  }

  /// The number of notifications in the thread of `notification` (for `%u` placeholders).
  package func threadCount(of notification: UNNotification) -> Int {
    count(of: groupKey(ofDelivered: notification.request.identifier) ?? groupKey(of: notification))
  }
}
