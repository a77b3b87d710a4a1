import Foundation
import Posix
import UNTermHeadless
import UNTermInput
import UNTermState
import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

/// The one thread that serves live delivery: it polls the listening socket, every open
/// connection and the inbox, so idle clients cost a descriptor each and no thread.
///
/// A connection has `requestTimeout` for each request, at most `Limits.connections` are served
/// at once (a new one closes the longest-idle), and a payload is handed to the session's
/// thread through its queue; the answer comes back through `answer(_:to:)` and a wake-up pipe.
final class DeliveryLoop: @unchecked Sendable {
  private let session: Session
  private let apns: APNsDelivery?
  private let limits: LiveDelivery.Limits
  private var listener: Int32
  private let inbox: InboxWatcher?
  private let wakePipe: WakePipe
  private var connections: [Int: PushConnection] = [:]
  private var nextConnection = 0
  /// Set after EMFILE, so a listener that cannot accept does not spin the loop.
  private var acceptPausedUntil: Double = 0

  private let lock = NSLock()
  private var stopRequested = false
  private var answers: [(connection: Int, push: PendingPush, reply: String)] = []
  private let finished = DispatchSemaphore(value: 0)
  private var running = false

  init(session: Session, listener: Int32, inbox: InboxWatcher?, limits: LiveDelivery.Limits, apns: APNsDelivery?)
    throws(UNTermError)
  {
    self.session = session
    self.apns = apns
    self.listener = listener
    self.inbox = inbox
    self.limits = limits
    do {
      wakePipe = try WakePipe()
    } catch {
      throw UNTermError(.failure, "cannot make a pipe: \(error.reason)")
    }
  }

  func start() {
    running = true
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "unterm-live-delivery"
    thread.start()
  }

  /// Ends the loop and waits for it to close its descriptors.
  func stop() {
    lock.lock()
    let wasRunning = running && !stopRequested
    stopRequested = true
    lock.unlock()
    guard wasRunning else { return }
    wake()
    _ = finished.wait(timeout: .now() + 5)
  }

  private func wake() { wakePipe.wake() }

  /// The session's thread answers a push (any thread may call this).
  func answer(_ reply: String, to connection: Int, for push: PendingPush) {
    lock.lock()
    answers.append((connection, push, reply))
    lock.unlock()
    wake()
  }

  // MARK: - The loop

  private func run() {
    let start = Monotonic.now()
    inbox?.scan(now: start)
    while true {
      lock.lock()
      let stopping = stopRequested
      lock.unlock()
      if stopping { break }

      let now = Monotonic.now()
      var fds = [pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0)]
      let listening = listener >= 0 && now >= acceptPausedUntil
      if listening { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
      if let inbox { fds.append(pollfd(fd: inbox.descriptor, events: Int16(POLLIN), revents: 0)) }
      let firstConnection = fds.count
      let order = connections.keys.sorted()
      for id in order {
        if let connection = connections[id] {
          fds.append(pollfd(fd: connection.fd, events: connection.events, revents: 0))
        }
      }
      var wakeAt = connections.values.map(\.deadline).min() ?? .infinity
      if let due = inbox?.nextDue { wakeAt = min(wakeAt, due) }
      if listener >= 0 && !listening { wakeAt = min(wakeAt, acceptPausedUntil) }
      let timeout = wakeAt.isFinite ? Int32(max(0, min(60_000, ((wakeAt - now) * 1000).rounded(.up)))) : -1

      let ready = poll(&fds, nfds_t(fds.count), timeout)
      if ready < 0 && errno != EINTR { break }
      let after = Monotonic.now()

      if fds[0].revents != 0 { drainWakePipe() }
      takeAnswers(now: after)
      var index = 1
      if listening {
        if fds[index].revents != 0 { acceptAll(now: after) }
        index += 1
      }
      if let inbox {
        if fds[index].revents != 0 { inbox.readEvents(now: after) }
        index += 1
      }
      for (offset, id) in order.enumerated() {
        let revents = fds[firstConnection + offset].revents
        guard revents != 0, let connection = connections[id] else { continue }
        service(connection, revents: revents, now: after)
      }
      expireDeadlines(now: after)
      inbox?.processDue(now: after)
    }
    for connection in connections.values { close(connection.fd) }
    connections = [:]
    if listener >= 0 {
      close(listener)
      listener = -1
    }
    inbox?.close()
  }

  private func drainWakePipe() { wakePipe.drain() }

