import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermShell
@testable import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

extension LiveDeliveryTests {
  /// `--socket` changes nothing it does not own (11.4).
  @Suite("The socket and its folder")
  struct SocketFiles: LiveDeliveryTesting {
    @Test func anExistingFolderIsUsedAsItIsEvenASharedStickyOne() throws {
      for folderMode: mode_t in [0o755, 0o1777] {
        let dir = try Fixtures.temporaryDirectory()
        let shared = dir.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        chmod(shared.path, folderMode)
        let socket = shared.appendingPathComponent("x.sock").path
        let session = try Fixtures.session()
        let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
        let notes = delivery.start()
        #expect(notes.first == "Listening for `unterm push` on \(socket)", "\(notes)")
        #expect(mode(shared.path) == folderMode, "the folder's mode was changed")
        #expect(PushClient.isAlive(socket))
        delivery.stop()
        #expect(mode(shared.path) == folderMode)
        #expect(!FileManager.default.fileExists(atPath: socket))
      }
    }

    @Test func aFolderOthersCanWriteToThatIsNotStickyIsRefused() throws {
      let dir = try Fixtures.temporaryDirectory()
      let open = dir.appendingPathComponent("open")
      try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
      chmod(open.path, 0o777)
      let socket = open.appendingPathComponent("x.sock").path
      let session = try Fixtures.session()
      let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
      let notes = delivery.start()
      defer { delivery.stop() }
      #expect(
        notes.first
          == "No push socket: \(open.path): error: others can write to this folder (mode 0777) and it is not sticky, so they could replace the socket; use a private folder"
      )
      #expect(mode(open.path) == 0o777)
      #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a folder to another user"))
    func aFolderOfAnotherUserIsRefused() throws {
      let dir = try Fixtures.temporaryDirectory()
      let theirs = dir.appendingPathComponent("theirs")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
      chmod(theirs.path, 0o755)
      chown(theirs.path, 65534, 65534)
      let session = try Fixtures.session()
      let delivery = LiveDelivery(
        session: session, socketPath: theirs.appendingPathComponent("x.sock").path, inbox: nil)
      let notes = delivery.start()
      defer { delivery.stop() }
      #expect(notes.first?.contains("\(theirs.path): error: the folder belongs to another user (uid 65534)") == true)
      #expect(mode(theirs.path) == 0o755)
    }

    @Test func aFolderUNTermCreatesIsPrivate() throws {
      let dir = try Fixtures.temporaryDirectory()
      let socket = dir.appendingPathComponent("new/x.sock").path
      let session = try Fixtures.session()
      let delivery = LiveDelivery(session: session, socketPath: socket)
      _ = delivery.start()
      defer { delivery.stop() }
      #expect(mode(dir.appendingPathComponent("new").path) == 0o700)
      #expect(mode(socket + ".inbox") == 0o700)
      #expect(mode(socket) == 0o600)
    }

    @Test func onlyAStaleSocketIsEverReplaced() throws {
      let dir = try Fixtures.temporaryDirectory()
      let session = try Fixtures.session()

      // A regular file, a folder, a symbolic link: each named, and left alone.
      let file = dir.appendingPathComponent("file.sock").path
      try Data("precious".utf8).write(to: URL(fileURLWithPath: file))
      let folder = dir.appendingPathComponent("folder.sock").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      let link = dir.appendingPathComponent("link.sock").path
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
      for (path, kind) in [(file, "a regular file"), (folder, "a folder"), (link, "a symbolic link")] {
        let delivery = LiveDelivery(session: session, socketPath: path, inbox: nil)
        let notes = delivery.start()
        delivery.stop()
        #expect(
          notes.first
            == "No push socket: \(path): error: \(kind) is there, not a socket; refusing to replace it (remove it, or choose another --socket path)"
        )
      }
      #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
      #expect(FileManager.default.fileExists(atPath: folder))
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == file)

      // A socket whose session is gone: replaced.
      let stale = dir.appendingPathComponent("stale.sock").path
      try makeStaleSocket(stale)
      let revived = LiveDelivery(session: session, socketPath: stale, inbox: nil)
      #expect(revived.start().first == "Listening for `unterm push` on \(stale)")
      #expect(PushClient.isAlive(stale))

