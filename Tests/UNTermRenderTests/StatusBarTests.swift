import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState
@testable import UserNotificationsUI

/// The status bar on narrow terminals: with a Focus, a text size, the device language and the
/// lock all on, it gives up the extra key hints first, then shortens, then leaves out whole items
/// the least important first — it never cuts one in the middle.
@Suite("Status bar")
struct StatusBarTests {
  private func statusBars(
    _ widths: [Int], focus: FocusMode = .named("Work"), textSize: DynamicTypeSize = .xxLarge, locked: Bool = true,
    badge: Bool = false
  ) throws -> [String] {
    let session = try Fixtures.session(size: (80, 12)) {
      $0.focus = focus
      $0.textSize = textSize
      $0.stringsPaths = [Fixtures.sample("Localization")]
      $0.locale = "bn"
      $0.locked = locked
    }
    defer { session.detach() }
    if badge {
      try Fixtures.push(#"{"aps":{"alert":{"title":"Ana Lima","body":"Dinner?"},"badge":3}}"#, into: session)
    }
    return widths.map { width in
      session.resize(width: width, height: 12)
      return session.frame().grid.lines.last ?? ""
    }
  }

  @Test func focusTextSizeLanguageAndLockAt80_60And40Columns() throws {
    let bars = try statusBars([80, 60, 40])
    #expect(
      bars == [
        " iPhone · Locked · Work · Text xxLarge · bn │ L unlock  ? keys",
        // The key hints between the first and the last go first.
        " iPhone · Locked · Work · Text xxLarge · bn │ ? keys",
        // The text size's short form, then the default device gives way; the language is whole.
        " Locked · Work · Text xxl · bn │ ? keys",
      ])
  }

  @Test(
    "o takes the device offline and back: the bar says Offline beside the lock, kept as long as the Focus, and the pane says what APNs does"
  )
  func offlineKey() throws {
    let session = try Fixtures.session(size: (60, 12)) { $0.focus = .doNotDisturb }
    defer { session.detach() }
    session.send(.key(.character("o")))
    let offline = session.frame().grid.lines
    #expect(offline.last == " iPhone · Unlocked · Offline · Do Not Disturb │ ? keys")
    #expect(
      session.state.notices.last?.text
        == "The device is offline: APNs holds each app's newest push until it is back online")
    session.resize(width: 30, height: 12)
    #expect(session.frame().grid.lines.last == " Offline · DND │ ? keys")
    session.resize(width: 60, height: 12)
    session.send(.key(.character("o")))
    #expect(session.frame().grid.lines.last == " iPhone · Unlocked · Do Not Disturb │ c list  ? keys")
    #expect(session.state.notices.last?.text == "The device is back online: APNs delivers what it held")
  }

  @Test func shorterFormsComeBeforeDroppingItems() throws {
    let bars = try statusBars([80, 60, 40], badge: true)
    #expect(
      bars == [
        " iPhone · Locked · Work · Text xxLarge · badge 3 · bn │ Space actions  ? keys",
        // The text size is shortened rather than anything dropped.
        " iPhone · Locked · Work · Text xxl · badge 3 · bn │ ? keys",
        // The badge goes first, then the default device.
        " Locked · Work · Text xxl · bn │ ? keys",
      ])
    // Do Not Disturb's short form is DND.
    #expect(try statusBars([40], focus: .doNotDisturb) == [" Locked · DND · Text xxl · bn │ ? keys"])
  }

  @Test func aVeryNarrowBarKeepsTheModesWholeAndDropsTheKeysHint() throws {
    // "Unlocked" is the default state: it goes before anything else.
    let unlocked = try statusBars([34], locked: false)
    #expect(unlocked == [" Work · Text xxl · bn │ ? keys"])
    // Then the keys hint goes, before any mode, then the modes the least important first.
    let bars = try statusBars([30, 24])
    #expect(bars == [" Locked · Work · Text xxl · bn", " Locked · Work · bn"])
    // A long Focus name has a short form too.
    let named = try statusBars([24], focus: .named("Personal Time"))
    #expect(named == [" Locked · Focus · bn"])
    // No item is ever cut in the middle, at any width.
    let known = ["iPhone", "Locked", "Work", "Text xxLarge", "Text xxl", "badge 3", "bn"]
    for (width, line) in zip(24...80, try statusBars(Array(24...80), badge: true)) {
      #expect(DisplayWidth.of(line) <= width, "\(width): \(line)")
      let left = line.split(separator: "│").first ?? ""
      for item in left.split(separator: "·").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
        #expect(known.contains(item), "\(width): \(line)")
      }
    }
  }
}

