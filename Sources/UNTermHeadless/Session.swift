import Foundation
import UNTermBidi
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

#if canImport(Glibc)
  import Glibc
#endif

/// A running notification center: the state, the app's center and delegate, the response log.
///
/// Every shell drives one: the interactive terminal, `render`, `run` and the tests. Events go
/// through `send`, which applies them to the state and carries out the effects: responses reach
/// the center's delegate and are appended to the log, synced, before the next frame is drawn.
/// All methods run on the session's own thread; other threads post work with `post`.
package final class Session: @unchecked Sendable {
  package private(set) var state: CenterState
  package let center: UNUserNotificationCenter
  /// The themes `t` and `useTheme` choose from: `Themes/` is read when the first theme is loaded.
  package internal(set) var themes: ThemeCatalog?
  package internal(set) var renderer: Renderer
  package let configuration: SessionConfiguration
  package let queue = EventQueue()
  var log: ResponseLog?
  var requestCounter = 0
  /// The apps and categories the pane has said are another app's (app NUL category).
  var warnedCategories: Set<String> = []
  /// The thread the session runs on; the center's reads from it need no hand-off.
  private var owner = pthread_self()
  private let ownerLock = NSLock()
  private var attached = false
  private var retained: [AnyObject] = []
  package let extensions = ExtensionRegistry()
  /// Runs service extensions for mutable-content payloads.
  package let pipeline = ServicePipeline()
  /// The app's own service extension; `nil` uses the built-in one.
  package var serviceExtension: (() -> UNNotificationServiceExtension)?
  /// Writes trace lines somewhere besides the activity pane (`--trace` prints to stderr).
  package var traceOutput: ((TraceLine) -> Void)?
  /// The folder attachments may be read from (`--media-dir`, or a script's `media-dir`); nil
  /// means each payload's own folder.
  package var mediaDirectory: String?
  /// How the user names another media folder, said when an attachment lies outside this one.
  package var mediaDirectoryOption = "--media-dir"

  /// Called for every response after the delegate and the log have it.
  package var onResponse: ((UNNotificationResponse, ResponseContext) -> Void)?
  /// Called when a response's record could not be written or synced to the log, before the
  /// delegate gets the response.
  package var onLogFailure: ((UNNotificationResponse, ResponseLog.Failure) -> Void)?
  /// What opening the log found, one warning a line (`FILE:LINE: warning: …`): damaged lines
  /// and a torn last line that was closed off. Also in the activity pane; `run` prints them.
  package private(set) var logReport: [String] = []
  /// Called for every notification presented.
  package var onDelivery: ((UNNotification) -> Void)?
  /// Called when the device goes offline (`true`) or back online (`Effect.network`): the APNs
  /// endpoint's delivery holds pushes meanwhile.
  package var onNetworkChange: ((Bool) -> Void)?
  /// Requests the live preview re-delivers: each replaces the notification of its identifier
  /// where it stands when it arrives (`Session+Reload`).
  var replacing: Set<String> = []
  /// Every content-extension view measured so far, in order: when it loaded, and each time it
  /// asked for another height.
  package internal(set) var extensionSizes: [ExtensionSizeReport] = []
  let refreshLock = NSLock()
  var refreshPosted = false
  private var isDraining = false
  /// Whether `send` is applying an event and running its effects.
  private var isUpdating = false
  /// Events waiting to be applied in this update: the effects' results, then events sent while
  /// it ran.
  private var waiting: [Event] = []
  /// Whether the first right-to-left notification has had FriBidi looked for: it is opened then,
  /// not at every start (a screen without such text never needs it).
  var bidiChecked = false
  /// Whether `advance` first lets service extensions finish: yes on a virtual clock (scripts,
  /// render), no in the interactive session, whose clock is real.
  package var settlesBeforeTime = true

  /// Creates a session from the shared options; loads the categories, theme and log. Only
  /// `SessionFactory` calls it, so every shell builds its session the same way.
  ///
  /// - Throws: `UNTermError` for a file that cannot be loaded.
  init(
    configuration: SessionConfiguration, center: UNUserNotificationCenter, now: Date,
    timeZone: DisplayTimeZone = .utc, logFiles: any LogFileOperations = SystemLogFiles()
  ) throws(UNTermError) {
    self.configuration = configuration
    self.center = center
    if let folder = configuration.mediaDirectory {
      try SessionConfiguration.checkMediaFolder(folder, named: "--media-dir")
    }
    mediaDirectory = configuration.mediaDirectory
    var state = CenterState(now: now)
    var settings = configuration.centerSettings
    // Summary times are read on the session's clock, in its time zone.
    settings.timeZone = timeZone
    let theme: Theme
    if configuration.stylesShown || configuration.theme != SessionConfiguration.defaultTheme {
      var catalog = ThemeCatalog()
      settings.themeNames = catalog.names
      theme = try catalog.theme(configuration.theme)
      themes = catalog
    } else {
      theme = .unstyled
    }
    _ = state.handle(.configure(settings))
    var renderer = Renderer(theme: theme, timeZone: timeZone, images: MediaSupport.images())
    // Paths in the working tree relative to it; those outside it (the session's socket) where
    // they are, from `~` in the home folder.
    renderer.paths = Self.paths(
      relativeTo: FileManager.default.currentDirectoryPath,
      outside: .absolute(home: ProcessEnvironment.value("HOME")))
    renderer.bidi = configuration.outputBidi
    self.renderer = renderer
    for (scope, paths) in configuration.categoriesFilesByScope {
      let categories = try CategoriesFile.loadMerged(paths)
      // The default app's are what the app itself registers; another app's are its own, and a
      // bare file without --bundle serves every app that has none.
      _ = state.handle(
        scope == .defaultApp ? .center(.setCategories(categories)) : .reload(.categories(categories, scope: scope)))
    }
    if !configuration.stringsPaths.isEmpty {
      _ = state.handle(.setStrings(try AppStrings.load(configuration.stringsPaths)))
    }
    for file in configuration.extensionFiles {
      let (descriptor, _) = try ContentExtensionDescriptor.load(file)
      try extensions.add(.descriptor(descriptor))
    }
    _ = state.handle(.setExtensions(extensions.attributesByCategory))
    self.state = state
    if let file = configuration.logFile {
      let opened: ResponseLog
      do {
        opened = try ResponseLog(path: file, files: logFiles)
      } catch {
        throw UNTermError(.noInput, file: file, "\(error.message)")
      }
      log = opened
      // Damage is reported before anything is appended; new records go after it.
      logReport = Self.report(opened)
      for line in logReport { _ = self.state.handle(.notice(.warning, line, revealsContent: false)) }
    }
    publish()
    pipeline.post = { [weak self] work in self?.queue.post(work) }
    pipeline.center = center
    pipeline.trace = { [weak self] line in
      self?.traceOutput?(line)
      // The pane shows the deterministic text; the timing goes to `traceOutput` only.
      self?.queue.post { [weak self] in self?.send(.notice(.trace, line.text)) }
    }
    pipeline.deliver = { [weak self] request, content in
      self?.present(content.map { request.replacing(content: $0) } ?? request)
    }
  }

  /// A line the app printed while the terminal was in use (`stream` is `stdout` or `stderr`):
  /// shown in the activity pane (sanitized when drawn, as every notice is), through the trace
  /// when one is kept.
  package func noteAppOutput(_ line: String, stream: String) {
    let text = "app \(stream): \(line)"
    if let traceOutput {
      traceOutput(TraceLine(text))
    } else {
      send(.notice(.info, text))
    }
  }

  /// Keeps an object alive as long as the session (the center holds its delegate weakly).
  package func retain(_ object: AnyObject) { retained.append(object) }

  // MARK: - Connection to UNUserNotificationCenter

  /// Connects the session to its center: the center's categories and delivered notifications
  /// join the session's, and the app's calls reach the screen.
  package func attach() {
    guard !attached else { return }
    attached = true
    let adopted = center.attach(self)
    // Pending requests were timed on the wall clock; the session's clock may differ.
    send(.adopt(adopted, clockShift: state.now.timeIntervalSince(Date())))
    publish()
  }

  /// Disconnects the session, handing the store back to the center.
  package func detach() {
    guard attached else { return }
    attached = false
    center.detach(keeping: state.store)
  }

  /// Makes the calling thread the session's thread, for a host that serves the session from a
  /// serial dispatch queue (whose work may run on any of its threads).
  package func becomeOwner() { publish() }

  /// Remembers the session's thread (the one that attaches it). Other threads ask that thread
  /// for the store: keeping a copy for them would force a full copy on every change.
  private func publish() {
    ownerLock.lock()
    owner = pthread_self()
    ownerLock.unlock()
  }

  // MARK: - Events

  /// Applies an event and carries out its effects, as the one loop of an update: the state
  /// handles the event, the effects run, and what they bring back are events the state handles
  /// next, in order, until none is left. Nothing re-enters the update: an event sent while one
  /// runs (by an extension or the app, called from an effect) waits its turn behind the
  /// effects' results. Posted work then runs (`drain`).
  ///
  /// - Returns: what the state made of `event` itself (an event sent during an update returns
  ///   an empty outcome; it is applied in order all the same).
  @discardableResult
  package func send(_ event: Event) -> Outcome {
    guard !isUpdating else {
      waiting.append(event)
      return Outcome()
    }
    isUpdating = true
    // The renderer answers the update's layout questions from the geometry it draws with.
    let outcome = state.handle(event, layout: renderer)
    // Nothing waits between updates: the loop below empties the list before the update ends.
    waiting = run(outcome.effects)
    while !waiting.isEmpty {
      let next = waiting.removeFirst()
      let results = run(state.handle(next, layout: renderer).effects)
      waiting.insert(contentsOf: results, at: 0)
    }
    isUpdating = false
    if !isDraining { drain() }
    return outcome
  }

  /// Switches to a theme by name or file.
  package func useTheme(_ nameOrPath: String) throws(UNTermError) {
    renderer.theme = try theme(nameOrPath)
    send(.themeApplied(nameOrPath, announce: false))
  }

  /// A theme from the catalog, which is read on first use.
  func theme(_ nameOrPath: String) throws(UNTermError) -> Theme {
    var catalog = themes ?? ThemeCatalog()
    defer { themes = catalog }
    return try catalog.theme(nameOrPath)
  }

  /// Runs work posted from other threads (or from callbacks made during an update).
  package func drain() {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    // No task-local binding around posted work: it may serve the main queue, whose jobs run
    // async code, and a binding held across them corrupts the runtime's task-local stack.
    var rounds = 0
    while !queue.isEmpty && rounds < 100 {
      for work in queue.take() { work() }
      rounds += 1
    }
  }

  // MARK: - Drawing

  /// The current screen.
  package func frame() -> Frame { renderer.render(state) }

  /// The current screen with right-to-left text put in the cells in another way: a script
  /// checks `expect screen` in logical order, a live player shows what its terminal needs.
  package func frame(bidi: BidiMode) -> Frame { renderer.render(state, bidi: bidi) }

  /// Writes the paths in the activity pane relative to `folder` (a script's folder; the working
  /// directory by default), so the screen is the same wherever the project lives.
  package func showPaths(relativeTo folder: String) {
    renderer.paths = Self.paths(relativeTo: folder, outside: .relative)
  }

  /// Paths relative to a folder, as given and with its links resolved.
  private static func paths(relativeTo folder: String, outside: PathDisplay.Outside) -> PathDisplay {
    // `realpath` rather than URL's standardizing and resolving: the same folders (PathDisplay
    // works out `.` and `..` itself), without Foundation's URL machinery at every start.
    let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
    guard let resolved = realpath(absolute, nil) else { return PathDisplay(relativeTo: absolute, outside: outside) }
    defer { free(resolved) }
    return PathDisplay(relativeTo: absolute, alsoKnownAs: [String(cString: resolved)], outside: outside)
  }

  /// Says how an empty center can be filled (the live delivery that is listening).
  package func showDeliveryHints(_ hints: [String]) { renderer.deliveryHints = hints }

  /// Sets the image decoder the renderer uses.
  package func setImages(_ provider: (any ImageProvider)?) { renderer.images = provider }

  /// Changes what the next frames are drawn for without an event (render's `--view`).
  package func resize(width: Int, height: Int) { send(.resize(width: width, height: height)) }
}

