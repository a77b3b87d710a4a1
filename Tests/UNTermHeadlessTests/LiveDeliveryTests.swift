import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermShell
@testable import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Live delivery", .serialized, .hangGuard)
struct LiveDeliveryTests {
  @Test func socketAndInboxDeliverIntoTheSession() throws {
    let dir = try Fixtures.temporaryDirectory()
    let session = try Fixtures.session()
    let inbox = dir.appendingPathComponent("inbox")
    let delivery = LiveDelivery(session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
    let notes = delivery.start()
    defer { delivery.stop() }
    #expect(notes.count == 2)
    #expect(mode(dir.appendingPathComponent("s.sock").path) == 0o600)

    // The socket: answered on the session's thread, so drain while the client waits.
    let path = dir.appendingPathComponent("s.sock").path
    let payload = Array(#"{"aps":{"alert":"over the socket"}}"#.utf8)
    let bad = Array(#"{"aps":{"alert":"x","badge":-1}}"#.utf8)
    let answers = try #require(push([("/tmp/a.json", payload), ("/tmp/b.json", bad)], to: path, session: session))
    guard case .delivered(let id) = answers[0], case .rejected(let message) = answers[1] else {
      Issue.record("unexpected answers \(answers)")
      return
    }
    #expect(session.state.store.delivered(id)?.request.content.body == "over the socket")
    #expect(
      message.contains("/tmp/b.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]")
    )

    // The inbox: a dropped file arrives and is moved aside.
    try Data(#"{"aps":{"alert":"dropped in"}}"#.utf8).write(to: inbox.appendingPathComponent("drop.json"))
    waitUntil(session) { delivered(session, "dropped in") }
    #expect(delivered(session, "dropped in"))
    #expect(FileManager.default.fileExists(atPath: inbox.appendingPathComponent("delivered/drop.json").path))
  }

  /// An empty center offers only the ways in that listen: the push and the inbox in the
  /// interactive session, the push alone without an inbox, none on a printed screen.
  @Test func anEmptyCenterNamesOnlyTheWaysInThatListen() throws {
    let dir = try Fixtures.temporaryDirectory()
    func hints(_ session: Session) -> [String] {
      let lines = session.frame().grid.lines.map { $0.trimmingCharacters(in: .whitespaces) }
      guard let empty = lines.firstIndex(of: "No notifications") else { return ["(no empty center)"] }
      return Array(lines[(empty + 1)...].prefix { !$0.isEmpty })
    }
    let both = try Fixtures.session()
    let withInbox = LiveDelivery(
      session: both, socketPath: dir.appendingPathComponent("a.sock").path, inbox: dir.appendingPathComponent("in"))
    _ = withInbox.start()
    defer { withInbox.stop() }
    #expect(hints(both) == ["deliver one with `unterm push FILE`", "or drop a .json file in the inbox"])

    let pushOnly = try Fixtures.session()
    let socketOnly = LiveDelivery(session: pushOnly, socketPath: dir.appendingPathComponent("b.sock").path, inbox: nil)
    _ = socketOnly.start()
    defer { socketOnly.stop() }
    #expect(hints(pushOnly) == ["deliver one with `unterm push FILE`"])

    // render, run and the harness have no socket and no inbox.
    #expect(hints(try Fixtures.session()) == [])
    let silent = dir.appendingPathComponent("silent.json")
    try Data(#"{"aps":{"content-available":1}}"#.utf8).write(to: silent)
    let printed = try Fixtures.run(Fixtures.unterm, ["render", "--size", "60x12", silent.path])
    #expect(printed.stdout.contains("No notifications"), "\(printed.stdout)")
    #expect(!printed.stdout.contains("unterm push"), "\(printed.stdout)")
    #expect(!printed.stdout.contains("inbox"), "\(printed.stdout)")
  }

  // MARK: - 11.4: --socket changes nothing it does not own

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
    let delivery = LiveDelivery(session: session, socketPath: theirs.appendingPathComponent("x.sock").path, inbox: nil)
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
    #expect(second.start().first == "No push socket: \(stale): error: another UNTerm session is already listening here")
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

  // MARK: - 11.5: the inbox delivers complete regular files only

  @Test func theStartUpScanRefusesLinksFIFOsAndFolders() throws {
    let dir = try Fixtures.temporaryDirectory()
    let inbox = dir.appendingPathComponent("inbox")
    try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: false)
    chmod(inbox.path, 0o700)
    let outside = dir.appendingPathComponent("secret.json")
    try Data(#"{"aps":{"alert":"read through a link"}}"#.utf8).write(to: outside)
    try FileManager.default.createSymbolicLink(
      atPath: inbox.appendingPathComponent("link.json").path, withDestinationPath: outside.path)
    #expect(mkfifo(inbox.appendingPathComponent("fifo.json").path, 0o600) == 0)
    try FileManager.default.createDirectory(
      at: inbox.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
    try Data(#"{"aps":{"alert":"a real drop"}}"#.utf8).write(to: inbox.appendingPathComponent("real.json"))

    let session = try Fixtures.session()
    let delivery = LiveDelivery(session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
    _ = delivery.start()
    defer { delivery.stop() }
    waitUntil(session) { delivered(session, "a real drop") && errors(session).count >= 3 }
    #expect(delivered(session, "a real drop"))
    #expect(!delivered(session, "read through a link"))
    #expect(
      errors(session).sorted() == [
        "\(inbox.path)/fifo.json: error: a FIFO is not delivered; the inbox takes regular files only (moved to rejected/fifo.json)",
        "\(inbox.path)/folder.json: error: a folder is not delivered; the inbox takes regular files only (moved to rejected/folder.json)",
        "\(inbox.path)/link.json: error: a symbolic link is not delivered; the inbox takes regular files only (moved to rejected/link.json)",
      ])
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(
        atPath: inbox.appendingPathComponent("rejected/link.json").path))
        == outside.path)
    #expect(FileManager.default.fileExists(atPath: outside.path))
  }

  @Test func linksFIFOsAndFoldersDroppedWhileRunningAreRefusedWithTheReason() throws {
    let dir = try Fixtures.temporaryDirectory()
    let inbox = dir.appendingPathComponent("inbox")
    let session = try Fixtures.session()
    let delivery = LiveDelivery(session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
    _ = delivery.start()
    defer { delivery.stop() }
    let outside = dir.appendingPathComponent("secret.json")
    try Data(#"{"aps":{"alert":"read through a link"}}"#.utf8).write(to: outside)
    try FileManager.default.createSymbolicLink(
      atPath: inbox.appendingPathComponent("link.json").path, withDestinationPath: outside.path)
    #expect(mkfifo(inbox.appendingPathComponent("fifo.json").path, 0o600) == 0)
    try FileManager.default.createDirectory(
      at: inbox.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
    waitUntil(session) { errors(session).count >= 3 }
    #expect(errors(session).count == 3)
    #expect(
      errors(session).contains { $0.hasPrefix("\(inbox.path)/link.json: error: a symbolic link is not delivered") })
    #expect(errors(session).contains { $0.hasPrefix("\(inbox.path)/fifo.json: error: a FIFO is not delivered") })
    #expect(errors(session).contains { $0.hasPrefix("\(inbox.path)/folder.json: error: a folder is not delivered") })
    #expect(!delivered(session, "read through a link"))

    // And the next session's scan does not deliver the link either: it was moved aside. The
    // scan takes every file it finds in one round, so once a file dropped beside it has arrived,
    // the link would have too.
    delivery.stop()
    try Data(#"{"aps":{"alert":"scanned"}}"#.utf8).write(to: inbox.appendingPathComponent("zz-scanned.json"))
    let next = try Fixtures.session()
    let again = LiveDelivery(session: next, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
    _ = again.start()
    defer { again.stop() }
    waitUntil(next) { delivered(next, "scanned") }
    #expect(delivered(next, "scanned"))
    #expect(!delivered(next, "read through a link"))
  }

  /// The second open has to come within the settle delay of the first close. A busy machine
  /// can pause the test longer than any fixed delay: such a try proves nothing and does not
  /// count, and the next allows four times as long.
  @Test func aFileWrittenThroughTwoOpensArrivesWhole() throws {
    var settle: TimeInterval = 1.5
    for _ in 0..<3 {
      let dir = try Fixtures.temporaryDirectory()
      let inbox = dir.appendingPathComponent("inbox")
      let session = try Fixtures.session()
      var limits = LiveDelivery.Limits()
      limits.settleDelay = settle
      let delivery = LiveDelivery(
        session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox, limits: limits)
      _ = delivery.start()
      defer { delivery.stop() }
      let file = inbox.appendingPathComponent("halves.json")
      let beforeFirst = Date()
      try Data(#"{"aps":{"alert":"#.utf8).write(to: file)  // like `echo … > f; echo … >> f`
      waitUntil(session, timeout: 0.3) { false }  // the shell drains all the while
      let handle = try FileHandle(forWritingTo: file)
      handle.seekToEndOfFile()
      handle.write(Data(#""both halves"}}"#.utf8))
      try handle.close()
      let gap = Date().timeIntervalSince(beforeFirst)
      waitUntil(session) { delivered(session, "both halves") || !errors(session).isEmpty }
      guard gap < settle else {
        settle *= 4
        continue
      }
      #expect(delivered(session, "both halves"))
      #expect(errors(session) == [])
      #expect(!FileManager.default.fileExists(atPath: inbox.appendingPathComponent("rejected").path))
      return
    }
    Issue.record("the machine never wrote the second half within the settle delay (last tried \(settle / 4) s)")
  }

  @Test func aFileRenamedInArrivesAtOnceAndDotFilesAreLeftAlone() throws {
    let dir = try Fixtures.temporaryDirectory()
    let inbox = dir.appendingPathComponent("inbox")
    let session = try Fixtures.session()
    var limits = LiveDelivery.Limits()
    limits.settleDelay = 600  // a closed file would wait this long; a renamed one does not
    let delivery = LiveDelivery(
      session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox, limits: limits)
    _ = delivery.start()
    defer { delivery.stop() }
    // A dot file renamed in first: were dot files taken, it would go at once, before the next.
    let hidden = inbox.appendingPathComponent(".hidden.json")
    try Data(#"{"aps":{"alert":"hidden"}}"#.utf8).write(to: inbox.appendingPathComponent(".hidden.tmp"))
    #expect(rename(inbox.appendingPathComponent(".hidden.tmp").path, hidden.path) == 0)
    let temporary = inbox.appendingPathComponent(".incoming.json")
    try Data(#"{"aps":{"alert":"renamed in"}}"#.utf8).write(to: temporary)
    #expect(rename(temporary.path, inbox.appendingPathComponent("incoming.json").path) == 0)
    // Well before the 600 s a closed file would wait.
    waitUntil(session) { delivered(session, "renamed in") }
    #expect(delivered(session, "renamed in"))
    #expect(FileManager.default.fileExists(atPath: hidden.path), "a dot file is not touched")
    #expect(!delivered(session, "hidden"))
  }

  @Test func namesInRejectedNeverCollide() throws {
    let dir = try Fixtures.temporaryDirectory()
    let inbox = dir.appendingPathComponent("inbox")
    let session = try Fixtures.session()
    var limits = LiveDelivery.Limits()
    limits.settleDelay = 0.05
    let delivery = LiveDelivery(
      session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox, limits: limits)
    _ = delivery.start()
    defer { delivery.stop() }
    let contents = [#"{"aps":{"alert":"x","badge":-1}}"#, #"{"aps":"#, #"{"aps":{"alert":"y","badge":-2}}"#]
    for (n, text) in contents.enumerated() {
      try Data(text.utf8).write(to: inbox.appendingPathComponent("bad.json"))
      waitUntil(session) { errors(session).count > n }
    }
    let rejected = inbox.appendingPathComponent("rejected")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: rejected.path).sorted() == [
        "bad-2.json", "bad-3.json", "bad.json",
      ])
    for (name, text) in zip(["bad.json", "bad-2.json", "bad-3.json"], contents) {
      #expect(try String(contentsOf: rejected.appendingPathComponent(name), encoding: .utf8) == text)
    }
    #expect(
      errors(session).first
        == "\(inbox.path)/bad.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge] (moved to rejected/bad.json)"
    )
    #expect(errors(session).last?.hasSuffix("(moved to rejected/bad-3.json)") == true)
  }

  @Test func aHostileFileNameReachesThePaneAsOneVisibleLine() throws {
    let dir = try Fixtures.temporaryDirectory()
    let inbox = dir.appendingPathComponent("inbox")
    let session = try Fixtures.session()
    let delivery = LiveDelivery(session: session, socketPath: dir.appendingPathComponent("s.sock").path, inbox: inbox)
    _ = delivery.start()
    defer { delivery.stop() }
    let name = "\u{1B}]0;pwned\u{07}\nnext.json"
    try FileManager.default.createDirectory(at: inbox.appendingPathComponent(name), withIntermediateDirectories: false)
    waitUntil(session) { !errors(session).isEmpty }
    let line = try #require(errors(session).first)
    #expect(line.hasPrefix("\(inbox.path)/␛]0;pwned␇␊next.json: error: a folder is not delivered"))
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
  }

  // MARK: - 10.12: the inbox goes with the socket; refused pushes show in the session

  @Test func eachSocketHasAnInboxOfItsOwn() throws {
    #expect(LiveDelivery.inbox(forSocket: LiveDelivery.defaultSocketPath()) == LiveDelivery.defaultInbox())
    #expect(LiveDelivery.inbox(forSocket: "/srv/qa/a.sock").path == "/srv/qa/a.sock.inbox")
    let dir = try Fixtures.temporaryDirectory()
    let first = try Fixtures.session()
    let second = try Fixtures.session()
    let a = LiveDelivery(session: first, socketPath: dir.appendingPathComponent("a.sock").path)
    let b = LiveDelivery(session: second, socketPath: dir.appendingPathComponent("b.sock").path)
    #expect(a.start().last == "Watching \(dir.path)/a.sock.inbox for dropped .json/.apns files")
    #expect(b.start().last == "Watching \(dir.path)/b.sock.inbox for dropped .json/.apns files")
    defer {
      a.stop()
      b.stop()
    }
    try Data(#"{"aps":{"alert":"for b only"}}"#.utf8).write(
      to: dir.appendingPathComponent("b.sock.inbox/drop.json"))
    waitUntil(second) { delivered(second, "for b only") }
    first.drain()
    #expect(delivered(second, "for b only"))
    #expect(!delivered(first, "for b only"))
  }

  @Test func aRefusedPushIsReportedInTheSessionToo() throws {
    let dir = try Fixtures.temporaryDirectory()
    let session = try Fixtures.session()
    let socket = dir.appendingPathComponent("s.sock").path
    let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
    _ = delivery.start()
    defer { delivery.stop() }
    let bad = Array(#"{"aps":{"alert":"x","badge":-1}}"#.utf8)
    let answers = try #require(push([("/tmp/q\u{1B}[2J.json", bad)], to: socket, session: session))
    guard case .rejected(let message) = answers.first else {
      Issue.record("unexpected answers \(answers)")
      return
    }
    #expect(
      message == "/tmp/q␛[2J.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]")
    #expect(
      errors(session) == [
        "Refused a push: /tmp/q␛[2J.json:1:29: error: badge must be a whole number from 0 to 2147483647, not -1 [aps.badge]"
      ])
  }

  // MARK: - 11.6: one thread for every connection

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

  // MARK: - In tmux, as a user does it

  @Test(.enabled(if: TmuxDriver.isAvailable))
  func theInteractiveSessionWatchesTheInboxBesideItsSocket() throws {
    let dir = try Fixtures.temporaryDirectory()
    let socket = dir.appendingPathComponent("qa.sock").path
    let tmux = try TmuxDriver(width: 100, height: 30)
    defer { tmux.kill() }
    tmux.type("LANG=C.UTF-8 \(Fixtures.unterm) --socket \(socket) \(Fixtures.sample("message.json")); echo DONE")
    tmux.keys("Enter")
    try tmux.waitFor("Ana Lima")
    try Data(#"{"aps":{"alert":"beside the socket"}}"#.utf8).write(
      to: URL(fileURLWithPath: socket + ".inbox/drop.json"))
    try tmux.waitFor("beside the socket")
    let refused = try Fixtures.run(
      Fixtures.unterm, ["push", "--socket", socket, write(#"{"aps":{"alert":"x","badge":-1}}"#, in: dir)])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("error: badge must be a whole number from 0 to 2147483647, not -1"))
    try tmux.waitFor("Refused a push")
    tmux.type("q")
    try tmux.waitFor("DONE")
  }

  // MARK: - Helpers

  private func write(_ text: String, in dir: URL) throws -> String {
    let url = dir.appendingPathComponent("payload-\(UUID().uuidString.prefix(6)).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
  }

  private func count(_ folder: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? 0
  }

  private func delivered(_ session: Session, _ body: String) -> Bool {
    session.state.store.deliveredNewestFirst.contains { $0.request.content.body == body }
  }

  private func errors(_ session: Session) -> [String] {
    session.state.notices.filter { $0.kind == .error }.map(\.text)
  }

  /// Drains the session (the work the socket and the inbox post to it) until `condition` holds.
  private func waitUntil(_ session: Session, timeout: TimeInterval = Eventually.limit, _ condition: () -> Bool) {
    Eventually.wait(upTo: timeout, between: session.drain, condition)
  }

  /// How many of these client ends the session has said something to or closed.
  private func closedByTheSession(_ fds: [Int32]) -> Int {
    var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    _ = poll(&polled, nfds_t(polled.count), 0)
    return polled.filter { $0.revents != 0 }.count
  }

  /// Pushes from another thread while this one drains the session, as the shell would.
  private func push(_ payloads: [(name: String, bytes: [UInt8])], to socket: String, session: Session)
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

  private func connect(_ path: String) -> Int32? {
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
  private func makeStaleSocket(_ path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    #expect(PushClient.fill(&address, path: path))
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    #expect(bound == 0)
    close(fd)
  }

  private func raiseDescriptorLimit(to wanted: rlim_t) {
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
