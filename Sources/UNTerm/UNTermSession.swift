import Foundation
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermShell
import UserNotifications
import UserNotificationsUI

#if canImport(Glibc)
  import Glibc
#endif

/// Runs UNTerm's interactive notification center inside your own program.
///
/// Register categories and your `UNUserNotificationCenterDelegate` on
/// `UNUserNotificationCenter.current()` as an iOS app does, add your extensions, then call
/// `run()`: the terminal becomes the notification center, requests you add appear as banners,
/// and the user's responses reach your delegate.
///
/// ```swift
/// let center = UNUserNotificationCenter.current()
/// center.delegate = appDelegate
/// center.setNotificationCategories([message])
/// let session = UNTermSession()
/// session.serviceExtension = { NotificationService() }
/// try session.run()
/// ```
public final class UNTermSession {
  /// The device UNTerm imitates.
  public enum Device: String, Sendable {
    case iphone, ipad
  }

  /// How the session starts.
  public struct Configuration: Sendable {
    public var device: Device = .iphone
    /// A theme name from `Themes/` or a theme file.
    public var theme = "default"
    public var locked = false
    /// The passcode authentication-required actions ask for; `nil` accepts any input.
    public var passcode: String?
    /// Append every response to this file (JSON Lines).
    public var logFile: String?
    /// Your app's bundle identifier: local notifications (`center.add`) and payloads that name
    /// no app are its, the categories you register are its, your center lists and removes only
    /// its delivered notifications (as on iOS), and it is the app in the foreground. Other apps' notifications (`unterm push --bundle`, a payload's `Simulator
    /// Target Bundle` or `apns-topic`) show under their own names.
    public var bundleIdentifier = "com.example.app"
    /// Your app's name in headers (by default the bundle identifier's last part, capitalized).
    public var appName: String?
    /// Apps' names in headers by bundle identifier, as `--app-name ID=NAME`; an entry for
    /// `bundleIdentifier` wins over `appName`.
    public var appNames: [String: String] = [:]
    /// The service extension's time budget.
    public var serviceTimeout: TimeInterval = 30
    /// Listen for `unterm push` and watch the inbox folder.
    public var acceptsPushes = true
    /// Start with the app in the foreground, so notifications go through your delegate's
    /// `willPresent` (by default the app is in the background and banners show as on a home
    /// screen; tapping a notification brings it forward, `h` sends it back).
    public var appInForeground = false
    /// Your app's strings for `loc-key`s: `Localizable.strings`, `.stringsdict`,
    /// `Localizable.xcstrings`, an `LANG.lproj` folder, or a folder of them.
    public var strings: [String] = []
    /// The device language (`en`, `bn`, `ur`…); `nil` takes the environment's (`LANG`).
    public var locale: String?

    public init() {}
  }

  private let center: UNUserNotificationCenter
  private let configuration: Configuration
  private var programExtensions:
    [(ContentExtensionAttributes, () -> any UNNotificationContentExtension & UNNotificationContentViewController)] = []

  /// Your notification service extension, run for `mutable-content` payloads instead of
  /// UNTerm's built-in one.
  public var serviceExtension: (() -> UNNotificationServiceExtension)?

  /// Creates a session on a notification center (by default the app's shared one).
  public init(configuration: Configuration = Configuration(), center: UNUserNotificationCenter = .current()) {
    self.configuration = configuration
    self.center = center
  }

  /// Adds a content extension: your view controller serves these categories' expanded views.
  public func addContentExtension(
    categories: [String], initialContentSizeRatio: Double, defaultContentHidden: Bool = false,
    overridesDefaultTitle: Bool = false, userInteractionEnabled: Bool = false,
    make: @escaping () -> any UNNotificationContentExtension & UNNotificationContentViewController
  ) {
    programExtensions.append(
      (
        ContentExtensionAttributes(
          categories: categories, initialContentSizeRatio: initialContentSizeRatio,
          defaultContentHidden: defaultContentHidden, overridesDefaultTitle: overridesDefaultTitle,
          userInteractionEnabled: userInteractionEnabled),
        make
      ))
  }

  /// An error that kept the session from running.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Takes over the terminal until the user quits. Your delegate receives every response.
  ///
  /// - Throws: `Failure` when there is no usable terminal or a file cannot be loaded.
  public func run() throws {
    var settings = SessionConfiguration()
    settings.device = configuration.device == .iphone ? .iphone : .ipad
    settings.theme = configuration.theme
    settings.locked = configuration.locked
    settings.passcode = configuration.passcode
    settings.logFile = configuration.logFile
    settings.bundle = configuration.bundleIdentifier
    settings.appName = configuration.appName
    settings.appNames = configuration.appNames
    settings.serviceTimeout = configuration.serviceTimeout
    settings.bidi = TerminalBidi.mode(.auto, environment: ProcessEnvironment.value, controlsTerminal: true)
    settings.stringsPaths = configuration.strings
    settings.locale = AppStrings.normalize(
      configuration.locale ?? AppStrings.environmentLocale(ProcessEnvironment.value))
    let session: Session
    do {
      session = try SessionFactory.make(
        settings, now: Date(), timeZone: .system, center: center,
        extensions: programExtensions.map { .program(ProgramExtension(attributes: $0.0, make: $0.1)) },
        serviceExtension: serviceExtension)
    } catch {
      throw Failure(description: error.description)
    }
    if configuration.appInForeground { session.send(.command(.setAppState(.foreground))) }
    defer { session.detach() }
    do {
      try InteractiveEntry.run(session, delivery: configuration.acceptsPushes ? .defaults : nil)
    } catch {
      throw Failure(description: error.message.text)
    }
  }
}
