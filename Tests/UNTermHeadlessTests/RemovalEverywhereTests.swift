import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UNTermShell
@testable import UNTermState
@testable import UserNotificationsModel

/// A removed or replaced notification is gone from every place it is shown, and nothing answers
/// for it (issue 25.1): every removal path × every place, each a script that puts the
/// notification somewhere, takes it away, then presses every key that could answer for it.
@Suite("A removed notification is gone everywhere", .hangGuard)
struct RemovalEverywhereTests {
  /// Where the notification `r1` is on screen when it is taken away.
  enum Place: String, CaseIterable, CustomTestStringConvertible {
    case banner, bannerOnly, expandedFromBanner, expandedFromList, expandedBannerOnly, replyField, list, stack,
      fannedOutStack, lockScreen, passcodePrompt

    var testDescription: String { rawValue }

    /// Script lines that put `r1` there.
    var setup: [String] {
      switch self {
      case .banner: return ["push old.json as r1"]
      case .bannerOnly: return ["foreground on", "push old.json as r1"]
      case .expandedFromBanner: return ["push old.json as r1", "key space"]
      case .expandedFromList: return ["push old.json as r1", "center", "longpress"]
      case .expandedBannerOnly: return ["foreground on", "push old.json as r1", "key space"]
      case .replyField: return ["push old.json as r1", "key space", "action reply", "type \"on my\""]
      case .list: return ["push old.json as r1", "center"]
      case .stack: return ["push placed.json as r0", "push old.json as r1", "center"]
      case .fannedOutStack: return ["push placed.json as r0", "push old.json as r1", "center", "key down", "key up"]
      case .lockScreen: return ["lock", "push old.json as r1"]
      case .passcodePrompt: return ["lock", "push old.json as r1", "longpress", "action cancel"]
      }
    }
  }

  /// How `r1` is taken away.
  enum Removal: String, CaseIterable, CustomTestStringConvertible {
    case centerRemove, centerClear, scriptRemove, scriptClear, appRemove, appRemoveAll, identifierReplacement,
      collapseIDReplacement, expiredReplacement

    var testDescription: String { rawValue }

    /// The script line that takes it away, for the paths a script has.
    var line: String? {
      switch self {
      case .scriptRemove: return "remove r1"
      case .scriptClear: return "clear"
      case .identifierReplacement: return "push new.json as r1"
      case .collapseIDReplacement: return "push new-collapsed.json"
      case .expiredReplacement: return "push expired.json"
      default: return nil
      }
    }

    /// Whether a newer notification takes `r1`'s place.
    var replaces: Bool { self == .identifierReplacement || self == .collapseIDReplacement }
  }

  /// Keys a user might press afterwards, in every view: a tap, a long-press and its actions,
  /// a reply's send, a passcode, a clear; none of them may answer for the old notification.
  private static let attempts = [
    "key 1", "key enter", "key space", "key 1", "key 2", "key h", "key enter", "key 1", "key 2", "key 3", "key 4",
    "key enter", "key space", "key down", "key 1", "key enter", "key x",
  ]

