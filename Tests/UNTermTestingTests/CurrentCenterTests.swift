import Foundation
import Testing
import UNTermTesting
import UserNotifications

// App code shaped like real apps' notification files: it reaches the center only through
// `UNUserNotificationCenter.current()` and sets its delegate itself (issue 31.1–31.3).

/// Registers and posts as a feed reader does, from its own type, never given the center.
enum FeedNotifications {
  static let articleCategory = UNNotificationCategory(
    identifier: "NEW_ARTICLE",
    actions: [
      UNNotificationAction(identifier: "MARK_AS_READ", title: "Mark as Read", options: []),
      UNNotificationAction(identifier: "MARK_AS_STARRED", title: "Mark as Starred", options: []),
    ],
    intentIdentifiers: [], options: [])

  static func registerCategories() {
    UNUserNotificationCenter.current().setNotificationCategories([articleCategory])
  }

  static func post(article id: String, title: String, feed: String) {
    let content = UNMutableNotificationContent()
    content.title = feed
    content.body = title
    content.categoryIdentifier = "NEW_ARTICLE"
    content.threadIdentifier = feed
    let request = UNNotificationRequest(identifier: id, content: content, trigger: nil)
    UNUserNotificationCenter.current().add(request)
  }

  static func markRead(_ id: String) {
    UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: [id])
  }
}

/// A messenger's manager: it makes itself the delegate in its initializer and answers with the
/// `async` forms after some work of its own.
final class MessengerNotificationManager: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var _handled: [String] = []
  private var _presented: [String] = []
  var handled: [String] { lock.withLock { _handled } }
  var presented: [String] { lock.withLock { _presented } }

  override init() {
    super.init()
    UNUserNotificationCenter.current().delegate = self
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    try? await Task.sleep(nanoseconds: 40_000_000)
    lock.withLock { _presented.append(notification.request.identifier) }
    return [.banner, .list]
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {
    try? await Task.sleep(nanoseconds: 40_000_000)
    // The app's async code clears what it handled through `current()`.
    UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: [
      response.notification.request.identifier
    ])
    lock.withLock { _handled.append(response.actionIdentifier) }
  }
}

/// A delegate that never calls `didReceive`'s completion handler.
final class ForgetfulDelegate: NSObject, UNUserNotificationCenterDelegate {
  var received: [String] = []

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    received.append(response.actionIdentifier)
  }
}

/// A delegate that keeps `didReceive`'s completion handler for later and never gets to it.
final class HoardingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  var kept: [() -> Void] = []

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    kept.append(completionHandler)
  }
}

/// A service extension that reads the app's delivered notifications through `current()` from a
/// task of its own, as a chat app's extension counts unread messages for the badge.
final class BadgeCountingService: UNNotificationServiceExtension, @unchecked Sendable {
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let handler = UncheckedHandler(call: contentHandler)
    Task {
      let delivered = await UNUserNotificationCenter.current().deliveredNotifications()
      let content = request.content.mutableCopy() as! UNMutableNotificationContent
      content.badge = NSNumber(value: delivered.count + 1)
      handler.call(content)
    }
  }
}

struct UncheckedHandler: @unchecked Sendable {
  let call: (UNNotificationContent) -> Void
}

@Suite("The app's code reaches the harness through current()")
struct CurrentCenterTests {
  @Test func currentIsTheHarnessCenterInTheTestAndInTasksItStarts() async throws {
    let harness = UNTermHarness()
    #expect(UNUserNotificationCenter.current() === harness.notificationCenter)
    let fromTask = await Task { UNUserNotificationCenter.current() }.value
    #expect(fromTask === harness.notificationCenter)
    async let fromChild = UNUserNotificationCenter.current()
    #expect(await fromChild === harness.notificationCenter)
  }

  @Test func anAppRegistersPostsAndRemovesThroughCurrent() async throws {
    let harness = UNTermHarness(size: (columns: 60, rows: 16))
    FeedNotifications.registerCategories()
    FeedNotifications.post(article: "a1", title: "Swift 6.3 released", feed: "Swift.org")
    await harness.wait(0)
    #expect(harness.deliveredNotifications.map(\.request.identifier) == ["a1"])
    await harness.longPress()
    let screen = harness.screen
    #expect(screen.contains { $0.contains("Mark as Read") }, "\(screen.joined(separator: "\n"))")
    #expect(screen.contains { $0.contains("Mark as Starred") })
    await harness.key("esc")
    FeedNotifications.markRead("a1")
    await harness.wait(0)
    #expect(harness.deliveredNotifications.isEmpty)
  }

