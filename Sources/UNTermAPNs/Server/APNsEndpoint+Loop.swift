import Foundation
import Posix
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

extension APNsEndpoint {
  /// The loop: poll the wake pipe, the listener and every connection; serve what is ready;
  /// close what is idle, stuck in its handshake or finished.
  func run() {
    while !isStopping {
      let now = Monotonic.now()
      var fds = [pollfd(fd: wakePipe.readDescriptor, events: Int16(POLLIN), revents: 0)]
      let listening = now >= acceptPausedUntil
      if listening { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
      let first = fds.count
      let order = connections.keys.sorted()
      for id in order { fds.append(pollfd(fd: connections[id]!.fd, events: connections[id]!.events, revents: 0)) }
      var wakeAt = order.map { deadline(of: connections[$0]!) }.min() ?? .infinity
      if !listening { wakeAt = min(wakeAt, acceptPausedUntil) }
      if unsaidRefusals > 0 { wakeAt = min(wakeAt, nextRefusalNotice) }
      var timeout = wakeAt.isFinite ? Int32(max(0, min(60_000, ((wakeAt - now) * 1000).rounded(.up)))) : -1
      if order.contains(where: { connections[$0]!.hasPendingInput }) { timeout = 0 }
      if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR { break }
      let after = Monotonic.now()
      if fds[0].revents != 0 { wakePipe.drain() }
      if listening && fds[1].revents != 0 { acceptAll(now: after) }
      for (offset, id) in order.enumerated() {
        guard let connection = connections[id] else { continue }
        var revents = fds[first + offset].revents
        if connection.hasPendingInput { revents |= Int16(POLLIN) }
        if revents != 0 { service(connection, revents: revents, now: after) }
      }
      closeExpired(now: after)
      sayRefusals(now: after)
    }
    sayRefusals(now: .infinity)
    shutDown()
  }

  private var isStopping: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopRequested
  }

  /// When a connection must have done something: its handshake, or its next request.
  private func deadline(of connection: APNsConnection) -> Double {
    switch connection.phase {
    case .handshaking: return connection.opened + configuration.handshakeTimeout
    case .open: return connection.lastActivity + configuration.idleTimeout
    case .closing: return connection.lastActivity + 2
    }
  }

