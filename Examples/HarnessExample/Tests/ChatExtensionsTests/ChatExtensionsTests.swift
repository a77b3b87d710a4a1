import ChatExtensions
import Foundation
import Testing
import UNTermTesting
import UserNotifications

/// The chat app's notification code, tested in UNTerm's emulated center as a user would use it.
@Suite("Chat notifications")
struct ChatExtensionsTests {
  private func harness() throws -> UNTermHarness {
    let harness = UNTermHarness(device: .iphone, size: (columns: 80, rows: 30))
    harness.registerCategories([ChatCategories.message])
    return harness
  }

  @Test func aReplyReachesTheOutbox() async throws {
    let harness = try harness()
    let delegate = ChatDelegate()
    harness.delegate = delegate
    try await harness.push(
      #"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"},"category":"MESSAGE","thread-id":"ana"}}"#)
    #expect(harness.screen.contains { $0.contains("Dinner at 8?") })
    await harness.longPress()
    await harness.chooseAction("REPLY")
    await harness.type("See you there")
    await harness.send()
    let reply = try #require(harness.responses.last as? UNTextInputNotificationResponse)
    #expect(reply.actionIdentifier == "REPLY")
    #expect(reply.userText == "See you there")
    #expect(delegate.outbox.map(\.conversation) == ["ana"])
    #expect(delegate.outbox.map(\.text) == ["See you there"])
    // A response removes the notification from the list.
    #expect(harness.deliveredNotifications.isEmpty)
  }

  @Test func theLikeButtonCountsAndTheViewGrows() async throws {
    let harness = try harness()
    try harness.addContentExtension(categories: ["MESSAGE"], initialContentSizeRatio: 0.25) {
      LikeViewController()
    }
    try await harness.push(#"{"aps":{"alert":{"title":"Ana","body":"Look at this"},"category":"MESSAGE"}}"#)
    await harness.longPress()
    #expect(harness.screen.contains { $0.contains("♥ 0") })
    // Tab reaches the view's button, Enter presses it.
    await harness.key("tab")
    await harness.key("enter")
    #expect(harness.screen.contains { $0.contains("♥ 1") }, "\(harness.screen.joined(separator: "\n"))")
    #expect(harness.screen.contains { $0.contains("You liked this") })
    // The category's Like action is answered by the view, which stays open.
    await harness.chooseAction("LIKE")
    #expect(harness.screen.contains { $0.contains("♥ 2") })
    #expect(harness.responses.isEmpty)
    // An iPhone notification is 359 pt wide: × 0.25 is 89.75 pt while loading, kept until the
    // view asks for 120 pt, which the 320 pt budget holds.
    let heights = harness.extensionHeights
    #expect(heights.first?.initialHeight == 89.75)
    #expect(heights.first?.preferredHeight == 89.75)
    #expect(heights.last?.preferredHeight == 120)
    #expect(heights.allSatisfy { $0.budget == 320 && $0.overflow == 0 })
  }

  @Test func theServiceExtensionAttachesThePhoto() async throws {
    let harness = try harness()
    harness.serviceExtension = { PhotoService() }
    let photo = try #require(Bundle.module.url(forResource: "ana", withExtension: "png", subdirectory: "Fixtures"))
    try await harness.push(
      #"{"aps":{"alert":{"title":"Ana","body":"New photo"},"mutable-content":1},"photo":"\#(photo.path)"}"#,
      as: "photo-1")
    let shown = try #require(harness.deliveredNotifications.first)
    #expect(shown.request.identifier == "photo-1")
    #expect(shown.request.content.subtitle == "Photo")
    #expect(shown.request.content.attachments.map(\.type) == ["public.png"])
    #expect(harness.screen.contains { $0.contains("Photo") })
  }
}
