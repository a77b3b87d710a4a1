#if canImport(Glibc)
  import Glibc
#endif

/// One inotify instance, and the one place UNTerm reads inotify events: it owns the descriptor,
/// adds and removes watches, and decodes the variable-length `inotify_event` records a read
/// returns. `--watch` (`FileWatcher`) and the inbox (`InboxWatcher`) each hold one and keep their
/// own policy (which events mean what, when to look again), so the read loop is written once.
///
/// The descriptor is non-blocking and close on exec, so reading never waits (the owner polls it)
/// and no child inherits it; it is closed when the instance goes. Decoding never reads past the
/// bytes a read returned: a record whose header or name would run past them ends the batch, and
/// a name is at most its record's `len` bytes, up to the first NUL of the padding.
package final class Inotify: Sendable {
  /// One event, as the kernel reported it.
  package struct Event: Sendable, Equatable {
    /// The watch it came from (`addWatch`'s answer); -1 for `IN_Q_OVERFLOW`.
    package var watch: Int32
    /// What happened: `IN_…` flags.
    package var mask: UInt32
    /// Pairs an `IN_MOVED_FROM` with its `IN_MOVED_TO`; 0 otherwise.
    package var cookie: UInt32
    /// The name of the entry in the watched folder; empty for an event on the folder itself.
    package var name: String

    package init(watch: Int32, mask: UInt32, cookie: UInt32 = 0, name: String = "") {
      self.watch = watch
      self.mask = mask
      self.cookie = cookie
      self.name = name
    }
  }

  /// Why inotify could not be used: `errno`'s words.
  package struct Failure: Error {
    package var reason: String
  }

  /// The inotify descriptor, readable when events are queued.
  package let descriptor: Int32

  /// The fixed part of a record: `wd`, `mask`, `cookie` and `len`, four 32-bit fields.
  package static let headerSize = 16

  /// How much one read takes: many events, and always at least one whole record (a header and
  /// `NAME_MAX + 1` bytes of name), which the kernel needs to answer at all.
  private static let bufferSize = 16_384

  /// A new inotify instance with no watches.
  package init() throws(Inotify.Failure) {
    let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
    guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    descriptor = fd
  }

  deinit { close(descriptor) }

  /// Watches `path` for the events in `mask`, or updates the watch the path already has (the
  /// same inode gives the same watch). Returns the watch, which the events it causes carry.
  ///
  /// - Throws: `Failure` when the path cannot be watched (missing, not a folder with
  ///   `IN_ONLYDIR`, out of watches).
  package func addWatch(_ path: String, mask: UInt32) throws(Inotify.Failure) -> Int32 {
    let watch = inotify_add_watch(descriptor, path, mask)
    guard watch >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
    return watch
  }

  /// Stops a watch; the kernel then queues its `IN_IGNORED`. A watch already gone is no error.
  package func removeWatch(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor, watch)
  }

  /// Reads every event queued so far and hands each to `handle`, in order, one read's batch at
  /// a time; returns once a read would block (nothing more is queued), fails or ends. A read
  /// interrupted by a signal is made again.
  package func readEvents(_ handle: (Event) -> Void) {
    var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      let events = buffer.withUnsafeBytes { Self.decode(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
      for event in events { handle(event) }
    }
  }

  /// The events in the bytes of one read. A record cut short (its header, or the `len` bytes of
  /// name it announces, past the end) and whatever follows it are left out: the kernel returns
  /// whole records only, and a name cut short would be another file's.
  package static func decode(_ bytes: UnsafeRawBufferPointer) -> [Event] {
    var events: [Event] = []
    var offset = 0
    while bytes.count - offset >= headerSize {
      let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
      let end = offset + headerSize + length  // `len` is 32 bits: no overflow
      guard end <= bytes.count else { break }
      let name = bytes[(offset + headerSize)..<end].prefix { $0 != 0 }
      events.append(
        Event(
          watch: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
          mask: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
          cookie: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self),
          name: String(decoding: name, as: UTF8.self)))
      offset = end
    }
    return events
  }
}
