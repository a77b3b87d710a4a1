import Foundation
import UNTermCore
import UNTermHeadless

#if canImport(Glibc)
  import Glibc
#endif

/// Delivers payloads into a running interactive session: `unterm push` over a per-user Unix
/// socket, and files dropped into the inbox folder (like dragging a file onto the Simulator).
///
/// The socket lives in `$XDG_RUNTIME_DIR/unterm/`, else in a private `/tmp/unterm-UID/`; the
/// folder is 0700, the socket 0600, and a connection from another user is refused (checked
/// with SO_PEERCRED).
package final class LiveDelivery: @unchecked Sendable {
  /// The folder for the socket and the inbox.
  package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return URL(fileURLWithPath: runtime).appendingPathComponent("unterm")
    }
    return URL(fileURLWithPath: "/tmp/unterm-\(getuid())")
  }

  package static func defaultSocketPath() -> String { directory().appendingPathComponent("session.sock").path }
  package static func defaultInbox() -> URL { directory().appendingPathComponent("inbox") }

  /// The largest payload the socket takes.
  static let maximumPayloadBytes = InputFile.defaultLimit

  private let session: Session
  package let socketPath: String
  package let inbox: URL?
  private var listener: Int32 = -1
  private var inotify: Int32 = -1
  private let lock = NSLock()
  private var stopped = false

  package init(session: Session, socketPath: String, inbox: URL?) {
    self.session = session
    self.socketPath = socketPath
    self.inbox = inbox
  }

  deinit { stop() }

  /// Makes a private folder (0700) owned by this user, refusing one that is not.
  static func makePrivateDirectory(_ url: URL) throws(UNTermError) {
    if mkdir(url.path, 0o700) != 0 && errno != EEXIST {
      throw UNTermError(.noInput, file: url.path, "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw UNTermError(.noInput, file: url.path, "is not a folder")
    }
    guard info.st_uid == getuid() else {
      throw UNTermError(.noInput, file: url.path, "belongs to another user; refusing to use it")
    }
    if info.st_mode & 0o077 != 0 { _ = chmod(url.path, 0o700) }
  }

  /// Starts listening; returns what happened, for the activity pane.
  package func start() -> [String] {
    var notes: [String] = []
    do {
      let folder = URL(fileURLWithPath: socketPath).deletingLastPathComponent()
      try Self.makePrivateDirectory(folder)
      try openSocket()
      notes.append("Listening for `unterm push` on \(socketPath)")
      let thread = Thread { [weak self] in self?.acceptLoop() }
      thread.start()
    } catch {
      notes.append("No push socket: \(error.description)")
      if PushClient.isAlive(socketPath) {
        // Another session owns the socket, and the inbox with it: one session takes each file.
        notes.append("The inbox belongs to that session")
        return notes
      }
    }
    if let inbox {
      do {
        try Self.makePrivateDirectory(inbox)
        try watchInbox(inbox)
        notes.append("Watching \(inbox.path) for dropped .json/.apns files")
      } catch {
        notes.append("No inbox: \(error.description)")
      }
    }
    return notes
  }

  package func stop() {
    lock.lock()
    let wasStopped = stopped
    stopped = true
    lock.unlock()
    guard !wasStopped else { return }
    if listener >= 0 {
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
      unlink(socketPath)
    }
    if inotify >= 0 { close(inotify) }
  }

  // MARK: - Socket

  private func openSocket() throws(UNTermError) {
    if FileManager.default.fileExists(atPath: socketPath) {
      if PushClient.isAlive(socketPath) {
        throw UNTermError(.noInput, file: socketPath, "another UNTerm session is already listening here")
      }
      unlink(socketPath)  // stale: its session is gone
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw UNTermError(.noInput, file: socketPath, "socket() failed") }
    var address = sockaddr_un()
    guard PushClient.fill(&address, path: socketPath) else {
      close(fd)
      throw UNTermError(.noInput, file: socketPath, "the socket path is too long")
    }
    let oldMask = umask(0o177)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    umask(oldMask)
    guard bound == 0, listen(fd, 8) == 0 else {
      close(fd)
      throw UNTermError(.noInput, file: socketPath, "cannot listen: \(String(cString: strerror(errno)))")
    }
    _ = chmod(socketPath, 0o600)
    listener = fd
  }

  /// A connection gets this long in all, so a slow client cannot hold the socket.
  static let connectionDeadline: TimeInterval = 30

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      let thread = Thread { [weak self] in
        self?.serve(client)
        close(client)
      }
      thread.start()
    }
  }

  /// `struct ucred` (pid, uid, gid); Glibc does not export it without `_GNU_SOURCE`.
  private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  /// `SO_PEERCRED` on Linux.
  private static let peerCredentialsOption: Int32 = 17

  private func peerIsSameUser(_ fd: Int32) -> Bool {
    var credentials = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard getsockopt(fd, SOL_SOCKET, Self.peerCredentialsOption, &credentials, &length) == 0 else { return false }
    return credentials.uid == getuid()
  }

  private func serve(_ fd: Int32) {
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connection = LineConnection(fd: fd, deadline: Date().addingTimeInterval(Self.connectionDeadline))
    guard peerIsSameUser(fd) else {
      connection.send("ERROR refused: the socket belongs to another user\n")
      return
    }
    guard connection.readLine() == PushClient.greeting else {
      connection.send("ERROR not an unterm push client\n")
      return
    }
    while let line = connection.readLine(), line != "END" {
      guard line.hasPrefix("PAYLOAD "), let separator = line.dropFirst(8).firstIndex(of: " "),
        let size = Int(line.dropFirst(8)[..<separator]), size >= 0, size <= Self.maximumPayloadBytes
      else {
        connection.send("ERROR bad request\n")
        return
      }
      let name = String(line.dropFirst(8)[line.dropFirst(8).index(after: separator)...])
      guard let bytes = connection.read(count: size) else { return }
      connection.send(deliver(bytes, name: name) + "\n")
    }
  }

  /// Hands a payload to the session's thread and waits for the answer.
  private func deliver(_ bytes: [UInt8], name: String) -> String {
    let answer = OneShot<String>()
    session.queue.post { [session] in
      // The client was told the session did not answer: doing it now would surprise a retry.
      guard !answer.isAbandoned else { return }
      let payload = PayloadAnalyzer.analyze(bytes, file: name, categories: session.state.store.categories)
      do throws(UNTermError) {
        // Refuse a bad payload before it takes a request identifier.
        _ = try payload.request(identifier: "")
        let id = session.nextRequestIdentifier()
        try session.push(payload, identifier: id)
        session.send(.notice(.info, "Pushed \((name as NSString).lastPathComponent) as \(id)"))
        answer.set("OK \(id)")
      } catch {
        answer.set("ERROR \(error.description)")
      }
    }
    return answer.wait(seconds: 10) ?? "ERROR the session did not answer"
  }

  // MARK: - Inbox

  private func watchInbox(_ folder: URL) throws(UNTermError) {
    let fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else { throw UNTermError(.noInput, file: folder.path, "inotify is unavailable") }
    guard inotify_add_watch(fd, folder.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)) >= 0 else {
      close(fd)
      throw UNTermError(.noInput, file: folder.path, "cannot watch the folder")
    }
    inotify = fd
    // Files already there were dropped while no session ran.
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in existing.sorted() { dropped(name, in: folder) }
    let thread = Thread { [weak self] in self?.inboxLoop(fd, folder) }
    thread.start()
  }

  private func inboxLoop(_ fd: Int32, _ folder: URL) {
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return
      }
      var offset = 0
      let headerSize = MemoryLayout<inotify_event>.size
      while offset + headerSize <= n {
        let length = buffer.withUnsafeBytes {
          Int($0.loadUnaligned(fromByteOffset: offset + headerSize - 4, as: UInt32.self))
        }
        let nameBytes = buffer[(offset + headerSize)..<min(n, offset + headerSize + length)].prefix { $0 != 0 }
        dropped(String(decoding: nameBytes, as: UTF8.self), in: folder)
        offset += headerSize + length
      }
    }
  }

  private var inboxBusy: Set<String> = []

  private func dropped(_ name: String, in folder: URL) {
    guard name.hasSuffix(".json") || name.hasSuffix(".apns"), !name.hasPrefix(".") else { return }
    let path = folder.appendingPathComponent(name).path
    lock.lock()
    let (inserted, _) = inboxBusy.insert(name)
    lock.unlock()
    guard inserted else { return }  // already queued (seen by the scan and by inotify)
    session.queue.post { [session, weak self] in
      defer {
        self?.lock.lock()
        self?.inboxBusy.remove(name)
        self?.lock.unlock()
      }
      guard FileManager.default.fileExists(atPath: path) else { return }
      do throws(UNTermError) {
        let payload = try Payload.load(path, categories: session.state.store.categories)
        try session.push(payload)
        session.send(.notice(.info, "Delivered \(name) from the inbox"))
        Self.file(path, into: folder.appendingPathComponent("delivered"))
      } catch {
        session.send(.notice(.error, error.description))
        Self.file(path, into: folder.appendingPathComponent("rejected"))
      }
    }
  }

  /// Moves a handled inbox file aside, so it is not delivered again.
  private static func file(_ path: String, into folder: URL) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let target = folder.appendingPathComponent((path as NSString).lastPathComponent)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(atPath: path, toPath: target.path)
  }
}

