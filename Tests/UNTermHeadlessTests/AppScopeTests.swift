import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput

/// The categories a user passes apply to the app they test (issue 25.4): without `--bundle`, a
/// bare `--categories FILE` serves every app that has none of its own, so a payload naming its
/// app (Xcode's `Simulator Target Bundle`) shows its actions.
@Suite("A bare categories file serves the app under test", .hangGuard)
struct BareCategoriesTests {
  private let meeting = Fixtures.sample("meeting.json")  // com.example.calendar's
  private let categories = Fixtures.sample("categories.json")

  private func unterm(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments)
  }

  private func expanded(_ options: [String]) throws -> String {
    let out = try unterm(["render", "--view", "expanded", "--now", "2026-01-01T00:00:00Z"] + options + [meeting])
    #expect(out.status == 0, "\(out.stderr)")
    return out.stdout
  }

  @Test func withoutABundleABareFileServesThePayloadsApp() throws {
    let screen = try expanded(["--categories", categories])
    #expect(screen.contains("1  Accept"), "\(screen)")
    #expect(screen.contains("4  Open Calendar"), "\(screen)")
  }

  @Test func withABundleABareFileIsThatAppsOnlyAndTheNoticeSaysSo() throws {
    let screen = try expanded(["--bundle", "com.example.app", "--categories", categories])
    #expect(!screen.contains("Accept"), "\(screen)")
    let listed = try unterm(
      ["render", "--bundle", "com.example.app", "--categories", categories, "--size", "100x30", meeting])
    #expect(listed.stdout.contains("registered for"), "\(listed.stdout)")
    // Scoped to the app, as before.
    #expect(try expanded(["--categories", "com.example.calendar=\(categories)"]).contains("1  Accept"))
  }

  @Test func anAppWithCategoriesOfItsOwnKeepsThem() throws {
    let dir = try Fixtures.temporaryDirectory()
    let own = dir.appendingPathComponent("own.json")
    try Data(
      #"{"categories":[{"identifier":"meeting-invite","actions":[{"identifier":"join","title":"Join Call"}]}]}"#.utf8
    ).write(to: own)
    let screen = try expanded(["--categories", categories, "--categories", "com.example.calendar=\(own.path)"])
    #expect(screen.contains("1  Join Call"), "\(screen)")
    #expect(!screen.contains("Accept"), "\(screen)")
  }

  @Test func lintChecksThePayloadAgainstTheCategoriesItWasGiven() throws {
    let bare = try unterm(["lint", "--categories", categories, meeting])
    #expect(!bare.stdout.contains("unknown-category"), "\(bare.stdout)")
    let scoped = try unterm(["lint", "--bundle", "com.example.app", "--categories", categories, meeting])
    #expect(scoped.stdout.contains("unknown-category"), "\(scoped.stdout)")
  }

  @Test func aScriptsBareCategoriesServeThePayloadsApp() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data("categories \(categories)\npush \(meeting)\nlongpress\naction accept\nexpect response accept\n".utf8)
      .write(to: dir.appendingPathComponent("m.session"))
    let run = try unterm(["run", dir.appendingPathComponent("m.session").path])
    #expect(run.status == 0, "\(run.stdout)")
  }

  /// Content extensions and the app's strings are not per app: a bare `--extension` and
  /// `--strings` serve the payload's app as well.
  @Test func extensionsAndStringsServeEveryApp() throws {
    let dir = try Fixtures.temporaryDirectory()
    let descriptor = dir.appendingPathComponent("ext.json")
    try Data(
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"meeting-invite","UNNotificationExtensionInitialContentSizeRatio":0.2,"UNNotificationExtensionDefaultContentHidden":true},"view":{"elements":[{"label":"Agenda for {{userInfo.event-id}}","style":"body"}]}}"#
        .utf8
    ).write(to: descriptor)
    let screen = try expanded(["--categories", categories, "--extension", descriptor.path])
    #expect(screen.contains("Agenda for EVT-20261129-1500"), "\(screen)")
    let payload = dir.appendingPathComponent("loc.json")
    try Data(
      #"{"aps":{"alert":{"title-loc-key":"GAME_INVITE_TITLE","title-loc-args":["Jenna"]}},"Simulator Target Bundle":"com.example.games"}"#
        .utf8
    ).write(to: payload)
    let localized = try unterm(["render", "--strings", Fixtures.sample("Localization"), "--locale", "en", payload.path])
    #expect(localized.stdout.contains("Game invite from Jenna"), "\(localized.stdout)")
  }
}

