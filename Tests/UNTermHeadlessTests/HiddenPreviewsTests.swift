import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// While previews are hidden, nothing of a notification's content shows anywhere: not in the
/// card, the stack's summary, the banner, the expanded view, the activity pane or the
/// responses pane (issue 10.3). A canary string sits in every field a payload has — title,
/// subtitle, body, `summary-arg`, userInfo, an attachment's file name, the content extension's
/// template — and must appear on no screen.
@Suite("Hidden previews hide everything", .serialized)
struct HiddenPreviewsTests {
  static let canary = "CANARY"

  /// A design whose every field carries the canary, in a folder of its own.
  struct Design {
    let dir: URL
    var categories: String { dir.appendingPathComponent("categories.json").path }
    var descriptor: String { dir.appendingPathComponent("ext.json").path }
    var first: String { dir.appendingPathComponent("first.json").path }
    var second: String { dir.appendingPathComponent("second.json").path }

    init() throws {
      dir = try Fixtures.temporaryDirectory()
      func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
      }
      try write(
        "categories.json",
        #"""
        {"categories":[{"identifier":"secret","options":["customDismissAction"],
          "actions":[{"identifier":"reply","title":"Reply","textInput":{"buttonTitle":"Send","placeholder":"Message…"}},
                     {"identifier":"delete","title":"Delete","options":["destructive"]}],
          "hiddenPreviewsBodyPlaceholder":"%u new items","categorySummaryFormat":"%u more from %@"}]}
        """#)
      try write(
        "ext.json",
        #"""
        {"NSExtensionAttributes":{"UNNotificationExtensionCategory":"secret",
          "UNNotificationExtensionInitialContentSizeRatio":0.3,"UNNotificationExtensionOverridesDefaultTitle":true,
          "UNNotificationExtensionUserInteractionEnabled":true},
         "view":{"title":"{{subtitle}}","elements":[{"label":"CANARY-template {{userInfo.secret}}"},
           {"image":"attachment:0","height":40},{"button":"Like","action":"like"}]}}
        """#)
      // A real image under a canary name, and a broken one whose refusal names it.
      try FileManager.default.copyItem(
        atPath: Fixtures.sample("media/avatar.png"), toPath: dir.appendingPathComponent("CANARY-attachment.png").path)
      try write("CANARY-broken.png", "not an image at all")
      for (name, attachment) in [("first.json", "CANARY-attachment.png"), ("second.json", "CANARY-broken.png")] {
        try write(
          name,
          #"""
          {"aps":{"alert":{"title":"CANARY-title","subtitle":"CANARY-subtitle","body":"CANARY-body \u202e reversed",
            "summary-arg":"CANARY-summary"},"thread-id":"vault","category":"secret","mutable-content":1},
           "attachment-url":"\#(attachment)","secret":"CANARY-userinfo","nested":{"deep":["CANARY-array"]}}
          """#)
      }
    }
  }

  private func session(_ design: Design, previews: CenterState.Previews = .whenUnlocked) throws -> Session {
    let session = try Fixtures.session(categories: false, size: (120, 40)) {
      $0.categoriesFile = design.categories
      $0.extensionFiles = [design.descriptor]
      $0.passcode = "1234"
      $0.previews = previews
    }
    for file in [design.first, design.second] {
      try session.push(try Payload.load(file, categories: session.state.store.categories))
      session.finishServiceExtensions(within: 5)
    }
    return session
  }

  /// The screen at several sizes and on both devices, as text: the sizes people use, and one
  /// so wide that no line of the panes wraps (a canary cut across two lines would go unseen).
  private func screens(_ session: Session) -> [String] {
    var out: [String] = []
    for device in DeviceProfile.Kind.allCases {
      session.send(.command(.setDevice(device)))
      for (w, h) in [(120, 40), (80, 24), (400, 60)] {
        session.resize(width: w, height: h)
        out.append(session.frame().grid.text)
      }
    }
    session.send(.command(.setDevice(.iphone)))
    session.resize(width: 120, height: 40)
    return out
  }

  private func expectNoCanary(
    _ session: Session, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for screen in screens(session) where screen.contains(Self.canary) {
      Issue.record("\(what) shows the canary:\n\(screen)", sourceLocation: sourceLocation)
      return
    }
  }

  @Test func aLockedScreenShowsNoContentInAnyViewOrPane() throws {
    let design = try Design()
    let session = try session(design)
    // Unlocked, the content is everywhere: the expanded view with its extension, the
    // service extension's trace in the activity pane, a button's response.
    session.send(.command(.longPress))
    session.send(.key(.tab))
    session.send(.key(.enter))
    let open = session.frame().grid.text
    #expect(open.contains("CANARY-template CANARY-userinfo"))
    // The refused attachment is named in the activity pane.
    #expect(session.state.notices.contains { $0.text.contains("CANARY-broken.png") })
    #expect(session.state.responses.map(\.actionIdentifier) == ["like"])
    session.send(.key(.escape))

    session.send(.command(.lock))
    expectNoCanary(session, "the lock screen")
    #expect(session.frame().grid.text.contains("2 new items"))
    #expect(session.frame().grid.text.contains("1 more notification"))  // the summary, without %@
    #expect(session.frame().grid.text.contains(Renderer.hiddenNotice))
    session.send(.key(.enter))  // a tap fans the stack out
    #expect(session.state.fannedOutGroup != nil)
    expectNoCanary(session, "the fanned-out stack")
    session.send(.key(.down))
    expectNoCanary(session, "the stack's older card")
    session.send(.key(.character("s")))
    session.send(.command(.longPress))
    #expect(session.state.passcodePrompt != nil)
    expectNoCanary(session, "the passcode prompt for a hidden preview")
    session.send(.key(.escape))
    session.send(.command(.tap))
    expectNoCanary(session, "the passcode prompt for a tap")
    session.send(.key(.escape))
    session.send(.key(.character("?")))
    expectNoCanary(session, "the keys overlay")
    session.send(.key(.character("?")))
    // Unlocked again, it all comes back: the hiding is previews', not lost data.
    session.send(.command(.unlock("1234")))
    session.send(.command(.openCenter))
    #expect(session.frame().grid.text.contains("CANARY-title"))
    session.resize(width: 400, height: 60)
    #expect(session.frame().grid.text.contains("CANARY-broken.png"))
  }

  @Test func previewsNeverHideTheBannerTheListAndTheExpandedViewWhileUnlocked() throws {
    let design = try Design()
    let session = try session(design, previews: .never)
    #expect(session.state.isBannerShown)
    expectNoCanary(session, "the banner")
    session.send(.command(.longPress))
    #expect(session.state.expanded != nil)
    #expect(session.state.expanded?.extensionView == nil)  // the custom view would reveal it
    expectNoCanary(session, "the expanded view")
    session.send(.key(.character("p")))
    expectNoCanary(session, "the expanded view after p")
    session.send(.key(.escape))
    session.send(.command(.openCenter))
    expectNoCanary(session, "the list")
    session.send(.key(.enter))
    expectNoCanary(session, "the fanned-out list")
  }

  /// `unterm render` goes the same way: every view, locked or with previews never shown.
  @Test(arguments: ScreenRequest.View.allCases)
  func renderShowsNoContentWhilePreviewsAreHidden(view: ScreenRequest.View) throws {
    let design = try Design()
    for (locked, previews) in [(true, CenterState.Previews.whenUnlocked), (false, .never), (true, .never)] {
      var configuration = SessionConfiguration()
      configuration.categoriesFile = design.categories
      configuration.extensionFiles = [design.descriptor]
      configuration.locked = locked
      configuration.previews = previews
      var request = ScreenRequest(
        configuration: configuration, payloads: [design.first, design.second], now: Fixtures.now)
      request.view = view
      request.width = 120
      request.height = 40
      let text = try RenderPipeline.frame(for: request).grid.text
      #expect(!text.contains(Self.canary), "render --view \(view) locked=\(locked) previews=\(previews):\n\(text)")
    }
  }

  /// With the iOS 12 to 14 summary (`--stack-summary ios12`), its `%@` is the summary arguments
  /// of the notifications behind the leading card, never the title; `summary-arg-count` weighs
  /// each in the count.
  @Test func theSummaryIsMadeOfSummaryArgumentsAndTheirCounts() throws {
    let session = try Fixtures.session(size: (47, 16)) { $0.stackSummary = .ios12 }
    func push(_ title: String, _ extra: String) throws {
      try Fixtures.push(
        #"{"aps":{"alert":{"title":"\#(title)","body":"b"\#(extra)},"thread-id":"chat","category":"message"}}"#,
        into: session)
    }
    func summary() -> String? {
      session.frame().grid.lines.first { $0.contains("more") }?.trimmingCharacters(in: .whitespaces)
    }
    try push("Title one", "")
    try push("Title two", "")
    session.send(.command(.openCenter))
    // No summary-arg: %@ is empty (the title is not used), so the missing argument shows.
    #expect(summary() == "1 more messages from")
    try push("Title three", #","summary-arg":"Ana","summary-arg-count":3"#)
    #expect(summary() == "2 more messages from")  // two behind the newest, neither with an argument
    try push("Title four", #","summary-arg":"Bo""#)
    #expect(summary() == "5 more messages from Ana")  // 3 + 1 + 1 behind, Ana's counting 3
    try push("Title five", #","summary-arg":"Cy""#)
    #expect(summary() == "6 more messages from Bo and Ana")
    try push("Title six", #","summary-arg":"Ana""#)
    #expect(summary() == "7 more messages from Cy, Bo and Ana")
    #expect(!(summary() ?? "").contains("Title"))
  }

  /// Current iOS ignores summary-arg and its count, and shows no category summary under a
  /// stack: the cards behind the newest one, which UNTerm counts (issue 25.6).
  @Test func currentIOSCountsTheNotificationsBehindTheNewest() throws {
    let session = try Fixtures.session(size: (47, 16))
    for (title, extra) in [("one", ""), ("two", #","summary-arg":"Ana","summary-arg-count":3"#), ("three", "")] {
      try Fixtures.push(
        #"{"aps":{"alert":{"title":"\#(title)","body":"b"\#(extra)},"thread-id":"chat","category":"message"}}"#,
        into: session)
    }
    session.send(.command(.openCenter))
    let lines = session.frame().grid.lines
    #expect(lines.contains { $0.hasPrefix("    2 more notifications") }, "\(lines.joined(separator: "\n"))")
    #expect(!lines.joined().contains("messages from"))
  }
}
