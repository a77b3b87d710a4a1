import Foundation
import Testing
import UNTermTesting
import UserNotifications
import UserNotificationsUI

/// A delegate that answers `willPresent` with fixed options and records every response.
final class PresentingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
  private let options: UNNotificationPresentationOptions
  private let lock = NSLock()
  private var asked = 0
  private var received: [UNNotificationResponse] = []
  var presentations: Int { lock.withLock { asked } }
  var responses: [UNNotificationResponse] { lock.withLock { received } }

  init(_ options: UNNotificationPresentationOptions) { self.options = options }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
  ) {
    lock.withLock { asked += 1 }
    completionHandler(options)
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void
  ) {
    lock.withLock { received.append(response) }
    completionHandler()
  }
}

/// A content extension that handles actions with a fixed answer and counts what it saw.
final class AnsweringCard: UNNotificationContentViewController, UNNotificationContentExtension {
  nonisolated(unsafe) static var answer: UNNotificationContentExtensionResponseOption = .doNotDismiss
  nonisolated(unsafe) static var seen: [String] = []

  func didReceive(_ notification: UNNotification) {
    view.elements = [.label("Card: " + notification.request.content.body, style: .body)]
  }

  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    Self.seen.append(response.actionIdentifier)
    completion(Self.answer)
  }
}

/// The edges of the reference's numbered facts, through the testing API an app's tests use:
/// the byte just over a limit, each `willPresent` answer, each content-extension answer.
@Suite("Apple's facts at their edges, through UNTermHarness", .serialized)
struct FactEdgesHarnessTests {
  /// A payload of exactly `bytes` bytes (its apns-headers member not counted), padded with a
  /// two-byte letter where it fits, so the count is of UTF-8 bytes, not characters.
  private static func payload(bytes: Int, headers: String = "") -> String {
    let frame = #"{"aps":{"alert":{"title":"T","body":""}}}"#
    var pad = String(repeating: "ই", count: (bytes - frame.utf8.count) / 3)
    pad += String(repeating: "a", count: bytes - frame.utf8.count - pad.utf8.count)
    let body = #"{"aps":{"alert":{"title":"T","body":""# + pad + #""}}"#
    return body + (headers.isEmpty ? "" : "," + headers) + "}"
  }