/// `unterm run` takes every session option and mode that applies to a script, as each script's
/// starting state, and scripts can say the same with `bundle`, `app-name` and `previews`
/// (issue 25.9).
@Suite("Scripts start from the session options", .hangGuard)
struct RunSessionOptionsTests {
  private func folder(_ script: String) throws -> URL {
    let dir = try Fixtures.temporaryDirectory()
    try Data(#"{"aps":{"alert":{"title":"Your dabba is here","body":"Paneer thali"},"category":"order"}}"#.utf8)
      .write(to: dir.appendingPathComponent("order.json"))
    try Data(
      #"{"categories":[{"identifier":"order","actions":[{"identifier":"rate","title":"Rate","options":["authenticationRequired"]}]}]}"#
        .utf8
    ).write(to: dir.appendingPathComponent("cats.json"))
    try Data(script.utf8).write(to: dir.appendingPathComponent("s.session"))
    return dir
  }

  private func run(_ options: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, ["run"] + options + ["s.session"], directory: dir.path)
  }

  @Test func theBundleAndTheAppsNameComeFromTheCommandLine() throws {
    let dir = try folder("push order.json\nexpect screen \"Dabba\"\nexpect screen not \"App \"\n")
    let out = try run(["--bundle", "com.dabba.app", "--app-name", "Dabba"], in: dir)
    #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
    // Without them the header says App, and the same script fails.
    #expect(try run([], in: dir).status == 1)
    // Derived from the bundle's last part: Dabba.
    #expect(try run(["--bundle", "com.example.Dabba"], in: dir).status == 0)
  }

  @Test func categoriesDeviceLockPasscodeAndPreviewsStartTheScript() throws {
    let dir = try folder(
      """
      expect screen "iPad"
      expect screen "Locked"
      push order.json
      expect screen "Your dabba is here"
      longpress
      action rate
      type "2468"
      key enter
      expect response rate

      """)
    let out = try run(
      ["--categories", "cats.json", "--device", "ipad", "--locked", "--passcode", "2468", "--previews", "always"],
      in: dir)
    #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
    // With previews hidden while locked (the default), the title is not on the lock screen.
    let hidden = try run(["--categories", "cats.json", "--device", "ipad", "--locked", "--passcode", "2468"], in: dir)
    #expect(hidden.status == 1)
    #expect(hidden.stdout.contains("expected the screen to show \"Your dabba is here\""), "\(hidden.stdout)")
  }

  @Test func theScriptsOwnBundleAppNameAndPreviewsCommands() throws {
    let dir = try folder(
      """
      bundle com.dabba.app
      app-name Dabba
      app-name com.other.app=Other
      previews never
      categories cats.json
      push order.json
      expect screen "Dabba"
      expect screen not "Your dabba is here"
      previews always
      expect screen "Your dabba is here"

      """)
    let out = try run([], in: dir)
    #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
    let bad = try folder("bundle not/a/bundle\n")
    let refused = try run([], in: bad)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("s.session:1:8: error: expected a bundle identifier"), "\(refused.stderr)")
  }

  @Test func theLocaleStringsAndTextSizeStartTheScript() throws {
    let dir = try folder("push \(Fixtures.sample("localized.json"))\nexpect screen \"3 জন খেলোয়াড়\"\n")
    let out = try run(["--strings", Fixtures.sample("Localization"), "--locale", "bn"], in: dir)
    #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
    // Scripts start in English when no --locale is given, whatever the environment says.
    let english = try Fixtures.run(
      Fixtures.unterm, ["run", "--strings", Fixtures.sample("Localization"), "s.session"],
      environment: ["LANG": "bn_BD.UTF-8"], directory: dir.path)
    #expect(english.status == 1)
  }

  @Test func runsHelpListsTheSessionOptions() throws {
    let help = try Fixtures.run(Fixtures.unterm, ["run", "--help"])
    for option in [
      "--bundle ID", "--app-name [ID=]NAME", "--categories [ID=]FILE", "--extension FILE", "--strings PATH",
    ] {
      #expect(help.stdout.contains(option), "\(option)")
    }
    for command in ["bundle ID", "app-name [ID=]NAME", "previews always|when-unlocked|never"] {
      #expect(help.stdout.contains("  \(command)"), "\(command)")
    }
  }
}
