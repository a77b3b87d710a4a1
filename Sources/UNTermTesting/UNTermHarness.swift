import Foundation
import Testing
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermState
import UserNotifications
import UserNotificationsUI

/// Drives UNTerm's notification center from a test: no terminal, the same center people explore
/// with `unterm` and script with `unterm run`.
///
/// Register categories, set your delegate, service extension and content extensions, push
/// payloads, and act with the session language's verbs. Then read `screen` (the lines `unterm
/// render` prints), `responses` (what reached your delegate, in order) and
/// `deliveredNotifications`.
///
/// ```swift
/// let harness = try UNTermHarness(device: .iphone, size: (columns: 80, rows: 24))
/// harness.delegate = appDelegate
/// harness.registerCategories([message])
/// try await harness.push(#"{"aps":{"alert":"Hi","category":"MESSAGE"}}"#)
/// await harness.longPress()
/// await harness.chooseAction("REPLY")
/// await harness.type("On my way")
/// await harness.send()
/// #expect((harness.responses.last as? UNTextInputNotificationResponse)?.userText == "On my way")
/// ```
///
/// The verbs are `async`: after each one the harness waits (without holding a thread) until
/// your code has answered — a service extension's content, the delegate's `willPresent` and
/// `didReceive` completion handlers — so what you read next is what the user would see. The
/// clock is virtual: it starts at 2025-06-02 09:41 UTC and moves only with `wait(_:)`.
public final class UNTermHarness {
  /// The device UNTerm imitates.
  public enum Device: String, Sendable {
    case iphone, ipad
  }

  /// One measurement of a content extension's view, as `unterm lint --extension` reports it.
  public struct ExtensionHeight: Hashable, Sendable {
    /// The request identifier of the notification the view shows.
    public var notification: String
    /// Width × `UNNotificationExtensionInitialContentSizeRatio`: the height while loading, in points.
    public var initialHeight: Double
    /// The height the view asks for (its `preferredContentSize`), in points.
    public var preferredHeight: Double
    /// The system's default title, subtitle and body below the view, in points (0 when the
    /// extension sets `UNNotificationExtensionDefaultContentHidden`).
    public var defaultContentHeight: Double = 0
    /// The most the device gives the expanded content (the view and the default content), in points.
    public var budget: Double
    /// Points past the budget (0 when it fits).
    public var overflow: Double { max(0, preferredHeight + defaultContentHeight - budget) }
  }

