import Foundation
import UserNotificationsModel
import UserNotificationsUI

/// Reads the `view` description of a content-extension descriptor.
enum ViewReader {
  static func read(_ node: JSONNode, into descriptor: inout ContentExtensionDescriptor, sink: inout DiagnosticSink) {
    let path = JSONPath([.key("view")])
    guard let view = node.object else {
      sink.report(.typeMismatch, path, "must be an object with \"elements\"")
      return
    }
    for key in view.keys where !["title", "mediaPlayPauseButtonType", "elements"].contains(key) {
      sink.report(.unknownKey, path.appending(key), "unknown key \"\(key)\" is ignored")
    }
    if let title = view["title"] {
      if let text = title.string {
        descriptor.titleTemplate = text
        Template.check(text, path: path.appending("title"), sink: &sink)
        descriptor.templates.append(TemplateUse(text: text, source: source(path.appending("title"))))
      } else {
        sink.report(.typeMismatch, path.appending("title"), "must be a string")
      }
    }
    if let type = view["mediaPlayPauseButtonType"] {
      switch type.string {
      case "none": descriptor.mediaButton = .none
      case "default": descriptor.mediaButton = .default
      case "overlay": descriptor.mediaButton = .overlay
      default:
        sink.report(.invalidValue, path.appending("mediaPlayPauseButtonType"), "must be none, default or overlay")
      }
    }
    guard let elementsNode = view["elements"] else { return }
    guard let elements = elementsNode.array else {
      sink.report(.typeMismatch, path.appending("elements"), "must be an array")
      return
    }
    for (i, element) in elements.enumerated() {
      let elementPath = path.appending("elements").appending(i)
      if let parsed = self.element(element, path: elementPath, descriptor: descriptor, sink: &sink) {
        descriptor.elements.append(parsed)
        switch parsed {
        case .label(let template, _, _):
          descriptor.templates.append(TemplateUse(text: template, source: source(elementPath.appending("label"))))
        case .progress(let template) where element.object?["progress"]?.string != nil:
          descriptor.templates.append(TemplateUse(text: template, source: source(elementPath.appending("progress"))))
        default:
          break
        }
      }
    }
    func source(_ path: JSONPath) -> SourceReference {
      SourceReference(file: descriptor.viewSource.file, document: descriptor.viewSource.document, path: path)
    }
  }

  /// One element of `elements`: an object with exactly one kind key and that kind's options.
  private static func element(
    _ node: JSONNode, path: JSONPath, descriptor: ContentExtensionDescriptor, sink: inout DiagnosticSink
  ) -> ElementDescription? {
    guard let object = node.object else {
      sink.report(.typeMismatch, path, "an element must be an object such as {\"label\": \"{{title}}\"}")
      return nil
    }
    let kinds = ["image", "label", "spacer", "progress", "button"].filter { object[$0] != nil }
    guard kinds.count == 1, let kind = kinds.first else {
      sink.report(
        .invalidElement, path,
        kinds.isEmpty
          ? "an element needs one of image, label, spacer, progress or button"
          : "an element has one kind, not \(kinds.joined(separator: " and "))")
      return nil
    }
    let allowed: [String: Set<String>] = [
      "image": ["image", "height"], "label": ["label", "style", "maxLines"], "spacer": ["spacer"],
      "progress": ["progress"], "button": ["button", "action"],
    ]
    for key in object.keys where !(allowed[kind] ?? []).contains(key) {
      sink.report(.unknownKey, path.appending(key), "\(kind) elements have no \"\(key)\"; it is ignored")
    }
    switch kind {
    case "image": return image(object, path: path, sink: &sink)
    case "label": return label(object, path: path, sink: &sink)
    case "spacer":
      guard let spacer = object["spacer"],
        let points = InputNumber.spacer.read(spacer, at: path.appending("spacer"), into: &sink)
      else { return nil }
      return .spacer(points)
    case "progress": return progress(object, path: path, sink: &sink)
    default: return button(object, path: path, descriptor: descriptor, sink: &sink)
    }
  }

  /// An `image` element: `attachment:N` or an image file's path, with an optional height.
  private static func image(_ object: JSONObject, path: JSONPath, sink: inout DiagnosticSink) -> ElementDescription? {
    guard let source = object["image"]?.string, !source.isEmpty else {
      sink.report(.typeMismatch, path.appending("image"), "must be \"attachment:N\" or an image file path")
      return nil
    }
    if source.hasPrefix("attachment:") && Int(source.dropFirst("attachment:".count)) == nil {
      sink.report(.invalidValue, path.appending("image"), "expected attachment:N with a number N")
      return nil
    }
    var height: Double?
    if let node = object["height"] {
      guard let value = InputNumber.imageHeight.read(node, at: path.appending("height"), into: &sink) else {
        return nil
      }
      height = value
    }
    return .image(source: source, height: height)
  }

  /// A `label` element: a template, with an optional text style and line limit.
  private static func label(_ object: JSONObject, path: JSONPath, sink: inout DiagnosticSink) -> ElementDescription? {
    guard let template = object["label"]?.string else {
      sink.report(.typeMismatch, path.appending("label"), "must be a string (a template such as \"{{title}}\")")
      return nil
    }
    Template.check(template, path: path.appending("label"), sink: &sink)
    var style = UNTextStyle.body
    if let styleNode = object["style"] {
      if let name = styleNode.string, let s = UNTextStyle(rawValue: name) {
        style = s
      } else {
        let hint =
          Suggestion.closest(to: styleNode.string ?? "", in: UNTextStyle.allCases.map(\.rawValue)).map {
            "; did you mean \"\($0)\"?"
          } ?? ""
        sink.report(
          .invalidValue, path.appending("style"),
          "unknown text style; expected \(UNTextStyle.allCases.map(\.rawValue).joined(separator: ", "))\(hint)")
      }
    }
    var maxLines: Int?
    if let node = object["maxLines"] {
      maxLines = InputNumber.maxLines.readInt(node, at: path.appending("maxLines"), into: &sink)
    }
    return .label(template: template, style: style, maxLines: maxLines)
  }

  /// A `progress` element: a fixed number from 0 to 1, or a template giving one.
  private static func progress(_ object: JSONObject, path: JSONPath, sink: inout DiagnosticSink)
    -> ElementDescription?
  {
    if let node = object["progress"], node.number != nil {
      guard let value = InputNumber.progress.read(node, at: path.appending("progress"), into: &sink) else {
        return nil
      }
      return .progress(template: String(value))
    }
    guard let template = object["progress"]?.string else {
      sink.report(.typeMismatch, path.appending("progress"), "must be a number from 0 to 1 or a template")
      return nil
    }
    Template.check(template, path: path.appending("progress"), sink: &sink)
    return .progress(template: template)
  }

  /// A `button` element: its title and action, and a warning when the view takes no input.
  private static func button(
    _ object: JSONObject, path: JSONPath, descriptor: ContentExtensionDescriptor, sink: inout DiagnosticSink
  ) -> ElementDescription? {
    guard let title = object["button"]?.string else {
      sink.report(.typeMismatch, path.appending("button"), "must be the button's title")
      return nil
    }
    let action = object["action"]?.string ?? ""
    if action.isEmpty {
      sink.report(.buttonWithoutAction, path, "the button has no \"action\" identifier")
    }
    if !descriptor.attributes.userInteractionEnabled {
      sink.report(
        .buttonNotInteractive, path,
        "buttons take no input unless UNNotificationExtensionUserInteractionEnabled is true; this one is drawn but cannot be pressed"
      )
    }
    return .button(title: title, action: action)
  }
}
