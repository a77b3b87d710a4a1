import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UserNotificationsModel

/// Every shell builds its session with `SessionFactory` (`Session.init` is internal to
/// UNTermHeadless, so nothing else can), and `render` and the golden tests share
/// `RenderPipeline`.
@Suite("One way to build a session", .hangGuard)
struct SessionFactoryTests {
  /// `unterm render` prints exactly the golden screens the tests draw through the pipeline.
  @Test(arguments: [("message.json", "expanded"), ("chat-thread.json", "center"), ("media-episode.json", "banner")])
  func renderPrintsTheGoldenScreen(_ payload: String, _ view: String) throws {
    let result = try Fixtures.run(
      Fixtures.unterm,
      [
        "render"
      ] + Fixtures.sampleCategoriesArguments + [
        "--view", view, "--size", "80x24",
        "--now", "2025-11-29T20:00:00Z", "--color", "never", Fixtures.sample(payload),
      ], environment: ["TZ": "UTC"])
    #expect(result.status == 0, "\(result.stderr)")
    let base = (payload as NSString).deletingPathExtension
    let golden = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Tests/Golden/\(base).iphone.\(view).txt"), encoding: .utf8)
    expectSameScreen(result.stdout, golden, "unterm render against Tests/Golden/\(base).iphone.\(view).txt")
  }

  /// `lint --extension` measures the view a session shows, with the same numbers the session
  /// reports in its activity pane.
  @Test func lintMeasuresTheViewTheSessionShows() throws {
    let categories = try Fixtures.sampleCategories()
    let sample = try Payload.load(Fixtures.sample("chat-thread.json"), categories: categories.byIdentifier)
    let qa = ExtensionQA.report(
      extensionFiles: [Fixtures.sample("extension-chat-card.json")], payloads: [sample],
      categories: categories.byIdentifier, strict: false, images: MediaSupport.images())
    let note = try #require(
      qa.diagnostics.first { $0.details["device"] == "iphone" && $0.details["preferredHeight"] != nil })
    var configuration = SessionConfiguration()
    configuration.categoriesFile = Fixtures.sample("categories.json")
    configuration.extensionFiles = [Fixtures.sample("extension-chat-card.json")]
    var request = ScreenRequest(configuration: configuration, payloads: [sample.file], now: Fixtures.now)
    request.view = .expanded
    let session = try RenderPipeline.session(for: request)
    defer { session.detach() }
    let details = note.details
    let reported =
      "Extension on iPhone: initial \(details["initialHeight"] ?? "?") pt, preferred \(details["preferredHeight"] ?? "?") pt, budget \(details["budget"] ?? "?") pt"
    #expect(session.state.notices.contains { $0.text.hasPrefix(reported) }, "\(session.state.notices.map(\.text))")
  }

  /// The app's center: its delegate gets the responses, and what the app did before the
  /// session started is adopted.
  @Test func theEmbeddingAPIsCenterKeepsItsDelegate() throws {
    let center = UNUserNotificationCenter.makeForSession()
    let delegate = CountingDelegate()
    center.delegate = delegate
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    try Fixtures.push(#"{"aps":{"alert":"hello"}}"#, into: session)
    session.send(.command(.tap))
    #expect(delegate.responses == [UNNotificationDefaultActionIdentifier])
    #expect(center.delegate === delegate)
  }

  /// The executable and the embedding API reach the terminal only through UNTermShell.
  @Test func onlyTheShellImportsTheTerminalBackend() throws {
    for folder in ["Sources/unterm", "Sources/UNTerm", "Sources/UNTermHeadless"] {
      let directory = Fixtures.root.appendingPathComponent(folder)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
      #expect(!files.isEmpty, "\(folder) has no sources")
      for file in files {
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        #expect(!text.contains("import UNTermCurses"), "\(folder)/\(file) imports UNTermCurses")
      }
    }
    let manifest = try String(contentsOf: Fixtures.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let unterm = try #require(manifest.range(of: #"name: "unterm","#))
    let target = manifest[unterm.upperBound...].prefix { $0 != ")" }
    #expect(!target.contains("UNTermCurses"), "the unterm target depends on UNTermCurses")
  }
}

private final class CountingDelegate: NSObject, UNUserNotificationCenterDelegate {
  var responses: [String] = []
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    responses.append(response.actionIdentifier)
    completionHandler()
  }
}
