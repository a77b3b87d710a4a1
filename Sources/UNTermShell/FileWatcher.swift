import Foundation
import Posix
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// Tells when files are saved, for the live preview (`--watch`): inotify, never polling.
///
/// It watches the *folders* the files are in and matches the names of the events, so a save
/// in place (`IN_MODIFY`, `IN_CLOSE_WRITE`), a save by rename over the file (`IN_MOVED_TO`: VS
/// Code, vim's `backupcopy=no`, most editors' atomic saves) and a delete then re-create are all
/// seen, and the file stays watched whatever inode it has now. A symbolic link is watched as
/// itself and as the file it points to. A folder given itself (the sheet takes folders) counts
/// any payload-like file in it. A folder that disappears is watched for from its nearest
/// existing ancestor, and its files count as changed when it comes back.
///
/// Changes are coalesced: a burst of events becomes one set of changed files, taken once nothing
/// happened for `Timing.quiet`, or `Timing.limit` after the burst's first event, so an editor
/// writing in steps is read once and continuous saving still redraws. The times come in as
/// arguments (`now`, monotonic seconds), so tests decide them.
///
/// Thread-safe: the watching thread reads events while the session's thread changes the set.
package final class FileWatcher: @unchecked Sendable {
  /// How events are coalesced.
  package struct Timing: Sendable {
    /// Changes are taken once no event came for this long.
    package var quiet: TimeInterval = 0.025
    /// ...and at the latest this long after the first event of a burst.
    package var limit: TimeInterval = 0.075

    package init() {}
  }

  /// The inotify descriptor, readable when events arrive.
  package var descriptor: Int32 { inotify.descriptor }
  package let timing: Timing

  /// Reads the events; which of them mean a change is decided here.
  private let inotify: Inotify

  private let lock = NSLock()
  /// What each watch descriptor watches: folder paths (two paths may be one folder).
  private var folders: [Int32: Set<String>] = [:]
  private var watchOf: [String: Int32] = [:]
  /// For each folder, the names in it that matter, and the paths as given that they stand for.
  private var names: [String: [String: Set<String>]] = [:]
  /// Folders given themselves, with the paths as given.
  private var wholeFolders: [String: Set<String>] = [:]
  /// Files never to count in a whole folder (the sheet being written into it).
  private var ignored: Set<String> = []
  /// Folders that do not exist now; their nearest existing ancestors are watched.
  private var missing: Set<String> = []
  private var changes: Set<String> = []
  private var firstEvent: Double?
  private var lastEvent: Double?

  /// The folder events that matter, and the folder going away.
  private static let mask = UInt32(
    IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF
      | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

  /// Watches `files` (as given on the command line: relative paths are relative to the working
  /// directory).
  ///
  /// - Throws: `UNTermError` (exit 1) when inotify cannot be used.
  package init(files: [String], ignoring: [String] = [], timing: Timing = Timing()) throws(UNTermError) {
    do {
      inotify = try Inotify()
    } catch {
      throw UNTermError(.failure, "--watch cannot use inotify: \(error.reason)")
    }
    self.timing = timing
    self.ignored = Set(ignoring.map(Self.absolute))
    watch(files)
  }

  /// Watches exactly these files from now on (the set changes when a descriptor names another
  /// Info.plist); folders no longer needed are let go.
  package func watch(_ files: [String]) {
    lock.lock()
    defer { lock.unlock() }
    names = [:]
    wholeFolders = [:]
    for given in files where given != "-" {
      let path = Self.absolute(given)
      var info = stat()
      if stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
        wholeFolders[path, default: []].insert(given)
        continue
      }
      add(path, as: given)
      // A link: the file it points to is watched too, in its own folder.
      var link = stat()
      if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK, let resolved = Self.resolved(path),
        resolved != path
      {
        add(resolved, as: given)
      }
    }
    arm()
  }

  private func add(_ path: String, as given: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    names[folder.isEmpty ? "/" : folder, default: [:]][name, default: []].insert(given)
  }

  /// The folders that need a watch now: those holding the files, the whole ones, and the
  /// nearest existing ancestor of each missing one.
  private func arm() {
    let needed = Set(names.keys).union(wholeFolders.keys)
    var wanted: Set<String> = []
    var nowMissing: Set<String> = []
    for folder in needed {
      if addWatch(folder) {
        wanted.insert(folder)
      } else {
        nowMissing.insert(folder)
        // Watch for it to come back from the nearest ancestor that exists.
        var ancestor = (folder as NSString).deletingLastPathComponent
        while !ancestor.isEmpty && ancestor != "/" && !addWatch(ancestor) {
          ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        if ancestor.isEmpty || ancestor == "/" {
          ancestor = "/"
          _ = addWatch(ancestor)
        }
        wanted.insert(ancestor)
      }
    }
    missing = nowMissing
    // Let go of the watches nothing needs any more.
    for (folder, wd) in watchOf where !wanted.contains(folder) {
      watchOf[folder] = nil
      folders[wd]?.remove(folder)
      if folders[wd]?.isEmpty ?? true {
        folders[wd] = nil
        inotify.removeWatch(wd)
      }
    }
  }

  /// Adds (or keeps) the watch of a folder; false when it cannot be watched (it is missing).
  private func addWatch(_ folder: String) -> Bool {
    guard let wd = try? inotify.addWatch(folder, mask: Self.mask) else { return false }
    if let old = watchOf[folder], old != wd {
      folders[old]?.remove(folder)
      if folders[old]?.isEmpty ?? false { folders[old] = nil }
    }
    watchOf[folder] = wd
    folders[wd, default: []].insert(folder)
    return true
  }

  // MARK: - Events

  /// Reads the events that have arrived (the descriptor was readable), stamping them `now`.
  package func readEvents(now: Double) {
    lock.lock()
    defer { lock.unlock() }
    var rearm = false
    inotify.readEvents { if event(wd: $0.watch, mask: $0.mask, name: $0.name, now: now) { rearm = true } }
    if rearm { arm() }
  }

  /// Takes one event; true when the watches must be set up again.
  private func event(wd: Int32, mask: UInt32, name: String, now: Double) -> Bool {
    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
      // Events were lost: every file may have changed.
      mark(Set(names.values.flatMap { $0.values.flatMap { $0 } }).union(wholeFolders.values.flatMap { $0 }), now: now)
      return false
    }
    guard let watched = folders[wd] else { return false }
    if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
      // The folder went away (or moved): its files are gone from where they were named.
      for folder in watched {
        mark(Set((names[folder] ?? [:]).values.flatMap { $0 }).union(wholeFolders[folder] ?? []), now: now)
        watchOf[folder] = nil
      }
      folders[wd] = nil
      if mask & UInt32(IN_IGNORED) == 0 { inotify.removeWatch(wd) }
      return true
    }
    var comesBack = false
    for folder in watched {
      if let given = names[folder]?[name] { mark(given, now: now) }
      if let given = wholeFolders[folder], Self.countsInFolder(name),
        !ignored.contains(folder + (folder.hasSuffix("/") ? "" : "/") + name)
      {
        mark(given, now: now)
      }
      // A folder made (or moved) into an ancestor may be one that was missing.
      if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
        let prefix = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        if missing.contains(where: { $0 == prefix || $0.hasPrefix(prefix + "/") }) { comesBack = true }
      }
    }
    if comesBack {
      // Its files count as changed: they may be there again.
      for folder in missing {
        mark(Set((names[folder] ?? [:]).values.flatMap { $0 }).union(wholeFolders[folder] ?? []), now: now)
      }
    }
    return comesBack
  }

  /// Whether a file in a folder given whole counts: the kinds of file a sheet reads, and not a
  /// dot file (an editor's or UNTerm's temporary).
  private static func countsInFolder(_ name: String) -> Bool {
    !name.hasPrefix(".") && [".json", ".apns", ".plist", ".session"].contains { name.hasSuffix($0) }
  }

  private func mark(_ given: Set<String>, now: Double) {
    guard !given.isEmpty else { return }
    changes.formUnion(given)
    if firstEvent == nil { firstEvent = now }
    lastEvent = now
  }

  /// When the changes seen so far are due: a quiet period after the last event, at most the
  /// limit after the first; `nil` when nothing changed.
  package var nextDue: Double? {
    lock.lock()
    defer { lock.unlock() }
    return due
  }

  private var due: Double? {
    guard let firstEvent, let lastEvent else { return nil }
    return min(lastEvent + timing.quiet, firstEvent + timing.limit)
  }

  /// The files (as given) changed since the last take, once they are due; empty before.
  package func takeChanges(now: Double) -> Set<String> {
    lock.lock()
    defer { lock.unlock() }
    guard let due, now >= due else { return [] }
    let taken = changes
    changes = []
    firstEvent = nil
    lastEvent = nil
    return taken
  }

  /// Waits until changes are due, or one of `others` is readable (a wake-up pipe, a signal
  /// pipe); returns the changes (possibly none) and the descriptors among `others` that are
  /// readable. An interrupted wait returns neither.
  package func wait(orAnyOf others: [Int32]) -> (changes: Set<String>, ready: [Int32]) {
    while true {
      let now = Monotonic.now()
      let taken = takeChanges(now: now)
      if !taken.isEmpty { return (taken, []) }
      var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
      fds += others.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      let timeout = nextDue.map { Int32(max(0, min(60_000, (($0 - now) * 1000).rounded(.up)))) } ?? -1
      let ready = poll(&fds, nfds_t(fds.count), timeout)
      if ready < 0 {
        // Interrupted (a signal, which its own pipe reports), or a failure poll does not
        // explain: either way the caller asks again.
        if errno != EINTR { usleep(10_000) }
        return ([], [])
      }
      if fds[0].revents != 0 { readEvents(now: Monotonic.now()) }
      let readyOthers = zip(others, fds.dropFirst()).filter { $0.1.revents != 0 }.map(\.0)
      if !readyOthers.isEmpty { return (takeChanges(now: Monotonic.now()), readyOthers) }
    }
  }

  // MARK: - Paths

  /// An absolute, standardized path (relative ones from the working directory).
  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  private static func resolved(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}
