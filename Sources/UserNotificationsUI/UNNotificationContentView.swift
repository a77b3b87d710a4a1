import Foundation
import UserNotificationsModel

/// Where an image in a content view comes from.
public enum UNNotificationViewImageSource: Hashable, Sendable {
  /// The notification's attachment at an index.
  case attachment(Int)
  /// A file (PNG or JPEG).
  case file(String)
}

/// One element of a content extension's view, drawn top to bottom.
///
/// These are what a terminal can show of a UIKit view: images, text in Dynamic Type styles,
/// spacing, progress and buttons. Heights are in points.
public enum UNNotificationViewElement: Hashable, Sendable {
  /// An image, `height` points tall (by default the image's aspect at the view's width).
  case image(UNNotificationViewImageSource, height: Double? = nil)
  /// Text in a style, wrapped to the view's width, at most `maxLines` lines.
  case label(String, style: UNTextStyle = .body, maxLines: Int? = nil)
  /// Empty space.
  case spacer(Double)
  /// A progress bar, 0 to 1.
  case progress(Double)
  /// A button; interactive only when the extension allows user interaction.
  case button(title: String, action: String)
}

/// The view a content extension fills.
///
/// Changing the elements at any time — in `didReceive`, from a button, from work the extension
/// posted to the main queue — redraws the expanded view, as a UIKit view redraws when changed.
public final class UNNotificationContentView: @unchecked Sendable {
  private let lock = NSLock()
  private var storedElements: [UNNotificationViewElement] = []
  private var observer: (@Sendable () -> Void)?

  public init(elements: [UNNotificationViewElement] = []) {
    storedElements = elements
  }

  /// The elements, top to bottom.
  public var elements: [UNNotificationViewElement] {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedElements
    }
    set {
      lock.lock()
      storedElements = newValue
      let observer = self.observer
      lock.unlock()
      observer?()
    }
  }

  /// Called (on the thread that made the change) whenever the elements are set.
  package func observe(_ body: (@Sendable () -> Void)?) {
    lock.lock()
    observer = body
    lock.unlock()
  }
}

/// The base class of a content extension's view controller (UIKit's `UIViewController` on iOS).
///
/// The expanded view follows the controller as iOS follows a view controller: a change of
/// `view`'s elements, of `title` or of `preferredContentSize` — whenever and from wherever it is
/// made — is drawn, and a new height is measured against the budget again.
open class UNNotificationContentViewController: NSObject {
  /// The view the extension fills.
  public let view = UNNotificationContentView()
  /// Shown in the header instead of the app name when the extension overrides the title.
  open var title: String? {
    didSet { contentChanged() }
  }
  /// The height the extension asks for; the width is ignored, as on iOS. Until the extension
  /// sets it, the view keeps the placeholder height iOS gives it: the width ×
  /// `UNNotificationExtensionInitialContentSizeRatio`.
  open var preferredContentSize: CGSize = .zero {
    didSet {
      hasPreferredContentSize = true
      contentChanged()
    }
  }
  /// Whether the extension has set `preferredContentSize`.
  package private(set) var hasPreferredContentSize = false
  /// The context for changing actions and leaving the view.
  public package(set) var extensionContext: NSExtensionContext? {
    didSet {
      let context = extensionContext
      view.observe(context.map { context in { @Sendable in context.host?.extensionContentChanged() } })
    }
  }

  public override init() { super.init() }

  /// A button in the view was pressed (only when user interaction is enabled).
  open func buttonPressed(action: String) {}

  private func contentChanged() { extensionContext?.host?.extensionContentChanged() }
}

/// What a running emulator does for an extension's context.
package protocol UNNotificationExtensionHost: AnyObject, Sendable {
  func extensionSetActions(_ actions: [UNNotificationAction])
  func extensionPerformDefaultAction()
  func extensionDismiss()
  func extensionMediaChanged(playing: Bool)
  /// The extension asked to open a URL (`open(_:completionHandler:)`); `completion` gets
  /// whether it was opened.
  func extensionOpen(_ url: URL, completion: (@Sendable (Bool) -> Void)?)
  /// The extension's view, title or preferred size changed: draw it again. Any thread may call it.
  func extensionContentChanged()
}

/// The extension's context: the actions under the expanded view and the ways to leave it.
open class NSExtensionContext: NSObject, @unchecked Sendable {
  package weak var host: (any UNNotificationExtensionHost)?
  private var actions: [UNNotificationAction] = []

  package init(actions: [UNNotificationAction]) {
    self.actions = actions
    super.init()
  }

  /// The actions shown under the expanded notification; setting them replaces the buttons.
  open var notificationActions: [UNNotificationAction] {
    get { actions }
    set {
      actions = newValue
      host?.extensionSetActions(newValue)
    }
  }

  /// Opens the app with the default action, as tapping the notification does.
  open func performNotificationDefaultAction() { host?.extensionPerformDefaultAction() }

  /// Closes the expanded view.
  open func dismissNotificationContentExtension() { host?.extensionDismiss() }

  /// Tells the system that playback started from the extension's own controls.
  open func mediaPlayingStarted() { host?.extensionMediaChanged(playing: true) }

  /// Tells the system that playback paused from the extension's own controls.
  open func mediaPlayingPaused() { host?.extensionMediaChanged(playing: false) }

  /// Asks the system to open a URL for the extension: the app's own (a custom scheme or a
  /// universal link), which launches the app. UNTerm closes the expanded view, brings the app
  /// forward, says so in the activity pane and records the URL (the harness's `openedURLs`);
  /// `completionHandler` is told `true` once that is done, `false` when no session runs.
  open func open(_ url: URL, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
    guard let host else {
      completionHandler?(false)
      return
    }
    host.extensionOpen(url, completion: completionHandler)
  }
}
