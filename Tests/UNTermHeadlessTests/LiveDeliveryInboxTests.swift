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
  /// The inbox delivers complete regular files only (11.5).
  @Suite("The inbox")
  struct Inbox: LiveDeliveryTesting {
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
      try FileManager.default.createDirectory(
        at: inbox.appendingPathComponent(name), withIntermediateDirectories: false)
      waitUntil(session) { !errors(session).isEmpty }
      let line = try #require(errors(session).first)
      #expect(line.hasPrefix("\(inbox.path)/␛]0;pwned␇␊next.json: error: a folder is not delivered"))
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
  }
}
