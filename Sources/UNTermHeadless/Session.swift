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
  private var log: ResponseLog?
  private var requestCounter = 0
  /// The apps and categories the pane has said are another app's (app NUL category).
  private var warnedCategories: Set<String> = []
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
  /// Requests the live preview re-delivers: each replaces the notification of its identifier
  /// where it stands when it arrives (`Session+Reload`).
  var replacing: Set<String> = []

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
    pipeline.trace = { [weak self] line in
      self?.traceOutput?(line)
      // The pane shows the deterministic text; the timing goes to `traceOutput` only.
      self?.queue.post { [weak self] in self?.send(.notice(.trace, line.text)) }
    }
    pipeline.deliver = { [weak self] request, content in
      self?.present(content.map { request.replacing(content: $0) } ?? request)
    }
  }

  /// Notes the attachments the media decoder cannot draw (corrupt, truncated, too large to
  /// decode). They stay in the content, as on iOS, where an attachment is checked for its type
  /// and size only; the card shows a one-line placeholder with the reason where the image would be.
  private func noteUnavailableAttachments(of request: UNNotificationRequest) {
    // Without attachments there is nothing to check, and the cast's conformance lookup (a scan
    // of every conformance in the binary, the first time) is not paid.
    guard !request.content.attachments.isEmpty else { return }
    let images = renderer.images as? any AttachmentValidating
    for attachment in request.content.attachments {
      if attachment.format.kind != .image, let mismatch = attachment.contentMismatch {
        // Not drawn anyway; still said, as iOS would attach it as its name's type.
        let text =
          "\(request.identifier): attachment \(OneLine.flatten(attachment.url.lastPathComponent)) — \(mismatch); attached as \(attachment.format.displayName) all the same"
        traceOutput?(TraceLine(text))
        send(.notice(.warning, text))
        continue
      }
      guard let problem = images?.problem(with: attachment) else { continue }
      let text =
        "\(request.identifier): attachment \(OneLine.flatten(attachment.url.lastPathComponent)) cannot be shown — \(problem); the card says so where the image would be"
      traceOutput?(TraceLine(text))
      send(.notice(.warning, text))
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

  /// Applies an event and carries out its effects.
  @discardableResult
  package func send(_ event: Event) -> Outcome {
    // The renderer answers the update's layout questions from the geometry it draws with.
    let outcome = state.handle(event, layout: renderer)
    perform(outcome.effects)
    if !isDraining { drain() }
    return outcome
  }

  /// Switches to a theme by name or file.
  package func useTheme(_ nameOrPath: String) throws(UNTermError) {
    renderer.theme = try theme(nameOrPath)
    send(.themeApplied(nameOrPath, announce: false))
  }

  /// A theme from the catalog, which is read on first use.
  private func theme(_ nameOrPath: String) throws(UNTermError) -> Theme {
    var catalog = themes ?? ThemeCatalog()
    defer { themes = catalog }
    return try catalog.theme(nameOrPath)
  }

  /// Draws with the theme `t` chose, and says which it is (or why it cannot be loaded).
  private func applyTheme(_ name: String) {
    do {
      renderer.theme = try theme(name)
      send(.themeApplied(name, announce: true))
    } catch {
      send(.themeFailed(name, reason: error.description))
    }
  }

  private func perform(_ effects: [Effect]) {
    for effect in effects {
      switch effect {
      case .respond(let recorded):
        record(recorded.response, recorded.context, entry: recorded.entry)
      case .quit:
        break
      case .applyTheme(let name):
        applyTheme(name)
      case .present(let request):
        present(request)
      case .loadExtension(let notification):
        let actions = state.category(of: notification)?.actions ?? []
        if let view = extensions.load(notification, actions: actions, host: self) {
          send(.extensionLoaded(notification: notification.request.identifier, view))
          reportSize(of: view, for: notification)
        }
      case .extensionAction(let response, let context):
        guard let controller = extensions.activeController else {
          send(.extensionCompleted(response, context, nil))
          continue
        }
        controller.didReceive(response) { [weak self] option in
          self?.queue.post { [weak self] in
            self?.send(.extensionCompleted(response, context, option))
            // `.doNotDismiss` keeps the view: it shows what the extension made of the action.
            self?.refreshExtensionView()
          }
        }
        if UNContentExtensionDefaults.takeDefaultUsed(controller) {
          send(.extensionCompleted(response, context, nil))
        }
        refreshExtensionView()
        drain()
      case .extensionMedia(let play):
        if let controller = extensions.activeController {
          if play { controller.mediaPlay() } else { controller.mediaPause() }
          refreshExtensionView()
        }
      case .extensionButton(let action):
        // A program's button runs its own code; what it sends the app comes back as events, and
        // what it changes in its view is drawn.
        if let controller = extensions.activeController {
          controller.buttonPressed(action: action)
          refreshExtensionView()
        }
      }
    }
    if state.expandedOrReturning == nil { extensions.close() }
  }

  /// Hands a response the state recorded to the log and the delegate: the only way one
  /// leaves the session, so the Responses pane, the log and the delegate agree. The record is
  /// appended (synced) first and the state told how that went, so the pane shows ✓ only for a
  /// durable record.
  private func record(_ response: UNNotificationResponse, _ context: ResponseContext, entry: Int) {
    if let log {
      let file = OneLine.flatten(log.path)
      do {
        if let reopened = try log.append(Self.logRecord(response, context)) {
          send(.notice(.info, "\(file): \(reopened)", revealsContent: false))
        }
        send(.responseLogged(entry, .recorded))
      } catch {
        // Never retried: the response is shown as not recorded, and the session says what the
        // log did about it.
        send(.notice(.error, "\(error.description) — \(Self.describe(response)) is NOT in the log"))
        if let recovery = error.recovery { send(.notice(.warning, "\(file): \(recovery)", revealsContent: false)) }
        send(.responseLogged(entry, .notRecorded(error.reason)))
        onLogFailure?(response, error)
      }
    }
    center.delegate?.userNotificationCenter(center, didReceive: response) {}
    onResponse?(response, context)
  }

  /// A response for messages: `reply "On my way" to req-1`.
  package static func describe(_ response: UNNotificationResponse) -> String {
    let action: String
    switch response.actionIdentifier {
    case UNNotificationDefaultActionIdentifier: action = "@default"
    case UNNotificationDismissActionIdentifier: action = "@dismiss"
    default: action = response.actionIdentifier
    }
    let text = (response as? UNTextInputNotificationResponse).map { " " + OneLine.quote($0.userText, limit: 80) } ?? ""
    return "the response \(OneLine.quote(action, limit: 80))\(text) to \(response.notification.request.identifier)"
  }

  /// The warnings for what opening the log found.
  private static func report(_ log: ResponseLog) -> [String] {
    let file = OneLine.flatten(log.path)
    var lines: [String] = []
    let damage = log.damage
    if damage.count == 1, let only = damage.first {
      lines.append(
        "\(file):\(only.line): warning: line \(only.line) is damaged (\(OneLine.flatten(only.reason))); new records go after the last line"
      )
    } else if let first = damage.first {
      let listed = damage.prefix(5).map { String($0.line) }.joined(separator: ", ")
      let more = damage.count > 5 ? " and \(damage.count - 5) more" : ""
      lines.append(
        "\(file):\(first.line): warning: \(damage.count) lines are damaged (not response records): \(listed)\(more); new records go after the last line"
      )
    }
    if log.repairedTornTail {
      lines.append(
        "\(file):\(log.linesOnOpen): warning: the last line was cut off (a record cut short by a crash or a full disk, never acknowledged); it is closed off and new records go after it"
      )
    }
    return lines
  }

  /// Puts the view's QA numbers in the activity pane: the heights iOS would use, the budget,
  /// and what is cut. `resized` says the view was measured before: then only a new height is
  /// reported.
  private func reportSize(of view: ExtensionView, for notification: UNNotification, resized: Bool = false) {
    let device = state.device
    let m = ExtensionQA.measure(
      view, for: notification, device: device, textSize: state.textSize, images: renderer.images,
      text: state.text(of: notification))
    let id = notification.request.identifier
    if resized, let last = extensionSizes.last, last.notification == id, last.device == device.kind,
      last.preferredHeight == m.preferredHeight
    {
      return
    }
    extensionSizes.append(
      ExtensionSizeReport(
        notification: id, device: device.kind, initialHeight: m.initialHeight, preferredHeight: m.preferredHeight,
        defaultContentHeight: m.defaultHeight, budget: m.budget, cut: m.cut))
    let at = state.textSize == .default ? "" : " at text size \(state.textSize.displayName)"
    var text =
      resized
      ? "Extension on \(device.displayName)\(at) resized: preferred \(Projection.describe(points: m.preferredHeight)) pt"
      : "Extension on \(device.displayName)\(at): initial \(Projection.describe(points: m.initialHeight)) pt, preferred \(Projection.describe(points: m.preferredHeight)) pt"
    // The system's title and body below the view count against the budget too.
    if m.defaultHeight > 0 {
      text += " + \(Projection.describe(points: m.defaultHeight)) pt of default content below it"
    }
    text += ", budget \(Int(saturating: m.budget)) pt"
    text += m.overflow > 0 ? " — \(Int(saturating: m.overflow.rounded(.up))) pt over" : " — fits"
    if !m.cut.isEmpty { text += "; cut: " + m.cut.joined(separator: ", ") }
    send(.notice(m.overflow > 0 ? .warning : .info, text))
  }

  /// Every content-extension view measured so far, in order: when it loaded, and each time it
  /// asked for another height.
  package private(set) var extensionSizes: [ExtensionSizeReport] = []

  private let refreshLock = NSLock()
  private var refreshPosted = false

  /// Reads the open program extension's view again and draws it: after every call into the
  /// extension, and when it says its view, title or height changed (from any thread). A new
  /// height is measured against the budget in the activity pane.
  package func refreshExtensionView() {
    refreshLock.lock()
    refreshPosted = false
    refreshLock.unlock()
    guard let (id, view) = extensions.currentView(), let shown = state.expanded?.extensionView,
      !shown.showsSameContent(as: view)
    else { return }
    send(.extensionLoaded(notification: id, view))
    // The update takes the view only if it is still the one on screen.
    if let e = state.expanded, let now = e.extensionView, now.showsSameContent(as: view) {
      reportSize(of: view, for: e.notification, resized: true)
    }
  }

  /// The contract's log record for a response.
  package static func logRecord(_ response: UNNotificationResponse, _ context: ResponseContext) -> JSONWriter.Value {
    let content = response.notification.request.content
    var members: [(String, JSONWriter.Value)] = [("actionIdentifier", .string(response.actionIdentifier))]
    if let text = (response as? UNTextInputNotificationResponse)?.userText {
      members.append(("userText", .string(text)))
    }
    members += [
      ("requestIdentifier", .string(response.notification.request.identifier)),
      ("categoryIdentifier", .string(content.categoryIdentifier)),
      ("threadIdentifier", .string(content.threadIdentifier)),
      ("date", .string(ISO8601.format(context.date))),
      ("device", .string(context.device.rawValue)),
      ("locked", .bool(context.isLocked)),
      // Last, so records without it (written before apps) read the same.
      ("bundleIdentifier", .string(context.bundleIdentifier)),
    ]
    return .object(members)
  }

  // MARK: - Delivery

  /// The next request identifier, `req-1`, `req-2`, …
  package func nextRequestIdentifier() -> String {
    requestCounter += 1
    return "req-\(requestCounter)"
  }

  /// Delivers a loaded payload now; a mutable-content payload with alert text goes through the
  /// service extension first. An `apns-collapse-id` is the request's identifier, as on iOS, so
  /// it replaces the notification delivered with it; a push whose `apns-expiration` has passed
  /// on the session's clock is discarded, as APNs discards it.
  ///
  /// - Returns: the request's identifier (a refused payload takes none).
  @discardableResult
  package func push(_ payload: Payload, identifier: String? = nil) throws(UNTermError) -> String {
    let collapsed = payload.info.headers.collapseID.flatMap { $0.isEmpty ? nil : $0 }
    var request = try payload.request(identifier: collapsed ?? identifier ?? "pending")
    if collapsed == nil && identifier == nil { request = request.replacing(identifier: nextRequestIdentifier()) }
    if let expired = APNsRules.expired(payload.info.headers, at: state.now) {
      send(
        .notice(
          .warning,
          "\(request.identifier) is not delivered: its apns-expiration (\(ISO8601.format(expired))) has passed, so APNs discards it",
          revealsContent: false))
      return request.identifier
    }
    warnIfAnotherAppsCategory(payload, request)
    // The loc keys resolve in the device language now: what the app and its service extension
    // see. The keys stay with the content, so the screen follows a later change of language.
    request = request.replacing(
      content: state.localization.localized(request.content, device: state.device.kind.rawValue))
    guard ServicePipeline.applies(to: request) else {
      present(request)
      return request.identifier
    }
    let service: UNNotificationServiceExtension
    let name: String
    if let make = serviceExtension {
      service = make()
      name = "the app's service extension (\(type(of: service)))"
    } else {
      let folder =
        payload.file == "-"
        ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        : URL(fileURLWithPath: payload.file).deletingLastPathComponent()
      service = BuiltInServiceExtension(
        payloadDirectory: folder, mediaDirectory: mediaDirectory.map { URL(fileURLWithPath: $0) },
        mediaDirectoryOption: mediaDirectoryOption, budget: configuration.serviceTimeout,
        trace: { [weak self] line in self?.pipeline.trace?(line) })
      name = "the built-in service extension"
    }
    pipeline.start(request, with: service, name: name, now: state.now, budget: configuration.serviceTimeout)
    return request.identifier
  }

  /// A pushed notification whose category only other apps registered shows no actions, and
  /// nothing else would say why: the activity pane says so with lint's message, once per app and
  /// category (a stream of such pushes is one mistake).
  private func warnIfAnotherAppsCategory(_ payload: Payload, _ request: UNNotificationRequest) {
    let category = request.content.categoryIdentifier
    guard !category.isEmpty else { return }
    let registry = state.store.registry
    let app = state.store.app(of: request)
    guard registry.categories(of: app)[category] == nil,
      registry.byApp.contains(where: { $0.key != app && $0.value[category] != nil }),
      let finding = payload.diagnostics.first(where: { $0.code == .unknownCategory }),
      warnedCategories.insert(app + "\u{0}" + category).inserted
    else { return }
    send(.notice(.warning, "\(request.identifier): \(finding.message.text)", revealsContent: false))
  }

  /// Waits, in real time, for running service extensions to finish: one waiting on a server or
  /// a timer gets up to `limit` (its budget), one still running its own code (copying a local
  /// file) however long it takes; whatever is still running then expires. `render` uses this:
  /// one screen, after everything arrived.
  package func finishServiceExtensions(within limit: TimeInterval) {
    guard pipeline.isBusy else { return }
    pipeline.settle(quiet: limit, service: drain)
    drain()
    if pipeline.isBusy {
      pipeline.expire(at: .distantFuture, patient: true)
      drain()
    }
  }

  /// Presents a request: through the delegate's `willPresent` when the app is in the
  /// foreground, with the background rules otherwise.
  package func present(_ request: UNNotificationRequest) {
    noteUnavailableAttachments(of: request)
    noteBidiUnavailable(for: request.content)
    if replaceInPlace(request) { return }
    let notification = UNNotification(request: request, date: state.now)
    onDelivery?(notification)
    // Only the session's own app is ever in the foreground: another app's notification is
    // presented as for an app in the background, as iOS does.
    if state.isAppInForeground(for: notification), let delegate = center.delegate {
      delegate.userNotificationCenter(center, willPresent: notification) { [weak self] options in
        self?.queue.post { [weak self] in
          self?.send(.deliver(notification, presentation: options))
        }
      }
      drain()
    } else {
      send(.deliver(notification, presentation: CenterState.backgroundPresentation(for: request.content)))
    }
  }

  private var isDraining = false

  /// Whether the first right-to-left notification has had FriBidi looked for: it is opened then,
  /// not at every start (a screen without such text never needs it).
  private var bidiChecked = false

  /// Says once, in the activity pane, that right-to-left text stays in logical order when GNU
  /// FriBidi cannot be opened.
  private func noteBidiUnavailable(for content: UNNotificationContent) {
    guard !bidiChecked else { return }
    let text = content.title + content.subtitle + content.body
    guard
      text.unicodeScalars.contains(where: {
        (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFEFF).contains($0.value)
      })
    else { return }
    bidiChecked = true
    if let reason = BidiParagraph.unavailableReason {
      send(.notice(.warning, "Right-to-left text is shown in logical order: \(reason)", revealsContent: false))
    }
  }

  /// Runs work posted from other threads (or from callbacks made during an update).
  package func drain() {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    var rounds = 0
    while !queue.isEmpty && rounds < 100 {
      for work in queue.take() { work() }
      rounds += 1
    }
  }

  // MARK: - Time

  /// Moves the clock to `date`, letting banners retire and triggers fire on the way, in order.
  package func advance(to date: Date) {
    if settlesBeforeTime { settleServiceExtensions() }
    var steps = 0
    while let deadline = nextDeadline, deadline <= date, steps < 10_000 {
      steps += 1
      // Requests whose triggers are due come back as `.present` effects.
      send(.tick(max(deadline, state.now)))
      pipeline.expire(at: state.now, patient: settlesBeforeTime)
      drain()
      if nextDeadline == deadline { break }
    }
    send(.tick(date))
    drain()
  }

  /// The next time something happens by itself: a banner retiring, a trigger firing, a
  /// service extension's budget running out.
  package var nextDeadline: Date? {
    [state.nextDeadline, pipeline.nextDeadline].compactMap { $0 }.min()
  }

  /// Whether `advance` first lets service extensions finish: yes on a virtual clock (scripts,
  /// render), no in the interactive session, whose clock is real.
  package var settlesBeforeTime = true

  /// How long, in real time, a service extension that has gone quiet (its `didReceive`
  /// returned, its handler not called: it waits on a server or a timer) is waited for before
  /// the virtual clock moves on without it. Its own work is never cut short by real time.
  package static let settleGrace: TimeInterval = 1

  /// Lets service extensions finish before the clock moves or the screen is checked, so a
  /// script runs the same way every time, on a busy machine too: an extension still running its
  /// own code (copying a local file) is always waited for; one waiting on a server gets
  /// `settleGrace` once, then its budget on the virtual clock decides.
  package func settleServiceExtensions() {
    guard pipeline.isBusy else { return }
    pipeline.settle(quiet: Self.settleGrace, service: drain)
    drain()
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

/// Builds every session: the interactive command, the embedding API (`UNTermSession`),
/// `render` (`RenderPipeline`), `run`, `lint --extension` and the tests all come here, so they
/// all run the same code. `Session.init` is internal to this module to keep it that way.
package enum SessionFactory {
  /// A session from the shared options, attached to its center.
  ///
  /// - Parameters:
  ///   - center: the app's center, whose delegate gets the responses (the embedding API); `nil`
  ///     gives the session a center of its own with the built-in recording delegate.
  ///   - extensions: content extensions besides `configuration.extensionFiles` (a program's).
  ///   - serviceExtension: the app's service extension; `nil` runs the built-in one.
  ///   - logFiles: the file operations of the response log (tests make them fail).
  /// - Throws: `UNTermError` for a file that cannot be loaded.
  package static func make(
    _ configuration: SessionConfiguration, now: Date, timeZone: DisplayTimeZone = .utc,
    center: UNUserNotificationCenter? = nil, extensions: [ExtensionRegistry.Provider] = [],
    serviceExtension: (() -> UNNotificationServiceExtension)? = nil,
    logFiles: any LogFileOperations = SystemLogFiles()
  ) throws(UNTermError) -> Session {
    let session = try Session(
      configuration: configuration, center: center ?? .makeForSession(), now: now, timeZone: timeZone,
      logFiles: logFiles)
    for provider in extensions { try session.addExtension(provider) }
    session.serviceExtension = serviceExtension
    if center == nil {
      let delegate = RecordingDelegate(presentation: configuration.foregroundOptions)
      session.retain(delegate)
      session.center.delegate = delegate
    }
    session.attach()
    return session
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
