import Foundation
import Testing
import UNTermTesting
import UserNotifications

/// An app delegate as most apps write it: on the main actor, with the `async` forms.
@MainActor
final class MainActorDelegate: NSObject, UNUserNotificationCenterDelegate {
  var presented: [String] = []
  var answered: [String] = []

  nonisolated func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    let id = notification.request.identifier
    await MainActor.run { presented.append(id) }
    return [.banner, .list]
  }

  nonisolated func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {
    let answer = (response as? UNTextInputNotificationResponse).map { "\(response.actionIdentifier): \($0.userText)" }
    let id = response.actionIdentifier
    // Some work away from the main actor first, as an app saving the reply would do.
    try? await Task.sleep(nanoseconds: 20_000_000)
    await MainActor.run { answered.append(answer ?? id) }
  }
}

/// Answers its content a while later, on another thread, as a service extension that downloads.
final class SlowService: UNNotificationServiceExtension, @unchecked Sendable {
  override func didReceive(_ request: UNNotificationRequest) async -> UNNotificationContent {
    try? await Task.sleep(nanoseconds: 50_000_000)
    let content = UNMutableNotificationContent()
    content.title = "Downloaded"
    content.body = request.content.body
    return content
  }
}

@Suite("UNTermHarness")
struct HarnessTests {
  private static let reply = UNNotificationCategory(
    identifier: "MESSAGE",
    actions: [
      UNTextInputNotificationAction(
        identifier: "REPLY", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "…")
    ],
    intentIdentifiers: [])

  @Test func eachVerbWaitsForTheAppsAsyncAnswer() async throws {
    let harness = UNTermHarness(device: .iphone, size: (columns: 80, rows: 24))
    let delegate = await MainActorDelegate()
    harness.delegate = delegate
    harness.registerCategories([Self.reply])
    // A notification reaches `willPresent` only while the app is in the foreground.
    try await harness.push(#"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"},"category":"MESSAGE"}}"#)
    await harness.tap()
    try await harness.push(#"{"aps":{"alert":{"title":"Kenji","body":"কেমন আছ?"},"category":"MESSAGE"}}"#, as: "k")
    #expect(await delegate.presented == ["k"])
    #expect(harness.screen.contains { $0.contains("কেমন আছ?") }, "\(harness.screen.joined(separator: "\n"))")
    await harness.longPress()
    await harness.chooseAction("REPLY")
    await harness.type("بالکل")
    await harness.send()
    #expect(await delegate.answered == [UNNotificationDefaultActionIdentifier, "REPLY: بالکل"])
    #expect(harness.responses.map(\.actionIdentifier) == [UNNotificationDefaultActionIdentifier, "REPLY"])
    #expect((harness.responses.last as? UNTextInputNotificationResponse)?.userText == "بالکل")
  }

  @Test func theHarnessIsOneAppAndTellsWhoseEachNotificationIs() async throws {
    let harness = UNTermHarness(bundleIdentifier: "com.t.mine")
    harness.registerCategories([Self.reply])
    let message = #"{"aps":{"alert":{"title":"Ana","body":"Hi"},"category":"MESSAGE"}}"#
    try await harness.push(message, as: "own")
    try await harness.push(message, as: "theirs", bundle: "com.t.other")
    let byID = Dictionary(uniqueKeysWithValues: harness.deliveredNotifications.map { ($0.request.identifier, $0) })
    #expect(try harness.app(of: #require(byID["own"])) == "com.t.mine")
    #expect(try harness.app(of: #require(byID["theirs"])) == "com.t.other")
    // The category is the harness app's only: the activity pane says so for the other app's push.
    #expect(
      harness.activity.filter { $0.contains(#"category "MESSAGE" is not registered for app "com.t.other""#) }.count
        == 1, "\(harness.activity)")
  }

  /// Every app has its own badge: the app's center reads and sets the harness app's, and
  /// `badge(of:)` reads any app's.
  @Test func eachAppHasItsOwnBadge() async throws {
    let harness = UNTermHarness(bundleIdentifier: "com.t.mine")
    try await harness.push(#"{"aps":{"alert":"Mine","badge":5}}"#)
    try await harness.push(#"{"aps":{"alert":"Theirs","badge":9}}"#, bundle: "com.t.other")
    #expect(harness.badge(of: "com.t.mine") == 5)
    #expect(harness.badge(of: "com.t.other") == 9)
    #expect(harness.notificationCenter.badgeCount == 5)
    try await harness.notificationCenter.setBadgeCount(0)
    #expect(harness.badge(of: "com.t.mine") == 0)
    #expect(harness.badge(of: "com.t.other") == 9)
    #expect(harness.screen.last == " iPhone · Unlocked · Other badge 9 │ Space actions  ⏎ open  x clear  ? keys")
  }

  @Test func aPushWaitsForTheServiceExtension() async throws {
    let harness = UNTermHarness()
    harness.serviceExtension = { SlowService() }
    try await harness.push(#"{"aps":{"alert":{"title":"Episode","body":"42"},"mutable-content":1}}"#)
    #expect(harness.deliveredNotifications.map(\.request.content.title) == ["Downloaded"])
    #expect(harness.screen.contains { $0.contains("Downloaded") })
  }

  @Test func theClockIsVirtual() async throws {
    let harness = UNTermHarness()
    let content = UNMutableNotificationContent()
    content.title = "Stand up"
    content.body = "Time to move"
    try await harness.notificationCenter.add(
      UNNotificationRequest(
        identifier: "stand", content: content,
        trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
    await harness.wait(60)
    #expect(harness.deliveredNotifications.isEmpty)
    await harness.wait(3600)
    #expect(harness.deliveredNotifications.map(\.request.identifier) == ["stand"])
  }

  /// A key name that is no key presses nothing and says so in the activity pane; the methods
  /// that act as the user never throw, and the initializer neither (it loads no file), so a
  /// test written without `try` for them compiles.
  @Test func aKeyNameThatIsNoKeyPressesNothingAndSaysSo() async throws {
    let harness = UNTermHarness()
    try await harness.push(#"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"}}}"#)
    // The banner's side of the screen (the activity pane beside it gains the notice).
    func card() -> [String] {
      harness.screen.map {
        String($0.prefix(46)).replacingOccurrences(of: #" +$"#, with: "", options: .regularExpression)
      }
    }
    let before = card()
    await harness.key("nonsense")
    #expect(card() == before)
    #expect(
      harness.activity.first?.hasPrefix("key(\"nonsense\") pressed nothing: not a key name (enter esc space tab")
        == true,
      "\(harness.activity)")
    await harness.key("ESC")
    #expect(card() != before)
  }

  @Test func badInputIsAFailureThatSaysWhy() async throws {
    let harness = UNTermHarness()
    await #expect(throws: UNTermHarness.Failure.self) { try await harness.push("{not json") }
    #expect(throws: UNTermHarness.Failure.self) {
      try harness.loadCategories(from: URL(fileURLWithPath: "/nonexistent/categories.json"))
    }
  }
}
