import Foundation
import UserNotificationsModel
import UserNotificationsUI

/// The `NSExtensionAttributes` of a notification content extension.
package struct ContentExtensionAttributes: Hashable, Sendable {
  /// The categories served, matched case-sensitively.
  package var categories: [String]
  /// Height ÷ width of the view while it loads.
  package var initialContentSizeRatio: Double
  /// Hide the default title, subtitle and body.
  package var defaultContentHidden = false
  /// Show the view's title in the header instead of the app name.
  package var overridesDefaultTitle = false
  /// Let the view's buttons take input (iOS 12+).
  package var userInteractionEnabled = false

  package init(
    categories: [String], initialContentSizeRatio: Double, defaultContentHidden: Bool = false,
    overridesDefaultTitle: Bool = false, userInteractionEnabled: Bool = false
  ) {
    self.categories = categories
    self.initialContentSizeRatio = initialContentSizeRatio
    self.defaultContentHidden = defaultContentHidden
    self.overridesDefaultTitle = overridesDefaultTitle
    self.userInteractionEnabled = userInteractionEnabled
  }
}

/// A view element as a descriptor writes it, with templates still unresolved.
package enum ElementDescription: Hashable, Sendable {
  case image(source: String, height: Double?)
  case label(template: String, style: UNTextStyle, maxLines: Int?)
  case spacer(Double)
  case progress(template: String)
  case button(title: String, action: String)

  /// What a QA report calls the element.
  package var name: String {
    switch self {
    case .image(let source, _): return "image \"\(source)\""
    case .label(let template, _, _): return "label \(OneLine.quote(template, limit: 30))"
    case .spacer(let points): return "spacer \(InputNumber.format(points)) pt"
    case .progress(let template): return "progress \(OneLine.quote(template, limit: 30))"
    case .button(let title, _): return "button \(OneLine.quote(title, limit: 30))"
    }
  }
}

/// A value in a source file — its file, its document and its path — so a finding about it made
/// later (by the QA report) points at its line and column as the loader's findings do.
package struct SourceReference: Sendable {
  package var file: String
  package var document: JSONNode?
  package var path: JSONPath

  package init(file: String, document: JSONNode?, path: JSONPath = .root) {
    self.file = file
    self.document = document
    self.path = path
  }

  /// A finding about the value, at its key or the value as `code`'s anchor says.
  package func diagnostic(_ code: LintCode, severity: Severity? = nil, _ message: SafeText) -> Diagnostic {
    Diagnostic(file: file, path: path, in: document, code: code, severity: severity, message: message)
  }
}

/// A template in a descriptor and where it is written.
package struct TemplateUse: Sendable {
  package var text: String
  package var source: SourceReference
}

