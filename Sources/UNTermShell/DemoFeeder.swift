import Foundation
import UNTermHeadless
import UNTermInput
import UNTermScript

/// Plays the setup part of a session script on the real clock: categories, extensions and the
/// like at once, pushes as their `wait`s come due. `unterm` with no arguments uses it to make
/// the demo's notifications arrive over the first seconds.
package final class DemoFeeder {
  private var pending: [(at: Date, line: SessionScript.Line)] = []
  private let directory: URL

  /// Schedules a script's lines from `start`.
  package init(script: SessionScript, start: Date) {
    directory = URL(fileURLWithPath: script.file).deletingLastPathComponent()
    var offset = 0.0
    for line in script.lines {
      switch line.command {
      case .wait(let seconds): offset += seconds
      case .push, .categories, .contentExtension, .device, .theme, .passcode, .lock, .unlock, .strings, .locale:
        pending.append((start.addingTimeInterval(offset), line))
      default: break
      }
    }
  }

  /// When the next line is due.
  package var nextTime: Date? { pending.first?.at }

  private func resolve(_ path: String) -> String {
    path.hasPrefix("/") ? path : directory.appendingPathComponent(path).path
  }

  /// Runs the lines that are due.
  package func feed(_ session: Session, now: Date) {
    while let next = pending.first, next.at <= now {
      pending.removeFirst()
      do {
        switch next.line.command {
        case .push(let file, let id):
          try session.push(try Payload.load(resolve(file), categories: session.state.store.registry), identifier: id)
        case .categories(let argument):
          session.send(try session.categoriesEvent(argument, resolve: resolve))
        case .contentExtension(let file):
          try session.addExtension(resolve(file))
        case .device(let kind):
          session.send(.command(.setDevice(kind)))
        case .theme(let name):
          try session.useTheme(name)
        case .passcode(let code):
          session.send(.command(.setPasscode(code)))
        case .lock:
          session.send(.command(.lock))
        case .unlock(let code):
          session.send(.command(.unlock(code)))
        case .strings(let path):
          try session.useStrings([resolve(path)])
        case .locale(let locale):
          session.send(.command(.setLocale(locale)))
        case .bundle(let bundle):
          session.send(.command(.setBundle(bundle)))
        case .appName(let app, let name):
          session.send(.command(.setAppName(app: app, name: name)))
        case .previews(let previews):
          session.send(.command(.setPreviews(previews)))
        default:
          break
        }
      } catch {
        session.send(.notice(.error, error.description))
      }
    }
  }
}
