import Foundation
import UNTermHeadless
import UNTermInput
import UNTermState
import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

/// Delivers payloads into a running interactive session: `unterm push` over a per-user Unix
/// socket, and files dropped into the inbox folder (like dragging a file onto the Simulator).
///
/// The socket lives in `$XDG_RUNTIME_DIR/unterm/`, else in a private `/tmp/unterm-UID/`, or
/// wherever `--socket PATH` says. A folder UNTerm creates is 0700; a folder that exists is used
/// as it is, and refused when another user could replace the socket in it. The socket is 0600,
/// a connection from another user is refused (SO_PEERCRED), and the only thing ever removed
/// from PATH is a socket of this user that a connection attempt proved stale.
///
/// The inbox belongs to the socket: the default socket's is `…/unterm/inbox/`, and a socket
/// given with `--socket PATH` has `PATH.inbox/`, so sessions with sockets of their own have
/// inboxes of their own.
///
/// One thread serves both (`DeliveryLoop`): it polls the socket, every connection and the
/// inbox's inotify descriptor, and hands payloads to the session's thread through its queue.
package final class LiveDelivery: @unchecked Sendable {
  /// The folder for the default socket and inbox.
  package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return URL(fileURLWithPath: runtime).appendingPathComponent("unterm")
    }
    return URL(fileURLWithPath: "/tmp/unterm-\(getuid())")
  }

  package static func defaultSocketPath() -> String { directory().appendingPathComponent("session.sock").path }
  package static func defaultInbox() -> URL { directory().appendingPathComponent("inbox") }

  /// The inbox that goes with a socket: `…/unterm/inbox/` for the default socket, `PATH.inbox/`
  /// for any other.
  package static func inbox(forSocket path: String) -> URL {
    if path == defaultSocketPath() { return defaultInbox() }
    return URL(fileURLWithPath: path + ".inbox")
  }

  /// The largest payload the socket takes.
  static let maximumPayloadBytes = InputFile.defaultLimit

  /// How the socket and the inbox are served; the defaults are what `unterm` uses, tests
  /// shorten the times.
  package struct Limits: Sendable {
    /// A connection has this long for each request (the greeting, then each payload in full).
    package var requestTimeout: TimeInterval = 10
    /// How long a client waits for the session to take a payload.
    package var answerTimeout: TimeInterval = 10
    /// Connections served at once; a new one beyond this closes the longest-idle one.
    package var connections = 64
    /// An inbox file closed after writing is delivered once nothing has written to it for this
    /// long, so a file written through several opens arrives whole. A file renamed into the
    /// inbox is complete and goes at once.
    package var settleDelay: TimeInterval = 0.5

    package init() {}
  }

  private let session: Session
  package let socketPath: String
  package let inbox: URL?
  private let limits: Limits
  private let lock = NSLock()
  private var loop: DeliveryLoop?
  private var boundSocket: SocketFile.Identity?

  package init(session: Session, socketPath: String, inbox: URL?, limits: Limits = Limits()) {
    self.session = session
    self.socketPath = socketPath
    self.inbox = inbox
    self.limits = limits
  }

  /// A socket and the inbox that goes with it (`inbox(forSocket:)`).
  package convenience init(session: Session, socketPath: String, limits: Limits = Limits()) {
    self.init(session: session, socketPath: socketPath, inbox: Self.inbox(forSocket: socketPath), limits: limits)
  }

  deinit { stop() }

  /// Starts listening; returns what happened, for the activity pane.
  package func start() -> [String] {
    var notes: [String] = []
    var listener: Int32 = -1
    do {
      let folder = (socketPath as NSString).deletingLastPathComponent
      try PrivateFolder.prepare(folder.isEmpty ? "." : folder, for: .socket)
      let bound = try SocketFile.listen(at: socketPath)
      listener = bound.descriptor
      lock.lock()
      boundSocket = bound.identity
      lock.unlock()
      notes.append("Listening for `unterm push` on \(OneLine.flatten(socketPath))")
    } catch {
      notes.append("No push socket: \(error.description)")
      if PushClient.isAlive(socketPath) {
        // Another session owns the socket, and the inbox with it: one session takes each file.
        notes.append("The inbox belongs to that session")
        return notes
      }
    }
    var watcher: InboxWatcher?
    if let inbox {
      do {
        try PrivateFolder.prepare(inbox.path, for: .inbox)
        watcher = try InboxWatcher(folder: inbox.path, session: session, settleDelay: limits.settleDelay)
        notes.append("Watching \(OneLine.flatten(inbox.path)) for dropped .json/.apns files")
      } catch {
        notes.append("No inbox: \(error.description)")
      }
    }
    // The empty center names the ways in that are open, before the loop shares the session.
    var hints: [String] = []
    if listener >= 0 { hints.append("deliver one with `unterm push FILE`") }
    if watcher != nil {
      hints.append(hints.isEmpty ? "drop a .json file in the inbox" : "or drop a .json file in the inbox")
    }
    session.showDeliveryHints(hints)
    guard listener >= 0 || watcher != nil else { return notes }
    do {
      let loop = try DeliveryLoop(session: session, listener: listener, inbox: watcher, limits: limits)
      lock.lock()
      self.loop = loop
      lock.unlock()
      loop.start()
    } catch {
      if listener >= 0 { close(listener) }
      watcher?.close()
      notes.append("No live delivery: \(error.description)")
    }
    return notes
  }

  /// Stops serving and removes the socket, if it is still the one this session made.
  package func stop() {
    lock.lock()
    let loop = self.loop
    let bound = boundSocket
    self.loop = nil
    boundSocket = nil
    lock.unlock()
    loop?.stop()
    if let bound { SocketFile.remove(socketPath, ifStill: bound) }
  }
}

