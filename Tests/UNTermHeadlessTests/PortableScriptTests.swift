import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermRender
@testable import UNTermScript

/// Issue 10 point 7: scripts and snapshots do not depend on where the project lives, and a check
/// can name the part of the screen it is about.
@Suite("Portable scripts and screen regions", .hangGuard)
struct PortableScriptTests {
  /// A project as a QA engineer keeps one: payloads beside media, scripts in a folder of their
  /// own. The payload's attachment lies outside its folder, so the activity pane names paths.
  private func makeProject(at root: URL) throws {
    let manager = FileManager.default
    for folder in ["payloads", "media", "scripts"] {
      try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try manager.copyItem(
      at: Fixtures.samples.appendingPathComponent("media/avatar.png"),
      to: root.appendingPathComponent("media/avatar.png"))
    try Data(
      #"{"aps":{"alert":{"title":"Ana Lima","body":"Photo from the trip"},"mutable-content":1},"attachment-url":"../media/avatar.png"}"#
        .utf8
    ).write(to: root.appendingPathComponent("payloads/photo.json"))
    try Data(
      """
      push ../payloads/photo.json
      expect screen card "Ana Lima"
      expect screen activity "outside"
      snapshot whole-screen
      snapshot activity-pane activity

      """.utf8
    ).write(to: root.appendingPathComponent("scripts/photo.session"))
  }

  /// Recorded in one place, a folder copied to two others (with paths of different lengths)
  /// passes `CI=1 unterm run` unchanged, and what was recorded names no absolute path.
  @Test func aCopiedProjectPassesUnchangedWherever() throws {
    let first = try Fixtures.temporaryDirectory().appendingPathComponent("project")
    try makeProject(at: first)
    let recorded = try Fixtures.run(
      Fixtures.unterm, ["run", first.appendingPathComponent("scripts/photo.session").path])
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    let snapshot = try String(
      contentsOf: first.appendingPathComponent("scripts/whole-screen.txt"), encoding: .utf8)
    #expect(snapshot.contains("../media/avatar.png"), "\(snapshot)")
    #expect(!snapshot.contains(first.path) && !snapshot.contains("/tmp"), "\(snapshot)")
    let pane = try String(contentsOf: first.appendingPathComponent("scripts/activity-pane.txt"), encoding: .utf8)
    #expect(pane.hasPrefix("Activity\n"), "\(pane)")
    #expect(!pane.contains("╭"), "the activity region holds the pane only:\n\(pane)")

    let short = try Fixtures.temporaryDirectory().appendingPathComponent("p")
    let long = try Fixtures.temporaryDirectory().appendingPathComponent(
      "a much longer folder name/that nests/the whole project")
    for copy in [short, long] {
      try FileManager.default.createDirectory(
        at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: first, to: copy)
      // From the script's own folder, and from elsewhere with an absolute path.
      let fromInside = try Fixtures.run(
        Fixtures.unterm, ["run", "photo.session"], environment: ["CI": "1"],
        directory: copy.appendingPathComponent("scripts").path)
      #expect(fromInside.status == 0, "\(copy.path): \(fromInside.stdout)\(fromInside.stderr)")
      let fromOutside = try Fixtures.run(
        Fixtures.unterm, ["run", copy.appendingPathComponent("scripts/photo.session").path], environment: ["CI": "1"],
        directory: "/")
      #expect(fromOutside.status == 0, "\(copy.path): \(fromOutside.stdout)\(fromOutside.stderr)")
    }
  }

  @Test(arguments: [
    (
      "/work/p/scripts/../media/a.png: outside the media folder /work/p/scripts (after resolving .. and links)",
      "../media/a.png: outside the media folder . (after resolving .. and links)"
    ),
    ("cannot read \"/work/p/scripts/x y.json\", said the loader", "cannot read \"x y.json\", said the loader"),
    ("/work/other/log.jsonl: error: no such file", "../../other/log.jsonl: error: no such file"),
    ("listening on /run/user/1000/unterm/session.sock.", "listening on /run/user/1000/unterm/session.sock."),
    ("theme (/work/p/scripts/themes/t.json) loaded", "theme (themes/t.json) loaded"),
    ("at https://example.com/a/b and file:///work/p/x", "at https://example.com/a/b and file:///work/p/x"),
    ("/work/p/scripts/a.session:3:4: error", "a.session:3:4: error"),
  ])
  func pathsAreShownRelativeToTheScriptsFolder(_ text: String, _ shown: String) {
    let paths = PathDisplay(relativeTo: "/work/p/scripts")
    #expect(paths.apply(text) == shown)
  }

  /// In a session, the working directory's files are shown relative to it, and a path outside
  /// it (the session's socket) where it is, from `~` in the home folder: never `../unterm-0/…`.
  @Test(arguments: [
    ("Listening on /run/user/1000/unterm/session.sock", "Listening on /run/user/1000/unterm/session.sock"),
    ("Listening on /work/unterm-0/session.sock", "Listening on /work/unterm-0/session.sock"),
    ("Watching /home/ana/.cache/unterm/inbox for", "Watching ~/.cache/unterm/inbox for"),
    ("Pushed /home/ana/dabba/order.json as req-1", "Pushed order.json as req-1"),
    ("Pushed /home/ana/dabba/payloads/../order.json", "Pushed order.json"),
    ("Pushed /home/ana/dabba-old/order.json", "Pushed ~/dabba-old/order.json"),
    ("Pushed /home/anabel/x.json", "Pushed /home/anabel/x.json"),
  ])
  func aSessionShowsPathsOutsideItsFolderWhereTheyAre(_ text: String, _ shown: String) {
    let paths = PathDisplay(relativeTo: "/home/ana/dabba", outside: .absolute(home: "/home/ana"))
    #expect(paths.apply(text) == shown)
  }

  @Test func aFolderWithSpacesIsTakenWhole() {
    let paths = PathDisplay(relativeTo: "/tmp/my project/scripts", alsoKnownAs: ["/private/tmp/my project/scripts"])
    #expect(paths.apply("/tmp/my project/scripts/a.png: bad") == "a.png: bad")
    #expect(paths.apply("/private/tmp/my project/media/b.png is fine") == "../media/b.png is fine")
  }

  /// The renderer records the rectangles it draws, so a region is exactly what is drawn there.
  @Test func regionsAreTheRectanglesTheRendererDrew() throws {
    let session = try Fixtures.session(size: (80, 16))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Ana Lima","body":"Dinner tonight?"},"category":"message"}}"#, into: session)
    session.send(.notice(.info, "Ana Lima was here"))
    let frame = session.frame()
    #expect(
      frame.lines(of: .card) == [
        "╭───────────────────────────────────────────╮",
        "│ App                                   now │",
        "│ Ana Lima                                  │",
        "│ Dinner tonight?                           │",
        "│ ▾ Reply · Like · +1 more                  │",
        "╰───────────────────────────────────────────╯",
      ])
    #expect(frame.lines(of: .responses) == ["Responses", " none yet"])
    #expect(frame.lines(of: .activity)?.prefix(2) == ["Activity", "Ana Lima was here"])
    #expect(frame.lines(of: .list) == nil)
    #expect(frame.lines(of: .screen) == frame.grid.lines)

    session.send(.command(.openCenter))
    let center = session.frame()
    #expect(center.lines(of: .list)?.first == "Notification Center")
    #expect(center.lines(of: .card)?.dropFirst().first == "┃ App                                   now ┃")

    session.send(.command(.longPress))
    let expanded = try #require(session.frame().lines(of: .card))
    #expect(expanded.contains { $0.contains("Dinner tonight?") })
    #expect(expanded.contains { $0.contains("1  Reply") })
    #expect(!expanded.contains { $0.contains("Activity") })
  }

