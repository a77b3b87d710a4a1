import Foundation
import Posix
import UNTermHeadless
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive session's live preview (`unterm --watch`): every file on the command line is
/// watched (`FileWatcher`), and a save reloads it into the running session as events, so the
/// focus, the open view, the lock, a reply being typed and the responses stay.
///
/// A thread of its own waits on the watcher and posts each coalesced set of changes to the
/// session's queue, which wakes the interactive loop; `apply` then runs on the session's thread
/// and the loop draws the result. It is apart from the delivery loop, so it works whether or not
/// the push socket could be had.
package final class LivePreview: @unchecked Sendable {
  /// A payload given on the command line and the request identifier it was delivered under,
  /// which its reloads keep.
  package struct Payload: Sendable, Hashable {
    package var file: String
    package var identifier: String

    package init(file: String, identifier: String) {
      self.file = file
      self.identifier = identifier
    }
  }

  private let session: Session
  private let payloads: [Payload]
  package let watcher: FileWatcher
  private let wakePipe: WakePipe
  private let lock = NSLock()
  private var stopRequested = false
  private var running = false
  private let finished = DispatchSemaphore(value: 0)

  /// Watches the session's files (its configuration's) and `payloads`.
  ///
  /// - Throws: `UNTermError` (exit 1) when inotify cannot be used.
  package init(session: Session, payloads: [Payload], timing: FileWatcher.Timing = FileWatcher.Timing())
    throws(UNTermError)
  {
    self.session = session
    self.payloads = payloads
    watcher = try FileWatcher(
      files: session.configuration.watchedFiles(payloads: payloads.map(\.file)), timing: timing)
    do {
      wakePipe = try WakePipe()
    } catch {
      throw UNTermError(.failure, "--watch cannot make a pipe: \(error.reason)")
    }
  }

  deinit { stop() }

  /// The files watched, as given.
  package var files: [String] { session.configuration.watchedFiles(payloads: payloads.map(\.file)) }

  /// Starts watching; returns the line for the activity pane.
  package func start() -> String {
    lock.lock()
    running = true
    lock.unlock()
    let thread = Thread { [self] in
      watch()
      finished.signal()
    }
    thread.name = "unterm-watch"
    thread.start()
    let count = files.count
    return "Watching \(count) file\(count == 1 ? "" : "s") for saves (--watch); each save is reloaded in place"
  }

  /// Stops the watching thread and waits for it.
  package func stop() {
    lock.lock()
    let wasRunning = running && !stopRequested
    stopRequested = true
    lock.unlock()
    guard wasRunning else { return }
    wakePipe.wake()
    _ = finished.wait(timeout: .now() + 5)
  }

  private func watch() {
    while true {
      let (changes, ready) = watcher.wait(orAnyOf: [wakePipe.readDescriptor])
      if !ready.isEmpty {
        lock.lock()
        let stopping = stopRequested
        lock.unlock()
        if stopping { return }
      }
      guard !changes.isEmpty else { continue }
      session.queue.post { [weak self] in self?.apply(changes) }
    }
  }

  /// Reloads the changed files into the session (on the session's thread): the theme, the
  /// categories, the app's strings, the extensions, then the payloads. A file that does not load keeps what was
  /// loaded before and puts its error in the activity pane until it loads.
  package func apply(_ changed: Set<String>) {
    let configuration = session.configuration
    var problems = Set(session.state.fileProblems.map(\.file))
    // A file that had an error is tried again whenever anything changes: the error may have
    // been in another file (a descriptor's Info.plist) that is fixed now.
    let retry = changed.union(problems)
    func attempt(_ files: [String], revealsContent: Bool = false, _ load: () throws(UNTermError) -> Void) {
      let involved = files.filter { retry.contains($0) }
      guard !involved.isEmpty else { return }
      do {
        try load()
        for file in involved where changed.contains(file) || problems.contains(file) {
          session.send(.reload(.reloaded(file: file)))
          problems.remove(file)
        }
      } catch {
        // The error belongs to the file it names when that one changed, else to the first that
        // changed (a descriptor's error about the Info.plist it names), else to the file named.
        let saved = involved.filter { changed.contains($0) }
        let culprit =
          saved.first { $0 == error.file } ?? saved.first ?? involved.first { $0 == error.file } ?? involved[0]
        session.reportReloadFailure(of: culprit, error, revealsContent: revealsContent)
      }
    }
    if let theme = ThemeCatalog().file(for: configuration.theme) {
      attempt([theme]) { () throws(UNTermError) in try session.reloadTheme(configuration.theme) }
    }
    for (scope, paths) in configuration.categoriesFilesByScope {
      attempt(paths) { () throws(UNTermError) in try session.reloadCategories(from: paths, for: scope) }
    }
    let strings = AppStrings.watchedPaths(configuration.stringsPaths)
    if !strings.isEmpty {
      attempt(strings) { () throws(UNTermError) in try session.reloadStrings() }
    }
    let descriptors = configuration.extensionFiles
    let plists = descriptors.compactMap { ContentExtensionDescriptor.infoPlistFile(ofDescriptor: $0) }
    attempt(descriptors + plists) { () throws(UNTermError) in try session.reloadExtensions(from: descriptors) }
    for payload in payloads {
      attempt([payload.file], revealsContent: true) { () throws(UNTermError) in
        let loaded = try UNTermInput.Payload.load(
          payload.file, categories: session.state.store.registry, headers: configuration.apnsHeaders)
        try session.redeliver(loaded, as: payload.identifier)
      }
    }
    // A descriptor may name another Info.plist now.
    watcher.watch(files)
    session.drain()
  }
}
