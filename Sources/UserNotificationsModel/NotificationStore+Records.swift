import Foundation

/// How the store keeps delivered notifications: records in slots, groups of members, and the
/// order of the groups.
extension NotificationStore {
  /// A delivered notification: what its `UNNotification` and request hold, and where it
  /// sits. Records live in one array, a removed one's slot reused. The notification and request
  /// objects are made when asked for (`notification`): a list draws a few, and keeping them
  /// for every notification cost 112 bytes each, a dictionary entry keyed by the identifier
  /// 64 more (twice that while the table grew).
  struct Record {
    var identifier: String
    /// nil for a free slot.
    var content: UNNotificationContent?
    var trigger: UNNotificationTrigger?
    var remote: RemoteInfo?
    var date: Date
    /// The delivery's number: unique, increasing; -1 for a free slot.
    var sequence: Int
    /// The group's slot in `groups`.
    var group: Int32

    static var free: Record {
      Record(identifier: "", content: nil, trigger: nil, remote: nil, date: .distantPast, sequence: -1, group: -1)
    }

    init(
      identifier: String, content: UNNotificationContent?, trigger: UNNotificationTrigger?, remote: RemoteInfo?,
      date: Date, sequence: Int, group: Int32
    ) {
      self.identifier = identifier
      self.content = content
      self.trigger = trigger
      self.remote = remote
      self.date = date
      self.sequence = sequence
      self.group = group
    }

    init(_ notification: UNNotification, sequence: Int, group: Int32) {
      let request = notification.request
      self.init(
        identifier: request.identifier, content: request.content, trigger: request.trigger,
        remote: request.remote.map(RemoteInfo.init), date: notification.date, sequence: sequence, group: group)
    }

    /// The delivered notification, made anew (nil for a free slot).
    var notification: UNNotification? {
      guard let content else { return nil }
      let request = UNNotificationRequest(
        identifier: identifier, sharing: content, trigger: trigger, remote: remote?.info)
      return UNNotification(request: request, date: date)
    }
  }

  /// A remote notification's payload facts, boxed: most records have none.
  final class RemoteInfo {
    let info: UNRemotePayloadInfo
    init(_ info: UNRemotePayloadInfo) { self.info = info }
  }

  /// A group member: the record's slot and the delivery that put it there (a reused slot
  /// holds another delivery, so a member whose sequence no longer matches is stale).
  struct Member {
    var slot: Int32
    var sequence: Int
  }

  struct Group {
    var key: GroupKey
    /// Members in delivery order (oldest first), including stale ones left by removals.
    var members: [Member] = []
    var liveCount = 0
    var latestSequence = 0
  }

  struct OrderEntry {
    var sequence: Int
    /// The group's slot in `groups`.
    var group: Int32
  }
}
