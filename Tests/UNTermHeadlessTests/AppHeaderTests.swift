import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermScript
@testable import UserNotificationsModel

/// A long app name gives way in the card header: the time and the interruption-level tag stay,
/// the name is shortened with an ellipsis (banner, list card, expanded view, lock screen).
@Suite("App names in headers", .hangGuard)
struct AppHeaderTests {
  private let timeSensitive =
    #"{"aps":{"alert":{"title":"Delivery","body":"At the door"},"category":"message","interruption-level":"time-sensitive"},"Simulator Target Bundle":"com.x"}"#

  private func session(_ name: String, width: Int, locked: Bool = false) throws -> Session {
    // As a terminal without bidi shows them: UNTerm reorders and joins the letters.
    let session = try Fixtures.session(size: (width, 24)) {
      $0.outputBidi = .visual
      $0.appNames["com.x"] = name
      $0.locked = locked
      $0.categoriesFiles.append(AppCategoriesFile(app: "com.x", path: Fixtures.sample("categories.json")))
    }
    try Fixtures.push(timeSensitive, into: session, as: "n")
    return session
  }

  /// The header rows of the banner, the list card, the expanded view and the lock screen's card.
  private func headers(_ name: String, width: Int) throws -> [String] {
    func row(_ session: Session, _ y: Int) -> String {
      let line = session.frame().grid.lines[y]
      // The card only, to its right border (at 80 columns the panes stand to its right).
      let end = line.lastIndex { $0 == "│" || $0 == "┃" }.map { line.index(after: $0) } ?? line.endIndex
      return String(line[..<end])
    }
    let unlocked = try session(name, width: width)
    var rows = [row(unlocked, 1)]
    unlocked.send(.command(.openCenter))
    rows.append(row(unlocked, 3))
    unlocked.send(.command(.longPress))
    rows.append(row(unlocked, 1))
    rows.append(row(try session(name, width: width, locked: true), 3))
    return rows
  }

  @Test func aLongNameIsShortenedAndTheTagAndTimeStay() throws {
    #expect(
      try headers("Some Very Long Application Name Here", width: 40) == [
        " │ Some Very Lo… · Time Sensitive now │",
        " ┃ Some Very Lo… · Time Sensitive now ┃",
        " │ Some Very… · Time Sensitive now  ✕ │",
        " ┃ Some Very Lo… · Time Sensitive now ┃",
      ])
    #expect(
      try headers("Some Very Long Application Name Here", width: 80) == [
        " │ Some Very Long Appl… · Time Sensitive now │",
        " ┃ Some Very Long Appl… · Time Sensitive now ┃",
        " │ Some Very Long A… · Time Sensitive now  ✕ │",
        " ┃ Some Very Long Appl… · Time Sensitive now ┃",
      ])
  }

  @Test func aWideNameIsShortenedByWholeCharacters() throws {
    // A wide character that would straddle the cut is left out: a space pads the column.
    #expect(
      try headers("日本語のとても長いアプリケーションの名前です", width: 40) == [
        " │ 日本語のとて… · Time Sensitive now │",
        " ┃ 日本語のとて… · Time Sensitive now ┃",
        " │ 日本語の… · Time Sensitive  now  ✕ │",
        " ┃ 日本語のとて… · Time Sensitive now ┃",
      ])
    #expect(
      try headers("日本語のとても長いアプリケーションの名前です", width: 80) == [
        " │ 日本語のとても長い… · Time Sensitive  now │",
        " ┃ 日本語のとても長い… · Time Sensitive  now ┃",
        " │ 日本語のとても長… · Time Sensitive now  ✕ │",
        " ┃ 日本語のとても長い… · Time Sensitive  now ┃",
      ])
  }

  @Test(arguments: [40, 80])
  func aRightToLeftNameIsShortenedAndTheTagAndTimeStay(width: Int) throws {
    // The name, shortened, is a right-to-left paragraph of its own (its ellipsis at its end,
    // the left); the tag follows it in the device's left-to-right order, as separate labels do.
    for header in try headers("بہت لمبا ایپلیکیشن نام یہاں ہے اور مزید", width: width) {
      #expect(header.dropFirst(3).hasPrefix("…"), "\(header)")
      #expect(header.contains(" · Time Sensitive"), "\(header)")
      #expect(!header.contains("Time Sensitive ·"), "\(header)")
      #expect(header.contains(" now"), "\(header)")
      #expect(!header.contains("مزید"), "\(header)")
    }
  }

  @Test func aRightToLeftNameKeepsTheTagsAfterIt() throws {
    // As iOS lays out the header's labels on an English device: the name, then its tags.
    let rows = try headers("پیغامات", width: 40)
    #expect(rows[0].hasPrefix(" │ ﺕﺎﻣﺎﻐﯿﭘ · Time Sensitive"), "\(rows[0])")
    for row in rows { #expect(row.contains(" · Time Sensitive"), "\(row)") }
  }

  @Test func aShortNameIsUnchanged() throws {
    #expect(try headers("Acme", width: 40)[0] == " │ Acme · Time Sensitive          now │")
  }
}

