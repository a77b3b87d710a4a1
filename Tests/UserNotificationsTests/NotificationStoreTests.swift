import Foundation
import Testing
import UNTermTestSupport

@testable import UserNotificationsModel

@Suite("Notification store grouping")
struct NotificationStoreTests {
  private func notification(_ id: String, thread: String = "", app: String? = nil) -> UNNotification {
    let content = UNMutableNotificationContent()
    content.title = id
    content.threadIdentifier = thread
    let request = UNNotificationRequest(
      identifier: id, content: content, trigger: nil,
      remote: app.map { UNRemotePayloadInfo(bundleIdentifier: $0) })
    return UNNotification(request: request, date: Date(timeIntervalSince1970: 0))
  }

  @Test func groupsByThreadAndByAppNewestFirst() {
    var store = NotificationStore()
    store.deliver(notification("a1", thread: "a"))
    store.deliver(notification("b1", thread: "b"))
    store.deliver(notification("n1"))
    store.deliver(notification("a2", thread: "a"))
    store.deliver(notification("x1", app: "com.example.Other"))
    store.deliver(notification("y1", thread: "a", app: "com.example.Other"))
    var keys: [NotificationStore.GroupKey] = []
    var key = store.newestGroup
    while let k = key {
      keys.append(k)
      key = store.group(after: k)
    }
    // Newest first: the other app's thread and its unthreaded one, then the default app's
    // thread a (a2 is its newest), its unthreaded n1, its thread b.
    #expect(
      keys.map(\.description) == [
        "com.example.Other/a", "com.example.Other", "com.example.app/a", "com.example.app", "com.example.app/b",
      ])
    #expect(store.leading(of: keys[2])?.request.identifier == "a2")
    #expect(store.count(of: keys[2]) == 2)
    #expect(store.members(of: keys[2]).map(\.request.identifier) == ["a2", "a1"])
    #expect(store.member(after: "a2")?.request.identifier == "a1")
    #expect(store.member(before: "a1")?.request.identifier == "a2")
  }

  @Test func removingTheNewestMemberReordersItsGroup() {
    var store = NotificationStore()
    store.deliver(notification("a1", thread: "a"))
    store.deliver(notification("b1", thread: "b"))
    store.deliver(notification("a2", thread: "a"))
    #expect(store.leading(of: store.newestGroup!)?.request.identifier == "a2")
    store.removeDelivered(["a2"])
    // Thread "a" now sorts by a1, older than b1.
    #expect(store.leading(of: store.newestGroup!)?.request.identifier == "b1")
    #expect(store.group(after: store.newestGroup!).flatMap { store.leading(of: $0) }?.request.identifier == "a1")
  }

  @Test func manyDeliveriesStayConsistent() {
    var store = NotificationStore()
    for i in 0..<5_000 {
      store.deliver(notification("n\(i)", thread: "t\(i % 37)"))
      if i % 3 == 0 { store.removeDelivered(["n\(i / 2)"]) }
      if i % 11 == 0 { store.deliver(notification("n\(i / 4)", thread: "t\(i % 5)")) }
    }
    var seen = 0
    var key = store.newestGroup
    var previousLatest = Int.max
    while let k = key {
      let members = store.members(of: k)
      #expect(members.count == store.count(of: k))
      seen += members.count
      let order = store.listOrder(of: members[0].request.identifier)!
      #expect(-order.group <= previousLatest)
      previousLatest = -order.group
      key = store.group(after: k)
    }
    #expect(seen == store.deliveredCount)
  }

  /// The store against a plain model (an array in delivery order, grouped by sorting) over
  /// random deliveries, replacements and removals: every question the list asks gets the
  /// model's answer. Slots, the identifier index and group slots are reused as notifications
  /// come and go, which is where a compact store could mix two notifications up.
  @Test func answersAsAPlainModelDoes() {
    let seed = TestSeed()
    var random = seed.generator
    var store = NotificationStore()
    // The model: delivered notifications, oldest first.
    var model: [UNNotification] = []
    let threads = ["", "a", "b", "c", "d"]
    for step in 0..<600 {
      let roll = Int.random(in: 0..<100, using: &random)
      if roll < 60 {
        let id = "n\(Int.random(in: 0..<80, using: &random))"
        let app = Int.random(in: 0..<4, using: &random) == 0 ? "com.example.Other" : nil
        let made = notification(id, thread: threads.randomElement(using: &random) ?? "", app: app)
        let replaced = store.deliver(made)
        #expect(same(replaced, model.first { $0.request.identifier == id }), "step \(step), \(seed)")
        model.removeAll { $0.request.identifier == id }
        model.append(made)
      } else if roll < 70 {
        // A reload: the same identifier, new content, where it stands (or, in another group,
        // as the newest delivery).
        let id = "n\(Int.random(in: 0..<80, using: &random))"
        let made = notification(id, thread: threads.randomElement(using: &random) ?? "")
        let at = model.firstIndex { $0.request.identifier == id }
        #expect(store.replaceDelivered(made) == (at != nil), "step \(step), \(seed)")
        if let at {
          if store.groupKey(of: model[at]) == store.groupKey(of: made) {
            model[at] = made
          } else {
            model.remove(at: at)
            model.append(made)
          }
        }
      } else if roll < 98 {
        let ids = (0..<Int.random(in: 1...3, using: &random)).map { _ in "n\(Int.random(in: 0..<80, using: &random))" }
        store.removeDelivered(ids)
        model.removeAll { ids.contains($0.request.identifier) }
      } else {
        store.removeAllDelivered()
        model.removeAll()
      }
      check(store, against: model, "step \(step), \(seed)")
    }
  }

  /// What tells two deliveries apart: the store makes its `UNNotification` objects anew when
  /// asked, sharing the delivered request's content object, so the identifier, that content
  /// object and the date name one delivery.
  private static func identity(_ n: UNNotification) -> String {
    "\(n.request.identifier) \(ObjectIdentifier(n.request.content).hashValue) \(n.date.timeIntervalSince1970)"
  }

  private func same(_ a: UNNotification?, _ b: UNNotification?) -> Bool { a.map(Self.identity) == b.map(Self.identity) }

  private func check(_ store: NotificationStore, against model: [UNNotification], _ context: String) {
    let key = store.groupKey(of:)
    // Groups by their newest member, newest first; members newest first.
    var groups: [(key: NotificationStore.GroupKey, members: [UNNotification])] = []
    for n in model.reversed() {
      if let at = groups.firstIndex(where: { $0.key == key(n) }) {
        groups[at].members.append(n)
      } else {
        groups.append((key(n), [n]))
      }
    }
    #expect(store.deliveredCount == model.count, "\(context)")
    #expect(store.groupCount == groups.count, "\(context)")
    #expect(store.deliveredNewestFirst.map(Self.identity) == model.reversed().map(Self.identity), "\(context)")
    var keys: [NotificationStore.GroupKey] = []
    var next = store.newestGroup
    while let k = next, keys.count <= groups.count {
      keys.append(k)
      next = store.group(after: k)
    }
    #expect(keys == groups.map(\.key), "\(context)")
    var backwards: [NotificationStore.GroupKey] = []
    next = store.oldestGroup
    while let k = next, backwards.count <= groups.count {
      backwards.append(k)
      next = store.group(before: k)
    }
    #expect(backwards == groups.map(\.key).reversed(), "\(context)")
    for group in groups {
      let ids = group.members.map(\.request.identifier)
      #expect(store.count(of: group.key) == ids.count, "\(context)")
      #expect(same(store.leading(of: group.key), group.members.first), "\(context)")
      #expect(store.members(of: group.key).map(\.request.identifier) == ids, "\(context)")
      #expect(store.members(of: group.key, limit: 2).map(\.request.identifier) == Array(ids.prefix(2)), "\(context)")
      for (i, n) in group.members.enumerated() {
        let id = n.request.identifier
        #expect(same(store.delivered(id), n), "\(context)")
        #expect(store.groupKey(ofDelivered: id) == group.key, "\(context)")
        #expect(same(store.member(after: id), i + 1 < ids.count ? group.members[i + 1] : nil), "\(context)")
        #expect(same(store.member(before: id), i > 0 ? group.members[i - 1] : nil), "\(context)")
      }
    }
    // listOrder sorts the whole list as the groups and members above.
    let listed = model.sorted {
      let a = store.listOrder(of: $0.request.identifier)!
      let b = store.listOrder(of: $1.request.identifier)!
      return a.group != b.group ? a.group < b.group : a.member < b.member
    }
    #expect(listed.map(Self.identity) == groups.flatMap(\.members).map(Self.identity), "\(context)")
    for i in 0..<80 where !model.contains(where: { $0.request.identifier == "n\(i)" }) {
      #expect(store.delivered("n\(i)") == nil, "\(context)")
      #expect(store.listOrder(of: "n\(i)") == nil, "\(context)")
    }
  }
}
