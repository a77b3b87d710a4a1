import Foundation
import UNTermCore
import UNTermCurses
import UNTermHeadless
import UNTermRender
import UserNotifications

/// The interactive notification center: the session on a real clock, drawn with ncursesw,
/// fed by keys, the mouse, the push socket and the inbox.
///
/// One thread: everything that touches the terminal or the session runs here. Other threads
/// (the socket, the inbox, the app's own code) post work to the session's queue, whose pipe
/// wakes the input wait. Nothing is redrawn while idle: the loop sleeps until input, posted
/// work, or the next moment something changes by itself (a banner retiring, a trigger, a
/// service extension's budget, a "2m ago" label).
package final class InteractiveShell {
  private let session: Session
  private let feeder: DemoFeeder?
  private let depth: ColorDepth
  private var press: (x: Int, y: Int, at: Date, target: HitTarget?)?
  private var lastFrame: Frame?

  /// A press held this long, then released, is a long-press.
  package static let longPressDuration: TimeInterval = 0.5

  package init(session: Session, feeder: DemoFeeder? = nil) {
    self.session = session
    self.feeder = feeder
    let environment = ProcessInfo.processInfo.environment
    depth = (environment["NO_COLOR"] ?? "").isEmpty ? ColorDepth.detect(environment: environment) : .none
    session.settlesBeforeTime = false
  }

  /// Runs until the user quits; returns the signal that ended it, if one did.
  package func run() throws(CursesTerminalError) -> Int32? {
    var options = CursesTerminal.Options()
    options.politeTermination = true
    let terminal = try CursesTerminal(options: options)
    defer { terminal.close() }
    let size = terminal.size
    session.resize(width: size.width, height: size.height)
    session.advance(to: Date())
    while !session.state.hasQuit {
      feeder?.feed(session, now: Date())
      session.advance(to: Date())
      let frame = session.frame()
      terminal.present(frame, depth: depth)
      lastFrame = frame
      let timeout = waitMilliseconds(now: Date())
      for event in terminal.nextInput(timeoutMilliseconds: timeout, extraFD: session.queue.wakeDescriptor) {
        switch event {
        case .key(let key):
          session.send(.key(key))
        case .mouse(let mouse):
          handle(mouse)
        case .resize(let width, let height):
          let current = (width > 0 && height > 0) ? (width, height) : terminal.size
          session.resize(width: current.0, height: current.1)
        case .wake:
          session.drain()
        case .signal(let signal):
          return signal
        case .hangup:
          return nil
        }
        if session.state.hasQuit { break }
      }
      session.drain()
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
    return Int32(max(0, min(ms.rounded(.up) + 1, 3_600_000)))
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
      press = (mouse.x, mouse.y, Date(), target)
    case (.release, _):
      guard let started = press else { return }
      press = nil
      let held = Date().timeIntervalSince(started.at)
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
    }
  }
}
