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
  private let apns: APNsDelivery?
  package let socketPath: String
  package let inbox: URL?
  private let limits: Limits
  private let lock = NSLock()
  private var loop: DeliveryLoop?
  private var boundSocket: SocketFile.Identity?

  /// - Parameter apns: the APNs endpoint's delivery, which `unterm center tokens`, `offline`
  ///   and `fail` reach.
  package init(session: Session, socketPath: String, inbox: URL?, limits: Limits = Limits(), apns: APNsDelivery? = nil)
  {
    self.session = session
    self.apns = apns
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
      let loop = try DeliveryLoop(session: session, listener: listener, inbox: watcher, limits: limits, apns: apns)
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