/// Every app has its own badge, and the emulator has no home screen to show them on: the status
/// bar shows the session's own app's as `badge N`, then each other app's by name; too narrow,
/// it gives up the other apps' badges before the app's own (the last first).
@Suite("Status bar: badges per app")
struct StatusBarBadgeTests {
  private func statusBars(_ widths: [Int], names: [String: String] = [:], pushes: [String]) throws -> [String] {
    // As a terminal without bidi shows the bar: an Urdu name reordered and joined.
    let session = try Fixtures.session(size: (80, 12)) {
      $0.appNames = names
      $0.outputBidi = .visual
    }
    defer { session.detach() }
    for json in pushes { try Fixtures.push(json, into: session) }
    return widths.map { width in
      session.resize(width: width, height: 12)
      return session.frame().grid.lines.last ?? ""
    }
  }

  private static let mine = #"{"aps":{"alert":{"title":"Inbox","body":"New mail"},"badge":5}}"#
  private static func push(_ app: String, badge: Int) -> String {
    #"{"aps":{"alert":{"title":"Hi","body":"b"},"badge":\#(badge)},"Simulator Target Bundle":"\#(app)"}"#
  }

  @Test func theAppsBadgeThenOthersByNameGivenUpBeforeTheAppsOwn() throws {
    let pushes = [Self.mine, Self.push("com.example.messages", badge: 3), Self.push("com.acme.bank", badge: 12)]
    let bars = try statusBars([80, 60, 40, 24], pushes: pushes)
    #expect(
      bars == [
        " iPhone · Unlocked · badge 5 · Bank badge 12 · Messages badge 3 │ ? keys",
        // "Unlocked" goes first, then the other apps' badges, the last first…
        " iPhone · badge 5 · Bank badge 12 │ ? keys",
        " iPhone · badge 5 │ ? keys",
        // …and the app's own badge last of the three, as before.
        " iPhone │ ? keys",
      ])
    // No item is ever cut in the middle, at any width.
    let known = ["iPhone", "Unlocked", "badge 5", "Bank badge 12", "Messages badge 3"]
    for (width, line) in zip(24...80, try statusBars(Array(24...80), pushes: pushes)) {
      #expect(DisplayWidth.of(line) <= width, "\(width): \(line)")
      let left = line.split(separator: "│").first ?? ""
      for item in left.split(separator: "·").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
        #expect(known.contains(item), "\(width): \(line)")
      }
    }
  }

  /// Names are the headers' (`--app-name`), sanitized, shortened past 16 columns; an Urdu name
  /// stays before its badge.
  @Test func longAndRightToLeftNames() throws {
    let names = ["com.acme.bank": "بینک الحبیب", "com.example.messages": "Ev\u{1B}[2Jil Messages App"]
    let pushes = [Self.push("com.acme.bank", badge: 12), Self.push("com.example.messages", badge: 3)]
    let bars = try statusBars([80, 50], names: names, pushes: pushes)
    #expect(
      bars == [
        " iPhone · Unlocked · Ev␛[2Jil Messag… badge 3 · ﺐﯿﺒﺤﻟﺍ ﮏﻨﯿﺑ badge 12 │ ? keys",
        " iPhone · Ev␛[2Jil Messag… badge 3 │ ? keys",
      ])
  }
}
