import Foundation
import UNTermBidi
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// A content extension's view measured as iOS sizes it, on one device, with the system's default
/// content under it (unless `UNNotificationExtensionDefaultContentHidden`).
package struct ExtensionMeasurement: @unchecked Sendable {
  /// Width × `UNNotificationExtensionInitialContentSizeRatio`: the height while loading.
  package var initialHeight: Double
  /// The height after `didReceive`: what the extension asked for, or what its elements need.
  package var preferredHeight: Double
  /// The device's budget, for the whole expanded content: the view and the default content.
  package var budget: Double
  /// The view clipped to the budget (and to its own height).
  package var content: BudgetedContent
  /// The default title, subtitle and body under the view, held to what the view leaves of the
  /// budget; empty when the extension hides them.
  package var defaultContent: BudgetedContent

  /// The default content's height in points, the space above it included.
  package var defaultHeight: Double { defaultContent.totalPoints }
  /// The expanded content's height: the view, then the default content.
  package var totalHeight: Double { preferredHeight + defaultHeight }
  /// Points past the budget once loaded.
  package var overflow: Double { max(0, totalHeight - budget) }
  /// Points past the budget while loading (the view's placeholder alone).
  package var initialOverflow: Double { max(0, initialHeight - budget) }
  /// What the budget cuts, top to bottom: the view's parts, then the default content's.
  package var cut: [String] { content.cut + defaultContent.cut }
}

