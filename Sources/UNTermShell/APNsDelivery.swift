import Foundation
import UNTermAPNs
import UNTermHeadless
import UNTermInput
import UNTermState
import UserNotificationsModel

/// Connects the APNs endpoint to a session: an accepted push is delivered as any push (on the
/// session's thread, through its queue), every exchange is shown in the activity pane and
/// written to `--apns-log`, and while the device is offline APNs's store-and-forward holds the
/// newest push of each app until its `apns-expiration` (Apple: "APNs stores only one
/// notification per bundle ID"; one with expiration 0 or none is not stored... see `hold`).
package final class APNsDelivery: ExternalPushes, @unchecked Sendable {
  package let endpoint: APNsEndpoint
  private let log: APNsLogFile?
  private let lock = NSLock()
  private var offline = false
  private var stored: [String: (push: APNsAcceptedPush, arrived: Date)] = [:]
  /// The session pushes go to; while there is none (between scripts) they wait in `waiting`.
  private var session: Session?
  private var waiting: [APNsAcceptedPush] = []
  /// What the activity pane has not shown yet, for the same reason.
  private var unsaid: [(CenterState.Notice.Kind, String)] = []
  /// Pushes delivered so far (what `wait push` counts).
  private var delivered = 0

  /// An endpoint that delivers into the session attached (`attach`).
  package init(configuration: APNsEndpointConfiguration, devices: DeviceRegistry, logFile: String?)
    throws(APNsSetupError)
  {
    log = try logFile.map { path throws(APNsSetupError) in try APNsLogFile(path: path) }
    let box = Box()
    endpoint = try APNsEndpoint(
      configuration: configuration, devices: devices,
      handlers: APNsEndpointHandlers(
        push: { push in box.delivery?.arrived(push) },
        exchange: { exchange in box.delivery?.record(exchange) },
        notice: { text in box.delivery?.notice(text) }))
    box.delivery = self
    if configuration.keys.verifiesSignatures == false {
      notice(
        "APNs endpoint: provider tokens are checked for form and age only; give --apns-key KEYID=FILE.p8 to verify signatures"
      )
    }
  }

  /// Delivers into `session` from now on (what waited is delivered first), following its device
  /// offline and back (`CenterState.isOffline`); `nil` holds pushes.
  package func attach(_ session: Session?) {
    if let session {
      session.onNetworkChange = { [weak self] offline in self?.setOffline(offline) }
      setOffline(session.state.isOffline)
    }
    lock.lock()
    self.session = session
    let held = session == nil ? [] : waiting
    let said = session == nil ? [] : unsaid
    if session != nil {
      waiting = []
      unsaid = []
    }
    lock.unlock()
    for (kind, text) in said { say(kind, text) }
    for push in held { deliver(push) }
  }

  /// Lets the endpoint's closures reach the delivery made after them.
  private final class Box: @unchecked Sendable {
    weak var delivery: APNsDelivery?
  }

  package func start() { endpoint.start() }

  package func stop() {
    endpoint.stop()
    log?.close()
  }

  // MARK: - From the endpoint's thread

  private func arrived(_ push: APNsAcceptedPush) {
    lock.lock()
    if offline && push.headers.expiration == "0" {
      lock.unlock()
      notice(
        "APNs dropped \(push.apnsID) for \(push.app): the device is offline, and apns-expiration 0 asks for one attempt and no storage"
      )
      countAfterShown()
      return
    }
    if offline {
      let replaced = stored[push.app]?.push.apnsID
      stored[push.app] = (push, Date())
      lock.unlock()
      notice(
        "APNs is holding \(push.apnsID) for \(push.app): the device is offline"
          + (replaced.map { " (it replaces \($0): APNs keeps one per app)" } ?? ""))
      countAfterShown()
      return
    }
    lock.unlock()
    deliver(push)
  }

  private func record(_ exchange: APNsExchange) {
    log?.write(exchange.jsonLine)
    say(exchange.reason == nil ? .info : .error, exchange.summary)
  }

  private func notice(_ text: String) { say(.info, text) }

  /// Shows a line in the activity pane of the session attached (or the next one).
  private func say(_ kind: CenterState.Notice.Kind, _ text: String) {
    lock.lock()
    guard let session else {
      if unsaid.count < 1000 { unsaid.append((kind, text)) }
      lock.unlock()
      return
    }
    lock.unlock()
    session.queue.post { [session] in session.send(.notice(kind, text, revealsContent: false)) }
  }

  /// Delivers a push on the session's thread, as `unterm push` does; `counts` when it has not
  /// been counted as held.
  private func deliver(_ push: APNsAcceptedPush, counts: Bool = true) {
    lock.lock()
    guard let session else {
      waiting.append(push)
      lock.unlock()
      return
    }
    lock.unlock()
    session.queue.post { [session, self] in
      let payload = PayloadAnalyzer.analyze(
        push.payload, file: "APNs \(push.apnsID)", categories: session.state.store.registry, headers: push.headers,
        bundle: push.app)
      do throws(UNTermError) {
        _ = try session.push(payload, identifier: payload.isLiveActivity ? nil : push.apnsID)
      } catch {
        session.send(.notice(.error, "APNs took \(push.apnsID) but the device cannot show it: \(error.message.text)"))
      }
      if counts { self.countDelivered() }
    }
  }

  // MARK: - Offline (the device's `CenterState.isOffline`: `o`, `offline on|off`)

  /// Takes the device offline or back online; back online, what APNs held is delivered, except
  /// what expired meanwhile.
  package func setOffline(_ value: Bool, now: Date = Date()) {
    lock.lock()
    guard value != offline else {
      lock.unlock()
      return
    }
    offline = value
    let held = value ? [] : stored.values.sorted { $0.arrived < $1.arrived }
    if !value { stored = [:] }
    lock.unlock()
    for (push, _) in held {
      if let expired = APNsRules.expired(push.headers, at: now) {
        notice(
          "APNs dropped \(push.apnsID) for \(push.app): it expired at \(ISO8601DateFormatter().string(from: expired))")
      } else if push.headers.expiration == "0" {
        notice("APNs dropped \(push.apnsID) for \(push.app): apns-expiration 0 means one attempt, no storage")
      } else {
        deliver(push, counts: false)
      }
    }
  }

  package var isOffline: Bool {
    lock.lock()
    defer { lock.unlock() }
    return offline
  }

  // MARK: - Counting pushes (`wait push [N] [within DURATION]`)

  private func countDelivered() {
    lock.lock()
    delivered += 1
    lock.unlock()
  }

  /// Counts a held push once the line saying so is shown (the session's queue keeps the order),
  /// so a script's `wait push` that returns for it finds the line.
  private func countAfterShown() {
    lock.lock()
    let session = session
    lock.unlock()
    guard let session else { return countDelivered() }
    session.queue.post { [self] in countDelivered() }
  }

  /// Pushes delivered, or held while the device is offline, so far.
  package var deliveredCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return delivered
  }
}