// MARK: - Folders

/// The folders the socket and the inbox live in.
enum PrivateFolder {
  enum Purpose {
    /// Others may share the folder if it is sticky (as `/tmp` is): they cannot replace our socket.
    case socket
    /// Nobody else may write to it, or they could deliver payloads into the session.
    case inbox
  }

  /// Makes the folder (0700) if it does not exist; an existing one is used as it is, and
  /// refused when someone else could tamper with what UNTerm puts in it.
  ///
  /// - Returns: whether UNTerm created the folder.
  @discardableResult
  static func prepare(_ path: String, for purpose: Purpose) throws(UNTermError) -> Bool {
    let shown = OneLine.flatten(path)
    if mkdir(path, 0o700) == 0 {
      // Ours: make it exactly 0700 whatever the umask, through a descriptor so it is the folder
      // just made.
      let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if fd >= 0 {
        _ = fchmod(fd, 0o700)
        close(fd)
      }
      return true
    }
    guard errno == EEXIST else {
      throw UNTermError(.noInput, file: shown, "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    var link = stat()
    guard lstat(path, &link) == 0 else {
      throw UNTermError(.noInput, file: shown, "cannot read the folder: \(String(cString: strerror(errno)))")
    }
    if link.st_mode & S_IFMT == S_IFLNK && !isTrusted(owner: link.st_uid) {
      throw UNTermError(
        .noInput, file: shown,
        "is a symbolic link that belongs to another user (uid \(link.st_uid)); refusing to use it")
    }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw UNTermError(.noInput, file: shown, "is not a folder (\(FileKind(info.st_mode).description) is there)")
    }
    guard isTrusted(owner: info.st_uid) else {
      throw UNTermError(
        .noInput, file: shown,
        "the folder belongs to another user (uid \(info.st_uid)), who could replace what UNTerm puts in it; use a folder of your own"
      )
    }
    let mode = info.st_mode & 0o7777
    let othersWrite = mode & (S_IWGRP | S_IWOTH) != 0
    switch purpose {
    case .socket where othersWrite && mode & S_ISVTX == 0:
      throw UNTermError(
        .noInput, file: shown,
        "others can write to this folder (mode \(octal(mode))) and it is not sticky, so they could replace the socket; use a private folder"
      )
    case .inbox where othersWrite:
      throw UNTermError(
        .noInput, file: shown,
        "others can write to this folder (mode \(octal(mode))), so they could deliver payloads into the session; make it private (chmod 700)"
      )
    default:
      return false
    }
  }

  /// This user, or root (who owns `/tmp` and `/run`).
  static func isTrusted(owner: uid_t) -> Bool { owner == getuid() || owner == 0 }

  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// What kind of file a mode says, for messages.
struct FileKind: CustomStringConvertible {
  let type: mode_t

  init(_ mode: mode_t) { type = mode & S_IFMT }

  var description: String {
    switch type {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFLNK: return "a symbolic link"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    default: return "nothing"
    }
  }
}

// MARK: - The socket file

/// Binds the listening socket without harming anything else at its path.
enum SocketFile {
  /// Which file the bound socket is, so `stop` removes only that one.
  struct Identity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
  }

  /// Listens at `path`. A socket of this user that nothing answers on is stale and replaced;
  /// anything else at `path` is an error that names it.
  static func listen(at path: String) throws(UNTermError) -> (descriptor: Int32, identity: Identity) {
    let shown = OneLine.flatten(path)
    var address = sockaddr_un()
    guard PushClient.fill(&address, path: path) else {
      throw UNTermError(
        .noInput, file: shown,
        path.isEmpty || path.utf8.contains(0)
          ? "is not a usable socket path"
          : "the socket path is \(path.utf8.count) bytes; a Unix socket path has at most \(PushClient.maximumPathBytes)"
      )
    }
    try clearStale(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw UNTermError(.noInput, file: shown, "cannot make a socket: \(String(cString: strerror(errno)))")
    }
    // The bound file takes the socket's own mode: 0600 from the start, without touching the
    // process-wide umask that other threads create files under.
    _ = fchmod(fd, 0o600)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
      let reason = errno == EADDRINUSE ? "something else appeared at this path" : String(cString: strerror(errno))
      close(fd)
      throw UNTermError(.noInput, file: shown, "cannot listen: \(reason)")
    }
    var info = stat()
    guard Glibc.listen(fd, 64) == 0, lstat(path, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw UNTermError(.noInput, file: shown, "cannot listen: \(reason)")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return (fd, Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
  }

  /// Removes a stale socket of this user at `path`; refuses anything else.
  private static func clearStale(_ path: String) throws(UNTermError) {
    let shown = OneLine.flatten(path)
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw UNTermError(.noInput, file: shown, "cannot read the path: \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      throw UNTermError(
        .noInput, file: shown,
        "\(FileKind(info.st_mode).description) is there, not a socket; refusing to replace it (remove it, or choose another --socket path)"
      )
    }
    guard info.st_uid == getuid() else {
      throw UNTermError(
        .noInput, file: shown, "the socket there belongs to another user (uid \(info.st_uid)); refusing to replace it")
    }
    switch PushClient.probe(path) {
    case .answered:
      throw UNTermError(.noInput, file: shown, "another UNTerm session is already listening here")
    case .refused:
      // A connection attempt proved it stale: its session is gone.
      if unlink(path) != 0 && errno != ENOENT {
        throw UNTermError(
          .noInput, file: shown, "cannot remove the stale socket: \(String(cString: strerror(errno)))")
      }
    case .failed(let reason):
      throw UNTermError(.noInput, file: shown, "cannot tell whether the socket there is in use: \(reason)")
    }
  }

  /// Unlinks `path` only if it is still the socket this session bound.
  static func remove(_ path: String, ifStill identity: Identity) {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK,
      Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == identity
    else { return }
    unlink(path)
  }
}

// MARK: - The client

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
