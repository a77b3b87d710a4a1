import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState
@testable import UserNotificationsModel

/// The sound a presented notification would play, as one line in the activity pane: which
/// sound, and none where iOS plays none (reference 1, 1.4, 1.5, 4.2; fact 25).
@Suite("Sounds in the activity pane")
struct SoundNoteTests {
  private func state(_ configure: (inout CenterSettings) -> Void = { _ in }) -> CenterState {
    var s = CenterState(now: Fixtures.now)
    var settings = CenterSettings()
    configure(&settings)
    _ = s.handle(.configure(settings))
    return s
  }

  private func notification(
    _ id: String, sound: UNNotificationSound?, level: UNNotificationInterruptionLevel = .active
  ) -> UNNotification {
    let content = UNMutableNotificationContent()
    content.title = "Title \(id)"
    content.body = "Body \(id)"
    content.sound = sound
    content.interruptionLevel = level
    return UNNotification(
      request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: Fixtures.now)
  }

  /// The sound lines, oldest first.
  private func soundLines(_ s: CenterState) -> [String] {
    s.notices.map(\.text).filter { $0.hasPrefix("♪") }
  }

  private func deliver(
    _ n: UNNotification, into s: inout CenterState, _ options: UNNotificationPresentationOptions? = nil
  ) {
    _ = s.handle(.deliver(n, presentation: options ?? CenterState.backgroundPresentation(for: n.request.content)))
  }

  @Test func eachKindOfSoundIsNamed() {
    var s = state()
    deliver(notification("req-1", sound: .default), into: &s)
    deliver(notification("req-2", sound: UNNotificationSound(named: UNNotificationSoundName("chime.aiff"))), into: &s)
    deliver(notification("req-3", sound: .defaultCriticalSound(withAudioVolume: 0.9)), into: &s)
    deliver(notification("req-4", sound: .criticalSoundNamed(UNNotificationSoundName("siren.caf"))), into: &s)
    // A critical notification plays even a normal sound through the mute switch (1.5).
    deliver(notification("req-5", sound: .default, level: .critical), into: &s)
    deliver(notification("req-6", sound: .defaultCriticalSound(withAudioVolume: 0)), into: &s)
    #expect(
      soundLines(s) == [
        "♪ req-1: default sound",
        "♪ req-2: chime.aiff",
        "♪ req-3: critical sound \"default\" at volume 90 % (plays through mute)",
        "♪ req-4: critical sound \"siren.caf\" (plays through mute)",
        "♪ req-5: default sound (plays through mute)",
        "♪ req-6: critical sound \"default\" at volume 0 % (plays through mute)",
      ])
  }

  @Test func noLineWhereIOSPlaysNoSound() {
    var s = state()
    // Passive: no sound even when the options would allow one (fact 25).
    deliver(notification("passive", sound: .default, level: .passive), into: &s, [.banner, .list, .sound])
    // No sound in the payload.
    deliver(notification("quiet", sound: nil), into: &s)
    // A foreground answer without .sound.
    deliver(notification("fg", sound: .default), into: &s, [.banner, .list, .badge])
    #expect(soundLines(s) == [])
    // With .sound it plays, even with nothing shown (the option is "play the sound", 4.2).
    deliver(notification("fg-sound", sound: .default), into: &s, [.sound])
    #expect(soundLines(s) == ["♪ fg-sound: default sound"])
  }

  @Test func focusAndTheSummaryHoldTheSound() {
    var focus = state { $0.focus = .doNotDisturb }
    deliver(notification("silenced", sound: .default), into: &focus)
    #expect(soundLines(focus) == [])
    // A time-sensitive one breaks through, with its sound.
    deliver(notification("urgent", sound: .default, level: .timeSensitive), into: &focus)
    #expect(soundLines(focus) == ["♪ urgent: default sound"])
    var summary = state { $0.summaryTimes = [DayTime(hour: 12, minute: 0)].compactMap { $0 } }
    deliver(notification("held", sound: .default), into: &summary)
    #expect(summary.held.count == 1)
    #expect(soundLines(summary) == [])
  }

  /// A push with a sound and no alert text shows nothing, but its sound plays; a Focus quiets it.
  @Test func aSoundOnlyPushPlaysItsSound() {
    func soundOnly(_ id: String) -> UNNotification {
      let content = UNMutableNotificationContent()
      content.sound = UNNotificationSound(named: UNNotificationSoundName("ping.caf"))
      return UNNotification(
        request: UNNotificationRequest(identifier: id, content: content, trigger: nil), date: Fixtures.now)
    }
    var s = state()
    deliver(soundOnly("ping"), into: &s)
    #expect(s.store.delivered("ping") == nil)
    #expect(soundLines(s) == ["♪ ping: ping.caf"])
    var focus = state { $0.focus = .doNotDisturb }
    deliver(soundOnly("ping"), into: &focus)
    #expect(soundLines(focus) == [])
  }

  @Test func theLockScreenPlaysTheSoundToo() {
    var s = state()
    _ = s.handle(.command(.lock))
    deliver(notification("locked", sound: .default), into: &s)
    #expect(s.banner == nil)
    #expect(soundLines(s) == ["♪ locked: default sound"])
  }

  @Test func aHostileSoundNameIsFlattenedAndHiddenWithThePreviews() {
    var s = state()
    let hostile = "\u{1B}]0;pwned\u{07}bell\u{202E}ffia.\u{0A}x.aiff"
    deliver(notification("evil", sound: UNNotificationSound(named: UNNotificationSoundName(hostile))), into: &s)
    let line = soundLines(s).first ?? ""
    #expect(line == "♪ evil: ␛]0;pwned␇bell‹RLO›ffia.␊x.aiff")
    #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{202E}" })
    #expect(s.notices.last?.revealsContent == true)
    // The default sound is no content of the payload's.
    deliver(notification("plain", sound: .default), into: &s)
    #expect(s.notices.last?.revealsContent == false)
  }
}
