import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UserNotificationsModel
@testable import UserNotificationsUI

@Suite("Content extensions", .hangGuard)
struct ContentExtensionTests {
  private func descriptor(_ json: String, file: String = "/tmp/ext.json") -> (ContentExtensionDescriptor?, [Diagnostic])
  {
    ContentExtensionDescriptor.analyze(Array(json.utf8), file: file)
  }

  @Test func readsAttributesFromJSONAndFromAnInfoPlist() throws {
    let (json, _) = descriptor(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"chat","UNNotificationExtensionInitialContentSizeRatio":0.5,"UNNotificationExtensionUserInteractionEnabled":true},"view":{"elements":[]}}"#
    )
    #expect(
      json?.attributes
        == ContentExtensionAttributes(categories: ["chat"], initialContentSizeRatio: 0.5, userInteractionEnabled: true))
    let (plist, _) = try ContentExtensionDescriptor.load(Fixtures.sample("extension-chat-card.json"))
    #expect(plist.attributes.categories == ["chat"])
    #expect(plist.attributes.initialContentSizeRatio == 0.5)
    #expect(plist.attributes.defaultContentHidden)
    #expect(!plist.attributes.overridesDefaultTitle)
    #expect(plist.attributes.userInteractionEnabled)
    let (bare, _) = try ContentExtensionDescriptor.load(Fixtures.sample("ChatExtension/Info.plist"))
    #expect(!bare.hasView)
  }

  /// The Info.plist a descriptor names is an input file: missing, it is exit 66 (as a missing
  /// descriptor is), not 65, for render and every command that loads one.
  @Test func aMissingInfoPlistIsAMissingFile() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("ext.json").path
    try Data(#"{"infoPlist":"Gone/Info.plist"}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: UNTermError.self) { try ContentExtensionDescriptor.load(path) }
    do {
      _ = try ContentExtensionDescriptor.load(path)
    } catch {
      #expect(error.exitCode == .noInput)
      #expect(error.line.text == "\(path):1:2: error: \(dir.path)/Gone/Info.plist: no such file [infoPlist]")
    }
    let render = try Fixtures.run(
      Fixtures.unterm, ["render", "--extension", path, Fixtures.sample("message.json")])
    #expect(render.status == 66, "\(render.stderr)")
  }

  @Test(arguments: [
    (#"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a"}}"#, "missing-key"),
    (
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":5,"UNNotificationExtensionInitialContentSizeRatio":1}}"#,
      "type-mismatch"
    ),
    (
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a","UNNotificationExtensionInitialContentSizeRatio":0}}"#,
      "number-out-of-range"
    ),
    (
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a","UNNotificationExtensionInitialContentSizeRatio":1,"UNNotificationExtensionDefaultContentHidden":"yes"}}"#,
      "type-mismatch"
    ),
    (
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a","UNNotificationExtensionInitialContentSizeRatio":1},"view":{"elements":[{"label":"x","style":"huge"}]}}"#,
      "invalid-value"
    ),
    (
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a","UNNotificationExtensionInitialContentSizeRatio":1},"view":{"elements":[{"wobble":1}]}}"#,
      "invalid-element"
    ),
    (#"{"view":{}}"#, "missing-key"),
  ])
  func rejectsBadDescriptors(json: String, code: String) {
    let (_, diagnostics) = descriptor(json)
    #expect(
      diagnostics.contains { $0.severity == .error && $0.code.rawValue == code }, "\(diagnostics.map(\.formatted))")
  }

  @Test func warnsAboutButtonsThatCannotBePressedAndUnknownTemplates() {
    let (_, diagnostics) = descriptor(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"a","UNNotificationExtensionInitialContentSizeRatio":1},"view":{"elements":[{"button":"Go","action":"go"},{"label":"{{titel}}"}]}}"#
    )
    #expect(diagnostics.map(\.code.rawValue).contains("button-not-interactive"))
    #expect(
      diagnostics.first { $0.code == .templateUnknownField }?.message.text.contains("Did you mean {{title}}?") == true)
  }

  @Test func twoExtensionsClaimingOneCategoryIsAnError() throws {
    do {
      _ = try Fixtures.session {
        $0.extensionFiles = [Fixtures.sample("extension-chat-card.json"), Fixtures.sample("ChatExtension/Info.plist")]
      }
      Issue.record("expected an error")
    } catch let error as UNTermError {
      #expect(error.exitCode == .dataError)
      #expect(error.message.contains("category \"chat\" is already served by"))
    }
  }

  /// The QA numbers, computed by hand.
  ///
  /// Media card on iPhone (41 columns): image 200 + headline 22 + body 3 lines × 22 = 66 +
  /// spacer 8 + progress 20 + credits in footnote, 2 lines × 18 = 36 → 352 pt; 32 pt over the
  /// 320 pt budget; the credits label is cut. Initial 359 × 0.75 = 269.25 pt, not rounded.
  /// On iPad (59 columns) the body takes 2 lines (44) and the credits 1 (18) → 312 pt.
  /// Chat card: avatar 64 + (caption1 16 + body 22 + spacer 8) × 2 + caption1 16 + body 22 +
  /// spacer 8 + button 44 = 246 pt on both devices.
  @Test func qaReportNumbersMatchHandComputation() throws {
    let categories = try Fixtures.sampleCategories().byIdentifier
    let payloads = try ["media-episode.json", "chat-thread.json"].map {
      try Payload.load(Fixtures.sample($0), categories: categories)
    }
    let (diagnostics, missing) = ExtensionQA.report(
      extensionFiles: [Fixtures.sample("extension-media-card.json"), Fixtures.sample("extension-chat-card.json")],
      payloads: payloads, categories: categories, strict: false)
    #expect(!missing)
    let all = diagnostics.filter { $0.code == .extensionSize }.map(\.details)
    // Each device at the default text size and at the largest accessibility size.
    #expect(all.map { $0["textSize"] ?? "" } == ["l", "ax5", "l", "ax5", "l", "ax5", "l", "ax5"])
    let sizes = all.filter { $0["textSize"] == "l" }
    #expect(sizes.map { $0["device"] } == ["iphone", "ipad", "iphone", "ipad"])
    #expect(sizes.map { $0["initialHeight"] } == ["269.25", "375", "179.5", "250"])
    #expect(sizes.map { $0["preferredHeight"] } == ["352", "312", "246", "246"])
    #expect(sizes.map { $0["budget"] } == ["320", "352", "320", "352"])
    #expect(sizes.map { $0["overflow"] } == ["32", "0", "0", "0"])
    #expect(sizes[0]["cut"] == "label \"{{userInfo.credits}}\"")
    let overflow = diagnostics.filter { $0.code == .extensionOverflow }
    #expect(overflow.count == 1)
    #expect(overflow.first?.severity == .warning)
    let strict = ExtensionQA.report(
      extensionFiles: [Fixtures.sample("extension-media-card.json"), Fixtures.sample("extension-chat-card.json")],
      payloads: payloads, categories: categories, strict: true)
    #expect(
      strict.diagnostics.filter { $0.severity == .error }.map(\.file) == [Fixtures.sample("extension-media-card.json")])
  }

  @Test func strictLintFailsExactlyTheOverflowingDesign() throws {
    let base = ["lint", "--strict", "--categories", Fixtures.sample("categories.json")]
    let media = try Fixtures.run(
      Fixtures.unterm,
      base + ["--extension", Fixtures.sample("extension-media-card.json"), Fixtures.sample("media-episode.json")])
    #expect(media.status == 1)
    #expect(
      media.stdout.contains(
        "error[extension-overflow]: on iPhone the view is 352 pt tall, 32 pt over the 320 pt budget"))
    let chat = try Fixtures.run(
      Fixtures.unterm,
      base + ["--extension", Fixtures.sample("extension-chat-card.json"), Fixtures.sample("chat-thread.json")])
    #expect(chat.status == 0)
  }

  @Test func expandedViewUsesTheExtensionAndTheBannerDoesNot() throws {
    let session = try Fixtures.session(size: (80, 40)) {
      $0.extensionFiles = [Fixtures.sample("extension-media-card.json")]
    }
    try session.push(
      try Payload.load(Fixtures.sample("media-episode.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    let banner = session.frame().grid.text
    #expect(banner.contains("Podcasts"))
    #expect(banner.contains("Episode 42: Night Trains"))
    #expect(!banner.contains("Slow Travel"))
    session.send(.command(.longPress))
    let expanded = session.frame().grid.text
    #expect(expanded.contains("Slow Travel"))  // OverridesDefaultTitle: the view's title in the header
    #expect(expanded.contains("32 pt over the 320 pt budget"))
    #expect(!expanded.contains("Hosted by"))  // cut at the budget
    #expect(expanded.contains("1  Play"))  // the system still draws the actions
    session.send(.command(.setDevice(.ipad)))
    session.send(.key(.escape))
    session.send(.command(.longPress))
    let ipad = session.frame().grid.text
    #expect(ipad.contains("Hosted by Marta Reis"))
    #expect(!ipad.contains("pt over"))
  }

  @Test func defaultContentShowsUnlessHidden() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("ext.json")
    try Data(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"reminder","UNNotificationExtensionInitialContentSizeRatio":0.2,"UNNotificationExtensionDefaultContentHidden":false},"view":{"elements":[{"label":"CUSTOM {{userInfo.n}}","style":"title3"}]}}"#
        .utf8
    ).write(to: path)
    let session = try Fixtures.session(size: (80, 30)) { $0.extensionFiles = [path.path] }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Default title","body":"Default body"},"category":"reminder"},"n":7}"#, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("CUSTOM 7"))
    #expect(text.contains("Default title"))
    #expect(text.contains("Default body"))
    let lines = session.frame().grid.lines
    // The custom view at the top, the system's default content below it (issue 25.2).
    #expect(lines.firstIndex { $0.contains("CUSTOM 7") }! < lines.firstIndex { $0.contains("Default title") }!)
    #expect(lines.firstIndex { $0.contains("Default title") }! < lines.firstIndex { $0.contains("Default body") }!)
  }

  @Test func describedViewButtonsRespondWhenInteractive() throws {
    let session = try Fixtures.session(size: (80, 40)) {
      $0.extensionFiles = [Fixtures.sample("extension-chat-card.json")]
    }
    var received: [String] = []
    session.onResponse = { response, _ in received.append(response.actionIdentifier) }
    try session.push(try Payload.load(Fixtures.sample("chat-thread.json"), categories: session.state.store.categories))
    session.finishServiceExtensions(within: 5)
    session.send(.command(.longPress))
    #expect(session.frame().grid.text.contains("[ 👍 Like ]"))
    session.send(.key(.tab))
    session.send(.key(.enter))
    #expect(received == ["like-message"])
    #expect(session.state.expanded != nil)
  }
}