  @Test func aWideClusterCutByARegionsEdgeKeepsTheColumns() {
    var grid = CellGrid(width: 6, height: 1)
    grid.write("a中b文", x: 0, y: 0, style: .plain)
    // a 中 b 文 take columns 0, 1–2, 3 and 4–5.
    #expect(grid.lines(in: Rect(x: 2, y: 0, width: 4, height: 1)) == [" b文"])
    #expect(grid.lines(in: Rect(x: 2, y: 0, width: 3, height: 1)) == [" b"])
    #expect(grid.lines(in: Rect(x: 0, y: 0, width: 2, height: 1)) == ["a"])
  }

  private func run(_ text: String, size: String = "80x24") throws -> ScriptResult {
    let folder = try Fixtures.temporaryDirectory()
    let script = try SessionScript.parse(
      "size \(size)\n\(Fixtures.sampleCategoriesScript)\n" + text,
      file: folder.appendingPathComponent("t.session").path)
    return ScriptRunner(script: script, options: RunOptions()).run()
  }

  /// A check about the card is not fooled by the activity pane, which still names the action
  /// the user took on an earlier notification.
  @Test func aCardCheckIsNotFooledByTheActivityPane() throws {
    let steps = """
      push \(Fixtures.sample("meeting.json"))
      longpress
      action open-calendar
      key h
      push \(Fixtures.sample("meeting.json"))
      """
    let whole = try run(steps + "\nexpect screen not \"Open Calendar\"")
    #expect(!whole.passed, "the activity pane names the Open Calendar action")
    let card = try run(
      steps + "\nexpect screen card not \"Open Calendar\"\nexpect screen activity \"(Open Calendar)\"")
    #expect(card.passed, "\(card.report ?? "")")
  }

  @Test func aRegionThatIsNotShownFailsEitherWay() throws {
    for line in ["expect screen activity \"x\"", "expect screen activity not \"x\"", "snapshot pane activity"] {
      let result = try run("push \(Fixtures.sample("message.json"))\n\(line)", size: "50x20")
      #expect(!result.passed, "\(line)")
      #expect(result.report?.contains("the activity pane is not on the screen") == true, "\(result.report ?? "")")
    }
    let list = try run("push \(Fixtures.sample("message.json"))\nexpect screen list not \"Ana\"")
    #expect(list.report?.contains("the notification list is not shown") == true, "\(list.report ?? "")")
  }

  @Test func aRegionSnapshotHoldsTheRegionOnly() throws {
    let folder = try Fixtures.temporaryDirectory()
    let script = try SessionScript.parse(
      "\(Fixtures.sampleCategoriesScript)\npush \(Fixtures.sample("message.json"))\nsnapshot banner card\n",
      file: folder.appendingPathComponent("t.session").path)
    let result = ScriptRunner(script: script, options: RunOptions()).run()
    #expect(result.passed)
    let text = try String(contentsOf: folder.appendingPathComponent("banner.txt"), encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true, "\(text)")
    #expect(!text.contains("Responses"))
  }
}
