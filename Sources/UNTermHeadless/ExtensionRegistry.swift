import Foundation
import UNTermInput
import UserNotificationsModel
import UserNotificationsUI

/// A program's content extension: its attributes and how to make its view controller.
package struct ProgramExtension {
  package var attributes: ContentExtensionAttributes
  package var make: () -> any UNNotificationContentExtension & UNNotificationContentViewController

  package init(
    attributes: ContentExtensionAttributes,
    make: @escaping () -> any UNNotificationContentExtension & UNNotificationContentViewController
  ) {
    self.attributes = attributes
    self.make = make
  }
}

/// The content extensions of a session, by the categories they serve, and the one whose view is
/// open.
package final class ExtensionRegistry {
  package enum Provider {
    case descriptor(ContentExtensionDescriptor)
    case program(ProgramExtension)

    var attributes: ContentExtensionAttributes {
      switch self {
      case .descriptor(let d): return d.attributes
      case .program(let p): return p.attributes
      }
    }

    var source: String {
      switch self {
      case .descriptor(let d): return d.file
      case .program: return "a program's extension"
      }
    }
  }

  private(set) var providers: [String: Provider] = [:]
  /// The open program extension: its view controller and the notification it shows.
  private(set) var active:
    (
      controller: any UNNotificationContentExtension & UNNotificationContentViewController, notification: String,
      thread: String, attributes: ContentExtensionAttributes
    )?

  package init() {}

  /// Adds an extension; two extensions claiming one category is an error (exit code 65).
  package func add(_ provider: Provider) throws(UNTermError) {
    for category in provider.attributes.categories {
      if let existing = providers[category] {
        throw UNTermError(
          .dataError, file: provider.source,
          "category \"\(category)\" is already served by \(existing.source); on iOS two content extensions must not claim one category"
        )
      }
    }
    for category in provider.attributes.categories { providers[category] = provider }
  }

  /// Replaces every descriptor (the live preview reloaded them); a program's extensions stay.
  /// Either all of them are taken or, on an error, none: the ones before stay.
  package func replaceDescriptors(_ descriptors: [ContentExtensionDescriptor]) throws(UNTermError) {
    let before = providers
    providers = providers.filter {
      if case .program = $0.value { return true }
      return false
    }
    do {
      for descriptor in descriptors { try add(.descriptor(descriptor)) }
    } catch {
      providers = before
      throw error
    }
  }

  /// The attributes by category, for the state machine.
  package var attributesByCategory: [String: ContentExtensionAttributes] {
    providers.mapValues(\.attributes)
  }

  /// Loads (or reloads) the view for a notification: fills a description's templates, or calls
  /// the program's `didReceive(_:)` and reads its view.
  package func load(
    _ notification: UNNotification, actions: [UNNotificationAction], host: any UNNotificationExtensionHost
  ) -> ExtensionView? {
    let category = notification.request.content.categoryIdentifier
    guard let provider = providers[category] else { return nil }
    switch provider {
    case .descriptor(let descriptor):
      active = nil
      return descriptor.view(for: notification)
    case .program(let program):
      let thread = notification.request.content.threadIdentifier
      let controller: any UNNotificationContentExtension & UNNotificationContentViewController
      if let active,
        active.notification == notification.request.identifier
          || (!thread.isEmpty && active.thread == thread)
      {
        controller = active.controller
      } else {
        controller = program.make()
        let context = NSExtensionContext(actions: actions)
        context.host = host
        controller.extensionContext = context
      }
      active = (controller, notification.request.identifier, thread, program.attributes)
      controller.didReceive(notification)
      return Self.view(of: controller, attributes: program.attributes)
    }
  }

  /// The open program extension's view as it is now, and the notification it shows; `nil` when
  /// no program's view is open. The session reads it after every call into the extension and
  /// whenever the extension says its view changed, so the screen follows the controller.
  package func currentView() -> (notification: String, view: ExtensionView)? {
    guard let active else { return nil }
    return (active.notification, Self.view(of: active.controller, attributes: active.attributes))
  }

  /// What a program's view controller shows: its elements, title and height. One that never
  /// set `preferredContentSize` keeps the placeholder height (width × the initial ratio), as
  /// iOS keeps it.
  private static func view(
    of controller: any UNNotificationContentExtension & UNNotificationContentViewController,
    attributes: ContentExtensionAttributes
  ) -> ExtensionView {
    var view = ExtensionView(
      attributes: attributes, title: controller.title, elements: controller.view.elements,
      preferredHeight: controller.hasPreferredContentSize
        ? max(0, Double(controller.preferredContentSize.height)) : nil,
      mediaButton: controller.mediaPlayPauseButtonType, isProgram: true)
    view.keepsInitialHeight = !controller.hasPreferredContentSize
    return view
  }

  /// The open program extension's view controller.
  package var activeController: (any UNNotificationContentExtension & UNNotificationContentViewController)? {
    active?.controller
  }

  /// Forgets the open view controller (the expanded view closed).
  package func close() { active = nil }
}
