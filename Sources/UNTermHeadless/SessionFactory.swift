import Foundation
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

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
