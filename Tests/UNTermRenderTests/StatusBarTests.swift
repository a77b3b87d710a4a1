import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel

@testable import UNTermCore
@testable import UNTermHeadless
@testable import UNTermRender
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
