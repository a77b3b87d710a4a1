import Foundation

/// The time zone dates are shown and summary times read in, made only when one is needed:
/// `TimeZone.current` reads the system's zone data (about 3 MiB of peak memory and 0.3 ms at
/// start), which a screen showing only "now" does not need.
package enum DisplayTimeZone: Sendable, Hashable {
  /// UTC: scripts, golden screens and tests.
  case utc
  /// The system's.
  case system

  /// The zone itself.
  package var zone: TimeZone {
    switch self {
    case .utc: return .gmt
    case .system: return .current
    }
  }
}
