import Foundation
import UNTermInput
import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

/// A line-oriented socket connection with byte reads (the `unterm push` side).
final class LineConnection {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = recv(fd, &chunk, chunk.count, 0)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      buffer += chunk[0..<n]
      return true
    }
  }

  func readLine(limit: Int = 4096) -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      if buffer.count > limit || !fill() { return nil }
    }
  }

  /// Sends everything, or reports that the peer went away.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }
}

/// `struct ucred` (pid, uid, gid); Glibc does not export it without `_GNU_SOURCE`.
struct PeerCredentials {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0

  /// `SO_PEERCRED` on Linux.
  private static let option: Int32 = 17

  /// The user at the other end of a Unix socket.
  static func uid(of fd: Int32) -> uid_t? {
    var credentials = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard getsockopt(fd, SOL_SOCKET, option, &credentials, &length) == 0 else { return nil }
    return credentials.uid
  }
}

/// The `unterm push` side of the socket.
package enum PushClient {
  static let greeting = PushFrameDecoder.greeting

  /// `sun_path` holds 108 bytes with the terminating zero.
  static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  static func fill(_ address: inout sockaddr_un, path: String) -> Bool {
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= maximumPathBytes, !bytes.contains(0) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      raw[bytes.count] = 0
    }
    return true
  }

  enum Probe {
    case answered(Int32)
    case refused
    case failed(String)
  }

  private static func connectTo(_ path: String) -> Probe {
    var address = sockaddr_un()
    guard fill(&address, path: path) else { return .failed("the socket path is too long") }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      close(fd)
      return error == ECONNREFUSED || error == ENOENT ? .refused : .failed(String(cString: strerror(error)))
    }
    return .answered(fd)
  }

  /// Whether something answers on the socket (`.refused`: nothing does, the socket is stale).
  static func probe(_ path: String) -> Probe {
    let result = connectTo(path)
    if case .answered(let fd) = result { close(fd) }
    return result
  }

  /// Whether a session answers on the socket.
  static func isAlive(_ path: String) -> Bool {
    if case .answered = probe(path) { return true }
    return false
  }

  /// One payload's result: the request identifier, or the session's one-line error.
  package enum Result: Sendable {
    case delivered(String)
    case rejected(String)
  }

  /// A greeted connection to a session of this user.
  ///
  /// - Throws: `UNTermError` when no session of this user answers (exit code 1).
  private static func connect(_ path: String, for purpose: String) throws(UNTermError) -> LineConnection {
    let shown = OneLine.flatten(path)
    guard case .answered(let fd) = connectTo(path) else {
      throw UNTermError(
        .failure, file: shown,
        "no UNTerm session is running (nothing answers on this socket); start one with `unterm` in another terminal")
    }
    // Payloads can hold secrets: send them (and ask about them) only to a session of this user.
    if let owner = PeerCredentials.uid(of: fd), owner != getuid() {
      close(fd)
      throw UNTermError(
        .failure, file: shown,
        "the program listening on this socket runs as another user (uid \(owner)); refusing to \(purpose)")
    }
    var timeout = timeval(tv_sec: 15, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connection = LineConnection(fd: fd)
    connection.send(greeting + "\n")
    return connection
  }

  /// Sends payloads to the running session, each with the APNs headers given and, when `bundle`
  /// names one, for that app (`unterm push --bundle`).
  ///
  /// - Throws: `UNTermError` when no session of this user answers (exit code 1).
  package static func push(
    _ payloads: [(name: String, bytes: [UInt8])], headers: APNsHeaders = APNsHeaders(), bundle: String? = nil,
    socket path: String
  ) throws(UNTermError) -> [Result] {
    let shown = OneLine.flatten(path)
    // A header is one line of the request.
    for (field, value) in headers.fields where value.contains(where: { $0.isNewline || $0 == "\0" }) {
      throw UNTermError(
        .usage, "\(APNsRules.option(for: field)) cannot hold a line break: it is an HTTP header's value")
    }
    let connection = try connect(path, for: "send payloads to it")
    defer { close(connection.fd) }
    var results: [Result] = []
    for payload in payloads {
      // The name is one line of the request: a name holding a line break goes in its escaped form.
      let name =
        payload.name.contains(where: { $0.isNewline || $0 == "\0" }) ? OneLine.flatten(payload.name) : payload.name
      let headerLines =
        headers.fields.map { "HEADER \($0.field.rawValue) \($0.value)\n" }.joined()
        + (bundle.map { "BUNDLE \($0)\n" } ?? "")
      let sent =
        connection.send(headerLines) && connection.send("PAYLOAD \(payload.bytes.count) \(name)\n")
        && connection.send(payload.bytes)
      guard sent, let reply = connection.readLine() else {
        throw UNTermError(.failure, file: shown, "the session closed the connection")
      }
      if reply.hasPrefix("OK ") {
        results.append(.delivered(String(reply.dropFirst(3))))
      } else {
        results.append(.rejected(String(reply.dropFirst(reply.hasPrefix("ERROR ") ? 6 : 0))))
      }
    }
    connection.send("END\n")
    return results
  }

  /// Asks the running session's center: the replies' results (after `OK `), in order.
  ///
  /// - Throws: `UNTermError` when no session answers (exit code 1), or it refuses a request.
  package static func center(_ commands: [CenterCommands.Command], socket path: String) throws(UNTermError) -> [String]
  {
    let shown = OneLine.flatten(path)
    for case .remove(let id) in commands where id.contains(where: { $0.isNewline || $0 == "\0" }) {
      throw UNTermError(.usage, "an identifier with a line break, \(OneLine.quote(id)), cannot be sent")
    }
    let connection = try connect(path, for: "ask it about notifications")
    defer { close(connection.fd) }
    var results: [String] = []
    for command in commands {
      guard connection.send(command.line + "\n"), let reply = connection.readLine(limit: 64 << 20) else {
        throw UNTermError(.failure, file: shown, "the session closed the connection")
      }
      if reply.hasPrefix("OK ") {
        results.append(String(reply.dropFirst(3)))
      } else if reply.hasPrefix("ERROR bad request") {
        throw UNTermError(
          .failure, file: shown,
          "the session does not take center requests (it runs an older unterm): \(OneLine.flatten(reply))")
      } else {
        throw UNTermError(
          .failure, file: shown, SafeText(sanitizing: reply.dropFirst(reply.hasPrefix("ERROR ") ? 6 : 0)))
      }
    }
    connection.send("END\n")
    return results
  }
}