/// A content-extension descriptor: the attributes plus a description of the custom view.
package struct ContentExtensionDescriptor: Sendable {
  package var file: String
  package var attributes: ContentExtensionAttributes
  /// The view's title template (shown in the header when the title is overridden).
  package var titleTemplate: String?
  package var mediaButton: UNNotificationContentExtensionMediaPlayPauseButtonType = .none
  package var elements: [ElementDescription] = []
  /// Whether the descriptor describes a view (a bare Info.plist does not).
  package var hasView = false
  /// Where the served categories are written (`UNNotificationExtensionCategory`, in the
  /// descriptor or its Info.plist), for findings about them.
  package var categorySource: SourceReference
  /// The view's description (`view`), or the descriptor as a whole when it has none: where
  /// findings about the view's height point.
  package var viewSource: SourceReference
  /// Every template the view fills (its title, labels and progress values), with where it is
  /// written: the QA report checks their `userInfo` paths against the payloads it measures.
  package var templates: [TemplateUse] = []

  /// Loads a descriptor file (JSON, or an extension's Info.plist).
  ///
  /// - Throws: `UNTermError`: 66 for a missing file, 65 for one that cannot be loaded.
  package static func load(_ path: String) throws(UNTermError) -> (ContentExtensionDescriptor, [Diagnostic]) {
    let bytes = try InputFile.read(path)
    let result = analyze(bytes, file: path)
    if let error = result.diagnostics.first(where: { $0.severity == .error }) {
      throw UNTermError(error)
    }
    guard let descriptor = result.descriptor else {
      throw UNTermError(.dataError, file: path, "the descriptor could not be loaded")
    }
    return (descriptor, result.diagnostics)
  }

  /// Parses and checks a descriptor. Findings about an Info.plist it names are the plist's own,
  /// with their lines in the XML.
  package static func analyze(_ bytes: [UInt8], file: String) -> (
    descriptor: ContentExtensionDescriptor?, diagnostics: [Diagnostic]
  ) {
    var sink = DiagnosticSink(file: file)
    let isPlist =
      file.hasSuffix(".plist") || bytes.starts(with: Array("bplist".utf8))
      || bytes.starts(with: Array("<?xml".utf8))
    if isPlist {
      let plist = PlistAttributes.read(bytes, file: file)
      guard let (attributes, source) = plist.attributes else { return (nil, plist.diagnostics) }
      var descriptor = ContentExtensionDescriptor(file: file, attributes: attributes)
      descriptor.categorySource = source
      descriptor.viewSource = SourceReference(file: file, document: nil)
      return (descriptor, plist.diagnostics)
    }
    let document: JSONNode
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      sink.report(error.kind.lintCode, at: .position(error.position), error.message)
      return (nil, sink.diagnostics)
    }
    sink.document = document
    guard let root = document.object else {
      sink.report(
        .typeMismatch, .root,
        "a descriptor is a JSON object with \"NSExtensionAttributes\" (or \"infoPlist\") and \"view\"")
      return (nil, sink.diagnostics)
    }
    for key in root.keys where !["NSExtensionAttributes", "infoPlist", "view"].contains(key) {
      sink.report(.unknownKey, JSONPath([.key(key)]), "unknown key \"\(key)\" is ignored")
    }
    var attributes: ContentExtensionAttributes?
    var categorySource = SourceReference(file: file, document: document)
    if let node = root["NSExtensionAttributes"] {
      if root["infoPlist"] != nil {
        sink.report(
          .conflictingKeys, JSONPath([.key("infoPlist")]), "give NSExtensionAttributes or infoPlist, not both")
      }
      let path = JSONPath([.key("NSExtensionAttributes")])
      attributes = JSONAttributes.read(node, path: path, sink: &sink)
      categorySource.path = path.appending("UNNotificationExtensionCategory")
    } else if let node = root["infoPlist"] {
      let path = JSONPath([.key("infoPlist")])
      categorySource.path = path
      if let relative = node.string {
        let plistPath = infoPlistPath(relative, inDescriptor: file)
        do {
          let plist = PlistAttributes.read(try InputFile.read(plistPath), file: plistPath)
          sink.append(contentsOf: plist.diagnostics)
          if let (read, source) = plist.attributes {
            attributes = read
            categorySource = source
          }
        } catch {
          // As lint names a file it cannot read: missing (66) or too big to read (65).
          sink.report(
            error.exitCode == .noInput ? .unreadableFile : .invalidFile, path, "\(plistPath): \(error.message)")
        }
      } else {
        sink.report(.typeMismatch, path, "must be the path of the extension's Info.plist")
      }
    } else {
      sink.report(.missingKey, .root, "expected \"NSExtensionAttributes\" or \"infoPlist\"")
    }
    guard let attributes else { return (nil, sink.diagnostics) }
    var descriptor = ContentExtensionDescriptor(file: file, attributes: attributes)
    descriptor.categorySource = categorySource
    descriptor.viewSource = SourceReference(file: file, document: document)
    if let view = root["view"] {
      descriptor.hasView = true
      descriptor.viewSource.path = JSONPath([.key("view")])
      ViewReader.read(view, into: &descriptor, sink: &sink)
    }
    return (descriptor, sink.diagnostics)
  }

  /// Where a descriptor's `infoPlist` value points: an absolute path, or one relative to the
  /// descriptor's folder.
  /// Relative to the descriptor's folder, and kept relative when the descriptor's name is, so
  /// findings name the plist as the user would.
  private static func infoPlistPath(_ value: String, inDescriptor file: String) -> String {
    let folder = file == "-" ? "" : (file as NSString).deletingLastPathComponent
    return value.hasPrefix("/") || folder.isEmpty ? value : (folder as NSString).appendingPathComponent(value)
  }

  /// The Info.plist a descriptor file names, if it can be read and names one (the live preview
  /// watches it too); a descriptor that is broken now gives `nil`.
  package static func infoPlistFile(ofDescriptor file: String) -> String? {
    guard !file.hasSuffix(".plist"), let bytes = try? InputFile.read(file),
      let root = (try? JSONParser.parse(bytes))?.object, let value = root["infoPlist"]?.string
    else { return nil }
    return infoPlistPath(value, inDescriptor: file)
  }

  package init(file: String, attributes: ContentExtensionAttributes) {
    self.file = file
    self.attributes = attributes
    categorySource = SourceReference(file: file, document: nil)
    viewSource = SourceReference(file: file, document: nil)
  }
}

