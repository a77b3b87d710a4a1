import Foundation
import UNTermHeadless
import UNTermInput
import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// The inbox folder: `.json` and `.apns` files dropped into it are delivered into the session,
/// then moved to `delivered/`, or to `rejected/` with the reason in the activity pane.
///
/// Only complete regular files are delivered. A file is complete when it is renamed into the
/// inbox (write it under a temporary or dot name, then rename it), or when `settleDelay` has
/// passed since it was last closed after writing, so a file written through several opens is
/// read whole. Files are opened with `O_NOFOLLOW | O_NONBLOCK` and checked with `fstat`, so a
/// symbolic link, a FIFO, a folder or a device is refused, never followed or waited on; the
/// start-up scan applies the same rules. Runs on the `DeliveryLoop` thread.
final class InboxWatcher: @unchecked Sendable {
  let folder: String
  /// The inotify descriptor the loop polls; -1 once closed (`poll` skips it).
  var descriptor: Int32 { inotify?.descriptor ?? -1 }
  /// The folder's watch; `nil` once closed, which closes the descriptor.
  private var inotify: Inotify?
  private let session: Session
  private let settleDelay: Double
  private let filer: InboxFiler
  /// When each pending name is due to be read.
  private var due: [String: Double] = [:]
  private var watching = true

  init(folder: String, session: Session, settleDelay: TimeInterval) throws(UNTermError) {
    let shown = OneLine.flatten(folder)
    let inotify: Inotify
    do {
      inotify = try Inotify()
    } catch {
      throw UNTermError(.noInput, file: shown, "inotify is unavailable: \(error.reason)")
    }
    let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
    do {
      _ = try inotify.addWatch(folder, mask: mask)
    } catch {
      throw UNTermError(.noInput, file: shown, "cannot watch the folder: \(error.reason)")
    }
    self.folder = folder
    self.inotify = inotify
    self.session = session
    self.settleDelay = max(0, settleDelay)
    filer = InboxFiler(folder: folder)
  }

  /// Closes the inotify descriptor: nothing is read after.
  func close() { inotify = nil }

  /// Whether a name is one the inbox delivers: `.json` or `.apns`, and not a dot file (the
  /// temporary name of a file being written).
  static func isCandidate(_ name: String) -> Bool {
    !name.hasPrefix(".") && !name.contains("/") && (name.hasSuffix(".json") || name.hasSuffix(".apns"))
  }

  var nextDue: Double? { due.values.min() }

  /// Files already there were dropped while no session ran: the same rules as for new ones.
  func scan(now: Double) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where Self.isCandidate(name) && due[name] == nil { due[name] = now }
  }

  /// Reads the inotify events that have arrived.
  func readEvents(now: Double) {
    inotify?.readEvents { event(mask: $0.mask, name: $0.name, now: now) }
  }

  private func event(mask: UInt32, name: String, now: Double) {
    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
      scan(now: now)  // events were lost: look at everything again
      return
    }
    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
      if watching {
        watching = false
        notify(
          .error,
          "\(OneLine.flatten(folder)): error: the inbox folder was removed or moved; files dropped there are no longer delivered"
        )
      }
      return
    }
    guard Self.isCandidate(name) else { return }
    if mask & UInt32(IN_MOVED_TO) != 0 {
      due[name] = now  // renamed in: complete
    } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
      due[name] = now + settleDelay  // unless it is opened and written again meanwhile
    } else if mask & UInt32(IN_MODIFY) != 0 {
      due[name] = nil  // being written: wait for the close
    } else if mask & UInt32(IN_CREATE) != 0 {
      var info = stat()
      guard lstat(path(name), &info) == 0 else { return }
      if info.st_mode & S_IFMT != S_IFREG {
        due[name] = now  // a link, FIFO or folder made in place: refuse it now
      } else if info.st_nlink > 1 {
        due[name] = now + settleDelay  // a hard link to an existing file: no close will follow
      } else {
        due[name] = nil  // a new file being written
      }
    }
  }

  /// Reads and hands over every file that is due.
  func processDue(now: Double) {
    let ready = due.filter { $0.value <= now }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
    for (name, _) in ready {
      due[name] = nil
      if filer.isInFlight(name) {
        due[name] = now + max(settleDelay, 0.1)  // the session still has the previous one
        continue
      }
      take(name)
    }
  }

  private func path(_ name: String) -> String { folder + "/" + name }

  private func take(_ name: String) {
    let path = path(name)
    var link = stat()
    guard lstat(path, &link) == 0 else { return }  // gone: renamed away or deleted
    guard link.st_mode & S_IFMT == S_IFREG else {
      refuse(
        name, identity: .init(link), "\(FileKind(link.st_mode)) is not delivered; the inbox takes regular files only")
      return
    }
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      switch errno {
      case ENOENT: return
      case ELOOP:
        refuse(name, identity: nil, "a symbolic link is not delivered; the inbox takes regular files only")
      default:
        refuse(name, identity: .init(link), "cannot be read: \(String(cString: strerror(errno)))")
      }
      return
    }
    defer { Glibc.close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      refuse(name, identity: .init(link), "cannot be read: \(String(cString: strerror(errno)))")
      return
    }
    let identity = InboxFiler.Identity(info)
    guard info.st_mode & S_IFMT == S_IFREG else {
      refuse(name, identity: identity, "\(FileKind(info.st_mode)) is not delivered; the inbox takes regular files only")
      return
    }
    let limit = InputFile.defaultLimit
    guard Int(info.st_size) <= limit, let bytes = Self.read(fd, limit: limit) else {
      refuse(name, identity: identity, "the file is over \(limit) bytes; UNTerm reads files of at most \(limit) bytes")
      return
    }
    filer.begin(name)
    let filer = self.filer
    session.queue.post { [session] in
      defer { filer.end(name) }
      let shownPath = OneLine.flatten(path)
      do throws(UNTermError) {
        let payload = PayloadAnalyzer.analyze(bytes, file: path, categories: session.state.store.registry)
        // A bad payload is refused before it takes an identifier; an apns-collapse-id is one.
        let id = try session.push(payload)
        switch filer.file(name, identity: identity, into: InboxFiler.delivered) {
        case .failure(let reason):
          session.send(
            .notice(.warning, "Delivered \(shownPath) as \(id), but could not move it to delivered/: \(reason)"))
        default:
          session.send(.notice(.info, "Delivered \(OneLine.flatten(name)) from the inbox as \(id)"))
        }
      } catch {
        let outcome = filer.file(name, identity: identity, into: InboxFiler.rejected)
        session.send(.notice(.error, DeliveryLoop.describe(error) + InboxFiler.describe(outcome)))
      }
    }
  }

  /// Moves a refused entry to `rejected/` and says why in the activity pane.
  private func refuse(_ name: String, identity: InboxFiler.Identity?, _ reason: String) {
    var identity = identity
    if identity == nil {
      var info = stat()
      if lstat(path(name), &info) == 0 { identity = .init(info) }
    }
    guard let identity else { return }  // already gone
    let outcome = filer.file(name, identity: identity, into: InboxFiler.rejected)
    if case .gone = outcome { return }
    notify(.error, "\(OneLine.flatten(path(name))): error: \(reason)" + InboxFiler.describe(outcome))
  }

  private func notify(_ kind: CenterState.Notice.Kind, _ text: String) {
    session.queue.post { [session] in session.send(.notice(kind, text)) }
  }

  /// Reads a whole regular file, or nil if it is over `limit` bytes.
  private static func read(_ fd: Int32, limit: Int) -> [UInt8]? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return data }
      data += buffer[0..<n]
      if data.count > limit { return nil }
    }
  }
}

