import Foundation
import UserNotifications

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
public final class UNNotificationContentView: @unchecked Sendable {
  private let lock = NSLock()
  private var storedElements: [UNNotificationViewElement] = []

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
      lock.unlock()
    }
  }
}

/// The base class of a content extension's view controller (UIKit's `UIViewController` on iOS).
open class UNNotificationContentViewController: NSObject {
  /// The view the extension fills.
  public let view = UNNotificationContentView()
  /// Shown in the header instead of the app name when the extension overrides the title.
  open var title: String?
  /// The height the extension asks for; the width is ignored, as on iOS. Zero means "fit the
  /// view's elements".
  open var preferredContentSize: CGSize = .zero
  /// The context for changing actions and leaving the view.
  public package(set) var extensionContext: NSExtensionContext?

  public override init() { super.init() }

  /// A button in the view was pressed (only when user interaction is enabled).
  open func buttonPressed(action: String) {}
}

/// What a running emulator does for an extension's context.
package protocol UNNotificationExtensionHost: AnyObject {
  func extensionSetActions(_ actions: [UNNotificationAction])
  func extensionPerformDefaultAction()
  func extensionDismiss()
  func extensionMediaChanged(playing: Bool)
}

/// The extension's context: the actions under the expanded view and the ways to leave it.
open class NSExtensionContext: NSObject {
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
}
