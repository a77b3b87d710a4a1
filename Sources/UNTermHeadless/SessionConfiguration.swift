import Foundation
import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// The session options every command that loads notifications shares (the contract's table).
package struct SessionConfiguration: Sendable {
  /// The categories files (`--categories [ID=]FILE`, repeatable), in order: each names the app
  /// it registers for, `nil` for the default app. An app's files are merged in order.
  package var categoriesFiles: [AppCategoriesFile] = []
  /// The session's own app (`--bundle`).
  package var bundle = CategoryRegistry.defaultBundle
  /// Whether `bundle` was named (`--bundle`, a script's `bundle`): a bare categories file is
  /// then that app's only; otherwise it serves every app without categories of its own.
  package var bundleNamed = false
  /// Apps' display names (`--app-name ID=NAME`).
  package var appNames: [String: String] = [:]
  package var extensionFiles: [String] = []
  package var device: DeviceProfile.Kind = .iphone
  package var theme = SessionConfiguration.defaultTheme
  package var locked = false
  package var passcode: String?
  package var logFile: String?
  package var appName: String?
  package var mediaDirectory: String?
  package var serviceTimeout: TimeInterval = 30
  package var previews: CenterState.Previews = .whenUnlocked
  package var trace = false
  /// Focus (`--focus`, `--focus-allow`, `--no-time-sensitive`).
  package var focus = FocusMode.off
  package var focusAllowList: [String] = []
  package var timeSensitiveBreaksThrough = true
  /// Scheduled Summary times (`--summary`).
  package var summaryTimes: [DayTime] = []
  /// The Dynamic Type size (`--text-size`).
  package var textSize = DynamicTypeSize.default
  /// What the built-in delegate answers `willPresent` with (`--foreground-options`).
  package var foregroundOptions: UNNotificationPresentationOptions = RecordingDelegate.defaultPresentation
  /// The APNs request headers for the payloads the command line names (`--push-type`,
  /// `--priority`, `--collapse-id`, `--expiration`, `--topic`); over each file's `apns-headers`.
  package var apnsHeaders = APNsHeaders()
  /// Who reorders right-to-left text on the screen the session shows (`--bidi`, resolved from
  /// `auto` by the command): what the arrow keys in a field follow.
  package var bidi: BidiMode = .visual
  /// How the session's frames (`Session.frame()`) hold right-to-left text: `logical` for every
  /// output that is not a terminal — files, pipes, snapshots, JUnit, pictures, the harness's
  /// screen — unless `--bidi visual` is asked for (issue 25.3). What a terminal shows is drawn
  /// with `bidi` (`Session.frame(bidi:)`).
  package var outputBidi = BidiMode.logical
  /// What a collapsed stack says under its card (`--stack-summary`).
  package var stackSummary = StackSummary.current
  /// The app's strings (`--strings`, repeatable): files or folders.
  package var stringsPaths: [String] = []
  /// The device language (`--locale`; the commands default it from the environment).
  package var locale = "en"
  /// Whether what the session draws is shown with its styles. `render` as plain text is not:
  /// the default theme is then neither looked up nor loaded (a theme named with `--theme` still
  /// is, so a mistyped one is an error whatever the output).
  package var stylesShown = true

  package init() {}

  /// The theme drawn with when none is named.
  package static let defaultTheme = "default"

  /// What the core starts with (the theme catalog's names are the session's to add).
  package var centerSettings: CenterSettings {
    var settings = CenterSettings()
    settings.device = device
    settings.isLocked = locked
    settings.passcode = passcode
    settings.previews = previews
    settings.appName = appName
    settings.bundle = bundle
    settings.bundleNamed = bundleNamed
    settings.appNames = appNames
    settings.theme = theme
    settings.keepsLog = logFile != nil
    settings.focus = focus
    settings.focusAllowList = focusAllowList
    settings.timeSensitiveBreaksThrough = timeSensitiveBreaksThrough
    settings.summaryTimes = summaryTimes
    settings.textSize = textSize
    settings.bidi = bidi
    settings.locale = locale
    settings.stackSummary = stackSummary
    return settings
  }
}

/// A categories file and the app it registers for (`--categories [ID=]FILE`): an app-scoped
/// path.
package typealias AppCategoriesFile = AppScoped

extension AppScoped {
  /// A categories file's path (the value of `--categories [ID=]FILE`).
  package var path: String {
    get { value }
    set { value = newValue }
  }

  package init(app: String?, path: String) {
    self.init(app: app, value: path)
  }
}

extension SessionConfiguration {
  /// The first categories file of the default app; setting it replaces the default app's files.
  package var categoriesFile: String? {
    get { categoriesFiles.first { $0.app == nil || $0.app == bundle }?.path }
    set {
      categoriesFiles.removeAll { $0.app == nil || $0.app == bundle }
      if let newValue { categoriesFiles.insert(AppCategoriesFile(app: nil, path: newValue), at: 0) }
    }
  }

  /// Whose categories a file registers: `ID=FILE` app ID's; a bare FILE the session's own
  /// app's when a bundle was named (`--bundle`, the script's `bundle`), else every app's that
  /// has none of its own (issue 25.4).
  package static func scope(ofCategoriesFor app: String?, bundleNamed: Bool) -> CategoryScope {
    if let app { return .app(app) }
    return bundleNamed ? .defaultApp : .everyApp
  }

  /// The scopes that have categories files, each with its files in order.
  package var categoriesFilesByScope: [(scope: CategoryScope, paths: [String])] {
    var scopes: [(scope: CategoryScope, paths: [String])] = []
    for file in categoriesFiles {
      var scope = Self.scope(ofCategoriesFor: file.app, bundleNamed: bundleNamed)
      if scope == .app(bundle) { scope = .defaultApp }
      if let i = scopes.firstIndex(where: { $0.scope == scope }) {
        scopes[i].paths.append(file.path)
      } else {
        scopes.append((scope, [file.path]))
      }
    }
    return scopes
  }
}

extension CategoriesFile {
  /// Loads an app's categories files and merges them in order: a later file's category replaces
  /// an earlier one with the same identifier.
  package static func loadMerged(_ paths: [String]) throws(UNTermError) -> [UNNotificationCategory] {
    var merged: [UNNotificationCategory] = []
    for path in paths {
      for category in try load(path).categories {
        merged.removeAll { $0.identifier == category.identifier }
        merged.append(category)
      }
    }
    return merged
  }
}
