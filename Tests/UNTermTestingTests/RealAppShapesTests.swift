import Foundation
import Intents
import Testing
import UNTermTesting
import UserNotifications
import UserNotificationsUI

// Extensions shaped like real apps' (issue 31.4, 31.5): a social app's service extension that
// casts the communication update back with `as!`, and a reader's content extension that opens
// its article with `extensionContext?.open`.

/// Turns a mention into a communication notification and goes on changing the update.
final class MentionService: UNNotificationServiceExtension, @unchecked Sendable {
  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let content = request.content.mutableCopy() as! UNMutableNotificationContent
    let sender = INPerson(
      personHandle: INPersonHandle(value: "@ana@example.social", type: .unknown), nameComponents: nil,
      displayName: "Ana", image: nil, contactIdentifier: nil, customIdentifier: nil)
    let intent = INSendMessageIntent(
      recipients: nil, outgoingMessageType: .outgoingMessageText, content: content.body, speakableGroupName: nil,
      conversationIdentifier: nil, serviceName: nil, sender: sender, attachments: nil)
    do {
      let updated = try content.updating(from: intent) as! UNMutableNotificationContent
      updated.subtitle = "mentioned you"
      contentHandler(updated)
    } catch {
      contentHandler(content)
    }
  }
}

/// A reader's content extension: a button opens the article in the app.
final class ArticleViewController: UNNotificationContentViewController, UNNotificationContentExtension,
  @unchecked Sendable
{
  var article: URL?

  func didReceive(_ notification: UNNotification) {
    article = (notification.request.content.userInfo["url"] as? String).flatMap(URL.init(string:))
    view.elements = [.label(notification.request.content.body), .button(title: "Read", action: "read")]
  }

  override func buttonPressed(action: String) {
    guard action == "read", let article else { return }
    extensionContext?.open(article) { _ in }
  }
}

@Suite("Real apps' extension code")
struct RealAppShapesTests {
  @Test func aMutableContentsUpdateCastsBackBothWays() throws {
    let content = UNMutableNotificationContent()
    content.body = "@you look at this"
    let intent = INSendMessageIntent(
      recipients: nil, outgoingMessageType: .outgoingMessageText, content: nil, speakableGroupName: nil,
      conversationIdentifier: nil, serviceName: nil,
      sender: INPerson(
        personHandle: INPersonHandle(value: "ana", type: .unknown), nameComponents: nil, displayName: "Ana",
        image: nil, contactIdentifier: nil, customIdentifier: nil), attachments: nil)
    let forced = try content.updating(from: intent) as! UNMutableNotificationContent
    forced.title = "Changed after the update"
    #expect(forced.body == "@you look at this")
    let optional = try content.updating(from: intent) as? UNMutableNotificationContent
    #expect(optional != nil)
    // An immutable content's update stays immutable, as on iOS.
    let immutable = content.copy() as! UNNotificationContent
    #expect((try immutable.updating(from: intent) as? UNMutableNotificationContent) == nil)
  }

  @Test func aServiceExtensionThatCastsTheUpdateShowsTheSender() async throws {
    let harness = UNTermHarness(size: (columns: 60, rows: 16))
    harness.serviceExtension = { MentionService() }
    try await harness.push(#"{"aps":{"alert":{"body":"@you কেমন আছ?"},"mutable-content":1}}"#, as: "m1")
    let shown = try #require(harness.deliveredNotifications.first)
    #expect(shown.request.content.subtitle == "mentioned you")
    #expect(harness.screen.contains { $0.contains("Ana") }, "\(harness.screen.joined(separator: "\n"))")
    #expect(!harness.activity.contains { $0.contains("original content is shown") })
  }

  @Test func aContentExtensionOpensItsArticleInTheApp() async throws {
    let harness = UNTermHarness(size: (columns: 60, rows: 20))
    try harness.addContentExtension(categories: ["ARTICLE"], initialContentSizeRatio: 0.5) {
      ArticleViewController()
    }
    try await harness.push(
      #"{"aps":{"alert":{"title":"Wikipedia","body":"Today's featured article"},"category":"ARTICLE"},"url":"https://en.wikipedia.org/wiki/Ada_Lovelace"}"#,
      as: "w1")
    await harness.longPress()
    await harness.key("tab")
    await harness.key("enter")
    #expect(harness.openedURLs == [URL(string: "https://en.wikipedia.org/wiki/Ada_Lovelace")!])
    #expect(
      harness.activity.contains {
        $0.contains("w1: the content extension opened \"https://en.wikipedia.org/wiki/Ada_Lovelace\"")
      }, "\(harness.activity)")
    // The app opened: the expanded view is gone and no response reached the delegate.
    #expect(!harness.screen.contains { $0.contains("Read") })
    #expect(harness.responses.isEmpty)
  }
}