/// `--apns-log FILE`: one JSON line per request and answer, appended and flushed as each is made.
final class APNsLogFile: @unchecked Sendable {
  private let handle: FileHandle
  private let lock = NSLock()

  init(path: String) throws(APNsSetupError) {
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        throw APNsSetupError("--apns-log \(OneLine.flatten(path)): cannot create the file")
      }
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw APNsSetupError("--apns-log \(OneLine.flatten(path)): cannot open the file for writing")
    }
    handle.seekToEndOfFile()
    self.handle = handle
  }

  func write(_ line: String) {
    lock.lock()
    defer { lock.unlock() }
    try? handle.write(contentsOf: Data((line + "\n").utf8))
  }

  func close() {
    lock.lock()
    defer { lock.unlock() }
    try? handle.close()
  }
}

extension APNsDelivery {
  /// `unterm center tokens | tokens --expire APP | offline on|off | fail REASON N`, on the
  /// session's thread; the reply line.
  func carryOut(_ command: CenterCommands.Command, in session: Session) -> String {
    switch command {
    case .tokens:
      let tokens = endpoint.devices.snapshot
      let entries: [(String, JSONWriter.Value)] = tokens.apps.map { app in
        var fields: [(String, JSONWriter.Value)] = [("token", .string(tokens.tokens[app] ?? ""))]
        if let since = tokens.unregistered[app] { fields.append(("unregistered", .string(ISO8601.format(since)))) }
        return (app, .object(fields))
      }
      return "OK " + JSONWriter.write(.object(entries))
    case .expireToken(let app):
      guard CategoryRegistry.isBundleIdentifier(app) else {
        return "ERROR \(OneLine.flatten(app)) is not a bundle identifier"
      }
      endpoint.devices.expire(app)
      session.send(.notice(.info, "APNs: the device token of \(app) is no longer registered (410 Unregistered)"))
      return "OK expired"
    case .offline:
      return CenterCommands.carryOut(command, in: session)
    case .fail(let name, let count):
      guard let reason = APNsReason(named: name) else {
        return
          "ERROR \(OneLine.flatten(name)) is not an APNs reason (\(APNsReason.allCases.map(\.rawValue).joined(separator: ", ")))"
      }
      endpoint.fail(next: count, with: reason)
      session.send(
        .notice(.info, "APNs answers the next \(count == 1 ? "request" : "\(count) requests") with \(reason.response)"))
      return "OK \(reason.rawValue)"
    case .endpoint(let app):
      guard CategoryRegistry.isBundleIdentifier(app) else {
        return "ERROR \(OneLine.flatten(app)) is not a bundle identifier"
      }
      let configuration = endpoint.configuration
      return "OK "
        + JSONWriter.write(
          .object([
            ("host", .string(configuration.address.host)), ("port", .int(Int(endpoint.port))),
            ("plaintext", .bool(configuration.plaintext)), ("ca", .string(endpoint.caCertificate ?? "")),
            ("token", .string(endpoint.devices.token(for: app))),
          ]))
    default:
      return "ERROR not an APNs command"
    }
  }
}
