import Foundation
import UserNotificationsModel
import UserNotificationsUI

/// A content extension's view as loaded for the notification on screen.
package struct ExtensionView: @unchecked Sendable {
  package var attributes: ContentExtensionAttributes
  /// The view controller's title, shown in the header when the extension overrides the title.
  package var title: String?
  package var elements: [UNNotificationViewElement]
  /// The height the extension asked for; `nil` fits the elements.
  package var preferredHeight: Double?
  /// The extension never says its height (a bare Info.plist): it keeps the initial height.
  package var keepsInitialHeight = false
  package var mediaButton: UNNotificationContentExtensionMediaPlayPauseButtonType = .none
  package var isPlaying = false
  /// A program's extension (its code may handle actions), not a JSON description.
  package var isProgram = false
  /// Whether the extension has loaded (`didReceive` returned).
  package var isLoaded = true
  /// Which button of the view has the focus, when the view takes input.
  package var buttonFocus: Int?
  /// What a QA report calls each element (the descriptor's templates, when there is one).
  package var elementNames: [String] = []

  package init(
    attributes: ContentExtensionAttributes, title: String?, elements: [UNNotificationViewElement],
    preferredHeight: Double? = nil, mediaButton: UNNotificationContentExtensionMediaPlayPauseButtonType = .none,
    isProgram: Bool = false
  ) {
    self.attributes = attributes
    self.title = title
    self.elements = elements
    self.preferredHeight = preferredHeight
    self.mediaButton = mediaButton
    self.isProgram = isProgram
  }

  /// Whether another reading of the view shows the same thing (its elements, title, height and
  /// media button); the state kept about it on screen (playing, focus) does not count.
  package func showsSameContent(as other: ExtensionView) -> Bool {
    elements == other.elements && title == other.title && preferredHeight == other.preferredHeight
      && keepsInitialHeight == other.keepsInitialHeight && mediaButton == other.mediaButton
  }

  /// The view's buttons, in order, with their actions.
  package var buttons: [(title: String, action: String)] {
    elements.compactMap {
      if case .button(let title, let action) = $0 { return (title, action) }
      return nil
    }
  }
}

extension ContentExtensionDescriptor {
  /// The view this description gives for a notification: templates filled in.
  package func view(for notification: UNNotification) -> ExtensionView {
    let content = notification.request.content
    let elements: [UNNotificationViewElement] = self.elements.map { element in
      switch element {
      case .image(let source, let height):
        if source.hasPrefix("attachment:"), let index = Int(source.dropFirst("attachment:".count)) {
          return .image(.attachment(index), height: height)
        }
        let path =
          source.hasPrefix("/")
          ? source
          : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(source).path
        return .image(.file(path), height: height)
      case .label(let template, let style, let maxLines):
        return .label(Template.render(template, with: content), style: style, maxLines: maxLines)
      case .spacer(let points):
        return .spacer(points)
      case .progress(let template):
        let text = Template.render(template, with: content).trimmingCharacters(in: .whitespaces)
        // A template's value comes from the payload: anything but a finite number is 0, and
        // it is held to 0…1 (a literal in the descriptor is range-checked when read).
        return .progress(InputNumber.progress.clamp(Double(text).flatMap { $0.isFinite ? $0 : nil } ?? 0))
      case .button(let title, let action):
        return .button(title: title, action: action)
      }
    }
    var view = ExtensionView(
      attributes: attributes, title: titleTemplate.map { Template.render($0, with: content) },
      elements: elements, mediaButton: mediaButton)
    view.keepsInitialHeight = !hasView
    view.elementNames = self.elements.map(\.name)
    return view
  }
}