/// Moves handled inbox entries aside under names that never collide, and remembers which
/// names the session is still delivering. Used from the loop and the session's threads.
final class InboxFiler: @unchecked Sendable {
  static let delivered = "delivered"
  static let rejected = "rejected"

  /// Which entry a name held when it was read, so a newer file under the same name is left
  /// for its own delivery.
  struct Identity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  enum Outcome {
    /// Moved to `folder/name`.
    case moved(String)
    /// The entry is no longer there (or is a different file now).
    case gone
    case failure(String)
  }

  let folder: String
  private let lock = NSLock()
  private var inFlight: Set<String> = []

  init(folder: String) { self.folder = folder }

  func begin(_ name: String) {
    lock.lock()
    inFlight.insert(name)
    lock.unlock()
  }

  func end(_ name: String) {
    lock.lock()
    inFlight.remove(name)
    lock.unlock()
  }

  func isInFlight(_ name: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return inFlight.contains(name)
  }

  /// Moves the entry `name` (if it is still `identity`) into the subfolder `into`, as `name`
  /// or, when that is taken, `stem-2.ext`, `stem-3.ext`, ….
  func file(_ name: String, identity: Identity, into subfolder: String) -> Outcome {
    lock.lock()
    defer { lock.unlock() }
    let source = folder + "/" + name
    var info = stat()
    guard lstat(source, &info) == 0, Identity(info) == identity else { return .gone }
    let target = folder + "/" + subfolder
    do throws(UNTermError) {
      try PrivateFolder.prepare(target, for: .inbox)
    } catch {
      return .failure(error.message.text)
    }
    var check = stat()
    guard lstat(target, &check) == 0, check.st_mode & S_IFMT == S_IFDIR else {
      return .failure("\(subfolder)/ is not a folder")
    }
    let ext = (name as NSString).pathExtension
    let stem = (name as NSString).deletingPathExtension
    for attempt in 1...100_000 {
      let candidate = attempt == 1 ? name : "\(stem)-\(attempt)" + (ext.isEmpty ? "" : ".\(ext)")
      var existing = stat()
      guard lstat(target + "/" + candidate, &existing) != 0 && errno == ENOENT else { continue }
      guard rename(source, target + "/" + candidate) == 0 else {
        return .failure("cannot move it to \(subfolder)/: \(String(cString: strerror(errno)))")
      }
      return .moved(subfolder + "/" + candidate)
    }
    return .failure("\(subfolder)/ has no free name for it")
  }

  /// The end of a refusal's line: where the file went.
  static func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .moved(let place): return " (moved to \(OneLine.flatten(place)))"
    case .gone: return ""
    case .failure(let reason): return " (left in place: \(OneLine.flatten(reason)))"
    }
  }
}
