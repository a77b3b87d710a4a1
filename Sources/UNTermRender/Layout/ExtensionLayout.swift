import Foundation
import UNTermBidi
import UNTermCore
import UserNotificationsModel
import UserNotificationsUI

/// A content extension's view measured as iOS sizes it, on one device.
package struct ExtensionMeasurement: @unchecked Sendable {
  /// Width × `UNNotificationExtensionInitialContentSizeRatio`: the height while loading.
  package var initialHeight: Double
  /// The height after `didReceive`: what the extension asked for, or what its elements need.
  package var preferredHeight: Double
  /// The device's budget.
  package var budget: Double
  /// The view clipped to the budget.
  package var content: BudgetedContent

  /// Points past the budget once loaded.
  package var overflow: Double { max(0, preferredHeight - budget) }
  /// Points past the budget while loading.
  package var initialOverflow: Double { max(0, initialHeight - budget) }
}

/// Lays out a content extension's view: elements to blocks, sized in points.
package enum ExtensionLayout {
  /// The height of a one-row control: a button is Apple's 44 pt tap target, a progress bar
  /// with its padding 20 pt.
  static let buttonHeight = 44.0
  static let progressHeight = 20.0

  /// Measures a view for a device at a text size; `columns` is the text width in cells at the
  /// default size.
  package static func measure(
    _ view: ExtensionView, for notification: UNNotification?, device: DeviceProfile, textSize: DynamicTypeSize,
    columns: Int, images: (any ImageProvider)?, direction: BidiParagraph.Direction = .auto
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
    return ExtensionMeasurement(
      initialHeight: initial, preferredHeight: preferred, budget: device.contentBudget, content: content)
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
