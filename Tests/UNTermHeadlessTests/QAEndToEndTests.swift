import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

/// What a QA pass met in the real binary (issue 25), driven in tmux as a person drives it.
@Suite("QA defects, end to end in tmux", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct QAEndToEndTests {
  /// `unterm center remove` while the banner is up: the banner goes, and Space, 1 answers for
  /// nothing (before: the banner stayed and `track` reached the delegate and the log).
  @Test func aBannerRemovedOverTheSocketIsGoneAndAnswersNothing() throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("responses.jsonl").path
    let socket = dir.appendingPathComponent("s.sock").path
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "LANG=C.UTF-8 \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) --log \(log) --socket \(socket) "
        + "\(Fixtures.sample("meeting.json")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Design review")
    let removed = try Fixtures.run(Fixtures.unterm, ["center", "remove", "--socket", socket, "req-1"])
    #expect(removed.status == 0, "\(removed.stderr)")
    // At once, as the user did: the banner would retire by itself five seconds after it came.
    tmux.keys("Space")
    tmux.type("1")
    tmux.keys("Enter")
    try tmux.waitUntil { !$0.contains("Design review") }
    // A later response is logged, so the log is read after the keys above were handled.
    let pushed = try Fixtures.run(Fixtures.unterm, ["push", "--socket", socket, Fixtures.sample("meeting.json")])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    try tmux.waitFor("Design review")
    tmux.keys("Enter")
    try tmux.waitFor("· req-2")
    let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(records.count == 1, "\(records)")
    #expect(records.first?.contains(#""requestIdentifier":"req-2""#) == true)
    #expect(!tmux.screen().contains("req-1 ·"))
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  /// The terminal draws a content extension's view above the default title and body.
  @Test func theTerminalDrawsTheExtensionsViewAboveTheDefaultContent() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"order","UNNotificationExtensionInitialContentSizeRatio":0.2},"view":{"elements":[{"label":"Map of {{userInfo.city}}","style":"title3"}]}}"#
        .utf8
    ).write(to: dir.appendingPathComponent("ext.json"))
    try Data(#"{"categories":[{"identifier":"order","actions":[{"identifier":"track","title":"Track"}]}]}"#.utf8)
      .write(to: dir.appendingPathComponent("cats.json"))
    try Data(
      #"{"aps":{"alert":{"title":"Order 4711","body":"Your rider is near"},"category":"order"},"city":"Dhaka"}"#.utf8
    ).write(to: dir.appendingPathComponent("order.json"))
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "cd \(dir.path) && LANG=C.UTF-8 \(Fixtures.unterm) --categories cats.json --extension ext.json order.json; echo EXIT=$?"
    )
    tmux.keys("Enter")
    try tmux.waitFor("Your rider is near")
    tmux.keys("Space")
    try tmux.waitFor("Map of Dhaka")
    try tmux.waitFor("1  Track")
    let rows = tmux.screen().split(separator: "\n").map(String.init)
    let view = try #require(rows.firstIndex { $0.contains("Map of Dhaka") })
    let title = try #require(rows.firstIndex { $0.contains("Order 4711") })
    let body = try #require(rows.firstIndex { $0.contains("Your rider is near") })
    #expect(view < title && title < body, "\(rows.joined(separator: "\n"))")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  /// `unterm --categories cats.json meeting.json`: the payload names its app (Xcode's
  /// `Simulator Target Bundle`), and its actions show on a long-press (issue 25.4).
  @Test func aBareCategoriesFileServesThePayloadsAppInTheTerminal() throws {
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "LANG=C.UTF-8 \(Fixtures.unterm) --categories \(Fixtures.sample("categories.json")) "
        + "\(Fixtures.sample("meeting.json")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Design review")
    tmux.keys("Space")
    try tmux.waitFor("1  Accept")
    #expect(tmux.screen().contains("4  Open Calendar"))
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  /// At 40×12 the expanded view shows two content rows: PgDn shows the next two, so the
  /// headline and the body are read in turn (issue 25.5).
  @Test func pageDownAt40By12ShowsTheNextRows() throws {
    let tmux = try TmuxDriver(width: 40, height: 12)
    defer { tmux.kill() }
    tmux.type(
      "LANG=C.UTF-8 \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) \(Fixtures.sample("long-body.json")); "
        + "echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Release notes 4.2")
    tmux.keys("Space")
    try tmux.waitFor("13 more rows")
    tmux.keys("NPage")
    try tmux.waitFor("notifications are grouped and")
    try tmux.waitFor("11 more rows")
    tmux.keys("NPage")
    try tmux.waitFor("order when a message is edited,")
    tmux.keys("PPage")
    try tmux.waitFor("notifications are grouped and")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  /// The activity pane names the socket and the inbox where they are, not as a path relative
  /// to the working directory that points outside it (issue 25.10).
  @Test func theSocketIsShownWhereItIs() throws {
    let project = try Fixtures.temporaryDirectory()
    let elsewhere = try Fixtures.temporaryDirectory()
    let socket = elsewhere.appendingPathComponent("session.sock").path
    let tmux = try TmuxDriver(width: 120, height: 30)
    defer { tmux.kill() }
    tmux.type(
      "cd \(project.path) && LANG=C.UTF-8 \(Fixtures.unterm) --socket \(socket) \(Fixtures.sample("message.json")); "
        + "echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Listening for")
    let screen = tmux.screen()
    #expect(!screen.contains("../"), "\(screen)")
    #expect(screen.contains(elsewhere.lastPathComponent), "\(screen)")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }
}
