import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermShell
@testable import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// What the live delivery suites share: files and modes, the session's notices and
/// deliveries, raw connections, and a client that pushes while the session drains.
protocol LiveDeliveryTesting {}

extension LiveDeliveryTesting {
  func write(_ text: String, in dir: URL) throws -> String {
    let url = dir.appendingPathComponent("payload-\(UUID().uuidString.prefix(6)).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
  }

  func count(_ folder: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
  }

  func delivered(_ session: Session, _ body: String) -> Bool {
    session.state.store.deliveredNewestFirst.contains { $0.request.content.body == body }
  }

  func errors(_ session: Session) -> [String] {
    session.state.notices.filter { $0.kind == .error }.map(\.text)
  }

  /// Drains the session (the work the socket and the inbox post to it) until `condition` holds.
  func waitUntil(_ session: Session, timeout: TimeInterval = Eventually.limit, _ condition: () -> Bool) {
    Eventually.wait(upTo: timeout, between: session.drain, condition)
  }

  /// How many of these client ends the session has said something to or closed.
  func closedByTheSession(_ fds: [Int32]) -> Int {
    var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    _ = poll(&polled, nfds_t(polled.count), 0)
    return polled.filter { $0.revents != 0 }.count
  }

  /// Pushes from another thread while this one drains the session, as the shell would.
  func push(_ payloads: [(name: String, bytes: [UInt8])], to socket: String, session: Session)
    -> [PushClient.Result]?
  {
    let results = ResultsBox()
    let items = payloads.map { Item(name: $0.name, bytes: $0.bytes) }
    Thread {
      results.set(try? PushClient.push(items.map { ($0.name, $0.bytes) }, socket: socket))
    }.start()
    waitUntil(session) { results.get() != nil }
    return results.get()
  }

  func connect(_ path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    guard PushClient.fill(&address, path: path) else { return nil }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// A socket file nothing listens on, as a killed session leaves it.
  func makeStaleSocket(_ path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    #expect(PushClient.fill(&address, path: path))
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    #expect(bound == 0)
    close(fd)
  }

  func raiseDescriptorLimit(to wanted: rlim_t) {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < wanted else { return }
    limit.rlim_cur = min(wanted, limit.rlim_max)
    setrlimit(resource, &limit)
  }
}

private struct Item: Sendable {
  let name: String
  let bytes: [UInt8]
}

private final class ResultsBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: [PushClient.Result]?
  func set(_ v: [PushClient.Result]?) {
    lock.lock()
    value = v
    lock.unlock()
  }
  func get() -> [PushClient.Result]? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