/// A line-oriented socket connection with byte reads.
final class LineConnection {
  let fd: Int32
  private let deadline: Date
  private var buffer: [UInt8] = []

  init(fd: Int32, deadline: Date = .distantFuture) {
    self.fd = fd
    self.deadline = deadline
  }

  private func fill() -> Bool {
    guard Date() < deadline else { return false }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let n = recv(fd, &chunk, chunk.count, 0)
    guard n > 0 else { return false }
    buffer += chunk[0..<n]
    return true
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

  func read(count: Int) -> [UInt8]? {
    while buffer.count < count {
      if !fill() { return nil }
    }
    let bytes = Array(buffer[..<count])
    buffer.removeSubrange(..<count)
    return bytes
  }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      sent += n
    }
  }
}

/// The `unterm push` side of the socket.
package enum PushClient {
  static let greeting = "UNTERM-PUSH 1"

  static func fill(_ address: inout sockaddr_un, path: String) -> Bool {
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      raw[bytes.count] = 0
    }
    return true
  }

  private static func connectTo(_ path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    guard fill(&address, path: path) else {
      close(fd)
      return nil
    }
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

  /// Whether a session answers on the socket.
  static func isAlive(_ path: String) -> Bool {
    guard let fd = connectTo(path) else { return false }
    close(fd)
    return true
  }

  /// One payload's result: the request identifier, or the session's one-line error.
  package enum Result: Sendable {
    case delivered(String)
    case rejected(String)
  }

  /// Sends payloads to the running session.
  ///
  /// - Throws: `UNTermError` when no session is running (exit code 1).
  package static func push(_ payloads: [(name: String, bytes: [UInt8])], socket path: String) throws(UNTermError)
    -> [Result]
  {
    guard let fd = connectTo(path) else {
      throw UNTermError(
        .failure, file: path,
        "no UNTerm session is running (nothing answers on this socket); start one with `unterm` in another terminal")
    }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 15, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connection = LineConnection(fd: fd)
    connection.send(greeting + "\n")
    var results: [Result] = []
    for payload in payloads {
      connection.send("PAYLOAD \(payload.bytes.count) \(payload.name)\n")
      let bytes = payload.bytes
      var sent = 0
      while sent < bytes.count {
        let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { break }
        sent += n
      }
      guard let reply = connection.readLine() else {
        throw UNTermError(.failure, file: path, "the session closed the connection")
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
}
