import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermScript
@testable import UNTermState
@testable import UserNotificationsModel

/// Which sound a notification would play, as a designer doing QA meets it: the activity pane
/// of a script's screen, and of a session whose app answers `willPresent` itself.
@Suite("Sounds in scripts and sessions", .hangGuard)
struct SoundActivityTests {
  private static let payloads = [
    "default.json": #"{"aps":{"alert":{"title":"Ana","body":"Hi"},"sound":"default"}}"#,
    "chime.json": #"{"aps":{"alert":{"title":"Ana","body":"Hi"},"sound":"chime.aiff"}}"#,
    "flood.json":
      #"{"aps":{"alert":{"title":"Flood","body":"Move"},"interruption-level":"critical","sound":{"critical":1,"name":"default","volume":0.9}}}"#,
    "tip.json":
      #"{"aps":{"alert":{"title":"Tip","body":"Dark mode"},"interruption-level":"passive","sound":"default"}}"#,
    "mute.json": #"{"aps":{"alert":{"title":"Quiet","body":"No sound"}}}"#,
    "evil.json": #"{"aps":{"alert":{"title":"Evil","body":"x"},"sound":"\u001b[2Jbell\u202efdp.aiff"}}"#,
  ]

  private func run(_ script: String, options: RunOptions = RunOptions()) throws -> ScriptResult {
    let dir = try Fixtures.temporaryDirectory()
    for (name, text) in Self.payloads { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
    let path = dir.appendingPathComponent("test.session").path
    return ScriptRunner(script: try SessionScript.parse(script, file: path), options: options).run()
  }

  @Test func aScriptSeesDefaultNamedAndCriticalSounds() throws {
    let result = try run(
      """
      push default.json as req-1
      expect screen activity "♪ req-1: default sound"
      push chime.json as req-2
      expect screen activity "♪ req-2: chime.aiff"
      push flood.json as req-3
      expect screen activity "♪ req-3: critical sound"
      expect screen activity "\\"default\\" at volume 90 % (plays"
      expect screen activity "through mute)"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func passiveSilentAndFocusHeldNotificationsPlayNothing() throws {
    let result = try run(
      """
      push tip.json
      push mute.json
      expect screen activity not "♪"
      focus dnd
      push default.json as silenced
      expect screen activity not "♪"
      focus off
      summary 12:00
      push chime.json as held
      expect screen activity "held is held for the next"
      expect screen activity not "♪"
      """)
    #expect(result.passed, "\(result.report ?? "")")
  }

  @Test func theForegroundAnswerDecides() throws {
    var without = RunOptions()
    without.modes.foregroundOptions = [.banner, .list]
    let silent = try run(
      """
      foreground on
      push chime.json as fg
      expect screen "Ana"
      expect screen activity not "♪"
      foreground off
      push chime.json as bg
      expect screen activity "♪ bg: chime.aiff"
      """, options: without)
    #expect(silent.passed, "\(silent.report ?? "")")
    var with = RunOptions()
    with.modes.foregroundOptions = [.banner, .sound]
    let loud = try run(
      "foreground on\npush chime.json as fg\nexpect screen activity \"♪ fg: chime.aiff\"\n", options: with)
    #expect(loud.passed, "\(loud.report ?? "")")
  }

  @Test func anEmbeddingAppsDelegateDecides() throws {
    let session = try Fixtures.session(size: (80, 30))
    defer { session.detach() }
    let delegate = RecordingDelegate(presentation: [.banner, .list])
    session.center.delegate = delegate
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(try #require(Self.payloads["chime.json"]), into: session, as: "quiet")
    #expect(session.state.banner?.notification.request.identifier == "quiet")
    #expect(!session.state.notices.contains { $0.text.hasPrefix("♪") })
    let loud = RecordingDelegate(presentation: [.banner, .list, .sound])
    session.center.delegate = loud
    try Fixtures.push(try #require(Self.payloads["chime.json"]), into: session, as: "loud")
    #expect(session.state.notices.map(\.text).filter { $0.hasPrefix("♪") } == ["♪ loud: chime.aiff"])
  }

  /// The name's escape sequence and bidi override reach the screen as placeholders.
  @Test func aHostileSoundNameIsShownSafely() throws {
    let session = try Fixtures.session(size: (80, 30))
    defer { session.detach() }
    try Fixtures.push(try #require(Self.payloads["evil.json"]), into: session, as: "evil")
    let screen = session.frame().grid.text
    #expect(screen.contains("♪ evil: ␛[2Jbell‹RLO›fdp.aiff"), "\(screen)")
    #expect(!screen.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
  }
}
