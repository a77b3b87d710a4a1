import Foundation
import UNTermInput
import UserNotificationsModel

/// The sound a presented notification plays, said in the activity pane: UNTerm plays none (a
/// bell would be noise in scripts), so a designer sees whether and which one iOS would play.
extension CenterState {
  /// Notes the sound iOS plays for a notification presented with these options (after Focus has
  /// taken `.sound` away): none when the options lack `.sound` (a foreground `willPresent`
  /// answer without it, a Focus silencing it), for a passive notification (fact 25), or when
  /// the payload has no `sound`.
  mutating func noteSound(of notification: UNNotification, presentation: UNNotificationPresentationOptions) {
    let content = notification.request.content
    guard presentation.contains(.sound), content.interruptionLevel != .passive, let sound = content.sound else {
      return
    }
    let id = notification.request.identifier
    // A file name comes from the payload, like an attachment's name: hidden with the previews.
    note(
      .info, "♪ \(id): \(Self.soundDescription(sound, level: content.interruptionLevel))",
      revealsContent: sound.name != nil)
  }

  /// `chime.aiff`, `default sound`, or `critical sound "default" at volume 90 % (plays through
  /// mute)`: a critical alert's sound, and any sound of a critical notification, plays through
  /// the mute switch (reference 1.4, 1.5). The name is flattened: controls become placeholders.
  static func soundDescription(_ sound: UNNotificationSound, level: UNNotificationInterruptionLevel) -> String {
    let name = sound.name.map { OneLine.flatten($0.rawValue) }
    let throughMute = sound.isCritical || level == .critical ? " (plays through mute)" : ""
    guard sound.isCritical else { return (name ?? "default sound") + throughMute }
    let volume = sound.volume.map { " at volume \(Int(($0 * 100).rounded())) %" } ?? ""
    return "critical sound \"\(name ?? "default")\"\(volume)\(throughMute)"
  }
}