/// Reads the attribute keys from JSON.
private enum JSONAttributes {
  static func read(_ node: JSONNode, path: JSONPath, sink: inout DiagnosticSink) -> ContentExtensionAttributes? {
    guard let object = node.object else {
      sink.report(.typeMismatch, path, "must be a dictionary of extension attributes")
      return nil
    }
    var values: [String: Any] = [:]
    for member in object.members {
      switch member.value.value {
      case .string(let s): values[member.key] = s
      case .bool(let b): values[member.key] = b
      case .number(let n): values[member.key] = WrittenNumber(value: Double(n.text) ?? .nan, text: n.text)
      case .array(let items): values[member.key] = items.map { $0.string ?? "\u{0}" }
      default: values[member.key] = NSNull()
      }
    }
    return AttributeValidator.validate(values, path: path, sink: &sink)
  }
}

/// Reads the attribute keys from an Info.plist (`NSExtension` → `NSExtensionAttributes`), or
/// from a plist that is just the attributes dictionary. Its findings are the plist file's, at
/// the lines of its keys.
private enum PlistAttributes {
  static func read(_ bytes: [UInt8], file: String) -> (
    attributes: (ContentExtensionAttributes, SourceReference)?, diagnostics: [Diagnostic]
  ) {
    var sink = DiagnosticSink(file: file)
    let plist: PlistNode
    do {
      plist = try PropertyList.parse(bytes)
    } catch {
      // A duplicate key is lint's duplicate-key, as in JSON, with where the key first was.
      let first = error.firstKey.map { " (first at \($0))" } ?? ""
      sink.report(
        error.firstKey == nil ? .invalidPlist : .duplicateKey, at: error.place.diagnosticLocation,
        SafeText(sanitizing: error.message + first))
      return (nil, sink.diagnostics)
    }
    let document = plist.json
    sink.document = document
    guard let root = document.object else {
      sink.report(.invalidPlist, .root, "the property list must hold a dictionary, not \(plist.typeNameWithArticle)")
      return (nil, sink.diagnostics)
    }
    var attributesPath = JSONPath.root
    var attributes = root
    if let ext = root["NSExtension"] {
      let extPath = JSONPath([.key("NSExtension")])
      guard let extObject = ext.object else {
        sink.report(.typeMismatch, extPath, "NSExtension must be a dictionary")
        return (nil, sink.diagnostics)
      }
      if let point = extObject["NSExtensionPointIdentifier"]?.string,
        point != "com.apple.usernotifications.content-extension"
      {
        sink.report(
          .wrongExtensionPoint, extPath.appending("NSExtensionPointIdentifier"),
          "NSExtensionPointIdentifier is \(point), not com.apple.usernotifications.content-extension")
      }
      attributesPath = extPath.appending("NSExtensionAttributes")
      guard let inner = extObject["NSExtensionAttributes"] else {
        sink.report(.missingKey, attributesPath, "NSExtension has no NSExtensionAttributes dictionary")
        return (nil, sink.diagnostics)
      }
      guard let innerObject = inner.object else {
        sink.report(.typeMismatch, attributesPath, "NSExtensionAttributes must be a dictionary")
        return (nil, sink.diagnostics)
      }
      attributes = innerObject
    } else if root["UNNotificationExtensionCategory"] == nil {
      sink.report(.missingKey, JSONPath([.key("NSExtension")]), "no NSExtension → NSExtensionAttributes dictionary")
      return (nil, sink.diagnostics)
    }
    var values: [String: Any] = [:]
    for member in attributes.members {
      switch member.value.value {
      case .string(let s): values[member.key] = s
      case .bool(let b): values[member.key] = b
      case .number(let n):
        // iOS reads a flag with boolValue, so a number stands for a boolean there.
        if AttributeValidator.booleanKeys.contains(member.key) {
          values[member.key] = (n.double ?? 0) != 0
        } else {
          values[member.key] = WrittenNumber(value: Double(n.text) ?? .nan, text: n.text)
        }
      case .array(let items): values[member.key] = items.map { $0.string ?? "\u{0}" }
      default: values[member.key] = NSNull()
      }
    }
    guard let validated = AttributeValidator.validate(values, path: attributesPath, sink: &sink) else {
      return (nil, sink.diagnostics)
    }
    let source = SourceReference(
      file: file, document: document, path: attributesPath.appending("UNNotificationExtensionCategory"))
    return ((validated, source), sink.diagnostics)
  }
}

