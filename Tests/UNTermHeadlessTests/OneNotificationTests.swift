import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel
@testable import UserNotificationsUI

/// An expanded view is one notification (issue 10.5): when a newer notification of its thread
/// arrives, the extension's `didReceive(_:)` shows the newer content, so the whole view —
/// default content, actions, responses — moves to the newer request, and the header says so.
@Suite("An expanded view stays one notification", .serialized)
struct OneNotificationTests {
  private func chatSession() throws -> Session {
    let session = try Fixtures.session(size: (80, 40)) {
      $0.extensionFiles = [Fixtures.sample("extension-chat-card.json")]
    }
    try session.push(
      try Payload.load(Fixtures.sample("chat-thread.json"), categories: session.state.store.categories), identifier: "a"
    )
    return session
  }

  private func requests(_ session: Session) -> [String] { session.state.responses.map(\.requestIdentifier) }

  @Test func aNewerNotificationOfTheThreadTakesTheWholeDescribedView() throws {
    let session = try chatSession()
    var app: [String] = []
    session.onResponse = { response, _ in app.append(response.notification.request.identifier) }
    session.send(.command(.longPress))
    #expect(session.frame().grid.text.contains("Perfect — see you at the station"))
    #expect(!session.frame().grid.text.contains("↻ newer"))
    try session.push(
      try Payload.load(Fixtures.sample("cjk-emoji.json"), categories: session.state.store.categories), identifier: "b")
    let expanded = try #require(session.state.expanded)
    #expect(expanded.notification.request.identifier == "b")
    #expect(expanded.movedToNewer)
    let text = session.frame().grid.text
    #expect(text.contains("Messages · ↻ newer"))
    #expect(text.contains("田中さん"))  // the extension's view shows the newer content…
    #expect(!text.contains("Perfect — see you at the station"))  // …and nothing of the older
    // Its button and the system's actions answer for the request on screen.
    session.send(.key(.tab))
    session.send(.key(.enter))
    session.send(.command(.chooseAction("mute")))
    #expect(requests(session) == ["b", "b"])
    #expect(app == ["b", "b"])
    #expect(session.state.store.delivered("a") != nil)  // the older one is still in the list
  }

  /// A program extension that titles its view after the notification and forwards actions.
  final class ThreadProbe: UNNotificationContentViewController, UNNotificationContentExtension {
    nonisolated(unsafe) static var received: [String] = []

    func didReceive(_ notification: UNNotification) {
      Self.received.append(notification.request.content.body)
      title = "Probe: \(notification.request.content.title)"
      view.elements = [.label("Seen \(notification.request.content.body)")]
    }

    func didReceive(
      _ response: UNNotificationResponse,
      completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
      completion(.dismissAndForwardAction)
    }
  }

  @Test func aProgramExtensionFollowsTheThreadAndItsResponsesNameTheNewerRequest() throws {
    ThreadProbe.received = []
    let session = try Fixtures.session(size: (80, 40))
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(
          categories: ["chat"], initialContentSizeRatio: 0.5, overridesDefaultTitle: true),
        make: { ThreadProbe() }))
    var app: [String] = []
    session.onResponse = { response, _ in app.append(response.notification.request.identifier) }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Kenji","body":"hello"},"category":"chat","thread-id":"t1"}}"#, into: session, as: "a")
    session.send(.command(.longPress))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Mika","body":"again"},"category":"chat","thread-id":"t1"}}"#, into: session, as: "b")
    #expect(ThreadProbe.received == ["hello", "again"])
    #expect(session.state.expanded?.notification.request.identifier == "b")
    #expect(session.frame().grid.text.contains("Probe: Mika · ↻ newer"))
    #expect(session.frame().grid.text.contains("Seen again"))
    session.send(.command(.chooseAction("mute")))
    #expect(app == ["b"])
  }

  @Test func theSystemsViewHasNoExtensionToReloadAndStaysWithItsNotification() throws {
    let session = try Fixtures.session(size: (80, 40))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"First","body":"one"},"category":"message","thread-id":"t"}}"#, into: session, as: "a")
    session.send(.command(.longPress))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Second","body":"two"},"category":"message","thread-id":"t"}}"#, into: session, as: "b"
    )
    #expect(session.state.expanded?.notification.request.identifier == "a")
    #expect(!session.frame().grid.text.contains("↻"))
    session.send(.command(.chooseAction("like")))
    #expect(requests(session) == ["a"])
  }

  @Test func anotherCategoryOnTheThreadDoesNotReachTheExtension() throws {
    let session = try chatSession()
    session.send(.command(.longPress))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Other","body":"other"},"category":"message","thread-id":"chat-tanaka"}}"#,
      into: session, as: "c")
    #expect(session.state.expanded?.notification.request.identifier == "a")
    #expect(session.state.expanded?.movedToNewer == false)
  }
}

