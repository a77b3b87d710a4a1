/// How much a notification may interrupt the user (iOS 15+).
public enum UNNotificationInterruptionLevel: UInt, Sendable, Hashable, CaseIterable {
  /// Added to the notification list only: no banner, no sound, the screen stays dark.
  case passive = 0
  /// Shown at once; may light the screen and play a sound. The default.
  case active = 1
  /// Like `active`, and breaks through Focus and the notification summary.
  case timeSensitive = 2
  /// Shown at once and plays its sound through the mute switch.
  case critical = 3

  /// The payload spelling of the level, as in `aps.interruption-level`.
  package var payloadValue: String {
    switch self {
    case .passive: return "passive"
    case .active: return "active"
    case .timeSensitive: return "time-sensitive"
    case .critical: return "critical"
    }
  }

  /// The level for a payload spelling, or `nil` when the spelling is unknown.
  package init?(payloadValue: String) {
    guard let level = Self.allCases.first(where: { $0.payloadValue == payloadValue }) else {
      return nil
    }
    self = level
  }
}