/// A number from a descriptor or a plist, with how it was written (for messages).
private struct WrittenNumber {
  var value: Double
  var text: String
}

/// Checks attribute values the same way for JSON and plists.
private enum AttributeValidator {
  static let booleanKeys: Set<String> = [
    "UNNotificationExtensionDefaultContentHidden", "UNNotificationExtensionOverridesDefaultTitle",
    "UNNotificationExtensionUserInteractionEnabled",
  ]
  static let knownKeys: Set<String> = booleanKeys.union([
    "UNNotificationExtensionCategory", "UNNotificationExtensionInitialContentSizeRatio",
  ])

  static func validate(_ values: [String: Any], path: JSONPath, sink: inout DiagnosticSink)
    -> ContentExtensionAttributes?
  {
    for key in values.keys.sorted() where !knownKeys.contains(key) {
      let hint = Suggestion.closest(to: key, in: knownKeys).map { ". Did you mean \"\($0)\"?" } ?? ""
      sink.report(.unknownKey, path.appending(key), "unknown attribute \"\(key)\" is ignored\(hint)")
    }
    var ok = true
    var categories: [String] = []
    let categoryPath = path.appending("UNNotificationExtensionCategory")
    switch values["UNNotificationExtensionCategory"] {
    case let single as String: categories = [single]
    case let list as [String]:
      categories = list
      if list.contains("\u{0}") {
        sink.report(.typeMismatch, categoryPath, "every category must be a string")
        ok = false
      }
    case nil:
      sink.report(
        .missingKey, categoryPath, "UNNotificationExtensionCategory is required (a string or an array of strings)")
      ok = false
    default:
      sink.report(.typeMismatch, categoryPath, "must be a string or an array of strings")
      ok = false
    }
    if ok && categories.isEmpty {
      sink.report(.invalidValue, categoryPath, "the extension must serve at least one category")
      ok = false
    }
    if categories.contains("") {
      sink.report(.invalidValue, categoryPath, "a category identifier must not be empty")
      ok = false
    }
    let ratioPath = path.appending("UNNotificationExtensionInitialContentSizeRatio")
    var ratio = 0.0
    switch values["UNNotificationExtensionInitialContentSizeRatio"] {
    case let number as WrittenNumber where InputNumber.initialContentSizeRatio.accepts(number.value):
      ratio = number.value
      if ratio > 4 {
        sink.report(
          .largeSizeRatio, ratioPath,
          "a ratio of \(number.text) makes the loading view \(number.text)× as tall as it is wide")
      }
    case let number as WrittenNumber:
      sink.report(.numberOutOfRange, ratioPath, InputNumber.initialContentSizeRatio.complaint(number.text))
      ok = false
    case nil:
      sink.report(
        .missingKey, ratioPath,
        "UNNotificationExtensionInitialContentSizeRatio is required (height ÷ width, such as 0.5)")
      ok = false
    default:
      sink.report(
        .typeMismatch, ratioPath,
        "UNNotificationExtensionInitialContentSizeRatio must be \(InputNumber.initialContentSizeRatio.range) (height ÷ width)"
      )
      ok = false
    }
    var flags: [String: Bool] = [:]
    for key in booleanKeys {
      guard let value = values[key] else { continue }
      if let b = value as? Bool {
        flags[key] = b
      } else {
        sink.report(.typeMismatch, path.appending(key), "must be true or false")
        ok = false
      }
    }
    guard ok else { return nil }
    return ContentExtensionAttributes(
      categories: categories, initialContentSizeRatio: ratio,
      defaultContentHidden: flags["UNNotificationExtensionDefaultContentHidden"] ?? false,
      overridesDefaultTitle: flags["UNNotificationExtensionOverridesDefaultTitle"] ?? false,
      userInteractionEnabled: flags["UNNotificationExtensionUserInteractionEnabled"] ?? false)
  }
}
