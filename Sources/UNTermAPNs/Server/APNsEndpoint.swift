import Foundation
import Posix
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// UNTerm as APNs: Apple's provider API (`POST /3/device/<token>` over HTTP/2, TLS 1.2+ with
/// ALPN h2, or cleartext with `--apns-plaintext`), answered as APNs answers, with every
/// accepted push handed to the session to show.
///
/// One thread serves every connection with `poll`: a slow or stuck client costs a descriptor
/// and bounded buffers, never a thread, and never holds up another client or the screen.
/// Accepted pushes go to `handlers.push` (the shell posts them to the session's queue), and the
/// answer is sent at once: APNs answers 200 when it has taken a push, not when the device shows
/// it.
package final class APNsEndpoint: @unchecked Sendable {
  package let configuration: APNsEndpointConfiguration
  package let devices: DeviceRegistry
  /// The port bound (the one asked for, or the system's choice for 0).
  package let port: UInt16
  /// The private CA's certificate clients trust, when the endpoint speaks TLS.
  package let caCertificate: String?

  let handlers: APNsEndpointHandlers
  let makeStream: (Int32) throws(APNsConnectionError) -> ByteStream
  var listener: Int32
  let wakePipe: WakePipe
  var connections: [Int: APNsConnection] = [:]
  var nextConnection = 1
  var acceptPausedUntil: Double = 0
  /// Connections refused past the cap that the activity pane has not been told of: the first
  /// is said at once, then a count at most once a second, so a flood is a line a second.
  var unsaidRefusals = 0
  var nextRefusalNotice: Double = 0
  /// The loop's state that other threads set: stop, and failures asked for on demand.
  let lock = NSLock()
  var stopRequested = false
  var injected: [(reason: APNsReason, remaining: Int)] = []
  private let finished = DispatchSemaphore(value: 0)
  private var running = false

  /// Loads the libraries, makes the certificates on first use, and binds the address.
  package init(
    configuration: APNsEndpointConfiguration, devices: DeviceRegistry, handlers: APNsEndpointHandlers
  ) throws(APNsSetupError) {
    self.configuration = configuration
    self.devices = devices
    self.handlers = handlers
    if let error = APNsLibraries.loadError { throw APNsSetupError("the APNs endpoint needs its libraries: \(error)") }
    do {
      wakePipe = try WakePipe()
    } catch {
      throw APNsSetupError("cannot make a pipe: \(error.reason)")
    }
    if configuration.plaintext {
      makeStream = { fd throws(APNsConnectionError) in PlainStream(fd: fd) }
      caCertificate = nil
    } else {
      let tls = try Self.tlsContext(configuration)
      makeStream = { fd throws(APNsConnectionError) in try TLSStream(context: tls.context, fd: fd) }
      caCertificate = tls.caCertificate
    }
    (listener, port) = try Self.listen(on: configuration.address)
  }

  deinit {
    if listener >= 0 { close(listener) }
  }

  /// Starts serving on the endpoint's own thread.
  package func start() {
    running = true
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "unterm-apns"
    thread.start()
  }

  /// Sends every client a GOAWAY, gives them a moment to read it, and closes everything.
  package func stop() {
    lock.lock()
    let wasRunning = running && !stopRequested
    stopRequested = true
    lock.unlock()
    guard wasRunning else { return }
    wakePipe.wake()
    _ = finished.wait(timeout: .now() + 5)
  }

  /// Answers the next `count` requests with `reason` (InternalServerError, ServiceUnavailable,
  /// Shutdown, TooManyRequests, TopicDisallowed, …), as a real APNs does at its worst.
  package func fail(next count: Int, with reason: APNsReason) {
    lock.lock()
    injected.append((reason, max(1, count)))
    lock.unlock()
  }

  /// Takes the next failure asked for, if any.
  func takeInjectedFailure() -> APNsReason? {
    lock.lock()
    defer { lock.unlock() }
    guard !injected.isEmpty else { return nil }
    injected[0].remaining -= 1
    let reason = injected[0].reason
    if injected[0].remaining <= 0 { injected.removeFirst() }
    return reason
  }

  // MARK: - Listening

  /// A non-blocking listening socket on the address (IPv4 or IPv6), and its port.
  private static func listen(on address: APNsListenAddress) throws(APNsSetupError) -> (Int32, UInt16) {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var found: UnsafeMutablePointer<addrinfo>?
    let host = address.host == "localhost" ? "127.0.0.1" : address.host
    let status = getaddrinfo(host, String(address.port), &hints, &found)
    guard status == 0, let info = found else {
      throw APNsSetupError(
        "--apns-listen \(address): cannot resolve \(address.host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(found) }
    let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw APNsSetupError("--apns-listen \(address): cannot make a socket: \(errorText())") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, 512) == 0 else {
      let reason = errorText()
      close(fd)
      throw APNsSetupError("--apns-listen \(address): cannot listen: \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let family = storage.ss_family
    let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
      if family == sa_family_t(AF_INET6) {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
    }
    return (fd, port)
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}