  /// Fact 1: 4096 bytes pass and 4097 are refused (413 PayloadTooLarge); a VoIP push may
  /// be 5120 bytes, not 5121. The apns-headers member is not part of the payload.
  @Test(arguments: [
    (4096, "", true), (4097, "", false),
    (5120, #""apns-headers":{"apns-push-type":"voip"}"#, true),
    (5121, #""apns-headers":{"apns-push-type":"voip"}"#, false),
    (4096, #""apns-headers":{"apns-push-type":"alert","apns-priority":10}"#, true),
  ])
  func payloadSizeLimits(bytes: Int, headers: String, accepted: Bool) async throws {
    let harness = UNTermHarness()
    let text = Self.payload(bytes: bytes, headers: headers)
    if accepted {
      try await harness.push(text)
    } else {
      let error = await #expect(throws: UNTermHarness.Failure.self) { try await harness.push(text) }
      #expect(error?.description.contains("\(bytes) bytes") == true, "\(String(describing: error))")
      #expect(error?.description.contains("PayloadTooLarge") == true)
      #expect(harness.deliveredNotifications.isEmpty)
    }
  }

  /// Fact 11: in the foreground `willPresent` decides: `[]` shows nothing, `.banner` alone a
  /// banner that is not kept, `.list` alone a listed notification with no banner,
  /// `[.banner, .list]` both, and `.badge` alone only the badge.
  @Test(
    arguments: [
      ([], false, false, 0),
      ([.banner], true, false, 0),
      ([.list], false, true, 0),
      ([.banner, .list], true, true, 0),
      ([.badge], false, false, 4),
    ] as [(UNNotificationPresentationOptions, Bool, Bool, Int)])
  func willPresentDecidesInTheForeground(
    options: UNNotificationPresentationOptions, banner: Bool, listed: Bool, badge: Int
  ) async throws {
    let harness = UNTermHarness()
    let delegate = PresentingDelegate(options)
    harness.delegate = delegate
    try await harness.push(#"{"aps":{"alert":"opens the app"}}"#)
    await harness.tap()
    try await harness.push(#"{"aps":{"alert":"While open","badge":4}}"#, as: "fg")
    #expect(delegate.presentations == 1)
    #expect(
      harness.screen.contains { $0.contains("While open") } == banner, "\(harness.screen.joined(separator: "\n"))")
    #expect(harness.deliveredNotifications.map(\.request.identifier).contains("fg") == listed)
    #expect(harness.badge(of: "com.example.app") == badge)
  }

  /// Fact 17: an extension that handles actions gets them; `.doNotDismiss` keeps its view,
  /// `.dismiss` closes it and the app hears nothing, `.dismissAndForwardAction` closes it and
  /// the app's delegate gets the action once.
  @Test(arguments: [
    (UNNotificationContentExtensionResponseOption.doNotDismiss, true, [String]()),
    (.dismiss, false, []),
    (.dismissAndForwardAction, false, ["like"]),
  ])
  func theExtensionsAnswerDecides(
    answer: UNNotificationContentExtensionResponseOption, viewStays: Bool, appGets: [String]
  ) async throws {
    AnsweringCard.answer = answer
    AnsweringCard.seen = []
    let harness = UNTermHarness(size: (columns: 80, rows: 30))
    let delegate = PresentingDelegate([.banner, .list])
    harness.delegate = delegate
    harness.registerCategories([
      UNNotificationCategory(
        identifier: "post", actions: [UNNotificationAction(identifier: "like", title: "Like")], intentIdentifiers: [])
    ])
    try harness.addContentExtension(categories: ["post"], initialContentSizeRatio: 0.5) { AnsweringCard() }
    try await harness.push(#"{"aps":{"alert":{"title":"Photo","body":"Porto at dusk"},"category":"post"}}"#)
    await harness.longPress()
    await harness.chooseAction("like")
    #expect(AnsweringCard.seen == ["like"])
    #expect(harness.screen.contains { $0.contains("Card: Porto at dusk") } == viewStays)
    #expect(delegate.responses.map(\.actionIdentifier) == appGets)
    #expect(harness.responses.map(\.actionIdentifier) == appGets)
  }

  /// Fact 9: with `customDismissAction`, flicking the banner away (Esc) or letting it time out
  /// says nothing and keeps the notification listed; clearing it from the list says dismiss
  /// once and removes it (two threads, so `x` clears one card, not a stack).
  @Test func onlyAnExplicitClearSaysDismiss() async throws {
    let harness = UNTermHarness()
    harness.registerCategories([
      UNNotificationCategory(identifier: "chat", actions: [], intentIdentifiers: [], options: [.customDismissAction])
    ])
    try await harness.push(#"{"aps":{"alert":"flicked","category":"chat","thread-id":"one"}}"#, as: "flicked")
    await harness.key("esc")
    try await harness.push(#"{"aps":{"alert":"ignored","category":"chat","thread-id":"two"}}"#, as: "ignored")
    await harness.wait(60)
    #expect(harness.responses.isEmpty)
    #expect(harness.deliveredNotifications.map(\.request.identifier) == ["ignored", "flicked"])
    await harness.key("c")
    await harness.key("x")
    #expect(harness.responses.map(\.actionIdentifier) == [UNNotificationDismissActionIdentifier])
    #expect(harness.responses.map(\.notification.request.identifier) == ["ignored"])
    #expect(harness.deliveredNotifications.map(\.request.identifier) == ["flicked"])
  }

  /// Fact 21: an attachment at the limit (decimal megabytes) is accepted and delivered; one
  /// byte more, an unsupported type or a remote URL throws and nothing is scheduled.
  @Test func attachmentLimitsAreExact() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-facts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String, bytes: Int) throws -> URL {
      let url = folder.appendingPathComponent(name)
      #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: UInt64(bytes))
      try handle.close()
      return url
    }
    for (name, bytes, accepted) in [
      ("a.mp3", 5_000_000, true), ("b.mp3", 5_000_001, false), ("c.png", 10_000_000, true),
      ("d.png", 10_000_001, false), ("e.mp4", 50_000_001, false), ("f.xyz", 10, false),
    ] {
      let url = try file(name, bytes: bytes)
      let attachment = try? UNNotificationAttachment(identifier: name, url: url, options: nil)
      #expect((attachment != nil) == accepted, "\(name) \(bytes)")
      guard let attachment else { continue }
      let harness = UNTermHarness()
      let content = UNMutableNotificationContent()
      content.body = name
      content.attachments = [attachment]
      try await harness.notificationCenter.add(UNNotificationRequest(identifier: name, content: content, trigger: nil))
      #expect(harness.deliveredNotifications.map(\.request.identifier) == [name])
    }
    for remote in ["https://example.com/a.png", "data:image/png;base64,AAAA"] {
      let url = try #require(URL(string: remote))
      #expect(throws: (any Error).self) { try UNNotificationAttachment(identifier: "r", url: url, options: nil) }
    }
  }

  /// Fact 22: a repeating interval is refused under 60 s (59.999 too) and taken at 60 s; a
  /// request with a delivered notification's identifier replaces it and moves it to the top.
  @Test func repeatingIntervalsAndReplacement() async throws {
    let harness = UNTermHarness()
    let center = harness.notificationCenter
    let content = UNMutableNotificationContent()
    content.body = "again"
    for (interval, accepted) in [(59.999, false), (60.0, true)] {
      let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: true)
      let request = UNNotificationRequest(identifier: "every-\(interval)", content: content, trigger: trigger)
      if accepted {
        try await center.add(request)
      } else {
        await #expect(throws: (any Error).self) { try await center.add(request) }
      }
    }
    #expect(await center.pendingNotificationRequests().map(\.identifier) == ["every-60.0"])
    try await harness.push(#"{"aps":{"alert":"first"}}"#, as: "a")
    await harness.wait(1)
    try await harness.push(#"{"aps":{"alert":"second"}}"#, as: "b")
    await harness.wait(1)
    let replacement = UNMutableNotificationContent()
    replacement.body = "first, again"
    try await center.add(UNNotificationRequest(identifier: "a", content: replacement, trigger: nil))
    #expect(harness.deliveredNotifications.map(\.request.content.body) == ["first, again", "second"])
  }
}