/// Lays out a content extension's view: elements to blocks, sized in points.
package enum ExtensionLayout {
  /// The height of a one-row control: a button is Apple's 44 pt tap target, a progress bar
  /// with its padding 20 pt.
  static let buttonHeight = 44.0
  static let progressHeight = 20.0
  /// The space between the custom view and the default content under it.
  static let defaultContentGap = Projection.pointsPerRow

  /// Measures a view for a device at a text size; `columns` is the text width in cells at the
  /// default size.
  ///
  /// iOS draws the extension's view at the top of the expanded notification and, unless the
  /// extension hides it, the system's title, subtitle and body below the view (DECISIONS.md):
  /// `defaultContent` is that text as the screen shows it, laid out by the caller
  /// (`defaultContent(title:subtitle:body:…)`); nil lays out the notification's own.
  package static func measure(
    _ view: ExtensionView, for notification: UNNotification?, device: DeviceProfile, textSize: DynamicTypeSize,
    columns: Int, images: (any ImageProvider)?, direction: BidiParagraph.Direction = .auto,
    defaultContent: [ContentBlock]? = nil
  ) -> ExtensionMeasurement {
    let blocks = self.blocks(
      view, notification: notification, device: device, textSize: textSize, columns: columns, images: images,
      direction: direction)
    // A descriptor's ratio is range-checked when read; a program's is held here. Width × ratio,
    // not rounded: iOS sizes in fractional points (359 × 0.75 is 269.25).
    let initial = Projection.height(device.notificationWidth * view.attributes.initialContentSizeRatio)
    let fitted = blocks.reduce(0) { $0 + $1.points }
    let preferred = view.keepsInitialHeight ? initial : (view.preferredHeight.map(Projection.height) ?? fitted)
    var all = blocks
    if preferred > fitted {
      all.append(.sized(.spacer, name: "empty space", points: preferred - fitted))
    }
    let content = BudgetedContent(blocks: all, budget: device.contentBudget, height: preferred)
    var below: [ContentBlock] = []
    if !view.attributes.defaultContentHidden {
      let text =
        defaultContent
        ?? notification.map {
          self.defaultContent(
            title: $0.request.content.title, subtitle: $0.request.content.subtitle, body: $0.request.content.body,
            textSize: textSize, columns: columns, direction: direction)
        } ?? []
      if !text.isEmpty {
        below = [.sized(.spacer, name: "the space above the default content", points: defaultContentGap)] + text
      }
    }
    let remaining = max(0, device.contentBudget - min(preferred, device.contentBudget))
    return ExtensionMeasurement(
      initialHeight: initial, preferredHeight: preferred, budget: device.contentBudget, content: content,
      defaultContent: BudgetedContent(blocks: below, budget: remaining))
  }

  /// The system's default content — title, subtitle and body, each in the style the system's
  /// view uses — as blocks named for a QA report (`default title`, …). Empty parts are left out.
  package static func defaultContent(
    title: String, subtitle: String, body: String, textSize: DynamicTypeSize, columns: Int,
    direction: BidiParagraph.Direction = .auto, prefix: String = "default "
  ) -> [ContentBlock] {
    let parts: [(String, Role, UNTextStyle, String)] = [
      (title, .title, .headline, "title"), (subtitle, .subtitle, .subheadline, "subtitle"),
      (body, .body, .body, "body"),
    ]
    return parts.filter { !$0.0.isEmpty }.map { text, role, style, name in
      .text(text, role: role, style: style, size: textSize, width: columns, name: prefix + name, direction: direction)
    }
  }

  /// The view's elements as content blocks.
  package static func blocks(
    _ view: ExtensionView, notification: UNNotification?, device: DeviceProfile, textSize: DynamicTypeSize,
    columns: Int, images: (any ImageProvider)?, direction: BidiParagraph.Direction = .auto
  ) -> [ContentBlock] {
    var blocks: [ContentBlock] = []
    var buttonIndex = 0
    for (i, element) in view.elements.enumerated() {
      let name = i < view.elementNames.count ? view.elementNames[i] : describe(element)
      switch element {
      case .image(let source, let height):
        var reference = ImageReference(attachment: nil, path: nil, label: "")
        switch source {
        case .attachment(let index):
          let attachments = notification?.request.content.attachments ?? []
          reference.attachment = attachments.indices.contains(index) ? attachments[index] : nil
          reference.label = reference.attachment?.url.lastPathComponent ?? "attachment \(index) (none)"
        case .file(let path):
          reference.path = path
          reference.label = (path as NSString).lastPathComponent
        }
        let aspect = images?.aspectRatio(of: reference) ?? 9.0 / 16.0
        let points = height ?? (device.notificationWidth * aspect).rounded()
        blocks.append(.sized(.image(reference), name: name, points: points))
      case .label(let text, let style, let maxLines):
        if text.isEmpty {
          blocks.append(
            ContentBlock(kind: .text(lines: [], role: role(for: style), style: style), name: name, points: 0, rows: 0))
        } else {
          blocks.append(
            .text(
              text, role: role(for: style), style: style, size: textSize, width: columns, maxLines: maxLines,
              name: name, direction: direction))
        }
      case .spacer(let points):
        blocks.append(.sized(.spacer, name: name, points: points))
      case .progress(let value):
        blocks.append(ContentBlock(kind: .progress(value), name: name, points: progressHeight, rows: 1))
      case .button(let title, let action):
        let enabled = view.attributes.userInteractionEnabled
        blocks.append(
          ContentBlock(
            kind: .button(title: title, action: action, enabled: enabled), name: name, points: buttonHeight, rows: 1))
        buttonIndex += 1
      }
    }
    return blocks
  }

  private static func role(for style: UNTextStyle) -> Role {
    switch style {
    case .title1, .title2, .title3, .headline: return .title
    case .subheadline: return .subtitle
    case .body, .callout: return .body
    case .footnote, .caption1, .caption2: return .secondary
    }
  }

  private static func describe(_ element: UNNotificationViewElement) -> String {
    switch element {
    case .image(.attachment(let i), _): return "image \"attachment:\(i)\""
    case .image(.file(let path), _): return "image \"\((path as NSString).lastPathComponent)\""
    case .label(let text, _, _): return "label \(OneLine.quote(text, limit: 30))"
    case .spacer(let points): return "spacer \(InputNumber.format(Projection.height(points))) pt"
    case .progress: return "progress"
    case .button(let title, _): return "button \(OneLine.quote(title, limit: 30))"
    }
  }
}
