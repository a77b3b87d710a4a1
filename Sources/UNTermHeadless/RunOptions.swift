import Foundation
import UNTermInput
import UNTermScript
import UserNotificationsModel

/// How `unterm run` runs scripts.
package struct RunOptions: Sendable {
  package var updateSnapshots = false
  package var logFile: String?
  /// `--media-dir`: the folder attachments may be read from, until a script's `media-dir`.
  package var mediaDirectory: String?
  /// Set when the `CI` environment variable is: a missing snapshot is then a failure.
  package var isCI = false
  /// Where every script starts: the session options and modes `run` was given (`--bundle`,
  /// `--app-name`, `--categories`, `--extension`, `--strings`, `--locale`, `--device`,
  /// `--theme`, `--passcode`, `--previews`, `--focus`, …). Scripts change them as they go; the
  /// log and the media folder are `logFile` and `mediaDirectory`.
  package var modes = SessionConfiguration()
  /// Where the service-extension trace goes (`run --trace`: stderr).
  package var trace: (@Sendable (TraceLine) -> Void)?
  /// Pushes from outside (`run --apns-listen`): each script's session takes them while it runs.
  package var externalPushes: (any ExternalPushes)?

  package init() {}
}

/// A source of pushes from outside the script (the APNs endpoint): it delivers into the session
/// it is attached to, through the session's queue, and counts what it delivered. Pushes that
/// arrive while no session is attached wait for the next one.
package protocol ExternalPushes: AnyObject, Sendable {
  /// The session to deliver into from now on; `nil` holds pushes until another is attached.
  func attach(_ session: Session?)
  /// Pushes that reached the device so far, into any session: delivered, or held by APNs while
  /// the device is offline.
  var deliveredCount: Int { get }
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
  package var steps = 0
  package var expectations = 0
  /// Snapshot files written.
  package var recorded: [String] = []
  /// Why the script stopped early, if it did.
  package var failure: ScriptFailure?
  /// The screen when the script ended, one string a row (empty when no session could start).
  package var screen: [String] = []

  package var passed: Bool { failure == nil }
  /// 0; 1 for a failed expectation; 65 or 66 for a file the script could not load; 74 when a
  /// response's log record was lost.
  package var exitCode: ExitCode { failure?.exitCode ?? .success }
  /// The failure report a person reads, when the script failed.
  package var report: SafeText? { failure?.report }
}
