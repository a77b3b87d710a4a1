import Foundation
import UNTermCore
import UNTermRender
import UserNotifications

/// How `unterm run` runs scripts.
package struct RunOptions: Sendable {
  package var updateSnapshots = false
  package var logFile: String?
  /// Set when the `CI` environment variable is: a missing snapshot is then a failure.
  package var isCI = false

  package init() {}
}

/// Watches a script run step by step: the live player and the cast writer.
package protocol ScriptObserver: AnyObject {
  func scriptWillStart(_ script: SessionScript, session: Session)
  func lineWillRun(_ line: SessionScript.Line, session: Session)
  func lineDidRun(_ line: SessionScript.Line, session: Session)
  func delivered(_ notification: UNNotification, session: Session)
  func responded(_ response: UNNotificationResponse, session: Session)
  func scriptDidFinish(_ result: ScriptResult, session: Session)
}

/// What running one script found.
package struct ScriptResult: Sendable {
  package var file: String
  package var passed: Bool
  package var steps = 0
  package var expectations = 0
  /// The failure report a person reads, when the script failed.
  package var report: String?
  /// Snapshot files written.
  package var recorded: [String] = []
  /// 1 for a failed expectation, 65 or 66 for a file the script could not load.
  package var exitCode: ExitCode = .success
  /// The one-line error, when a file the script loads could not be loaded (for stderr).
  package var error: String?
}

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

  package init(script: SessionScript, options: RunOptions, observer: (any ScriptObserver)? = nil) {
    self.script = script
    self.options = options
    self.observer = observer
    directory = URL(fileURLWithPath: script.file).deletingLastPathComponent()
  }

  private func resolve(_ path: String) -> String {
    path.hasPrefix("/") || path == "-" ? path : directory.appendingPathComponent(path).path
  }

  /// Runs the script to its end or its first failure.
  package func run() -> ScriptResult {
    var result = ScriptResult(file: script.file, passed: true)
    var configuration = SessionConfiguration()
    configuration.logFile = options.logFile
    let session: Session
    do {
      session = try SessionFactory.make(configuration, now: Self.epoch)
    } catch {
      result.passed = false
      result.exitCode = error.exitCode
      result.report = error.description
      return result
    }
    session.resize(width: 80, height: 24)
    session.onResponse = { [weak self, weak session] response, _ in
      self?.unchecked.append(response)
      self?.all.append(response)
      if let session { self?.observer?.responded(response, session: session) }
    }
    session.onDelivery = { [weak self, weak session] notification in
      if let session { self?.observer?.delivered(notification, session: session) }
    }
    observer?.scriptWillStart(script, session: session)
    for line in script.lines {
      session.settleServiceExtensions()
      observer?.lineWillRun(line, session: session)
      result.steps += 1
      if line.command.isExpectation { result.expectations += 1 }
      do {
        if let failure = try execute(line, session: session, result: &result) {
          result.passed = false
          result.exitCode = .failure
          result.report = report(line, failure, session: session)
          break
        }
      } catch {
        result.passed = false
        result.exitCode = error.exitCode
        result.error = error.description
        result.report = "\(script.file):\(line.number): \(line.source)\n  \(error.description)"
        break
      }
      observer?.lineDidRun(line, session: session)
    }
    observer?.scriptDidFinish(result, session: session)
    session.detach()
    return result
  }

  /// Runs one line; returns what failed, if anything.
  private func execute(_ line: SessionScript.Line, session: Session, result: inout ScriptResult) throws(UNTermError)
    -> String?
  {
    func outcome(_ event: Event) -> String? {
      session.send(event).failure
    }
    switch line.command {
    case .size(let width, let height):
      session.resize(width: width, height: height)
    case .device(let kind):
      return outcome(.command(.setDevice(kind)))
    case .theme(let name):
      let resolved = name.contains("/") || name.hasSuffix(".json") ? resolve(name) : name
      try session.useTheme(resolved)
    case .categories(let file):
      let categories = try CategoriesFile.load(resolve(file))
      return outcome(.center(.setCategories(categories.categories)))
    case .contentExtension(let file):
      try session.addExtension(resolve(file))
    case .passcode(let code):
      return outcome(.command(.setPasscode(code)))
    case .lock:
      return outcome(.command(.lock))
    case .unlock(let code):
      return outcome(.command(.unlock(code)))
    case .push(let file, let identifier):
      let payload = try Payload.load(resolve(file), categories: session.state.store.categories)
      try session.push(payload, identifier: identifier)
    case .wait(let seconds):
      session.advance(to: session.state.now.addingTimeInterval(seconds))
    case .key(let key, let count):
      // A key press with nothing to act on does nothing, as on a device; it is not a failure.
      for _ in 0..<count { _ = outcome(.key(key)) }
    case .longPress: return outcome(.command(.longPress))
    case .tap: return outcome(.command(.tap))
    case .action(let id): return outcome(.command(.chooseAction(id)))
    case .type(let text): return outcome(.command(.type(text)))
    case .send: return outcome(.command(.send))
    case .dismiss: return outcome(.command(.dismiss))
    case .center: return outcome(.command(.openCenter))
    case .expectResponse(let id, let text):
      guard !unchecked.isEmpty else {
        return "expected a response \(describe(id, text)), but no unchecked response remains"
      }
      let response = unchecked.removeFirst()
      let actualText = (response as? UNTextInputNotificationResponse)?.userText
      if response.actionIdentifier != id || (text != nil && actualText != text) {
        return
          "expected response \(describe(id, text))\n  actual response   \(describe(response.actionIdentifier, actualText)) (request \(response.notification.request.identifier))"
      }
    case .expectNoResponse:
      if !unchecked.isEmpty {
        let list = unchecked.map { describe($0.actionIdentifier, ($0 as? UNTextInputNotificationResponse)?.userText) }
        return
          "expected no unchecked response, but \(unchecked.count) remain\(unchecked.count == 1 ? "s" : ""): \(list.joined(separator: ", "))"
      }
    case .expectScreen(let text):
      let screen = session.frame().grid.text
      if !text.isEmpty && !screen.contains(text) {
        return "expected the screen to show \(OneLine.quote(text, limit: 200))"
      }
    case .expectScreenNot(let text):
      let screen = session.frame().grid.text
      if text.isEmpty || screen.contains(text) {
        return "expected the screen not to show \(OneLine.quote(text, limit: 200))"
      }
    case .expectBadge(let n):
      let badge = session.state.store.badge
      if badge != n { return "expected badge \(n)\n  actual badge   \(badge)" }
    case .snapshot(let name):
      return snapshot(name, session: session, result: &result)
    }
    return nil
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

  private func snapshot(_ name: String, session: Session, result: inout ScriptResult) -> String? {
    let path = directory.appendingPathComponent(name + ".txt").path
    let screen = session.frame().grid.lines.joined(separator: "\n") + "\n"
    let existing = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    if existing == nil || options.updateSnapshots {
      if existing == screen { return nil }
      do {
        try Data(screen.utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        return "cannot write snapshot \(path): \(error.localizedDescription)"
      }
      result.recorded.append(path)
      if existing == nil && options.isCI {
        return
          "snapshot \(name).txt was missing; it is recorded now, but a missing snapshot fails when CI is set (commit the recorded file)"
      }
      return nil
    }
    guard let existing, existing != screen else { return nil }
    return "the screen differs from snapshot \(name).txt (--update-snapshots re-records it)\n"
      + LineDiff.diff(expected: existing, actual: screen)
  }

  private func report(_ line: SessionScript.Line, _ failure: String, session: Session) -> String {
    var out = "\(script.file):\(line.number): \(line.source)\n"
    out += failure.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    out += "\n  recent responses:"
    if all.isEmpty {
      out += " none"
    } else {
      for response in all.suffix(5) {
        let checked = !unchecked.contains { $0 === response }
        out +=
          "\n    \(checked ? "✓" : "·") \(describe(response.actionIdentifier, (response as? UNTextInputNotificationResponse)?.userText)) — \(response.notification.request.identifier)"
      }
    }
    out += "\n  screen:\n"
    let lines = session.frame().grid.lines
    let width = session.state.screenWidth
    out += "    ┌" + String(repeating: "─", count: width) + "┐\n"
    for text in lines {
      out += "    │" + text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) + "│\n"
    }
    out += "    └" + String(repeating: "─", count: width) + "┘"
    return out
  }
}

/// A line-by-line difference for reports.
package enum LineDiff {
  package static func diff(expected: String, actual: String) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var out: [String] = []
    for i in 0..<max(a.count, b.count) {
      let x = i < a.count ? a[i] : nil
      let y = i < b.count ? b[i] : nil
      if x == y { continue }
      if let x { out.append("- \(i + 1)│\(x)") }
      if let y { out.append("+ \(i + 1)│\(y)") }
    }
    return out.joined(separator: "\n")
  }
}
