import Foundation
import UNTermHeadless
import UNTermInput
import UNTermState
import UserNotificationsModel

/// The center's calls `unterm center` makes over the session socket, as an app makes them but
/// for every app (the tester's view of the device; an app's own center reaches only its own):
/// list the delivered and pending notifications (`getDeliveredNotifications`,
/// `getPendingNotificationRequests`), remove some (`removeDeliveredNotifications`,
/// `removePendingNotificationRequests`), or clear them all (`removeAllDeliveredNotifications`).
///
/// On the wire, after the greeting, each is one line — `LIST`, `REMOVE ID`, `CLEAR` — answered
/// by one line: `OK` and the result, or `ERROR` and why. The list is one line of JSON (the writer
/// escapes every line break).
package enum CenterCommands {
  /// One request.
  package enum Command: Equatable, Sendable {
    case list
    case remove(String)
    case clear
    /// The APNs endpoint's device tokens (`unterm center tokens`).
    case tokens
    /// Makes an app's token answer 410 Unregistered (`tokens --expire APP`).
    case expireToken(String)
    /// Takes the device offline or back (`offline on|off`): APNs holds pushes meanwhile.
    case offline(Bool)
    /// Answers the next N APNs requests with a reason (`fail REASON [N]`).
    case fail(String, count: Int)
    /// Where the APNs endpoint listens and the token of `app` (`export --curl --local`).
    case endpoint(app: String)

    /// Reads a request line; `nil` for any other line.
    package init?(line: String) {
      let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      switch (words.first ?? "", words.count) {
      case ("LIST", 1): self = .list
      case ("CLEAR", 1): self = .clear
      case ("TOKENS", 1): self = .tokens
      case ("REMOVE", 2...) where line.count > "REMOVE ".count: self = .remove(String(line.dropFirst("REMOVE ".count)))
      case ("EXPIRE", 2): self = .expireToken(words[1])
      case ("ENDPOINT", 2): self = .endpoint(app: words[1])
      case ("OFFLINE", 2) where words[1] == "ON" || words[1] == "OFF": self = .offline(words[1] == "ON")
      case ("FAIL", 3):
        guard let n = Int(words[2]), n > 0 else { return nil }
        self = .fail(words[1], count: n)
      default: return nil
      }
    }

    /// The request line, without its newline.
    package var line: String {
      switch self {
      case .list: return "LIST"
      case .remove(let id): return "REMOVE \(id)"
      case .clear: return "CLEAR"
      case .tokens: return "TOKENS"
      case .expireToken(let app): return "EXPIRE \(app)"
      case .offline(let on): return "OFFLINE \(on ? "ON" : "OFF")"
      case .fail(let reason, let count): return "FAIL \(reason) \(count)"
      case .endpoint(let app): return "ENDPOINT \(app)"
      }
    }
  }

  /// What `remove` answers: the identifier named a notification, or nothing.
  package static let removed = "removed"
  package static let unknown = "unknown"

  /// Carries a request out on the session's thread; the reply line.
  static func carryOut(_ command: Command, in session: Session, apns: APNsDelivery? = nil) -> String {
    switch command {
    case .offline(let on):
      // The device's state, which the key `o` and a script's `offline` change too; the APNs
      // endpoint's delivery follows it.
      session.send(.command(.setOffline(on)))
      return "OK " + (on ? "offline" : "online")
    case .tokens, .expireToken, .fail, .endpoint:
      guard let apns else { return "ERROR the session has no APNs endpoint: start it with --apns-listen PORT" }
      return apns.carryOut(command, in: session)
    case .list:
      return "OK " + JSONWriter.write(listing(session.state))
    case .remove(let id):
      let known = session.state.hasRequest(id)
      session.send(.center(.removeDelivered([id], .everyApp)))
      session.send(.center(.removePending([id])))
      if known {
        session.send(.notice(.info, "Removed \(id) (unterm center remove)", revealsContent: false))
      }
      return "OK " + (known ? removed : unknown)
    case .clear:
      let state = session.state
      let count = state.store.deliveredCount + state.held.count + state.shownUnlisted.count
      session.send(.center(.removeAllDelivered(.everyApp)))
      session.send(.notice(.info, "Cleared \(count) notification\(count == 1 ? "" : "s") (unterm center clear)"))
      return "OK \(count)"
    }
  }

  /// The center as `list --json` prints it: delivered (newest first), held for the Scheduled
  /// Summary (in arrival order) and pending (soonest first), each with its identifier, thread,
  /// category, date (delivered, arrived, or when its trigger fires) and app (its bundle
  /// identifier: last, so readers of the older list are unaffected).
  package static func listing(_ state: CenterState) -> JSONWriter.Value {
    func entry(_ request: UNNotificationRequest, date: Date) -> JSONWriter.Value {
      .object([
        ("identifier", .string(request.identifier)),
        ("threadIdentifier", .string(request.content.threadIdentifier)),
        ("categoryIdentifier", .string(request.content.categoryIdentifier)),
        ("date", .string(ISO8601.format(date))),
        ("bundleIdentifier", .string(state.store.app(of: request))),
      ])
    }
    let pending = state.store.pending.values.sorted {
      ($0.fireDate, $0.addedSequence) < ($1.fireDate, $1.addedSequence)
    }
    return .object([
      ("delivered", .array(state.store.deliveredNewestFirst.map { entry($0.request, date: $0.date) })),
      ("held", .array(state.held.map { entry($0.request, date: $0.date) })),
      ("pending", .array(pending.map { entry($0.request, date: $0.fireDate) })),
    ])
  }
}