  /// A payload or categories file that could not be used, or a verb the screen could not take.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  private static func failure(_ error: any Error) -> Failure {
    Failure(description: (error as? UNTermError)?.description ?? "\(error)")
  }

  /// Where the virtual clock starts.
  public static let startDate = Date(timeIntervalSince1970: 1_748_857_260)  // 2025-06-02T09:41:00Z

  /// How long a verb waits in real time for the app's code before giving up on it (a service
  /// extension that never calls its handler is then expired, as its time budget would).
  public var patience: TimeInterval = 10

  /// The session, touched only on `thread`.
  private let session: Session
  private let center: UNUserNotificationCenter
  /// What makes `UNUserNotificationCenter.current()` this harness's center.
  private let claim: CenterRouting.Token
  /// The delegate given through `delegate`, kept alive (the center holds it weakly).
  private var heldDelegate: (any UNUserNotificationCenterDelegate)?
  /// Responses, in order; touched only on `thread`.
  private let recorded = Recorded()
  /// The session's own thread: it runs what the test asks and, whenever the app's code posts
  /// work (a center call from any thread, an extension's answer), drains it at once, so an
  /// `await center.add(…)` in app code is answered without the test doing anything.
  private let thread = DispatchQueue(label: "UNTermHarness.session")
  private let onThread = DispatchSpecificKey<Bool>()
  private var wake: (any DispatchSourceRead)?

  /// Creates a session on a center of its own, in the home screen state (the app in the
  /// background), unlocked.
  ///
  /// - Parameters:
  ///   - device: `.iphone` (extension budget 320 pt wide) or `.ipad` (352 pt).
  ///   - size: the screen, in terminal cells.
  ///   - bundleIdentifier: the app under test (`unterm --bundle`): its requests and the
  ///     categories it registers are its; pushes naming another app are that app's.
  ///
  /// It does not throw: the harness's session loads no file (categories, extensions and
  /// payloads come later, through methods that throw), so `try` is not needed, and a test that
  /// writes it only gets the compiler's note.
  public init(
    device: Device = .iphone, size: (columns: Int, rows: Int) = (columns: 80, rows: 24),
    bundleIdentifier: String = "com.example.app"
  ) {
    var configuration = SessionConfiguration()
    configuration.device = device == .iphone ? .iphone : .ipad
    configuration.bundle = bundleIdentifier
    let center = UNUserNotificationCenter.makeForSession()
    thread.setSpecific(key: onThread, value: true)
    let made = thread.sync { () -> Result<Session, any Error> in
      do {
        return .success(try SessionFactory.make(configuration, now: Self.startDate, center: center))
      } catch {
        return .failure(error)
      }
    }
    switch made {
    case .success(let made): session = made
    case .failure(let error):
      // A session with no media folder, theme, categories, strings, extensions or log has
      // nothing to load: `Session.init` throws only for those.
      preconditionFailure("UNTermHarness: a session that loads no file failed: \(error)")
    }
    self.center = center
    // The app's own code reaches this center through `current()`, as on iOS: from the test's
    // task, from the tasks the test starts (Swift Testing's current test names them), and from
    // everything the session runs.
    CenterRouting.setScopeProvider { Test.current?.id }
    claim = CenterRouting.claim(center)
    let (session, recorded) = (session, recorded)
    let wake = DispatchSource.makeReadSource(fileDescriptor: session.queue.wakeDescriptor, queue: thread)
    wake.setEventHandler {
      session.becomeOwner()
      session.drain()
    }
    self.wake = wake
    thread.sync {
      session.resize(width: size.columns, height: size.rows)
      session.onResponse = { response, _ in recorded.list.append(response) }
    }
    wake.resume()
  }

  deinit {
    CenterRouting.release(claim)
    let (session, wake) = (session, wake)
    thread.sync {
      wake?.cancel()
      session.detach()
    }
  }

  /// Runs `body` on the session's thread (at once when already there).
  func onSession<T>(_ body: (Session) throws -> T) rethrows -> T {
    if DispatchQueue.getSpecific(key: onThread) == true { return try body(session) }
    return try thread.sync {
      session.becomeOwner()
      return try body(session)
    }
  }

  // MARK: - The app's code

  /// The app's notification center, connected to the harness: `add` a request and it is
  /// delivered, as in an app. It is what `UNUserNotificationCenter.current()` returns while the
  /// harness lives — to the test's code, the tasks it starts and the code the session calls —
  /// so an app's code that registers, posts, removes or sets its delegate through `current()`
  /// works unchanged. Like an app's, it lists and removes only the harness app's notifications
  /// (`deliveredNotifications` has every app's).
  public var notificationCenter: UNUserNotificationCenter { center }

  /// The app's delegate: told about foreground notifications (`willPresent`) and every
  /// response (`didReceive`). Setting it here holds it strongly, so a test need not keep it;
  /// one the app's code sets itself (`current().delegate = self`) is read back here too.
  /// Whichever way it was set, every verb waits for its completion handlers and `async`
  /// methods before going on.
  public var delegate: (any UNUserNotificationCenterDelegate)? {
    get { center.delegate }
    set {
      heldDelegate = newValue
      center.delegate = newValue
    }
  }

  /// The app's service extension, made once for each `mutable-content` payload; `nil` runs
  /// UNTerm's built-in one (it attaches a local or downloaded `attachment-url`).
  public var serviceExtension: (() -> UNNotificationServiceExtension)? {
    get { onSession { $0.serviceExtension } }
    set { onSession { $0.serviceExtension = newValue } }
  }

  /// Adds a content extension: the view controller `make` returns serves these categories'
  /// expanded views, as the keys of an extension's Info.plist say
  /// (`UNNotificationExtensionOverridesDefaultTitle`: the header shows the controller's `title`;
  /// `UNNotificationExtensionUserInteractionEnabled`: its buttons take Tab and Enter — on here
  /// by default, since a harness test usually presses them; Apple's Info.plist default is off).
  public func addContentExtension(
    categories: [String], initialContentSizeRatio: Double, defaultContentHidden: Bool = false,
    overridesDefaultTitle: Bool = false, userInteractionEnabled: Bool = true,
    make: @escaping () -> any UNNotificationContentExtension & UNNotificationContentViewController
  ) throws {
    let attributes = ContentExtensionAttributes(
      categories: categories, initialContentSizeRatio: initialContentSizeRatio,
      defaultContentHidden: defaultContentHidden, overridesDefaultTitle: overridesDefaultTitle,
      userInteractionEnabled: userInteractionEnabled)
    let failure = onSession { session -> (any Error)? in
      do {
        try session.addExtension(ProgramExtension(attributes: attributes, make: make))
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw Self.failure(failure) }
  }

  /// Registers the app's categories, replacing the ones registered before.
  public func registerCategories(_ categories: Set<UNNotificationCategory>) {
    center.setNotificationCategories(categories)
    onSession { $0.drain() }
  }

  /// Registers the categories of a categories file (the format `unterm --categories` reads).
  public func loadCategories(from url: URL) throws {
    do {
      let file = try CategoriesFile.load(url.path)
      registerCategories(Set(file.categories))
    } catch {
      throw Self.failure(error)
    }
  }

  // MARK: - Pushing

  /// Pushes an APNs payload given as JSON text, as `unterm push` does; returns the request's
  /// identifier (`identifier`, else `req-1`, `req-2`, …). `bundle` names the app it is for over
  /// the payload's own, as `unterm push --bundle` (the default: the payload's
  /// `Simulator Target Bundle`, else its `apns-topic`, else the harness's own app).
  @discardableResult
  public func push(_ payload: String, as identifier: String? = nil, bundle: String? = nil) async throws -> String {
    let categories = onSession { $0.state.store.registry }
    let parsed = PayloadAnalyzer.analyze(Array(payload.utf8), file: "push", categories: categories, bundle: bundle)
    return try await push(parsed, identifier: identifier)
  }

  /// Pushes a payload file; an `attachment-url` in it is read relative to its folder.
  @discardableResult
  public func push(contentsOf url: URL, as identifier: String? = nil, bundle: String? = nil) async throws -> String {
    let parsed: Payload
    do {
      let categories = onSession { $0.state.store.registry }
      parsed = try Payload.load(url.path, categories: categories, bundle: bundle)
    } catch {
      throw Self.failure(error)
    }
    return try await push(parsed, identifier: identifier)
  }

  func push(_ payload: Payload, identifier: String?) async throws -> String {
    let pushed = onSession { session -> Result<String, any Error> in
      do {
        return .success(try session.push(payload, identifier: identifier))
      } catch {
        return .failure(error)
      }
    }
    guard case .success(let id) = pushed else {
      if case .failure(let error) = pushed { throw Self.failure(error) }
      return ""
    }
    await settle()
    return id
  }

  // MARK: - The user

  /// Opens the newest notification's expanded view (a long press); a content extension loads.
  public func longPress() async { await perform(.longPress) }

  /// Taps the notification: the default action.
  public func tap() async { await perform(.tap) }

  /// Chooses an action of the open notification by identifier or title. A text-input action
  /// opens its text field.
  public func chooseAction(_ action: String) async { await perform(.chooseAction(action)) }

  /// Types into the open text field.
  public func type(_ text: String) async { await perform(.type(text)) }

  /// Sends the text field's text.
  public func send() async { await perform(.send) }

  /// Dismisses the notification (the expanded view's close button).
  public func dismiss() async { await perform(.dismiss) }

  /// Presses a key by its script name (`enter`, `esc`, `up`, `tab`, `x`, …), as `key` does in
  /// a session script. A name that is no key presses nothing and says so in `activity`, as
  /// `chooseAction` of an action that is not listed does nothing: the methods that act as the
  /// user never throw, so a test calls them with `await` alone.
  public func key(_ name: String) async {
    guard let key = Key(scriptName: name) else {
      onSession {
        _ = $0.send(
          .notice(
            .warning,
            "key(\(OneLine.quote(name, limit: 40))) pressed nothing: not a key name (\(Key.scriptNames()), or one character)",
            revealsContent: false))
      }
      return
    }
    onSession { _ = $0.send(.key(key)) }
    await settle()
  }

  /// Locks the device: previews hide, content extensions do not load.
  public func lock() async { await perform(.lock) }

  /// Unlocks the device with a passcode (any text when no passcode was set).
  public func unlock(_ passcode: String = "") async { await perform(.unlock(passcode)) }

  /// Moves the virtual clock on: triggers fire, banners time out.
  public func wait(_ seconds: Double) async {
    onSession { $0.advance(to: $0.state.now.addingTimeInterval(seconds)) }
    await settle()
  }

  private func perform(_ command: Command) async {
    onSession { _ = $0.send(.command(command)) }
    await settle()
  }

  // MARK: - What the test reads

  /// The screen as `unterm render` prints it: one string per row, trailing spaces removed.
  public var screen: [String] {
    onSession { session in
      session.drain()
      return session.frame().grid.lines
    }
  }

  /// Every response handed to the app, in order (`UNTextInputNotificationResponse` for replies).
  public var responses: [UNNotificationResponse] { onSession { _ in recorded.list } }

  /// Every app's notifications in the notification list, newest first: the tester's view, as
  /// the screen shows them (`notificationCenter` sees only the harness app's).
  public var deliveredNotifications: [UNNotification] {
    onSession { session in
      session.drain()
      return session.state.store.deliveredNewestFirst
    }
  }

  /// The bundle identifier of the app a notification belongs to (`deliveredNotifications`
  /// holds every app's): `push`'s `bundle`, else the payload's, else the harness's own app.
  public func app(of notification: UNNotification) -> String {
    onSession { $0.state.store.app(of: notification.request) }
  }

  /// An app's badge number (0: none). Every app has its own: `notificationCenter.badgeCount` is
  /// the harness's own app's, as an app reads only its own; this reads any app's, such as the
  /// one a `push(_:as:bundle:)` named.
  public func badge(of bundle: String) -> Int {
    onSession { session in
      session.drain()
      return session.state.store.badge(of: bundle)
    }
  }

  /// Every measurement of a content extension's view, in order: one when it loads, another
  /// each time its preferred height changes.
  public var extensionHeights: [ExtensionHeight] {
    onSession { $0.extensionSizes }.map {
      ExtensionHeight(
        notification: $0.notification, initialHeight: $0.initialHeight, preferredHeight: $0.preferredHeight,
        defaultContentHeight: $0.defaultContentHeight, budget: $0.budget)
    }
  }

  /// The URLs the app's content extensions opened (`extensionContext?.open(_:completionHandler:)`),
  /// in order: each launched the app, as on iOS.
  public var openedURLs: [URL] {
    onSession { session in
      session.drain()
      return session.state.openedURLs.compactMap { URL(string: $0.url) }
    }
  }

  /// The activity pane's lines (what the session noted: deliveries, extension sizes, errors).
  public var activity: [String] { onSession { $0.state.notices.map(\.text) } }

  // MARK: - Waiting for the app

  /// Runs what the app's code posted until nothing is left running: service extensions have
  /// answered and the delegate has called its completion handlers. A completion handler the
  /// delegate let go of uncalled is reported at once (in `activity`) and not waited for; one
  /// still held after `patience` is reported and given up on, so the next verb goes on at once.
  private func settle() async {
    let limit = Date().addingTimeInterval(patience)
    let calls = center.delegateCalls
    while true {
      let busy = onSession { session in
        session.drain()
        return session.pipeline.isBusy || !calls.waiting.isEmpty || !session.queue.isEmpty
      }
      if !busy { break }
      if Date() >= limit {
        // The extension's budget is spent: iOS shows the original content.
        onSession { session in
          session.finishServiceExtensions(within: 0)
          calls.giveUpAll(after: patience)
          session.drain()
        }
        break
      }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }
}

/// The responses the session recorded (touched on the session's thread only).
private final class Recorded: @unchecked Sendable {
  var list: [UNNotificationResponse] = []
}
