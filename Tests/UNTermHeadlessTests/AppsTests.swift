import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UNTermShell
@testable import UNTermState
@testable import UserNotificationsModel

/// Notifications belong to apps: which app, its name in the header, its own categories, its
/// own stacks, and the one app that can be in the foreground.
@Suite("Apps", .hangGuard)
struct AppsTests {
  /// A payload naming its app in each way a file can, with a category.
  private func json(target: String? = nil, topic: String? = nil, thread: String = "", title: String = "Hi")
    -> String
  {
    var members = [#""aps":{"alert":{"title":"\#(title)","body":"b"},"category":"message","thread-id":"\#(thread)"}"#]
    if let target { members.append(#""Simulator Target Bundle":"\#(target)""#) }
    if let topic { members.append(#""apns-headers":{"apns-topic":"\#(topic)"}"#) }
    return "{" + members.joined(separator: ",") + "}"
  }

  private func app(of json: String, bundle: String? = nil, sessionTopic: String? = nil, defaultApp: String? = nil)
    throws -> String
  {
    let session = try Fixtures.session {
      if let sessionTopic { $0.apnsHeaders[.topic] = sessionTopic }
      if let defaultApp { $0.bundle = defaultApp }
    }
    let payload = PayloadAnalyzer.analyze(
      Array(json.utf8), file: "p.json", categories: session.state.store.registry,
      headers: session.configuration.apnsHeaders, bundle: bundle)
    try session.push(payload, identifier: "n")
    let delivered = try #require(session.state.store.delivered("n"))
    return session.state.app(of: delivered)
  }

  // MARK: - 1. Which app

  @Test func theAppComesFromPushBundleThenTargetBundleThenTopicThenTheSessionsBundle() throws {
    // A topic naming another app than the target bundle is APNs' refusal (topic-mismatch), so
    // the file's two agree; a voip topic's suffix is not part of the app.
    let all = json(target: "com.t.target", topic: "com.t.target")
    #expect(try app(of: all, bundle: "com.t.push") == "com.t.push")
    #expect(try app(of: all) == "com.t.target")
    #expect(try app(of: json(target: "com.t.target"), bundle: "com.t.push") == "com.t.push")
    #expect(try app(of: json(topic: "com.t.topic")) == "com.t.topic")
    // The session's --topic is the apns-topic header when the file has none.
    #expect(try app(of: json(), sessionTopic: "com.t.session-topic") == "com.t.session-topic")
    #expect(try app(of: json(), defaultApp: "com.t.default") == "com.t.default")
    #expect(try app(of: json()) == "com.example.app")
  }

  @Test func aVoipTopicNamesTheAppWithoutItsSuffix() throws {
    let voip = #"{"aps":{"alert":"x"},"apns-headers":{"apns-topic":"com.t.chat.voip","apns-push-type":"voip"}}"#
    let payload = PayloadAnalyzer.analyze(Array(voip.utf8), file: "p.json", categories: nil)
    #expect(payload.info.app == "com.t.chat")
  }

  @Test func localRequestsAreTheDefaultAppsAndStackWithItsPushes() throws {
    let session = try Fixtures.session(categories: false) { $0.bundle = "com.t.mine" }
    try Fixtures.push(json(target: "com.t.mine", thread: "t"), into: session, as: "pushed")
    let content = UNMutableNotificationContent()
    content.title = "local"
    content.threadIdentifier = "t"
    session.present(UNNotificationRequest(identifier: "local", content: content, trigger: nil))
    let store = session.state.store
    #expect(store.groupKey(ofDelivered: "local") == store.groupKey(ofDelivered: "pushed"))
    #expect(store.groupKey(ofDelivered: "local")?.app == "com.t.mine")
  }

  // MARK: - 2. Names

  @Test(arguments: [
    ("com.apple.MobileSMS", "MobileSMS"), ("com.example.app", "App"), ("com.acme.bank", "Bank"),
    ("com.acme.bank.", "Bank"), ("single", "Single"), ("com.acme.émile", "Émile"), ("...", "App"),
  ])
  func aBundlesNameIsItsLastPartCapitalized(_ bundle: String, _ name: String) {
    #expect(CenterState.displayName(ofBundle: bundle) == name)
  }

  @Test func appNameNamesOneAppAndABareNameTheDefaultApp() throws {
    let session = try Fixtures.session(size: (60, 12)) {
      $0.appNames["com.acme.bank"] = "Acme Bank"
      $0.appName = "Mine"
    }
    try Fixtures.push(json(target: "com.acme.bank", title: "Sign-in"), into: session, as: "bank")
    #expect(session.frame().grid.lines[1].contains("Acme Bank"))
    try Fixtures.push(json(title: "Own"), into: session, as: "own")
    #expect(session.frame().grid.lines[1].contains("Mine"))
    try Fixtures.push(json(target: "com.acme.news", title: "News"), into: session, as: "news")
    #expect(session.frame().grid.lines[1].contains("News "))
  }

  @Test func hostileNamesAreSanitizedLikeEveryHeaderText() throws {
    let session = try Fixtures.session(size: (60, 8)) {
      $0.appNames["com.evil.app"] = "Evil\u{1B}[2J\u{202E}Bank\u{7}\nX"
    }
    try Fixtures.push(json(target: "com.evil.app"), into: session)
    let text = session.frame().grid.text
    for bad in ["\u{1B}", "\u{202E}", "\u{7}"] { #expect(!text.contains(bad)) }
    #expect(text.contains("Evil"))
    // A hostile bundle identifier from a payload, named by its last part, is sanitized too.
    try Fixtures.push(json(target: #"com.evil.\u001B]0;pwned\u0007\u202Ex"#), into: session)
    #expect(!session.frame().grid.text.contains("\u{1B}"))
  }

  @Test func badAppOptionsAreUsageErrors() throws {
    for arguments in [["--app-name", "=X"], ["--app-name", "com.acme="], ["--bundle", ""], ["--bundle", "a b"]] {
      let result = try Fixtures.run(Fixtures.unterm, ["render"] + arguments + [Fixtures.sample("message.json")])
      #expect(result.status == 2, "\(arguments)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].hasPrefix("error: \(arguments[0]) takes "), "\(result.stderr)")
    }
  }

  // MARK: - 3. Stacks are per app

  @Test func theSameThreadInTwoAppsIsTwoStacksWithTheirOwnNames() throws {
    let session = try Fixtures.session(size: (50, 24)) {
      $0.appNames["com.example.bn"] = "পরিবার"
      $0.appNames["com.example.cal"] = "日本カレンダー"
    }
    try Fixtures.push(json(target: "com.example.messages", thread: "family", title: "Ana"), into: session, as: "a1")
    try Fixtures.push(json(target: "com.example.bn", thread: "family", title: "ভাই"), into: session, as: "b1")
    try Fixtures.push(
      json(target: "com.example.messages", thread: "family", title: "Ana again"), into: session, as: "a2")
    try Fixtures.push(json(target: "com.example.cal", title: "会議"), into: session, as: "c1")
    session.send(.command(.openCenter))
    expectScreen(
      session.frame().grid,
      [
        "  Notification Center",
        "",
        "  ┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓",
        "  ┃ 日本カレンダー                        now ┃",
        "  ┃ 会議                                      ┃",
        "  ┃ b                                         ┃",
        "  ┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛",
        "  ╭───────────────────────────────────────────╮",
        "  │ Messages                              now │",
        "  │ Ana again                                 │",
        "  │ b                                         │",
        "  ╰───────────────────────────────────────────╯",
        "     1 more notification",
        "  ╭───────────────────────────────────────────╮",
        "  │ পরিবার                                now │",
        "  │ ভাই                                       │",
        "  │ b                                         │",
        "  ╰───────────────────────────────────────────╯",
        "",
        "",
        "",
        "",
        "",
        " iPhone · Unlocked │ ↑↓ move  ? keys",
      ])
    let store = session.state.store
    #expect(store.groupCount == 3)
    #expect(store.count(of: try #require(store.groupKey(ofDelivered: "a2"))) == 2)
    #expect(store.groupKey(ofDelivered: "b1") != store.groupKey(ofDelivered: "a1"))
  }

  // MARK: - 4. Categories per app

  @Test func aNotificationFindsOnlyItsOwnAppsCategories() throws {
    var configuration = SessionConfiguration()
    configuration.categoriesFiles = [AppCategoriesFile(app: "com.t.a", path: Fixtures.sample("categories.json"))]
    let session = try SessionFactory.make(configuration, now: Fixtures.now)
    session.resize(width: 60, height: 16)
    try Fixtures.push(json(target: "com.t.a"), into: session, as: "a")
    try Fixtures.push(json(target: "com.t.b"), into: session, as: "b")
    let a = try #require(session.state.store.delivered("a"))
    let b = try #require(session.state.store.delivered("b"))
    #expect(session.state.category(of: a)?.identifier == "message")
    #expect(session.state.category(of: b) == nil)
    // The load says so, as for any category nobody registered.
    let payload = Fixtures.payload(json(target: "com.t.b"), registry: session.state.store.registry)
    let finding = try #require(payload.diagnostics.first { $0.code == .unknownCategory })
    #expect(finding.message.contains(#"not registered for app "com.t.b""#))
    #expect(finding.message.contains(#"It is registered for "com.t.a" only"#))
    #expect(finding.message.contains("register it for this app with --categories com.t.b=FILE"))
    session.send(.command(.longPress))
    #expect(!session.frame().grid.text.contains("Reply"))
  }

  @Test func lintChecksEachPayloadAgainstItsAppsCategories() throws {
    let dir = try Fixtures.temporaryDirectory()
    let other = dir.appendingPathComponent("other.json")
    try Data(json(target: "com.t.b").utf8).write(to: other)
    let result = try Fixtures.run(
      Fixtures.unterm,
      ["lint", "--categories", "com.t.a=" + Fixtures.sample("categories.json"), other.path])
    #expect(result.stdout.contains("unknown-category"), "\(result.stdout)")
    let fine = try Fixtures.run(
      Fixtures.unterm,
      ["lint", "--categories", "com.t.b=" + Fixtures.sample("categories.json"), other.path])
    #expect(!fine.stdout.contains("unknown-category"), "\(fine.stdout)")
  }

  /// `team=cats.json` looks like `ID=FILE`; where a file has that whole name, it is the file.
  @Test func aCategoriesFileWhoseNameHasAnEqualsSignIsThatFile() throws {
    let dir = try Fixtures.temporaryDirectory()
    try FileManager.default.copyItem(
      atPath: Fixtures.sample("categories.json"), toPath: dir.appendingPathComponent("team=cats.json").path)
    try Data(json(target: nil).utf8).write(to: dir.appendingPathComponent("p.json"))
    let result = try Fixtures.run(
      Fixtures.unterm, ["lint", "--categories", "team=cats.json", "p.json"], directory: dir.path)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(!result.stdout.contains("unknown-category"), "\(result.stdout)")
    // Without such a file, the text is still ID=FILE.
    let scoped = try Fixtures.run(
      Fixtures.unterm, ["lint", "--categories", "team=absent.json", "p.json"], directory: dir.path)
    #expect(scoped.status == 66, "\(scoped.stderr)")
    #expect(scoped.stdout.contains("absent.json"), "\(scoped.stdout)")
  }

  @Test func aCategoriesFileAmongTheSheetsFilesServesEveryApp() throws {
    let result = try Fixtures.run(
      Fixtures.unterm,
      [
        "sheet", "--out", "-", "--devices", "iphone", "--states", "unlocked", "--views", "expanded",
        Fixtures.sample("categories.json"), Fixtures.sample("message.json"),
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("<span class=\"title\">Reply</span>"))
  }

  @Test func setNotificationCategoriesRegistersForTheDefaultApp() throws {
    let session = try Fixtures.session(categories: false)
    let reply = UNNotificationAction(identifier: "r", title: "Reply", options: [])
    session.send(
      .center(.setCategories([UNNotificationCategory(identifier: "message", actions: [reply], intentIdentifiers: [])])))
    try Fixtures.push(json(), into: session, as: "own")
    try Fixtures.push(json(target: "com.t.other"), into: session, as: "other")
    #expect(session.state.category(of: try #require(session.state.store.delivered("own"))) != nil)
    #expect(session.state.category(of: try #require(session.state.store.delivered("other"))) == nil)
  }

  @Test func aScriptRegistersCategoriesPerApp() throws {
    let dir = try Fixtures.temporaryDirectory()
    let payload = dir.appendingPathComponent("bank.json")
    try Data(json(target: "com.t.bank").utf8).write(to: payload)
    let categories = Fixtures.sample("categories.json")
    // A bare file with no bundle named serves every app that has none of its own (issue 25.4);
    // once the script names its app, a bare file is that app's only, and ID=FILE is ID's.
    func run(_ text: String) throws -> ScriptResult {
      let script = try SessionScript.parse(text, file: dir.appendingPathComponent("t.session").path)
      return ScriptRunner(script: script, options: RunOptions()).run()
    }
    let everyApp = try run(
      """
      categories \(categories)
      push bank.json
      longpress
      expect screen "Reply"

      """)
    #expect(everyApp.passed, "\(everyApp.report?.text ?? "")")
    let scoped = try run(
      """
      bundle com.t.mine
      categories \(categories)
      push bank.json
      longpress
      expect screen not "Reply"
      key esc
      categories com.t.bank=\(categories)
      push bank.json
      longpress
      expect screen "Reply"

      """)
    #expect(scoped.passed, "\(scoped.report?.text ?? "")")
    #expect(throws: SessionScript.ParseError.self) { try SessionScript.parse("categories =x.json", file: "s.session") }
  }

  // MARK: - 5. The foreground app

  @Test func onlyTheDefaultAppIsInTheForeground() throws {
    let session = try Fixtures.session { $0.foregroundOptions = [] }
    let delegate = RecordingDelegate(presentation: [])
    session.center.delegate = delegate
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(json(title: "Mine"), into: session, as: "mine")
    #expect(session.state.banner == nil, "willPresent answered none for the app in front")
    try Fixtures.push(json(target: "com.t.other", title: "Theirs"), into: session, as: "theirs")
    #expect(session.state.banner?.notification.request.identifier == "theirs")
  }

  @Test func theLogNamesTheAppAndReadsOldRecordsWithoutIt() throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("log.jsonl").path
    let session = try Fixtures.session { $0.logFile = log }
    try Fixtures.push(json(target: "com.t.bank"), into: session)
    session.send(.command(.tap))
    let written = try String(contentsOfFile: log, encoding: .utf8)
    #expect(written.hasSuffix(#""locked":false,"bundleIdentifier":"com.t.bank"}"# + "\n"), "\(written)")
    let old = #"{"actionIdentifier":"a","requestIdentifier":"r","date":"d","device":"iphone","locked":true}"#
    try Data((written + old + "\n").utf8).write(to: URL(fileURLWithPath: log))
    let result = try Fixtures.run(Fixtures.unterm, ["log", log])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasSuffix("iphone, unlocked, app com.t.bank)") == true, "\(result.stdout)")
    #expect(lines.last?.hasSuffix("(iphone, locked)") == true, "\(result.stdout)")
  }

  // MARK: - 6. unterm push --bundle

  @Test func pushBundleNamesTheAppOverTheSocket() throws {
    let dir = try Fixtures.temporaryDirectory()
    let session = try Fixtures.session()
    let socket = dir.appendingPathComponent("s.sock").path
    let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
    _ = delivery.start()
    defer { delivery.stop() }
    let payload = Array(json(target: "com.t.file").utf8)
    let box = Box()
    Thread {
      let plain = try? PushClient.push([("a.json", payload)], socket: socket)
      let bundled = try? PushClient.push([("b.json", payload)], bundle: "com.t.pushed", socket: socket)
      box.set((plain ?? []) + (bundled ?? []))
    }.start()
    Eventually.wait(between: session.drain) { box.get()?.count == 2 }
    let ids = (box.get() ?? []).compactMap { result -> String? in
      if case .delivered(let id) = result { return id }
      return nil
    }
    try #require(ids.count == 2)
    let store = session.state.store
    #expect(store.app(of: try #require(store.delivered(ids[0])).request) == "com.t.file")
    #expect(store.app(of: try #require(store.delivered(ids[1])).request) == "com.t.pushed")
  }

  @Test func theDecoderReadsABundleLineForTheNextPayloadOnly() {
    var decoder = PushFrameDecoder(maximumPayloadBytes: 100)
    decoder.append(Array("UNTERM-PUSH 1\nBUNDLE com.t.x\nPAYLOAD 2 a\n{}PAYLOAD 2 b\n{}BUNDLE a b\n".utf8))
    #expect(decoder.next() == .payload(name: "a", bytes: Array("{}".utf8), headers: APNsHeaders(), bundle: "com.t.x"))
    #expect(decoder.next() == .payload(name: "b", bytes: Array("{}".utf8), headers: APNsHeaders()))
    guard case .refused = decoder.next() else {
      Issue.record("a BUNDLE that is no bundle identifier is refused")
      return
    }
  }
}

/// The push results, handed from the client's thread.
private final class Box: @unchecked Sendable {
  private let lock = NSLock()
  private var value: [PushClient.Result]?
  func set(_ new: [PushClient.Result]) { lock.withLock { value = new } }
  func get() -> [PushClient.Result]? { lock.withLock { value } }
}