  private func acceptAll(now: Double) {
    for _ in 0..<64 {
      var address = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let fd = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept(listener, $0, &length)
        }
      }
      if fd >= 0 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      if fd < 0 {
        if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
          // Out of descriptors: stop accepting for a moment rather than spin.
          acceptPausedUntil = now + 0.1
          handlers.notice("APNs endpoint: out of file descriptors; not accepting for 100 ms")
        }
        return
      }
      var yes: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      guard connections.count < configuration.maxConnections else {
        refuseOverCap(fd, now: now)
        continue
      }
      do throws(APNsConnectionError) {
        let stream = try makeStream(fd)
        let id = nextConnection
        nextConnection += 1
        let credential = ProviderCredential.token(ProviderAuthentication(keys: configuration.keys))
        let connection = APNsConnection(
          id: id, fd: fd, peer: Self.describe(address), stream: stream, credential: credential, now: now)
        connections[id] = connection
        advanceHandshake(connection, now: now)
      } catch {
        close(fd)
        handlers.notice("APNs endpoint: a connection failed: \(error.reason)")
      }
    }
  }

  /// One connection too many: in cleartext it is told why (GOAWAY, REFUSED_STREAM's calm), in
  /// TLS it is closed before the handshake costs anything.
  private func refuseOverCap(_ fd: Int32, now: Double) {
    if configuration.plaintext, let http2 = try? HTTP2ServerConnection(limits: HTTP2Limits()) {
      http2.goAway(code: HTTP2ErrorCode.enhanceYourCalm, debug: Array(#"{"reason":"TooManyConnections"}"#.utf8))
      let bytes = http2.takeOutput()
      _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
    close(fd)
    unsaidRefusals += 1
    sayRefusals(now: now)
  }

  /// Tells the activity pane of the connections refused since it was last told, if a second
  /// has passed since then.
  private func sayRefusals(now: Double) {
    guard unsaidRefusals > 0, now >= nextRefusalNotice else { return }
    let count = unsaidRefusals == 1 ? "a connection" : "\(unsaidRefusals) connections"
    handlers.notice("APNs endpoint: refused \(count) past the limit of \(configuration.maxConnections)")
    unsaidRefusals = 0
    nextRefusalNotice = now + 1
  }

  private func service(_ connection: APNsConnection, revents: Int16, now: Double) {
    if connection.phase == .handshaking {
      advanceHandshake(connection, now: now)
      return
    }
    if revents & Int16(POLLOUT) != 0 || connection.hasOutput {
      if let error = connection.flush() { return drop(connection, error) }
    }
    if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 && connection.phase == .open {
      switch connection.readAvailable(now: now) {
      case .success(let events): handle(events, on: connection)
      case .failure(let error):
        _ = connection.flush()
        return drop(connection, error)
      }
      if let error = connection.flush() { return drop(connection, error) }
    }
    if connection.isFinished || (connection.http2?.isClosed ?? false) && !connection.hasOutput {
      drop(connection, nil)
    }
  }

  private func advanceHandshake(_ connection: APNsConnection, now: Double) {
    switch connection.continueHandshake(limits: limits, now: now) {
    case nil: return
    case .failure(let error)?: drop(connection, error)
    case .success?:
      if let error = connection.flush() { drop(connection, error) }
    }
  }

  /// The HTTP/2 limits every connection starts with.
  var limits: HTTP2Limits {
    var limits = HTTP2Limits()
    limits.maxConcurrentStreams = configuration.maxConcurrentStreams
    return limits
  }

  func drop(_ connection: APNsConnection, _ error: APNsConnectionError?) {
    connection.close()
    connections[connection.id] = nil
    if let error, connection.answered == 0 || connection.phase != .closing {
      handlers.notice("APNs connection \(connection.id) from \(connection.peer) closed: \(error.reason)")
    }
  }

  private func closeExpired(now: Double) {
    for connection in Array(connections.values) where now >= deadline(of: connection) {
      switch connection.phase {
      case .handshaking:
        drop(connection, APNsConnectionError("no TLS handshake within \(Int(configuration.handshakeTimeout)) s"))
      case .open:
        let idle = configuration.idleTimeout
        let time = idle >= 60 ? "\(Int(idle / 60)) min" : "\(Int(idle.rounded(.up))) s"
        handlers.notice("APNs connection \(connection.id) from \(connection.peer) was idle for \(time): GOAWAY, closed")
        connection.goAway(code: 0, reason: "IdleTimeout")
        _ = connection.flush()
        if connection.isFinished { drop(connection, nil) }
      case .closing: drop(connection, nil)
      }
    }
  }

  /// Every client gets a GOAWAY with `Shutdown`; what they have not read in a second is lost.
  private func shutDown() {
    for connection in connections.values where connection.phase == .open {
      connection.goAway(code: 0, reason: "Shutdown")
      _ = connection.flush()
    }
    let until = Monotonic.now() + 1
    while connections.values.contains(where: \.hasOutput) && Monotonic.now() < until {
      var fds = connections.values.filter(\.hasOutput).map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
      _ = poll(&fds, nfds_t(fds.count), 50)
      for connection in connections.values where connection.hasOutput { _ = connection.flush() }
    }
    for connection in connections.values { connection.close() }
    connections = [:]
    close(listener)
    listener = -1
  }

  static func describe(_ address: sockaddr_storage) -> String {
    var address = address
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    var port = [CChar](repeating: 0, count: Int(NI_MAXSERV))
    let length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getnameinfo(
          $0, length, &host, socklen_t(host.count), &port, socklen_t(port.count), NI_NUMERICHOST | NI_NUMERICSERV)
      }
    }
    return status == 0 ? "\(String(cString: host)):\(String(cString: port))" : "?"
  }
}