  private static let categories = #"""
    {"categories":[{"identifier":"order","options":["customDismissAction"],"actions":[
      {"identifier":"track","title":"Track"},
      {"identifier":"reply","title":"Reply","textInput":{"buttonTitle":"Send","placeholder":"Note"}},
      {"identifier":"cancel","title":"Cancel","options":["destructive","authenticationRequired"]}]}]}
    """#

  private static func order(_ title: String, headers: String = "") -> String {
    #"{"aps":{"alert":{"title":"\#(title)","body":"Order 4711"},"thread-id":"o4711","category":"order"}\#(headers)}"#
  }

  /// The folder of one case: the categories and the payloads.
  private func folder() throws -> URL {
    let dir = try Fixtures.temporaryDirectory()
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }
    try write("cats.json", Self.categories)
    // The old one carries the collapse id its replacements name, so it is r1 either way.
    try write("old.json", Self.order("Cooking now", headers: #","apns-headers":{"apns-collapse-id":"r1"}"#))
    try write("placed.json", Self.order("Order placed"))
    try write("new.json", Self.order("On its way"))
    try write("new-collapsed.json", Self.order("On its way", headers: #","apns-headers":{"apns-collapse-id":"r1"}"#))
    try write(
      "expired.json",
      Self.order("Stale update", headers: #","apns-headers":{"apns-collapse-id":"r1","apns-expiration":"1000"}"#))
    return dir
  }

  @Test(arguments: Removal.allCases, Place.allCases)
  func nothingAnswersForARemovedNotification(_ removal: Removal, _ place: Place) throws {
    let dir = try folder()
    let lines =
      ["categories cats.json", "passcode 1234"] + place.setup + ["wait 1ms"] + [removal.line].compactMap { $0 }
      + Self.attempts
    let script = try SessionScript.parse(
      lines.joined(separator: "\n"), file: dir.appendingPathComponent("t.session").path)
    var options = RunOptions()
    // Previews show on the lock screen too, so the old text is there to be seen.
    options.modes.previews = .always
    options.modes.foregroundOptions = [.banner]
    let marker = 2 + place.setup.count + 1
    let watcher = RemovalWatcher(
      removal: removal, markerLine: marker, afterLine: marker + (removal.line == nil ? 0 : 1))
    let result = ScriptRunner(script: script, options: options, observer: watcher).run()
    #expect(result.passed, "\(result.report?.text ?? "")")
    #expect(watcher.shownBefore, "the old notification was not on screen before it was taken away")

    // Right after it was taken away, and at the end, after every key.
    let screens = [watcher.screenAfter, result.screen.joined(separator: "\n")]
    let answeredFor = watcher.responses.filter { $0.notification.request.identifier == "r1" }
    if removal == .expiredReplacement {
      // APNs discards an expired push: it replaces nothing, and the old one is still there.
      #expect(screens.allSatisfy { !$0.contains("Stale update") })
      #expect(watcher.screenAfter.contains("Cooking now"))
      #expect(answeredFor.allSatisfy { $0.notification.request.content.title == "Cooking now" })
    } else {
      for screen in screens { #expect(!screen.contains("Cooking now"), "still on screen:\n\(screen)") }
      if removal.replaces {
        // Whatever answers for r1 now answers for the newer content.
        #expect(answeredFor.allSatisfy { $0.notification.request.content.title == "On its way" })
      } else {
        #expect(
          answeredFor.isEmpty,
          "answered for a removed request: \(answeredFor.map(\.actionIdentifier))\n\(result.screen.joined(separator: "\n"))"
        )
      }
    }
  }

  /// The session's own app's removal (`removeDeliveredNotifications` with an identifier it does
  /// not have) leaves another app's banner alone, and says nothing was removed.
  @Test func anAppsRemovalLeavesAnotherAppsBannerAlone() throws {
    let dir = try folder()
    try Data(
      #"{"aps":{"alert":{"title":"Theirs","body":"B"}},"Simulator Target Bundle":"com.t.other"}"#.utf8
    ).write(to: dir.appendingPathComponent("theirs.json"))
    let script = try SessionScript.parse(
      "push theirs.json as t1\nwait 1ms\nexpect screen \"Theirs\"", file: dir.appendingPathComponent("t.session").path)
    let watcher = RemovalWatcher(removal: .appRemove, markerLine: 2, afterLine: 2, identifier: "t1")
    let result = ScriptRunner(script: script, options: RunOptions(), observer: watcher).run()
    #expect(result.passed, "\(result.report?.text ?? "")")
  }
}

/// Takes the notification away, by the paths a script has no line for, after the marker line;
/// and keeps every response the app got.
private final class RemovalWatcher: ScriptObserver {
  let removal: RemovalEverywhereTests.Removal
  let markerLine: Int
  /// The line after which the notification is gone: the screen is kept then.
  let afterLine: Int
  let identifier: String
  private(set) var screenAfter = ""
  private(set) var responses: [UNNotificationResponse] = []
  private(set) var shownBefore = false

  init(removal: RemovalEverywhereTests.Removal, markerLine: Int, afterLine: Int, identifier: String = "r1") {
    self.removal = removal
    self.markerLine = markerLine
    self.afterLine = afterLine
    self.identifier = identifier
  }

  func scriptWillStart(_ script: SessionScript, session: Session) {}
  func lineWillRun(_ line: SessionScript.Line, session: Session) {}
  func delivered(_ notification: UNNotification, session: Session) {}
  func responded(_ response: UNNotificationResponse, session: Session) { responses.append(response) }
  func scriptDidFinish(_ result: ScriptResult, session: Session) {}

  func lineDidRun(_ line: SessionScript.Line, session: Session) {
    defer { if line.number == afterLine { screenAfter = session.frame().grid.lines.joined(separator: "\n") } }
    guard line.number == markerLine else { return }
    shownBefore = session.frame().grid.lines.joined().contains("Cooking now") || identifier != "r1"
    switch removal {
    case .centerRemove: _ = CenterCommands.carryOut(.remove(identifier), in: session)
    case .centerClear: _ = CenterCommands.carryOut(.clear, in: session)
    case .appRemove: session.center.removeDeliveredNotifications(withIdentifiers: [identifier])
    case .appRemoveAll: session.center.removeAllDeliveredNotifications()
    default: return
    }
    session.drain()
  }
}

/// What a removal leaves: a notification presented as a banner only (in the foreground, not in
/// the list) is still delivered while it is on screen, so removing another one leaves its views
/// open, and `unterm center` counts it.
@Suite("A removal leaves what it does not name", .hangGuard)
struct RemovalLeavesOthersTests {
  @Test func aBannerOnlyViewStaysOpenWhenAnotherIsRemoved() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(#"{"aps":{"alert":{"title":"Cooking now","body":"Order 4711"}}}"#.utf8).write(
      to: dir.appendingPathComponent("old.json"))
    try Data(#"{"aps":{"alert":{"title":"Other","body":"B"}}}"#.utf8).write(to: dir.appendingPathComponent("o.json"))
    let text = """
      foreground on
      push old.json as r1
      key space
      remove r9
      expect screen card "Cooking now"
      remove r1
      expect screen not "Cooking now"
      """
    let script = try SessionScript.parse(text, file: dir.appendingPathComponent("t.session").path)
    var options = RunOptions()
    options.modes.foregroundOptions = [.banner]
    let result = ScriptRunner(script: script, options: options).run()
    #expect(result.passed, "\(result.report?.text ?? "")")
  }

  @Test func untermCenterCountsAndRemovesABannerOnlyNotification() throws {
    let session = try Fixtures.session { $0.foregroundOptions = [.banner] }
    defer { session.detach() }
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(#"{"aps":{"alert":{"title":"Cooking now","body":"Order 4711"}}}"#, into: session, as: "r1")
    session.drain()
    #expect(session.state.store.deliveredCount == 0)
    #expect(session.state.banner != nil)
    #expect(CenterCommands.carryOut(.remove("r1"), in: session) == "OK removed")
    #expect(session.state.banner == nil)
    try Fixtures.push(#"{"aps":{"alert":{"title":"Cooking now","body":"Order 4711"}}}"#, into: session, as: "r2")
    session.drain()
    #expect(CenterCommands.carryOut(.clear, in: session) == "OK 1")
    #expect(session.state.banner == nil)
  }
}
