import Foundation
import UNTermCurses
import UNTermHeadless
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The door into the terminal shell: `unterm` and the embedding API (`UNTermSession`) run a
/// session in this terminal through it, so neither of them touches the terminal backend.
package enum InteractiveEntry {
  /// Why the interactive session cannot run here (no terminal on standard input or output,
  /// `TERM` unset or unusable), or `nil` when it can.
  package static func terminalProblem(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    CursesTerminalError.precheck(
      environment: environment, inputIsTerminal: isatty(STDIN_FILENO) == 1,
      outputIsTerminal: isatty(STDOUT_FILENO) == 1
    )?.description
  }

  /// Where live deliveries come from: the `unterm push` socket and the inbox folder.
  package struct Delivery: Sendable {
    package var socketPath: String
    package var inbox: URL?

    /// The per-user defaults (`$XDG_RUNTIME_DIR/unterm/…`).
    package static var defaults: Delivery { Delivery(socketPath: LiveDelivery.defaultSocketPath()) }

    /// A socket and the inbox that goes with it (`LiveDelivery.inbox(forSocket:)`).
    package init(socketPath: String) {
      self.socketPath = socketPath
      inbox = LiveDelivery.inbox(forSocket: socketPath)
    }
  }

  /// Runs a session (built by `SessionFactory`) in this terminal until the user quits, with
  /// live delivery when `delivery` is given, the demo's notifications when `feeder` is, and
  /// the live preview (`--watch`) when `preview` is. A terminating signal restores the terminal
  /// and ends the process with that signal.
  ///
  /// - Throws: `UNTermError` (exit 1) when the terminal cannot be used.
  package static func run(
    _ session: Session, delivery: Delivery?, feeder: DemoFeeder? = nil, preview: LivePreview? = nil,
    apns: APNsDelivery? = nil
  ) throws(UNTermError) {
    let live = delivery.map { LiveDelivery(session: session, socketPath: $0.socketPath, inbox: $0.inbox, apns: apns) }
    apns?.attach(session)
    defer { apns?.stop() }
    // Where pushes come from quotes no notification: the locked screen shows it too.
    for note in live?.start() ?? [] { session.send(.notice(.info, note, revealsContent: false)) }
    defer { live?.stop() }
    if let preview { session.send(.notice(.info, preview.start(), revealsContent: false)) }
    defer { preview?.stop() }
    let signal: Int32?
    do {
      signal = try InteractiveShell(session: session, feeder: feeder).run()
    } catch {
      throw UNTermError(.failure, "\(error.description)")
    }
    if let signal {
      live?.stop()
      apns?.stop()
      preview?.stop()
      CursesTerminal.terminate(with: signal)
    }
  }
}