extension Session: UNNotificationCenterHost {
  package func perform(_ operation: UNCenterOperation, completion: (@Sendable ((any Error)?) -> Void)?) {
    queue.post { [weak self] in
      guard let self else { return }
      switch operation {
      case .add(let request):
        if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
          if let reason = self.send(.schedule(request)).failure {
            completion?(UNError(.notificationInvalidNoDate, reason))
            return
          }
          self.publish()
        } else {
          self.present(request)
        }
      default:
        self.send(.center(operation))
      }
      completion?(nil)
    }
  }

  /// The store, read on the session's thread: directly when called there, else by posting a
  /// request and waiting for the session's loop to answer (up to a second).
  package func storeSnapshot() -> NotificationStore {
    ownerLock.lock()
    let isOwner = pthread_equal(pthread_self(), owner) != 0
    ownerLock.unlock()
    if isOwner { return state.store }
    let answer = OneShot<NotificationStore>()
    queue.post { [weak self] in
      guard let self else { return }
      answer.set(self.state.store)
    }
    return answer.wait(seconds: 1) ?? NotificationStore()
  }

  package func delegateDidNotAnswer(_ call: DelegateCall, _ end: DelegateCallEnd) {
    queue.post { [weak self] in
      self?.send(.notice(.warning, call.warning(end), revealsContent: false))
    }
  }
}