  private func takeAnswers(now: Double) {
    lock.lock()
    let taken = answers
    answers = []
    lock.unlock()
    for (id, push, reply) in taken {
      guard let connection = connections[id], case .waiting(let pending) = connection.phase, pending === push else {
        continue  // the client left, or was already told the session did not answer
      }
      connection.reply(reply, now: now, timeout: limits.requestTimeout)
      advance(connection, now: now)
    }
  }

  // MARK: - Connections

  private func acceptAll(now: Double) {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        switch errno {
        case EINTR: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors: make room by closing the longest-idle connection, else wait.
          if !evictIdlest(now: now) { acceptPausedUntil = now + 0.1 }
          return
        default: return
        }
      }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      guard PeerCredentials.uid(of: fd) == getuid() else {
        _ = PushConnection.sendNow(fd, "ERROR refused: the socket belongs to another user\n")
        close(fd)
        continue
      }
      if connections.count >= max(1, limits.connections) && !evictIdlest(now: now) {
        _ = PushConnection.sendNow(fd, "ERROR busy: \(connections.count) pushes are waiting for the session\n")
        close(fd)
        continue
      }
      nextConnection += 1
      connections[nextConnection] = PushConnection(
        id: nextConnection, fd: fd, now: now, deadline: now + limits.requestTimeout)
    }
  }

  /// Closes the connection that has waited longest without a payload in the session's hands.
  private func evictIdlest(now: Double) -> Bool {
    let idle = connections.values.filter {
      if case .waiting = $0.phase { return false }
      return true
    }
    guard let victim = idle.min(by: { ($0.lastActivity, $0.id) < ($1.lastActivity, $1.id) }) else { return false }
    _ = PushConnection.sendNow(victim.fd, "ERROR closed: too many connections are open\n")
    drop(victim)
    return true
  }

  private func drop(_ connection: PushConnection) {
    close(connection.fd)
    connections[connection.id] = nil
  }

  private func service(_ connection: PushConnection, revents: Int16, now: Double) {
    if revents & Int16(POLLOUT) != 0 {
      flushOrClose(connection)
      guard connections[connection.id] != nil else { return }
    }
    if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      guard connection.receive(now: now) else {
        drop(connection)  // the client left (a payload already handed over still arrives)
        return
      }
      advance(connection, now: now)
    }
  }

  /// Takes the next complete request, if one has arrived, to the session.
  private func advance(_ connection: PushConnection, now: Double) {
    if let request = connection.parse(now: now, limits: limits) {
      let push = PendingPush()
      connection.phase = .waiting(push)
      connection.deadline = now + limits.answerTimeout
      hand(request, as: push, for: connection.id)
    }
    flushOrClose(connection)
  }

  private func flushOrClose(_ connection: PushConnection) {
    guard connection.flush() else {
      drop(connection)
      return
    }
    if case .closing = connection.phase, connection.output.isEmpty { drop(connection) }
  }

  private func expireDeadlines(now: Double) {
    for connection in Array(connections.values) where connection.deadline <= now {
      switch connection.phase {
      case .waiting(let push):
        if push.abandon() {
          connection.reply("ERROR the session did not answer", now: now, timeout: limits.requestTimeout)
          flushOrClose(connection)
        } else {
          // The session is delivering it right now: the answer is moments away.
          connection.deadline = now + limits.answerTimeout
        }
      case .closing:
        drop(connection)
      default:
        connection.output += Array("ERROR timed out: no complete request within the time allowed\n".utf8)
        connection.phase = .closing
        connection.deadline = now + 1
        flushOrClose(connection)
      }
    }
  }

  // MARK: - Handing payloads to the session

  /// Carries a request out on the session's thread and sends the answer back to the connection.
  private func hand(_ request: PushConnection.Request, as push: PendingPush, for connection: Int) {
    switch request {
    case .payload(let name, let bytes, let headers, let bundle):
      hand(name: name, bytes: bytes, headers: headers, bundle: bundle, as: push, for: connection)
    case .center(let command):
      session.queue.post { [session, apns, self] in
        guard push.begin() else { return }
        answer(CenterCommands.carryOut(command, in: session, apns: apns), to: connection, for: push)
      }
    }
  }

  /// Delivers a payload on the session's thread and sends the answer back to the connection.
  private func hand(
    name: String, bytes: [UInt8], headers: APNsHeaders, bundle: String?, as push: PendingPush, for connection: Int
  ) {
    let request = (name: name, bytes: bytes)
    session.queue.post { [session, self] in
      // The client was told the session did not answer: doing it now would surprise a retry.
      guard push.begin() else { return }
      let reply: String
      let payload = PayloadAnalyzer.analyze(
        request.bytes, file: request.name, categories: session.state.store.registry, headers: headers, bundle: bundle)
      let shownName = OneLine.flatten((request.name as NSString).lastPathComponent)
      do throws(UNTermError) {
        // A bad payload is refused before it takes a request identifier; an apns-collapse-id is
        // the identifier.
        let id = try session.push(payload)
        session.send(.notice(.info, "Pushed \(shownName) as \(id)"))
        reply = "OK \(id)"
      } catch {
        let message = OneLine.flatten(Self.describe(error))
        session.send(.notice(.error, "Refused a push: \(message)"))
        reply = "ERROR \(message)"
      }
      answer(reply, to: connection, for: push)
    }
  }

  /// An error with its file name made one safe line (the name comes from the client).
  static func describe(_ error: UNTermError) -> String {
    var safe = error
    safe.file = error.file.map(OneLine.flatten)
    return safe.description
  }
}