/// A push whose category is registered only for another app: the activity pane says so as
/// lint does, once for the app and category however many such pushes come.
@Suite("Another app's category in the activity pane", .hangGuard)
struct AnotherAppsCategoryNoticeTests {
  @Test func thePaneSaysWhoseTheCategoryIsOnce() throws {
    var configuration = SessionConfiguration()
    configuration.categoriesFiles = [AppCategoriesFile(app: "com.t.a", path: Fixtures.sample("categories.json"))]
    let session = try SessionFactory.make(configuration, now: Fixtures.now)
    session.resize(width: 80, height: 24)
    let theirs = #"{"aps":{"alert":"x","category":"message"},"Simulator Target Bundle":"com.t.b"}"#
    let own = #"{"aps":{"alert":"y","category":"message"},"Simulator Target Bundle":"com.t.a"}"#
    try Fixtures.push(theirs, into: session, as: "b1")
    try Fixtures.push(theirs, into: session, as: "b2")
    try Fixtures.push(own, into: session, as: "a1")
    let said = session.state.notices.map(\.text).filter { $0.contains("is not registered for app") }
    #expect(
      said == [
        #"b1: category "message" is not registered for app "com.t.b"; on iOS the notification shows with no action buttons and no error. It is registered for "com.t.a" only: a notification finds only its own app's categories (register it for this app with --categories com.t.b=FILE)."#
      ])
    #expect(session.frame().grid.text.contains("b1: category \"message\" is"))
  }

  @Test func aScriptsPushSaysItToo() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(#"{"aps":{"alert":"x","category":"message"},"Simulator Target Bundle":"com.t.b"}"#.utf8).write(
      to: dir.appendingPathComponent("b.json"))
    let script = try SessionScript.parse(
      """
      size 100x30
      categories com.t.a=\(Fixtures.sample("categories.json"))
      push b.json
      expect screen "is not registered for app"

      """, file: dir.appendingPathComponent("t.session").path)
    let result = ScriptRunner(script: script, options: RunOptions()).run()
    #expect(result.passed, "\(result.report ?? "")")
  }
}

/// The activity notes and the status line name the app they are about, not the default one.
@Suite("Notes name the right app", .hangGuard)
struct AppNotesTests {
  @Test func openingAnotherAppsNotificationNamesBothApps() throws {
    let session = try Fixtures.session(size: (100, 24)) {
      $0.appName = "Mine"
      $0.appNames["com.t.bank"] = "Acme Bank"
      $0.foregroundOptions = [.banner, .list]
    }
    session.send(.command(.setAppState(.foreground)))
    #expect(session.frame().grid.text.contains("Mine is open"))
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Sign-in","body":"New device"}},"Simulator Target Bundle":"com.t.bank"}"#,
      into: session, as: "bank")
    session.send(.command(.tap))
    let notes = session.state.notices.map(\.text)
    #expect(notes.contains("Mine moved to the background"), "\(notes)")
    #expect(notes.contains("Opened Acme Bank from the notification"), "\(notes)")
    #expect(!session.frame().grid.text.contains("Mine is open"))
    // The session's own notification opens the session's own app.
    try Fixtures.push(#"{"aps":{"alert":{"title":"Own","body":"b"}}}"#, into: session, as: "own")
    session.send(.command(.tap))
    #expect(session.state.notices.map(\.text).contains("Opened Mine from the notification"))
  }
}