/// ISO 8601 dates as the log and scripts write them: `2026-11-29T20:00:05Z`.
package enum ISO8601 {
  package static func format(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  package static func parse(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}

extension Session {
  /// Replaces the app's strings (the `strings` script command), keeping the device language.
  package func useStrings(_ paths: [String]) throws(UNTermError) {
    send(.setStrings(try AppStrings.load(paths)))
  }

  /// Adds a content-extension descriptor (JSON or Info.plist).
  package func addExtension(_ path: String) throws(UNTermError) {
    let (descriptor, _) = try ContentExtensionDescriptor.load(path)
    try addExtension(.descriptor(descriptor))
  }

  /// Adds a program's content extension.
  package func addExtension(_ program: ProgramExtension) throws(UNTermError) {
    try addExtension(.program(program))
  }

  /// Adds a content extension: a descriptor or a program's.
  package func addExtension(_ provider: ExtensionRegistry.Provider) throws(UNTermError) {
    try extensions.add(provider)
    send(.setExtensions(extensions.attributesByCategory))
  }
}

extension Session: UNNotificationExtensionHost {
  package func extensionSetActions(_ actions: [UNNotificationAction]) {
    queue.post { [weak self] in self?.send(.extensionSetActions(actions)) }
  }

  package func extensionPerformDefaultAction() {
    queue.post { [weak self] in self?.send(.extensionDefaultAction) }
  }

  package func extensionDismiss() {
    queue.post { [weak self] in self?.send(.extensionDismiss) }
  }

  package func extensionMediaChanged(playing: Bool) {
    queue.post { [weak self] in self?.send(.extensionMediaChanged(playing: playing)) }
  }

  package func extensionOpen(_ url: URL, completion: (@Sendable (Bool) -> Void)?) {
    queue.post { [weak self] in
      guard let self else { return completion?(false) ?? () }
      self.send(.extensionOpen(url.absoluteString))
      completion?(true)
    }
  }

  /// The extension changed its view, title or size, perhaps on another thread: one refresh is
  /// posted however many changes arrive before it runs.
  package func extensionContentChanged() {
    refreshLock.lock()
    let alreadyPosted = refreshPosted
    refreshPosted = true
    refreshLock.unlock()
    guard !alreadyPosted else { return }
    queue.post { [weak self] in self?.refreshExtensionView() }
  }
}

/// One measurement of a content extension's view, as the activity pane reported it.
package struct ExtensionSizeReport: Hashable, Sendable {
  /// The notification the view shows.
  package var notification: String
  package var device: DeviceProfile.Kind
  /// Width × the initial ratio: the height while loading.
  package var initialHeight: Double
  /// The height the view asks for (or keeps).
  package var preferredHeight: Double
  /// The system's default content below the view (0 when the extension hides it).
  package var defaultContentHeight: Double
  package var budget: Double
  /// What the budget cuts.
  package var cut: [String]

  /// Points past the budget: the view's and the default content's together.
  package var overflow: Double { max(0, preferredHeight + defaultContentHeight - budget) }
}