// MARK: - A program's extension

final class ProbeExtension: UNNotificationContentViewController, UNNotificationContentExtension {
  nonisolated(unsafe) static var option: UNNotificationContentExtensionResponseOption?
  nonisolated(unsafe) static var received: [String] = []
  nonisolated(unsafe) static var mediaCalls: [String] = []

  func didReceive(_ notification: UNNotification) {
    Self.received.append(notification.request.content.body)
    title = "Probe: \(notification.request.content.title)"
    view.elements = [.label("Seen \(Self.received.count)", style: .title2)]
    preferredContentSize = CGSize(width: 9999, height: 400)
    if notification.request.content.body == "swap" {
      extensionContext?.notificationActions = [UNNotificationAction(identifier: "new-one", title: "New One")]
    }
  }

  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    if response.actionIdentifier == "open" {
      extensionContext?.performNotificationDefaultAction()
      return
    }
    completion(Self.option ?? .doNotDismiss)
  }

  var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }
  func mediaPlay() { Self.mediaCalls.append("play") }
  func mediaPause() { Self.mediaCalls.append("pause") }
}

final class SilentExtension: UNNotificationContentViewController, UNNotificationContentExtension {
  func didReceive(_ notification: UNNotification) { view.elements = [.label("silent")] }
}

@Suite("Program content extensions", .serialized, .hangGuard)
struct ProgramExtensionTests {
  private func session(_ make: @escaping () -> any UNNotificationContentExtension & UNNotificationContentViewController)
    throws -> (Session, () -> [String])
  {
    let session = try Fixtures.session(size: (80, 40))
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(
          categories: ["chat"], initialContentSizeRatio: 0.5, overridesDefaultTitle: true),
        make: make))
    var received: [String] = []
    session.onResponse = { response, _ in received.append(response.actionIdentifier) }
    return (session, { received })
  }

  private let chat = #"{"aps":{"alert":{"title":"Kenji","body":"hello"},"category":"chat","thread-id":"t1"}}"#

  @Test(arguments: [
    (UNNotificationContentExtensionResponseOption.doNotDismiss, [String](), true, true),
    (.dismiss, [], false, false),
    (.dismissAndForwardAction, ["mute"], false, false),
  ])
  func responseOptions(
    option: UNNotificationContentExtensionResponseOption, app: [String], stillOpen: Bool, stillListed: Bool
  ) throws {
    ProbeExtension.option = option
    let (session, received) = try session { ProbeExtension() }
    try Fixtures.push(chat, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("mute")))
    #expect(received() == app)
    #expect((session.state.expanded != nil) == stillOpen)
    #expect((session.state.store.delivered("req-1") != nil) == stillListed)
  }

  @Test func sizingTitleAndReloadOnTheSameThread() throws {
    ProbeExtension.received = []
    let (session, _) = try session { ProbeExtension() }
    try Fixtures.push(chat, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("Probe: Kenji"))
    // 400 pt asked (the width is ignored), and the default title and body below it: 60 pt more.
    #expect(text.contains("140 pt over the 320 pt budget"))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Kenji","body":"again"},"category":"chat","thread-id":"t1"}}"#, into: session)
    #expect(ProbeExtension.received == ["hello", "again"])
    #expect(session.frame().grid.text.contains("Seen 2"))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Other","body":"elsewhere"},"category":"chat","thread-id":"t2"}}"#, into: session)
    #expect(ProbeExtension.received == ["hello", "again"])
  }

  @Test func dynamicActionsAndDefaultAction() throws {
    let (session, received) = try session { ProbeExtension() }
    try Fixtures.push(#"{"aps":{"alert":{"title":"Kenji","body":"swap"},"category":"chat"}}"#, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    #expect(text.contains("1  New One"))
    #expect(!text.contains("Mute Thread"))
    #expect(session.send(.command(.chooseAction("mute"))).failure != nil)
    session.send(.extensionSetActions([UNNotificationAction(identifier: "open", title: "Open")]))
    session.send(.command(.chooseAction("open")))
    #expect(received() == [UNNotificationDefaultActionIdentifier])
  }

  @Test func withoutDidReceiveResponseActionsGoToTheApp() throws {
    let (session, received) = try session { SilentExtension() }
    try Fixtures.push(chat, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("mute")))
    #expect(received() == ["mute"])
    #expect(session.state.expanded == nil)
  }

  @Test func mediaButtonCallsPlayAndPause() throws {
    ProbeExtension.mediaCalls = []
    let (session, _) = try session { ProbeExtension() }
    try Fixtures.push(chat, into: session)
    session.send(.command(.longPress))
    session.send(.key(.character("p")))
    session.send(.key(.character("p")))
    #expect(ProbeExtension.mediaCalls == ["play", "pause"])
  }
}

