import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import unterm

/// Issue 10 point 8: a design kept as `payloads/` beside `media/` works the same in scripts,
/// `render`, `lint` and the interactive session, with the same option; a refusal says which
/// option admits the file.
@Suite("The media folder, in every command", .hangGuard)
struct MediaFolderTests {
  /// `payloads/photo.json` names `../media/avatar.png`: outside the payload's own folder.
  private func makeDesign() throws -> URL {
    let root = try Fixtures.temporaryDirectory()
    for folder in ["payloads", "media", "scripts"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(
      at: Fixtures.samples.appendingPathComponent("media/avatar.png"),
      to: root.appendingPathComponent("media/avatar.png"))
    try Data(
      #"{"aps":{"alert":{"title":"Ana Lima","body":"A photo"},"mutable-content":1},"attachment-url":"../media/avatar.png"}"#
        .utf8
    ).write(to: root.appendingPathComponent("payloads/photo.json"))
    return root
  }

  private func script(_ root: URL, _ name: String, _ text: String) throws -> String {
    let url = root.appendingPathComponent("scripts/\(name).session")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test func runTakesMediaDirAsAnOptionAndAsAScriptCommand() throws {
    let root = try makeDesign()
    let attached = "push ../payloads/photo.json\nexpect screen activity \"attached PNG\"\n"
    let command = try script(root, "command", "media-dir ../media\n" + attached)
    let byCommand = try Fixtures.run(Fixtures.unterm, ["run", command])
    #expect(byCommand.status == 0, "\(byCommand.stdout)\(byCommand.stderr)")

    let plain = try script(root, "plain", attached)
    let byOption = try Fixtures.run(
      Fixtures.unterm, ["run", "--media-dir", "media", "scripts/plain.session"], directory: root.path)
    #expect(byOption.status == 0, "\(byOption.stdout)\(byOption.stderr)")

    // Without either, the refusal says how to admit the file.
    let refused = try Fixtures.run(Fixtures.unterm, ["run", plain])
    #expect(refused.status == 1)
    let watcher = NoticeWatcher()
    let parsed = try SessionScript.parse(attached, file: plain)
    _ = ScriptRunner(script: parsed, options: RunOptions(), observer: watcher).run()
    #expect(
      watcher.notices.contains {
        $0.contains("outside the media folder")
          && $0.contains("allow it with media-dir in the script (or run --media-dir)")
      }, "\(watcher.notices)")
  }

  @Test func aScriptsMediaDirMustBeAFolder() throws {
    let root = try makeDesign()
    let path = try script(root, "missing", "media-dir ../nowhere\npush ../payloads/photo.json\n")
    let result = try Fixtures.run(Fixtures.unterm, ["run", path])
    #expect(result.status == 66)
    #expect(result.stderr.hasSuffix("nowhere: error: no such folder (media-dir)\n"), "\(result.stderr)")
  }

  /// `--media-dir` names a folder that must exist, in every command, as the script's
  /// `media-dir` does: a mistyped one is exit 66 naming it, not a warning that blames each
  /// payload's attachment for lying "outside the media folder".
  @Test func theOptionsFolderMustExistInEveryCommand() throws {
    let root = try makeDesign()
    _ = try script(root, "plain", "push ../payloads/photo.json\n")
    // lint reports it as a finding (on stdout), the others as an error line (on stderr).
    for (arguments, onStdout) in [
      (["render", "--media-dir", "nowhere", "payloads/photo.json"], false),
      (["render", "--media-dir", "payloads/photo.json", "payloads/photo.json"], false),
      (["sheet", "--out", "-", "--media-dir", "nowhere", "payloads/photo.json"], false),
      (["run", "--media-dir", "nowhere", "scripts/plain.session"], false),
      (["lint", "--media-dir", "nowhere", "payloads/photo.json"], true),
    ] {
      let result = try Fixtures.run(Fixtures.unterm, arguments, directory: root.path)
      let said = onStdout ? result.stdout : result.stderr
      #expect(result.status == 66, "\(arguments): \(result.stdout)\(result.stderr)")
      let named = try #require(arguments.firstIndex(of: "--media-dir").map { arguments[$0 + 1] })
      let reason = named == "nowhere" ? "no such folder (--media-dir)" : "not a folder (--media-dir)"
      #expect(said.contains("\(named):") && said.contains("error"), "\(arguments): \(said)")
      #expect(said.contains(reason), "\(arguments): \(said)")
    }
    let (options, _) = try Arguments(
      ["--media-dir", root.appendingPathComponent("nowhere").path], command: .interactive
    ).parse()
    #expect(throws: UNTermError.self) { try options.session.checkFiles(payloads: []) }
  }

  @Test func renderTakesTheSameOption() throws {
    let root = try makeDesign()
    let base = ["render", "--now", "2026-01-01T09:41:00Z", "--size", "80x24", "--color", "never"]
    let with = try Fixtures.run(
      Fixtures.unterm, base + ["--media-dir", "media", "payloads/photo.json"], directory: root.path)
    #expect(with.status == 0)
    #expect(with.stdout.contains("attached PNG"), "\(with.stdout)")
    #expect(with.stdout.contains("▀"), "the picture is drawn")
    let without = try Fixtures.run(Fixtures.unterm, base + ["payloads/photo.json"], directory: root.path)
    #expect(!without.stdout.contains("▀"))
    #expect(without.stdout.contains("with --media-dir"), "\(without.stdout)")
  }

  @Test func lintTakesTheSameOption() throws {
    let root = try makeDesign()
    let with = try Fixtures.run(
      Fixtures.unterm, ["lint", "--media-dir", "media", "payloads/photo.json"], directory: root.path)
    #expect(!with.stdout.contains("attachment-rejected"), "\(with.stdout)")
    let without = try Fixtures.run(Fixtures.unterm, ["lint", "payloads/photo.json"], directory: root.path)
    #expect(without.stdout.contains("warning[attachment-rejected]"))
    #expect(without.stdout.contains("allow it with --media-dir"), "\(without.stdout)")
  }

  /// The interactive command's options, read as it reads them, make a session that reads the
  /// attachment from the media folder.
  @Test func theInteractiveSessionTakesTheSameOption() throws {
    let root = try makeDesign()
    let payload = root.appendingPathComponent("payloads/photo.json").path
    for (arguments, attached) in [
      (["--media-dir", root.appendingPathComponent("media").path, payload], true), ([payload], false),
    ] {
      let (options, payloads) = try Arguments(arguments, command: .interactive).parse()
      let session = try SessionFactory.make(options.session, now: Fixtures.now)
      for path in payloads { try session.push(try Payload.load(path)) }
      session.finishServiceExtensions(within: 5)
      let shown = try #require(session.state.store.deliveredNewestFirst.first)
      #expect(shown.request.content.attachments.count == (attached ? 1 : 0), "\(arguments)")
      if !attached {
        #expect(session.state.notices.contains { $0.text.contains("allow it with --media-dir") })
      }
    }
  }
}

/// Keeps the activity pane's notices when a script ends.
private final class NoticeWatcher: ScriptObserver {
  var notices: [String] = []
  func scriptWillStart(_ script: SessionScript, session: Session) {}
  func lineWillRun(_ line: SessionScript.Line, session: Session) {}
  func lineDidRun(_ line: SessionScript.Line, session: Session) {}
  func delivered(_ notification: UNNotification, session: Session) {}
  func responded(_ response: UNNotificationResponse, session: Session) {}
  func scriptDidFinish(_ result: ScriptResult, session: Session) { notices = session.state.notices.map(\.text) }
}