  @Test func aServiceExtensionsTaskReachesTheHarnessCenter() async throws {
    let harness = UNTermHarness()
    harness.serviceExtension = { BadgeCountingService() }
    try await harness.push(#"{"aps":{"alert":"One","mutable-content":1}}"#, as: "c1")
    try await harness.push(#"{"aps":{"alert":"Two","mutable-content":1}}"#, as: "c2")
    #expect(harness.notificationCenter.badgeCount == 2)
  }

  @Test func twoHarnessesInOneTestEachKeepTheirOwnApp() async throws {
    let first = UNTermHarness(bundleIdentifier: "com.example.first")
    let second = UNTermHarness(bundleIdentifier: "com.example.second")
    // The newest harness of the test is the app's center, as the app under test is the last made.
    #expect(UNUserNotificationCenter.current() === second.notificationCenter)
    FeedNotifications.post(article: "s1", title: "Second", feed: "Feed")
    await second.wait(0)
    #expect(second.deliveredNotifications.map(\.request.identifier) == ["s1"])
    #expect(first.deliveredNotifications.isEmpty)
  }
}

@Suite("A delegate set the iOS way is waited for")
struct DelegateWaitTests {
  private static let message = #"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"}}}"#

  @Test func aDelegateSetOnCurrentIsWaitedForAfterEachVerb() async throws {
    let harness = UNTermHarness()
    let manager = MessengerNotificationManager()
    #expect(harness.delegate === manager)
    try await harness.push(Self.message, as: "m1")
    await harness.tap()
    // No sleeping in the test: the verb returned after the async didReceive finished.
    #expect(manager.handled == [UNNotificationDefaultActionIdentifier])
    #expect(harness.deliveredNotifications.isEmpty)
    // The app is in the foreground now: willPresent is asked, and waited for.
    try await harness.push(Self.message, as: "m2")
    #expect(manager.presented == ["m2"])
    #expect(harness.screen.contains { $0.contains("Dinner at 8?") })
  }

  @Test func aDelegateSetOnTheCenterDirectlyIsWaitedFor() async throws {
    let harness = UNTermHarness()
    let manager = MessengerNotificationManager()
    harness.notificationCenter.delegate = manager
    try await harness.push(Self.message, as: "m1")
    await harness.tap()
    #expect(manager.handled == [UNNotificationDefaultActionIdentifier])
  }
}

@Suite("A completion handler that is never called is reported, not waited out")
struct UnansweredHandlerTests {
  private static let message = #"{"aps":{"alert":{"title":"Rocket","body":"New message in #general"}}}"#

  @Test func aHandlerLetGoUncalledIsReportedAtOnce() async throws {
    let harness = UNTermHarness()
    harness.patience = 30
    let delegate = ForgetfulDelegate()
    UNUserNotificationCenter.current().delegate = delegate
    try await harness.push(Self.message, as: "r1")
    await harness.tap()
    // Known at once, not after the patience (30 s): the pane says it was let go, not timed out.
    #expect(delegate.received == [UNNotificationDefaultActionIdentifier])
    #expect(
      harness.activity.contains(
        "Delegate: userNotificationCenter(_:didReceive:withCompletionHandler:) for r1 let go of its completion handler without calling it (iOS: delegate received call to -userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler: but the completion handler was never called); going on without it"
      ), "\(harness.activity)")
  }

  @Test func aHandlerKeptAndNeverCalledIsGivenUpOnceAfterThePatience() async throws {
    let harness = UNTermHarness()
    harness.patience = 1
    let delegate = HoardingDelegate()
    harness.delegate = delegate
    try await harness.push(Self.message, as: "r1")
    await harness.tap()
    #expect(harness.activity.contains { $0.contains("for r1 had not called its completion handler after 1 s") })
    // Given up once: the next verb neither waits for it nor reports it again.
    try await harness.push(Self.message, as: "r2")
    #expect(harness.activity.filter { $0.contains("for r1 ") }.count == 1)
    #expect(harness.notificationCenter.delegateCalls.waiting.isEmpty)
    #expect(delegate.kept.count == 1)
  }
}