// MARK: - Views that change after loading (issue 17.1)

/// A Like button that counts, as interactive extensions have: its own button and the category's
/// `like` action (answered with `.doNotDismiss`) both count; `grow` and `shrink` change the
/// preferred height; `later` changes the label from another thread.
final class LikeCounter: UNNotificationContentViewController, UNNotificationContentExtension {
  private var likes = 0

  func didReceive(_ notification: UNNotification) { show() }

  private func show() {
    view.elements = [.label("likes=\(likes)", style: .title3), .button(title: "Like", action: "like")]
  }

  override func buttonPressed(action: String) {
    switch action {
    case "like":
      likes += 1
      show()
    default:
      break
    }
  }

  func didReceive(
    _ response: UNNotificationResponse,
    completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
  ) {
    switch response.actionIdentifier {
    case "like":
      likes += 10
      show()
    case "grow":
      preferredContentSize = CGSize(width: 0, height: 200)
    case "overflow":
      preferredContentSize = CGSize(width: 0, height: 400)
    case "later":
      let box = UncheckedView(view: view)
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
        box.view.elements = [.label("changed later", style: .title3)]
      }
    default:
      break
    }
    completion(.doNotDismiss)
  }
}

private struct UncheckedView: @unchecked Sendable {
  let view: UNNotificationContentView
}

