import Foundation
import Testing
import UNTermShell
import UNTermTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The one inotify reader `--watch` and the inbox share: its decoding of the kernel's records on
/// bytes made here (whole, cut short anywhere, lying about their length), then real inotify in a
/// temporary folder. Every wait for an event is a `poll` bounded by `timeout`.
@Suite("Inotify: one reader for --watch and the inbox, records decoded safely", .hangGuard)
struct InotifyTests {
  /// How long a test waits for the kernel to queue an event it already made happen.
  let timeout: Double = 10

  /// One `inotify_event` record as the kernel writes it: the four fields in the machine's order,
  /// then the name padded with NULs to `length` (the name's own length by default).
  func record(watch: Int32, mask: UInt32, cookie: UInt32 = 0, name: String = "", length: Int? = nil) -> [UInt8] {
    let name = Array(name.utf8)
    let length = length ?? name.count
    var bytes = withUnsafeBytes(of: watch) { Array($0) }
    bytes += withUnsafeBytes(of: mask) { Array($0) }
    bytes += withUnsafeBytes(of: cookie) { Array($0) }
    bytes += withUnsafeBytes(of: UInt32(length)) { Array($0) }
    return bytes + name.prefix(length) + [UInt8](repeating: 0, count: max(0, length - name.count))
  }

  func decode(_ bytes: [UInt8]) -> [Inotify.Event] { bytes.withUnsafeBytes { Inotify.decode($0) } }

  /// Whether the descriptor became readable within `timeout`.
  func waitReadable(_ descriptor: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
      let ready = poll(&fds, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
      if ready > 0 { return true }
      if ready < 0 && errno != EINTR { return false }
    }
    return false
  }

  /// Reads events until one matches `until`, or `timeout` passes; all that were read.
  func collect(from inotify: Inotify, until: (Inotify.Event) -> Bool) -> [Inotify.Event] {
    var events: [Inotify.Event] = []
    let deadline = Date().addingTimeInterval(timeout)
    while !events.contains(where: until) && Date() < deadline && waitReadable(inotify.descriptor) {
      inotify.readEvents { events.append($0) }
    }
    return events
  }

  func touch(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    close(fd)
  }

  // MARK: - Decoding