      // A socket a session answers on: refused, and the first session keeps it.
      let second = LiveDelivery(session: try Fixtures.session(), socketPath: stale, inbox: nil)
      #expect(
        second.start().first == "No push socket: \(stale): error: another UNTerm session is already listening here")
      second.stop()
      #expect(PushClient.isAlive(stale))
      revived.stop()
      #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test func aSocketPathTooLongIsNamedWithTheLimit() throws {
      let dir = try Fixtures.temporaryDirectory()
      let path = dir.appendingPathComponent(String(repeating: "s", count: 120) + ".sock").path
      let delivery = LiveDelivery(session: try Fixtures.session(), socketPath: path, inbox: nil)
      let notes = delivery.start()
      delivery.stop()
      #expect(
        notes.first
          == "No push socket: \(path): error: the socket path is \(path.utf8.count) bytes; a Unix socket path has at most 107"
      )
    }

    @Test func stopRemovesOnlyTheSocketItMade() throws {
      let dir = try Fixtures.temporaryDirectory()
      let socket = dir.appendingPathComponent("x.sock").path
      let delivery = LiveDelivery(session: try Fixtures.session(), socketPath: socket, inbox: nil)
      _ = delivery.start()
      unlink(socket)
      try Data("someone else's".utf8).write(to: URL(fileURLWithPath: socket))
      delivery.stop()
      #expect(try String(contentsOfFile: socket, encoding: .utf8) == "someone else's")
    }

    @Test(
      .enabled(
        if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
          && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
        "needs root, python3 and setpriv to listen as another user"))
    func pushSendsNothingToAListenerOfAnotherUser() throws {
      let dir = try Fixtures.temporaryDirectory()
      let theirs = dir.appendingPathComponent("theirs")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
      chown(theirs.path, 65534, 65534)
      let socket = theirs.appendingPathComponent("fake.sock").path
      let received = theirs.appendingPathComponent("received").path
      let script = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1); print("ready", flush=True)
        c, _ = s.accept(); c.settimeout(60)
        data = b""
        try:
            while len(data) < 100000:
                chunk = c.recv(4096)
                if not chunk: break
                data += chunk
                c.sendall(b"OK req-1\\n")
        except Exception: pass
        open(sys.argv[2], "wb").write(data)
        """
      let fake = try ChildProcess(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, socket, received],
        environment: ChildProcess.environment(), pipeOutput: true)
      _ = fake.readOutput { String(decoding: $0, as: UTF8.self).contains("ready") }
      do {
        _ = try PushClient.push([("/tmp/secret.json", Array(#"{"aps":{"alert":"secret"}}"#.utf8))], socket: socket)
        Issue.record("the payload was sent to another user's program")
      } catch {
        #expect(
          error.description
            == "\(socket): error: the program listening on this socket runs as another user (uid 65534); refusing to send payloads to it"
        )
      }
      try fake.wait()
      let got = FileManager.default.contents(atPath: received).map { String(decoding: $0, as: UTF8.self) } ?? ""
      #expect(!got.contains("secret"))
    }
  }
}

extension LiveDeliveryTests {
  /// One thread for every connection (11.6).
  @Suite("Connections")
  struct Connections: LiveDeliveryTesting {
    @Test func aPushArrivesPromptlyWhileAThousandIdleConnectionsAreOpen() throws {
      raiseDescriptorLimit(to: 4096)
      let dir = try Fixtures.temporaryDirectory()
      let session = try Fixtures.session()
      let socket = dir.appendingPathComponent("s.sock").path
      // No idle connection times out while the test runs, however slow the machine: a push that
      // had to wait for them would never be answered.
      var limits = LiveDelivery.Limits()
      limits.requestTimeout = 600
      let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil, limits: limits)
      _ = delivery.start()
      defer { delivery.stop() }
      let threadsBefore = count("/proc/self/task")
      let descriptorsBefore = count("/proc/self/fd")
      var idle: [Int32] = []
      defer { for fd in idle { close(fd) } }
      for _ in 0..<1000 {
        let fd = try #require(connect(socket))
        idle.append(fd)
      }
      // Every connection has been accepted once all but the newest `connections` were told to go.
      let told = Eventually.wait { closedByTheSession(idle) >= 1000 - limits.connections }
      #expect(told, "only \(closedByTheSession(idle)) idle connections were closed")
      let threads = count("/proc/self/task") - threadsBefore
      let descriptors = count("/proc/self/fd") - descriptorsBefore
      let started = Date()
      let answers = try #require(
        push([("/tmp/p.json", Array(#"{"aps":{"alert":"through the crowd"}}"#.utf8))], to: socket, session: session))
      let took = Date().timeIntervalSince(started)
      print("1,000 idle connections: \(threads) more threads, \(descriptors) more descriptors; a push took \(took) s")
      guard case .delivered = answers.first else {
        Issue.record("unexpected answers \(answers)")
        return
      }
      #expect(delivered(session, "through the crowd"))
      #expect(threads < 20, "a thread per connection")
      // Our 1,000 client ends, plus at most the cap of served ones.
      #expect(descriptors < 1000 + LiveDelivery.Limits().connections + 20)
    }

    /// Never before the deadline; after it, the connection is closed while one on a session
    /// with a long deadline, opened earlier, stays open (real time decides nothing else here:
    /// a busy machine only makes the wait longer).
    @Test func aConnectionThatSendsNothingIsClosedAtItsDeadline() throws {
      let dir = try Fixtures.temporaryDirectory()
      var patient = LiveDelivery.Limits()
      patient.requestTimeout = 600
      let control = LiveDelivery(
        session: try Fixtures.session(), socketPath: dir.appendingPathComponent("c.sock").path, inbox: nil,
        limits: patient)
      _ = control.start()
      defer { control.stop() }
      let controlFD = try #require(connect(dir.appendingPathComponent("c.sock").path))
      defer { close(controlFD) }

      let socket = dir.appendingPathComponent("s.sock").path
      var limits = LiveDelivery.Limits()
      limits.requestTimeout = 0.3
      let delivery = LiveDelivery(session: try Fixtures.session(), socketPath: socket, inbox: nil, limits: limits)
      _ = delivery.start()
      defer { delivery.stop() }
      let fd = try #require(connect(socket))
      defer { close(fd) }
      var timeout = timeval(tv_sec: Int(Eventually.limit), tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      let started = Date()
      let reply = LineConnection(fd: fd).readLine()
      let took = Date().timeIntervalSince(started)
      print("an idle connection with a 0.3 s deadline was closed after \(took) s")
      #expect(reply == "ERROR timed out: no complete request within the time allowed")
      #expect(took >= 0.3)
      var byte: UInt8 = 0
      #expect(recv(fd, &byte, 1, 0) == 0, "closed after the message")
      #expect(closedByTheSession([controlFD]) == 0, "the connection with a 600 s deadline was closed too")
    }
  }
}