/// Every response the app gets is in the Responses pane and in `expect response`, exactly as
/// in `--log` (issue 10.6): a described view's button, a program's button, a dismiss, a tap
/// and a reply.
@Suite("Every response shows where responses are shown", .serialized)
struct ResponsesAgreeTests {
  /// A program extension whose button opens the app, as `performNotificationDefaultAction()`.
  final class OpensFromButton: UNNotificationContentViewController, UNNotificationContentExtension {
    func didReceive(_ notification: UNNotification) {
      view.elements = [.label("Open it?"), .button(title: "Open", action: "open")]
    }
    override func buttonPressed(action: String) { extensionContext?.performNotificationDefaultAction() }
  }

  private struct Seen: Equatable, CustomStringConvertible {
    var action: String
    var text: String?
    var request: String
    var description: String { "\(action)\(text.map { " “\($0)”" } ?? "")@\(request)" }
  }

  @Test func thePaneTheDelegateAndTheLogListTheSameResponses() throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("log.jsonl").path
    let session = try Fixtures.session(size: (100, 40)) {
      $0.extensionFiles = [Fixtures.sample("extension-chat-card.json")]
      $0.logFile = log
    }
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(
          categories: ["meeting-invite"], initialContentSizeRatio: 0.3, userInteractionEnabled: true),
        make: { OpensFromButton() }))
    let delegate = try #require(session.center.delegate as? RecordingDelegate)
    func load(_ name: String, as id: String) throws {
      try session.push(
        try Payload.load(Fixtures.sample(name), categories: session.state.store.categories), identifier: id)
      session.finishServiceExtensions(within: 5)
    }
    // A described view's button (Tab, Enter), then a reply from the same view.
    try load("chat-thread.json", as: "chat")
    session.send(.command(.longPress))
    session.send(.key(.tab))
    session.send(.key(.enter))
    session.send(.command(.chooseAction("chat-reply")))
    session.send(.command(.type("On my way")))
    session.send(.command(.send))
    // A program's button that opens the app.
    try load("meeting.json", as: "meet")
    session.send(.command(.longPress))
    session.send(.key(.tab))
    session.send(.key(.enter))
    session.send(.key(.character("h")))
    // A dismiss and a tap.
    try load("message.json", as: "msg")
    session.send(.command(.dismiss))
    try load("reminder-passive.json", as: "rem")
    session.send(.command(.openCenter))
    session.send(.command(.tap))

    let pane = session.state.responses.map {
      Seen(action: $0.actionIdentifier, text: $0.userText, request: $0.requestIdentifier)
    }
    let app = delegate.responses.map {
      Seen(
        action: $0.actionIdentifier, text: ($0 as? UNTextInputNotificationResponse)?.userText,
        request: $0.notification.request.identifier)
    }
    let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { line -> Seen in
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return Seen(
        action: object["actionIdentifier"] as? String ?? "?", text: object["userText"] as? String,
        request: object["requestIdentifier"] as? String ?? "?")
    }
    let expected = [
      Seen(action: "like-message", request: "chat"),
      Seen(action: "chat-reply", text: "On my way", request: "chat"),
      Seen(action: UNNotificationDefaultActionIdentifier, request: "meet"),
      Seen(action: UNNotificationDismissActionIdentifier, request: "msg"),
      Seen(action: UNNotificationDefaultActionIdentifier, request: "rem"),
    ]
    #expect(logged == expected, "the log: \(logged)")
    #expect(app == expected, "the delegate: \(app)")
    #expect(pane == expected, "the Responses pane: \(pane)")
  }

  /// The same through a script: `expect response` and the pane's line for a described button.
  @Test func aScriptSeesADescribedButtonsResponseInThePane() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("button.session").path
    let text = """
      \(Fixtures.sampleCategoriesScript)
      extension \(Fixtures.sample("extension-chat-card.json"))
      size 100x40
      push \(Fixtures.sample("chat-thread.json")) as chat-1
      longpress
      key tab
      key enter
      expect response like-message
      expect screen "✓ like-message · chat-1"
      """
    let script = try SessionScript.parse(text, file: path)
    let result = ScriptRunner(script: script, options: RunOptions()).run()
    #expect(result.passed, "\(result.report ?? "")")
  }
}