  @Test("Several records in one read are decoded in order; a name stops at its NULs and at its length")
  func decodesSeveralRecords() {
    let bytes =
      record(watch: 1, mask: UInt32(IN_CREATE), name: "a.json", length: 16)
      + record(watch: -1, mask: UInt32(IN_Q_OVERFLOW))
      + record(watch: 2, mask: UInt32(IN_MOVED_TO), cookie: 7, name: "abcd")
      + record(watch: 2, mask: UInt32(IN_DELETE_SELF))
    #expect(
      decode(bytes) == [
        Inotify.Event(watch: 1, mask: UInt32(IN_CREATE), name: "a.json"),
        Inotify.Event(watch: -1, mask: UInt32(IN_Q_OVERFLOW)),
        // No NUL ends this name: the next record's bytes are not part of it.
        Inotify.Event(watch: 2, mask: UInt32(IN_MOVED_TO), cookie: 7, name: "abcd"),
        Inotify.Event(watch: 2, mask: UInt32(IN_DELETE_SELF)),
      ])
  }

  @Test("Bytes cut short anywhere give the whole records before the cut, and never read past it")
  func truncatedReads() {
    let records = [
      record(watch: 1, mask: UInt32(IN_CLOSE_WRITE), name: "payload.json", length: 32),
      record(watch: 1, mask: UInt32(IN_MODIFY), name: "b.apns", length: 16),
      record(watch: 3, mask: UInt32(IN_IGNORED)),
    ]
    let whole = records.flatMap { $0 }
    let expected = decode(whole)
    #expect(expected.map(\.name) == ["payload.json", "b.apns", ""])
    var ends: [Int] = []
    for record in records { ends.append((ends.last ?? 0) + record.count) }
    for cut in 0...whole.count {
      // Decoded from a copy of exactly `cut` bytes, so reading past them would be caught.
      let complete = ends.filter { $0 <= cut }.count
      #expect(decode(Array(whole.prefix(cut))) == Array(expected.prefix(complete)), "cut at \(cut)")
    }
  }

  @Test("A record announcing more name than there are bytes ends the batch, however large its length")
  func lyingLength() {
    let first = record(watch: 1, mask: UInt32(IN_CREATE), name: "a.json", length: 8)
    let liar = record(watch: 1, mask: UInt32(IN_CREATE), name: "b.json", length: 8)
    // The liar's `len` field says 4 GiB.
    var bytes = first + liar
    bytes.replaceSubrange((first.count + 12)..<(first.count + 16), with: [0xFF, 0xFF, 0xFF, 0xFF])
    #expect(decode(bytes) == [Inotify.Event(watch: 1, mask: UInt32(IN_CREATE), name: "a.json")])
    #expect(decode([]).isEmpty)
  }

  // MARK: - Real inotify

  @Test("A file created in a watched folder is reported by name, several events coming from one read")
  func reportsCreatedFile() throws {
    let folder = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inotify = try Inotify()
    let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_ONLYDIR)
    let watch = try inotify.addWatch(folder.path, mask: mask)
    #expect(try inotify.addWatch(folder.path, mask: mask) == watch, "the same folder keeps its watch")
    touch(folder.appendingPathComponent("a.json").path)
    #expect(mkdir(folder.appendingPathComponent("sub").path, 0o755) == 0)
    #expect(waitReadable(inotify.descriptor))
    // One read of the descriptor, decoded: all three are queued before it.
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(inotify.descriptor, $0.baseAddress, $0.count) }
    try #require(count > 0)
    let events = buffer.withUnsafeBytes { Inotify.decode(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    #expect(
      events == [
        Inotify.Event(watch: watch, mask: UInt32(IN_CREATE), name: "a.json"),
        Inotify.Event(watch: watch, mask: UInt32(IN_CLOSE_WRITE), name: "a.json"),
        Inotify.Event(watch: watch, mask: UInt32(IN_CREATE | IN_ISDIR), name: "sub"),
      ])
    // Nothing more is queued: reading returns at once, handing nothing over.
    var more: [Inotify.Event] = []
    inotify.readEvents { more.append($0) }
    #expect(more.isEmpty)
    touch(folder.appendingPathComponent("b.apns").path)
    let later = collect(from: inotify) { $0.mask & UInt32(IN_CLOSE_WRITE) != 0 }
    #expect(later.map(\.name) == ["b.apns", "b.apns"])
  }

  @Test("A watched folder removed reports itself gone then IN_IGNORED; its watch is then stale, harmlessly")
  func survivesRemovedFolder() throws {
    let folder = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let gone = folder.appendingPathComponent("gone").path
    #expect(mkdir(gone, 0o755) == 0)
    let inotify = try Inotify()
    let watch = try inotify.addWatch(gone, mask: UInt32(IN_CREATE | IN_DELETE_SELF | IN_ONLYDIR))
    #expect(rmdir(gone) == 0)
    let events = collect(from: inotify) { $0.mask & UInt32(IN_IGNORED) != 0 }
    #expect(
      events == [
        Inotify.Event(watch: watch, mask: UInt32(IN_DELETE_SELF)),
        Inotify.Event(watch: watch, mask: UInt32(IN_IGNORED)),
      ])
    // The stale watch goes quietly, the missing folder cannot be watched, and reading goes on.
    inotify.removeWatch(watch)
    #expect(throws: Inotify.Failure.self) { try inotify.addWatch(gone, mask: UInt32(IN_CREATE | IN_ONLYDIR)) }
    let again = try inotify.addWatch(folder.path, mask: UInt32(IN_CREATE | IN_ONLYDIR))
    touch(folder.appendingPathComponent("c.json").path)
    let later = collect(from: inotify) { $0.name == "c.json" }
    #expect(later == [Inotify.Event(watch: again, mask: UInt32(IN_CREATE), name: "c.json")])
  }
}
