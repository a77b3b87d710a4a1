import Foundation
import UNTermInput
import UserNotificationsModel

/// A Focus (iOS 15+): Do Not Disturb, or one the user named (Work, Sleep, …). Under a Focus,
/// notifications from apps not on its allow-list arrive silently in the list; time-sensitive
/// ones break through unless the user turned that off, and critical ones always do.
package enum FocusMode: Hashable, Sendable {
  case off
  case doNotDisturb
  case named(String)

  /// `off`, `dnd`, or any other name as a named Focus.
  package init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces)
    switch text {
    case "": return nil
    case "off": self = .off
    case "dnd": self = .doNotDisturb
    default: self = .named(text)
    }
  }

  /// As the command line and scripts write it.
  package var argument: String {
    switch self {
    case .off: return "off"
    case .doNotDisturb: return "dnd"
    case .named(let name): return name
    }
  }

  /// As the status bar and the cards say it.
  package var displayName: String {
    switch self {
    case .off: return "Focus off"
    case .doNotDisturb: return "Do Not Disturb"
    case .named(let name): return name
    }
  }

  package var isOn: Bool { self != .off }
}

/// A time of day, `HH:MM` on the 24-hour clock: when a Scheduled Summary is delivered.
package struct DayTime: Hashable, Sendable, Comparable, CustomStringConvertible {
  package var hour: Int
  package var minute: Int

  package init?(hour: Int, minute: Int) {
    guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
    self.hour = hour
    self.minute = minute
  }

  /// `8:00`, `08:00`, `18:30`.
  package init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let h = Int(parts[0]), let m = Int(parts[1])
    else { return nil }
    self.init(hour: h, minute: m)
  }

  /// A comma list of times, in order and each once; `nil` when any is not a time.
  package static func list(_ text: String) -> [DayTime]? {
    var times: [DayTime] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let time = DayTime(String(part)) else { return nil }
      if !times.contains(time) { times.append(time) }
    }
    return times.isEmpty ? nil : times.sorted()
  }

  package var description: String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }

  package static func < (a: DayTime, b: DayTime) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }

  /// The first of `times` strictly after `date` in a time zone.
  package static func next(of times: [DayTime], after date: Date, in timeZone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return times.compactMap {
      calendar.nextDate(
        after: date, matching: DateComponents(hour: $0.hour, minute: $0.minute, second: 0),
        matchingPolicy: .nextTime)
    }.min()
  }

  /// The last of `times` in `(start, end]`, if one falls there.
  package static func last(of times: [DayTime], after start: Date, upTo end: Date, in timeZone: TimeZone) -> Date? {
    var found: Date?
    var cursor = start
    // A clock that jumped years ahead still ends: at most a few years of occurrences are walked.
    for _ in 0..<5000 {
      guard let next = next(of: times, after: cursor, in: timeZone), next <= end else { break }
      found = next
      cursor = next
    }
    return found
  }
}

/// A Scheduled Summary the list shows: the notifications it held, as one stack led by the one
/// with the highest relevance score.
package struct DeliveredSummary: Hashable, Sendable {
  /// `Morning Summary`, `Afternoon Summary`, `Evening Summary`.
  package var title: String
  /// The scheduled time it was delivered at.
  package var date: Date

  /// The app part of a summary's stack key: no app's bundle identifier has a space.
  package static let stackApp = "Scheduled Summary"

  /// What iOS calls a summary delivered at a time of day.
  package static func title(hour: Int) -> String {
    hour < 12 ? "Morning Summary" : hour < 17 ? "Afternoon Summary" : "Evening Summary"
  }
}

extension UNNotificationPresentationOptions {
  /// The options with the banner and the sound taken away: the notification goes quietly to the
  /// list (a Focus silencing it), keeping its badge.
  package var silenced: UNNotificationPresentationOptions {
    var options = self
    if options.contains(.alert) {
      options.remove(.alert)
      options.insert(.list)
    }
    options.remove(.banner)
    options.remove(.sound)
    return options
  }

  /// `banner,list,sound,badge` or `none`: `--foreground-options`.
  package init?(optionList text: String) {
    var options: UNNotificationPresentationOptions = []
    if text.trimmingCharacters(in: .whitespaces) == "none" {
      self = options
      return
    }
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      switch part.trimmingCharacters(in: .whitespaces) {
      case "banner": options.insert(.banner)
      case "list": options.insert(.list)
      case "sound": options.insert(.sound)
      case "badge": options.insert(.badge)
      default: return nil
      }
    }
    self = options
  }

  /// As `--foreground-options` writes them: `banner,list,sound,badge`, or `none`.
  package var optionList: String {
    let names = [(Self.banner, "banner"), (.list, "list"), (.sound, "sound"), (.badge, "badge")]
      .filter { contains($0.0) || ($0.0 == .banner || $0.0 == .list) && contains(.alert) }.map(\.1)
    return names.isEmpty ? "none" : names.joined(separator: ",")
  }
}