@Suite("Extension views that change after loading", .serialized)
struct ChangingExtensionViewTests {
  private func session() throws -> Session {
    let session = try Fixtures.session(size: (80, 40))
    session.send(
      .center(
        .setCategories([
          UNNotificationCategory(
            identifier: "likes",
            actions: ["like", "grow", "overflow", "later"].map { UNNotificationAction(identifier: $0, title: $0) },
            intentIdentifiers: [])
        ])))
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(
          categories: ["likes"], initialContentSizeRatio: 0.5, userInteractionEnabled: true),
        make: { LikeCounter() }))
    try Fixtures.push(#"{"aps":{"alert":{"title":"Post","body":"A photo"},"category":"likes"}}"#, into: session)
    session.send(.command(.longPress))
    return session
  }

  private func lines(_ session: Session) -> [String] { session.frame().grid.lines }

  @Test func itsOwnButtonRedrawsTheCount() throws {
    let session = try session()
    #expect(lines(session).contains { $0.contains("likes=0") })
    session.send(.key(.tab))
    session.send(.key(.enter))
    #expect(lines(session).contains { $0.contains("likes=1") }, "\(lines(session).joined(separator: "\n"))")
    #expect(!lines(session).contains { $0.contains("likes=0") })
    session.send(.key(.enter))
    #expect(lines(session).contains { $0.contains("likes=2") })
  }

  @Test func anActionItKeepsTheViewForRedrawsIt() throws {
    let session = try session()
    session.send(.command(.chooseAction("like")))
    #expect(session.state.expanded != nil)
    #expect(lines(session).contains { $0.contains("likes=10") })
  }

  @Test func workOnAnotherThreadRedrawsIt() throws {
    let session = try session()
    session.send(.command(.chooseAction("later")))
    let deadline = Date().addingTimeInterval(10)
    while !lines(session).contains(where: { $0.contains("changed later") }) && Date() < deadline {
      // The change posts a refresh to the session's queue, which the loop serves.
      usleep(10_000)
      session.drain()
    }
    #expect(lines(session).contains { $0.contains("changed later") })
  }

  /// Never set, the preferred size is the placeholder's (359 × 0.5); a new one is measured
  /// against the budget again: within it, then past it.
  @Test func aNewHeightIsMeasuredAgainstTheBudget() throws {
    let session = try session()
    #expect(session.extensionSizes.map(\.preferredHeight) == [179.5])
    session.send(.command(.chooseAction("grow")))
    #expect(session.extensionSizes.map(\.preferredHeight) == [179.5, 200])
    // In the order it happened: the extension set its height, then called its completion.
    #expect(
      session.state.notices.suffix(2).map(\.text) == [
        "Extension on iPhone resized: preferred 200 pt + 60 pt of default content below it, budget 320 pt — fits",
        "The extension handled grow and kept its view open",
      ])
    #expect(!lines(session).contains { $0.contains("pt over") })
    session.send(.command(.chooseAction("overflow")))
    #expect(session.extensionSizes.last?.overflow == 140)
    #expect(
      session.state.notices.suffix(2).map(\.text) == [
        "Extension on iPhone resized: preferred 400 pt + 60 pt of default content below it, budget 320 pt — 140 pt over; cut: empty space (partly), the space above the default content, default title, default body",
        "The extension handled overflow and kept its view open",
      ])
    #expect(
      lines(session).contains { $0.contains("140 pt over the 320 pt budget") },
      "\(lines(session).joined(separator: "\n"))")
  }
}
