import Foundation
import UNTermInput
import UNTermRender
import UNTermScript
import UNTermState
import UserNotificationsModel

/// Runs a session script on the headless session with a virtual clock: `wait` advances time
/// instantly, so a run is deterministic and takes milliseconds.
package final class ScriptRunner {
  /// When every script's clock starts: 09:41, Apple's keynote time.
  package static let epoch = Date(timeIntervalSince1970: 1_767_260_460)  // 2026-01-01T09:41:00Z

  private let script: SessionScript
  private let options: RunOptions
  private let directory: URL
  private weak var observer: (any ScriptObserver)?
  private var unchecked: [UNNotificationResponse] = []
  private var all: [UNNotificationResponse] = []
  /// The first response whose log record was lost, and why: the script stops there.
  private var logFailure: (UNNotificationResponse, ResponseLog.Failure)?
  /// The app of the latest `push` (nil before any: the session's own app): the app a script is
  /// testing, whose badge `expect badge` checks.
  private var pushedApp: String?
  private let warn: ((SafeText) -> Void)?
  /// Outside pushes `wait push` has counted so far.
  private var pushesWaitedFor = 0
  private let logFiles: any LogFileOperations

  /// - Parameters:
  ///   - warn: gets what opening the log found (damaged lines), before the script runs; `run`
  ///     prints it on stderr.
  ///   - logFiles: the response log's file operations (tests make them fail).
  package init(
    script: SessionScript, options: RunOptions, observer: (any ScriptObserver)? = nil,
    warn: ((SafeText) -> Void)? = nil, logFiles: any LogFileOperations = SystemLogFiles()
  ) {
    self.script = script
    self.options = options
    self.observer = observer
    self.warn = warn
    self.logFiles = logFiles
    directory = URL(fileURLWithPath: script.file).deletingLastPathComponent()
  }

  private func resolve(_ path: String) -> String {
    path.hasPrefix("/") || path == "-" ? path : directory.appendingPathComponent(path).path
  }

  /// Runs the script to its end or its first failure.
  package func run() -> ScriptResult {
    var result = ScriptResult(file: script.file)
    // The run's session options and modes are every script's start (`run --bundle`, …); the
    // script's lines change them from there.
    var configuration = options.modes
    configuration.logFile = options.logFile
    configuration.mediaDirectory = options.mediaDirectory
    let session: Session
    do {
      session = try SessionFactory.make(configuration, now: Self.epoch, logFiles: logFiles)
    } catch {
      result.failure = ScriptFailure(file: script.file, reason: .error(error))
      return result
    }
    if configuration.trace { session.traceOutput = options.trace }
    let start = Self.startingSize(of: script)
    session.resize(width: start.width, height: start.height)
    // What the screen shows does not depend on where the project lives.
    session.showPaths(relativeTo: directory.path)
    session.mediaDirectoryOption = "media-dir in the script (or run --media-dir)"
    for line in session.logReport { warn?(SafeText(sanitizing: line)) }
    session.onLogFailure = { [weak self] response, failure in
      if self?.logFailure == nil { self?.logFailure = (response, failure) }
    }
    session.onResponse = { [weak self, weak session] response, _ in
      self?.unchecked.append(response)
      self?.all.append(response)
      if let session { self?.observer?.responded(response, session: session) }
    }
    session.onDelivery = { [weak self, weak session] notification in
      if let session { self?.observer?.delivered(notification, session: session) }
    }
    options.externalPushes?.attach(session)
    defer { options.externalPushes?.attach(nil) }
    pushesWaitedFor = options.externalPushes?.deliveredCount ?? 0
    observer?.scriptWillStart(script, session: session)
    for line in script.lines {
      session.settleServiceExtensions()
      observer?.lineWillRun(line, session: session)
      result.steps += 1
      if line.isExpectation { result.expectations += 1 }
      do {
        let reason = try execute(line, session: session, result: &result)
        // A lost log record stops the script at once, whatever the line did besides.
        if let (response, error) = logFailure {
          result.failure = failure(line, .logFailed(Self.logError(error, response)), session: session)
          result.failure?.lostResponse = summary(of: response)
          break
        }
        if let reason {
          result.failure = failure(line, reason, session: session)
          break
        }
      } catch {
        result.failure = ScriptFailure(
          file: script.file, line: line.number, column: line.column, source: line.source, reason: .error(error))
        break
      }
      observer?.lineDidRun(line, session: session)
    }
    result.screen = session.frame().grid.lines
    observer?.scriptDidFinish(result, session: session)
    session.detach()
    return result
  }

  /// The size a script starts at, and its first frame is drawn at: that of a `size` line before
  /// anything is pushed or checked, else 80×24. Casts record it in their header.
  package static func startingSize(of script: SessionScript) -> (width: Int, height: Int) {
    for line in script.lines {
      switch line.command {
      case .size(let width, let height): return (width, height)
      case .push: return (80, 24)
      default: if line.isExpectation { return (80, 24) }
      }
    }
    return (80, 24)
  }

  /// Runs one line; returns what failed, if anything.
  private func execute(_ line: SessionScript.Line, session: Session, result: inout ScriptResult) throws(UNTermError)
    -> ScriptFailure.Reason?
  {
    switch line.command {
    case .size, .device, .theme, .categories, .contentExtension, .passcode, .locale, .strings, .focus, .summary,
      .textSize, .foreground, .bundle, .appName, .previews, .mediaDirectory:
      return try configure(line.command, session: session)
    case .lock, .unlock, .offline, .key, .longPress, .tap, .action, .type, .send, .dismiss, .center:
      return interact(line.command, session: session)
    case .push, .wait, .waitUntil, .remove, .clear:
      return try deliver(line.command, session: session)
    case .waitPush(let count, let within):
      return waitForPushes(count, within: within, session: session)
    case .expectResponse, .expectNoResponse:
      return expectResponses(line.command)
    case .expectActivity(let name, let expectation):
      return expectActivity(name, expectation, session: session)
    case .expectScreen, .expectScreenNot, .expectBadge:
      return expectScreen(line.command, session: session)
    case .snapshot(let name, let region):
      return snapshot(name, region: region, session: session, result: &result)
    }
  }

  /// What a command the session's center answers did: its failure, if it had one.
  private func outcome(_ event: Event, session: Session) -> ScriptFailure.Reason? {
    session.send(event).failure.map { .failed($0) }
  }

  /// The lines that set the session up: its size, device, theme, categories, extensions,
  /// strings, app and modes.
  private func configure(_ command: ScriptCommand, session: Session) throws(UNTermError)
    -> ScriptFailure.Reason?
  {
    switch command {
    case .size(let width, let height):
      session.resize(width: width, height: height)
    case .device(let kind):
      return outcome(.command(.setDevice(kind)), session: session)
    case .theme(let name):
      let resolved = name.contains("/") || name.hasSuffix(".json") ? resolve(name) : name
      try session.useTheme(resolved)
    case .categories(let argument):
      return outcome(try session.categoriesEvent(argument, resolve: resolve), session: session)
    case .contentExtension(let file):
      try session.addExtension(resolve(file))
    case .passcode(let code):
      return outcome(.command(.setPasscode(code)), session: session)
    case .locale(let locale):
      return outcome(.command(.setLocale(locale)), session: session)
    case .strings(let path):
      try session.useStrings([resolve(path)])
    case .focus(let mode, let allow):
      return outcome(.command(.setFocusMode(mode, allow: allow)), session: session)
    case .summary(let times):
      return outcome(.command(.setSummary(times)), session: session)
    case .textSize(let size):
      return outcome(.command(.setTextSize(size)), session: session)
    case .foreground(let on):
      return outcome(.command(.setAppState(on ? .foreground : .background)), session: session)
    case .bundle(let bundle):
      return outcome(.command(.setBundle(bundle)), session: session)
    case .appName(let app, let name):
      return outcome(.command(.setAppName(app: app, name: name)), session: session)
    case .previews(let previews):
      return outcome(.command(.setPreviews(previews)), session: session)
    case .mediaDirectory(let path):
      let folder = resolve(path)
      try SessionConfiguration.checkMediaFolder(folder, named: "media-dir")
      session.mediaDirectory = folder
    default:
      break  // `execute` sends only the lines above here.
    }
    return nil
  }

  /// The lines that act as a person would: locking and unlocking, the network, keys, taps,
  /// actions and replies.
  private func interact(_ command: ScriptCommand, session: Session) -> ScriptFailure.Reason? {
    switch command {
    case .lock: return outcome(.command(.lock), session: session)
    case .unlock(let code): return outcome(.command(.unlock(code)), session: session)
    case .offline(let on):
      let failure = outcome(.command(.setOffline(on)), session: session)
      // Back online, what APNs held comes through the queue: on screen before the next line.
      session.drain()
      session.settleServiceExtensions()
      return failure
    case .key(let key, let count):
      // A key press with nothing to act on does nothing, as on a device; it is not a failure.
      // A lost log record ends the repetition: nothing more is done after it.
      for _ in 0..<count where logFailure == nil { _ = outcome(.key(key), session: session) }
    case .longPress: return outcome(.command(.longPress), session: session)
    case .tap: return outcome(.command(.tap), session: session)
    case .action(let id): return outcome(.command(.chooseAction(id)), session: session)
    case .type(let text): return outcome(.command(.type(text)), session: session)
    case .send: return outcome(.command(.send), session: session)
    case .dismiss: return outcome(.command(.dismiss), session: session)
    case .center: return outcome(.command(.openCenter), session: session)
    default: break  // `execute` sends only the lines above here.
    }
    return nil
  }

  /// The lines that deliver, remove and pass time: `push`, `wait`, `wait until`, `remove` and
  /// `clear`.
  private func deliver(_ command: ScriptCommand, session: Session) throws(UNTermError)
    -> ScriptFailure.Reason?
  {
    switch command {
    case .push(let file, let identifier):
      let payload = try Payload.load(resolve(file), categories: session.state.store.registry)
      pushedApp = session.state.store.app(of: payload.info)
      try session.push(payload, identifier: identifier)
    case .wait(let seconds):
      session.advance(to: session.state.now.addingTimeInterval(seconds))
    case .waitUntil(let time):
      guard let date = DayTime.next(of: [time], after: session.state.now, in: session.state.timeZone.zone) else {
        return .failed("the clock never reaches \(time)")
      }
      session.advance(to: date)
    case .remove(let ids):
      remove(ids, session: session)
    case .clear:
      session.send(.center(.removeAllDelivered(.everyApp)))
    default:
      break  // `execute` sends only the lines above here.
    }
    return nil
  }

  /// `remove`: the delivered and pending requests with these identifiers, and a warning in
  /// the activity pane for each identifier nothing has.
  private func remove(_ ids: [String], session: Session) {
    let state = session.state
    let unknown = ids.filter { !state.hasRequest($0) }
    session.send(.center(.removeDelivered(ids, .everyApp)))
    session.send(.center(.removePending(ids)))
    if !unknown.isEmpty {
      // iOS ignores an identifier nothing has (a silent no-op): the script goes on, and the
      // activity pane says so, so a typo is seen.
      session.send(
        .notice(
          .warning,
          "remove: no notification has the identifier \(unknown.map { OneLine.quote($0, limit: 80) }.joined(separator: ", ")); nothing removed, as iOS ignores it",
          revealsContent: false))
    }
  }

  /// `expect response` and `expect no response`: checked against the responses not yet
  /// checked, oldest first.
  private func expectResponses(_ command: ScriptCommand) -> ScriptFailure.Reason? {
    switch command {
    case .expectResponse(let id, let text):
      guard !unchecked.isEmpty else {
        return .failed("expected a response \(describe(id, text)), but no unchecked response remains")
      }
      let response = unchecked.removeFirst()
      let actualText = (response as? UNTextInputNotificationResponse)?.userText
      if response.actionIdentifier != id || (text != nil && actualText != text) {
        return .mismatch(
          subject: "response", expected: describe(id, text),
          actual:
            "\(describe(response.actionIdentifier, actualText)) (request \(response.notification.request.identifier))")
      }
    case .expectNoResponse:
      if !unchecked.isEmpty {
        let list = unchecked.map { describe($0.actionIdentifier, ($0 as? UNTextInputNotificationResponse)?.userText) }
        return .failed(
          "expected no unchecked response, but \(unchecked.count) remain\(unchecked.count == 1 ? "s" : ""): \(list.joined(separator: ", "))"
        )
      }
    default:
      break  // `execute` sends only the lines above here.
    }
    return nil
  }

  /// `expect screen`, `expect screen not` and `expect badge`: checked against what the
  /// session shows now.
  private func expectScreen(_ command: ScriptCommand, session: Session) -> ScriptFailure.Reason? {
    switch command {
    case .expectScreen(let text, let region):
      guard let lines = checked(session).lines(of: region) else { return .failed(missing(region, text)) }
      if !lines.joined(separator: "\n").contains(text) {
        return .failed("expected \(region.displayName) to show \(OneLine.quote(text, limit: 200))")
      }
    case .expectScreenNot(let text, let region):
      // A region that is not shown holds nothing, but saying "passed" would let a check about a
      // card pass when the card is gone: it fails, saying so.
      guard let lines = checked(session).lines(of: region) else { return .failed(missing(region, text)) }
      if text.isEmpty || lines.joined(separator: "\n").contains(text) {
        return .failed("expected \(region.displayName) not to show \(OneLine.quote(text, limit: 200))")
      }
    case .expectBadge(let n):
      // The app under test's badge (every app has its own): the app the script last pushed to,
      // as a tester who pushes to an app looks at that app's icon; the session's own app before.
      let store = session.state.store
      let app = pushedApp ?? store.defaultApp
      if store.badge(of: app) != n {
        return .mismatch(subject: "badge", expected: "\(n)", actual: Self.badges(of: store, app: app))
      }
    default:
      break  // `execute` sends only the lines above here.
    }
    return nil
  }

  /// `expect activity NAME state STATE | shows "TEXT"`.
  private func expectActivity(_ name: String, _ expectation: ActivityExpectation, session: Session)
    -> ScriptFailure.Reason?
  {
    let state = session.state
    guard let record = state.activities.record(name) else {
      let names = state.activities.records.map(\.id)
      return .failed(
        "no Live Activity is named \(OneLine.quote(name, limit: 80))"
          + (names.isEmpty ? "; none has started" : " (there are \(names.joined(separator: ", ")))"))
    }
    switch expectation {
    case .state(let expected):
      let actual = ActivityPresentation.name(of: record.activityState(at: state.now))
      if actual != expected { return .mismatch(subject: "activity \(name)", expected: expected, actual: actual) }
    case .shows(let text):
      let shown = ActivityPresentation(record, in: state)
      let lines = [shown.header] + shown.lines + [shown.leading, shown.trailing]
      if !lines.joined(separator: "\n").contains(text) {
        return .failed(
          "expected activity \(name) to show \(OneLine.quote(text, limit: 200)); it shows \(OneLine.quote(shown.lines.joined(separator: " · "), limit: 200))"
        )
      }
    }
    return nil
  }

  /// An app's badge as a failed `expect badge` reports it: the number, and when other apps
  /// have badges too, whose it is and theirs — `0 for com.example.app (com.other has 9)` — so a
  /// badge that went to another app is seen at once.
  static func badges(of store: NotificationStore, app: String) -> String {
    let others = store.badges.filter { $0.key != app }.sorted { $0.key < $1.key }
    guard !others.isEmpty else { return "\(store.badge(of: app))" }
    let shown = others.prefix(3).map { "\($0.key) has \($0.value)" }
    let more = others.count > 3 ? ", \(others.count - 3) more apps" : ""
    return "\(store.badge(of: app)) for \(app) (\(shown.joined(separator: ", "))\(more))"
  }

  private func missing(_ region: ScreenRegion, _ text: String) -> String {
    "cannot look for \(OneLine.quote(text, limit: 80)): \(region.absence)"
  }

  private func describe(_ id: String, _ text: String?) -> String {
    let name: String
    switch id {
    case UNNotificationDefaultActionIdentifier: name = "@default"
    case UNNotificationDismissActionIdentifier: name = "@dismiss"
    default: name = id
    }
    return text.map { "\(name) \(OneLine.quote($0, limit: 80))" } ?? name
  }

  /// The screen `expect screen` reads: right-to-left text in logical order, as a script writes
  /// it, however the run shows or records the screen (issue 25.3).
  private func checked(_ session: Session) -> Frame { session.frame(bidi: .logical) }

  private func snapshot(_ name: String, region: ScreenRegion, session: Session, result: inout ScriptResult)
    -> ScriptFailure.Reason?
  {
    let path = directory.appendingPathComponent(name + ".txt").path
    guard let lines = session.frame().lines(of: region) else {
      return .failed("cannot take snapshot \(name): \(region.absence)")
    }
    let screen = lines.joined(separator: "\n") + "\n"
    let existing = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    if existing == nil || options.updateSnapshots {
      if existing == screen { return nil }
      do {
        try Data(screen.utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        return .failed("cannot write snapshot \(path): \(error.localizedDescription)")
      }
      result.recorded.append(path)
      // Under CI a snapshot that was never committed fails, unless --update-snapshots asked for
      // recording (as it re-records a changed one without failing).
      if existing == nil && options.isCI && !options.updateSnapshots {
        return .failed(
          "snapshot \(name).txt was missing; it is recorded now, but a missing snapshot fails when CI is set (commit the recorded file)"
        )
      }
      return nil
    }
    guard let existing, existing != screen else { return nil }
    return .snapshotDiffers(name: name, expected: existing, actual: screen)
  }

  /// The one-line error for a lost log record: the file, the reason, and the response.
  private static func logError(_ failure: ResponseLog.Failure, _ response: UNNotificationResponse) -> UNTermError {
    UNTermError(.ioError, file: failure.path, "\(failure.message); \(Session.describe(response)) is not recorded")
  }

  private func summary(of response: UNNotificationResponse) -> ScriptFailure.Response {
    ScriptFailure.Response(
      action: describe(response.actionIdentifier, nil),
      userText: (response as? UNTextInputNotificationResponse)?.userText,
      request: response.notification.request.identifier, checked: !unchecked.contains { $0 === response })
  }

  private func failure(_ line: SessionScript.Line, _ reason: ScriptFailure.Reason, session: Session) -> ScriptFailure {
    let responses = all.suffix(5).map(summary)
    return ScriptFailure(
      file: script.file, line: line.number, column: line.column, source: line.source, reason: reason,
      responses: Array(responses),
      screen: session.frame().grid.lines, screenWidth: session.state.screenWidth)
  }
}

extension ScriptRunner {
  /// `wait push [N] [within DURATION]`: runs what the endpoint posts to the session until N more
  /// pushes have been delivered, in real time, or fails when DURATION passes first.
  fileprivate func waitForPushes(_ count: Int, within: TimeInterval, session: Session) -> ScriptFailure.Reason? {
    guard let source = options.externalPushes else {
      return .failed("wait push needs pushes from outside: run the script with unterm run --apns-listen PORT")
    }
    let target = pushesWaitedFor + count
    let deadline = Date().addingTimeInterval(within)
    while source.deliveredCount < target {
      let left = deadline.timeIntervalSinceNow
      if left <= 0 { break }
      var descriptor = pollfd(fd: session.queue.wakeDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, Int32(min(left, 0.05) * 1000) + 1)
      session.drain()
    }
    session.drain()
    session.settleServiceExtensions()
    let arrived = source.deliveredCount - pushesWaitedFor
    pushesWaitedFor = min(source.deliveredCount, target)
    guard arrived >= count else {
      let seconds = within < 1 ? "\(Int(within * 1000))ms" : "\(Int(within))s"
      return .failed(
        "waited \(seconds) for \(count == 1 ? "a push" : "\(count) pushes"); \(arrived == 0 ? "none" : "\(arrived)") arrived"
      )
    }
    return nil
  }
}
