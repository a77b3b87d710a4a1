import Foundation
import UNTermCurses
import UNTermHeadless
import UNTermRender
import UNTermState
import UserNotificationsModel

/// The interactive notification center: the session on a clock, drawn on a terminal, fed by
/// keys, pastes, the mouse, the push socket and the inbox.
///
/// The loop is bubbletea's on ratatui's backend: it renders the session's state, presents the
/// frame to a `TerminalBackend` (which writes only what changed), waits for input, and turns
/// what arrives into events. `run()` opens the real terminal (`CursesTerminal`); tests run the
/// same loop on an `InMemoryTerminal` with its virtual clock and read the screen.
///
/// One thread: everything that touches the terminal or the session runs here. Other threads
/// (the socket, the inbox, the app's own code) post work to the session's queue, whose pipe
/// wakes the input wait. Nothing is redrawn while idle: the loop sleeps until input, posted
/// work, or the next moment something changes by itself (a banner retiring, a trigger, a
/// service extension's budget, a "2m ago" label). A burst of resizes is drawn once it settles,
/// and a resize to the size the screen already has draws nothing.
package final class InteractiveShell {
  private let session: Session
  private let feeder: DemoFeeder?
  private let depth: ColorDepth
  private let clock: () -> Date
  private var press: (x: Int, y: Int, at: Date, target: HitTarget?)?
  private var lastFrame: Frame?

  /// A press held this long, then released, is a long-press.
  package static let longPressDuration: TimeInterval = 0.5
  /// After a resize, input is read again for this long to gather the rest of a burst before the
  /// screen is drawn at the new size.
  package static let resizeSettleMilliseconds: Int32 = 40
  /// A burst of resizes is drawn at least this often, so a window being dragged still follows.
  package static let resizeBurstLimit: TimeInterval = 0.3

  /// A shell for a session.
  ///
  /// - Parameters:
  ///   - session: The session to show and drive.
  ///   - feeder: The demo's script, if any.
  ///   - depth: The colours to draw with; by default from the environment (`NO_COLOR`, `TERM`,
  ///     `COLORTERM`).
  ///   - clock: Where the time comes from: the wall clock, or a test terminal's virtual one.
  package init(
    session: Session, feeder: DemoFeeder? = nil, depth: ColorDepth? = nil, clock: @escaping () -> Date = Date.init
  ) {
    self.session = session
    self.feeder = feeder
    let environment = ProcessInfo.processInfo.environment
    self.depth =
      depth ?? ((environment["NO_COLOR"] ?? "").isEmpty ? ColorDepth.detect(environment: environment) : .none)
    self.clock = clock
    session.settlesBeforeTime = false
  }

  /// Opens the real terminal and runs until the user quits; returns the signal that ended it,
  /// if one did.
  package func run() throws(CursesTerminalError) -> Int32? {
    var options = CursesTerminal.Options()
    options.politeTermination = true
    options.explicitBidi = session.state.bidi == .visual
    let terminal = try CursesTerminal(options: options)
    defer { terminal.close() }
    if terminal.repairedInheritedModes {
      session.send(
        .notice(
          .info, "The terminal was left in raw mode by an earlier program; UNTerm leaves it in cooked mode on quit"))
    }
    // What the app prints while the terminal is in use goes to the activity pane, not the
    // screen. Stopped (deferred after close's defer) before the terminal is given back.
    let session = self.session
    let capture = AppOutputCapture.start { stream, line in
      session.queue.post { session.noteAppOutput(line, stream: stream.rawValue) }
    }
    defer { capture?.stop() }
    return run(on: terminal)
  }

  /// Runs the loop on a terminal until the user quits, the terminal hangs up, or a termination
  /// signal arrives (returned, for the caller to end the process with after closing).
  package func run(on terminal: some TerminalBackend) -> Int32? {
    // On the main thread, the app's main-queue and main-actor work runs between frames.
    let mainQueue = MainQueueBridge(queue: session.queue)
    mainQueue?.start()
    defer { mainQueue?.stop() }
    let size = terminal.size
    session.resize(width: size.width, height: size.height)
    session.advance(to: clock())
    while !session.state.hasQuit {
      mainQueue?.serve()
      session.drain()
      feeder?.feed(session, now: clock())
      session.advance(to: clock())
      // The terminal gets what --bidi decided for it (the session's own mode), not the logical
      // order of the session's other outputs.
      let frame = session.frame(bidi: session.state.bidi)
      terminal.present(frame, depth: depth)
      lastFrame = frame
      var events = terminal.nextInput(
        timeoutMilliseconds: waitMilliseconds(now: clock()), extraFD: session.queue.wakeDescriptor)
      var burstStarted: Date?
      while true {
        if let end = handle(events, on: terminal) { return end.signal }
        if session.state.hasQuit { break }
        if burstStarted == nil && events.contains(where: \.isResize) { burstStarted = clock() }
        // Gather the rest of a burst of resizes (and whatever comes with it) before drawing.
        guard let started = burstStarted, clock().timeIntervalSince(started) < Self.resizeBurstLimit else { break }
        events = terminal.nextInput(
          timeoutMilliseconds: Self.resizeSettleMilliseconds, extraFD: session.queue.wakeDescriptor)
        if events.isEmpty { break }
      }
      session.drain()
    }
    return nil
  }

  /// Why the loop ends.
  private struct End {
    var signal: Int32?
  }

  /// Turns input into events; returns when the loop must end.
  private func handle(_ events: [InputEvent], on terminal: some TerminalBackend) -> End? {
    for event in events {
      switch event {
      case .key(let key):
        session.send(.key(key))
      case .paste(let text):
        session.send(.paste(text))
      case .mouse(let mouse):
        handle(mouse)
      case .resize(let width, let height):
        let current = (width > 0 && height > 0) ? (width, height) : terminal.size
        // A SIGWINCH that changes nothing repaints nothing.
        if current.0 != session.state.screenWidth || current.1 != session.state.screenHeight {
          session.resize(width: current.0, height: current.1)
        }
      case .suspend:
        terminal.suspendForJobControl()
      case .wake:
        session.drain()
      case .signal(let signal):
        return End(signal: signal)
      case .hangup:
        return End(signal: nil)
      }
      if session.state.hasQuit { break }
    }
    return nil
  }

  /// How long to sleep: until the next thing that changes by itself, or forever (-1).
  private func waitMilliseconds(now: Date) -> Int32 {
    var candidates: [Date] = []
    if let deadline = session.nextDeadline { candidates.append(deadline) }
    if let next = feeder?.nextTime { candidates.append(next) }
    if let label = nextTimeLabelChange(now: now) { candidates.append(label) }
    if press != nil { candidates.append(now.addingTimeInterval(Self.longPressDuration)) }
    guard let next = candidates.min() else { return -1 }
    let ms = next.timeIntervalSince(now) * 1000
    let wait = min(3_600_000, max(0, Int(saturating: ms.rounded(.up))))
    return Int32(min(3_600_000, wait + 1))
  }

  /// When the newest notification's "now" / "5m ago" label next changes.
  private func nextTimeLabelChange(now: Date) -> Date? {
    guard let key = session.state.store.newestGroup, let newest = session.state.store.leading(of: key) else {
      return nil
    }
    let age = now.timeIntervalSince(newest.date)
    let step: TimeInterval = age < 3600 ? 60 : age < 86_400 ? 3600 : 86_400
    return newest.date.addingTimeInterval((age / step).rounded(.down) * step + step)
  }

  private func handle(_ mouse: MouseEvent) {
    let target = lastFrame?.target(x: mouse.x, y: mouse.y)
    switch (mouse.kind, mouse.button) {
    case (.press, .wheelUp): session.send(.key(.up))
    case (.press, .wheelDown): session.send(.key(.down))
    case (.press, .left):
      press = (mouse.x, mouse.y, clock(), target)
    case (.release, _):
      guard let started = press else { return }
      press = nil
      let held = clock().timeIntervalSince(started.at)
      guard let target = started.target else { return }
      activate(target, long: held >= Self.longPressDuration)
    default:
      break
    }
  }

  /// A click (or long-press) on something drawn.
  private func activate(_ target: HitTarget, long: Bool) {
    for event in Self.events(for: target, long: long) { session.send(event) }
  }

  /// What a click (or a long-press) on a target does, as events.
  package static func events(for target: HitTarget, long: Bool) -> [Event] {
    switch target {
    case .notification(let id):
      return [.command(.focus(id)), .command(long ? .longPress : .tap)]
    case .action(let index):
      return [.key(.character(index == 9 ? "0" : Character(String(index + 1))))]
    case .send:
      return [.command(.send)]
    case .close:
      return [.command(.dismiss)]
    case .extensionButton(let index):
      return [.command(.pressExtensionButton(index))]
    case .showLess:
      return [.command(.showLess)]
    }
  }
}

extension InputEvent {
  fileprivate var isResize: Bool {
    if case .resize = self { return true }
    return false
  }
}