/// A payload handed to the session: the session starts it, or the loop gives up on it first.
final class PendingPush: @unchecked Sendable {
  /// Where the payload is; it moves from `queued` to one of the others, once.
  private enum State {
    case queued
    case started
    case abandoned
  }

  private let lock = NSLock()
  private var state = State.queued

  /// The session's thread: whether to go ahead (false once the client was told it timed out).
  func begin() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if state == .abandoned { return false }
    state = .started
    return true
  }

  /// The loop: gives up, unless the session has already started on it.
  func abandon() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if state == .started { return false }
    state = .abandoned
    return true
  }
}

/// One client of the push socket: its bytes so far, what it is expected to send next, and
/// what is still to be written to it.
final class PushConnection {
  enum Phase {
    /// Reading requests, the greeting first; the framing is `PushFrameDecoder`'s.
    case reading
    case waiting(PendingPush)
    /// Write what is left, then close.
    case closing
  }

  /// What a client asked for.
  enum Request {
    /// A payload to deliver, with the APNs headers the client sent before it and the app its
    /// `BUNDLE` line named.
    case payload(name: String, bytes: [UInt8], headers: APNsHeaders, bundle: String?)
    /// A question or an order for the session's center.
    case center(CenterCommands.Command)
  }

  let id: Int
  let fd: Int32
  var phase: Phase = .reading
  var deadline: Double
  private(set) var lastActivity: Double
  /// What has arrived and is not yet decoded.
  private var input = PushFrameDecoder(maximumPayloadBytes: LiveDelivery.maximumPayloadBytes)
  var output: [UInt8] = []

  /// The longest request line.
  static let lineLimit = PushFrameDecoder.maximumLineBytes

  init(id: Int, fd: Int32, now: Double, deadline: Double) {
    self.id = id
    self.fd = fd
    self.deadline = deadline
    lastActivity = now
  }

  var events: Int16 {
    var events: Int16 = 0
    switch phase {
    case .waiting, .closing: break
    default: events |= Int16(POLLIN)
    }
    if !output.isEmpty { events |= Int16(POLLOUT) }
    return events
  }

  /// Reads what has arrived; false when the client has gone.
  func receive(now: Double) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &chunk, chunk.count, 0)
      if n > 0 {
        input.append(chunk[0..<n])
        lastActivity = now
        if input.unreadCount > LiveDelivery.maximumPayloadBytes + Self.lineLimit { return true }
        continue
      }
      if n == 0 { return false }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return true
      default: return false
      }
    }
  }

  /// The next complete request in what has arrived, if there is one.
  func parse(now: Double, limits: LiveDelivery.Limits) -> Request? {
    guard case .reading = phase else { return nil }
    let wasGreeted = input.isGreeted
    let frame = input.next()
    if !wasGreeted && input.isGreeted { deadline = now + limits.requestTimeout }
    switch frame {
    case nil:
      return nil
    case .payload(let name, let bytes, let headers, let bundle):
      return .payload(name: name, bytes: bytes, headers: headers, bundle: bundle)
    case .center(let command):
      return .center(command)
    case .end:
      phase = .closing
      deadline = now + 1
      return nil
    case .refused(let message):
      output += Array((message + "\n").utf8)
      phase = .closing
      return nil
    }
  }

  /// Queues the answer to the payload the client is waiting on; the next request may follow.
  func reply(_ line: String, now: Double, timeout: TimeInterval) {
    output += Array((line + "\n").utf8)
    phase = .reading
    lastActivity = now
    deadline = now + timeout
  }

  /// Writes what it can; false when the client has gone.
  func flush() -> Bool {
    while !output.isEmpty {
      let n = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n > 0 {
        output.removeSubrange(..<n)
        continue
      }
      if n < 0 && errno == EINTR { continue }
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
    return true
  }

  /// A best-effort line to a connection about to be closed.
  static func sendNow(_ fd: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
      == bytes.count
  }
}
