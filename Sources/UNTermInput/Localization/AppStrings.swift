import Foundation
import UserNotificationsModel

/// The app's localized strings, by language, as `--strings` gives them: a `Localizable.strings`
/// file (text or binary property list), a `.stringsdict`, a String Catalog (`.xcstrings`), an
/// `LANG.lproj` folder, or a folder of them.
package struct AppStrings: Sendable {
  /// One language's strings.
  package struct Table: Sendable {
    package var entries: [String: LocalizedString] = [:]
    /// The files it came from.
    package var files: [String] = []
  }

  /// The tables by language (`en`, `bn`, `ur`, `pt-BR`, `Base`); `""` holds a file given on its
  /// own, outside any `LANG.lproj` folder, which serves every language.
  package var tables: [String: Table] = [:]
  /// The development language: a String Catalog's `sourceLanguage`.
  package var developmentLanguage: String?

  package init() {}

  package var isEmpty: Bool { tables.values.allSatisfy { $0.entries.isEmpty } }

  /// The languages the strings have, sorted (without `Base` and the language-less table).
  package var locales: [String] { tables.keys.filter { !$0.isEmpty && $0 != "Base" }.sorted() }

  /// The largest strings file read.
  package static let maximumFileSize = 8 * 1024 * 1024
  /// The most `LANG.lproj` folders read from one folder.
  package static let maximumFolders = 400

  // MARK: - Languages

  private static let legacyNames = [
    "english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it",
    "dutch": "nl",
  ]

  /// A locale as tables are keyed: `ur_PK.UTF-8` → `ur-PK`, `zh_Hans` → `zh-Hans`, `C` → `en`.
  package static func normalize(_ locale: String) -> String {
    var text = locale
    if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
    if let at = text.firstIndex(of: "@") { text = String(text[..<at]) }
    if text.hasSuffix(".lproj") { text.removeLast(6) }
    if text == "C" || text == "POSIX" || text.isEmpty { return "en" }
    if let legacy = legacyNames[text.lowercased()] { return legacy }
    let parts = text.split(whereSeparator: { $0 == "_" || $0 == "-" })
    guard let language = parts.first else { return "en" }
    // Joined by hand: `joined(separator:)` is not specialized here, and its first call looks up
    // witness tables at run time, which every session's start paid.
    var name = language.lowercased()
    for part in parts.dropFirst() {
      name += "-"
      name.append(contentsOf: part)  // (`+=` takes the generic, unspecialized path)
    }
    return name
  }

  /// The device language from the environment: `LC_ALL`, else `LC_MESSAGES`, else `LANG`
  /// (POSIX's order), else English.
  package static func environmentLocale(_ environment: [String: String]) -> String {
    environmentLocale { environment[$0] }
  }

  /// The device language from an environment read a variable at a time
  /// (`ProcessEnvironment.value` for this process's).
  package static func environmentLocale(_ variable: (String) -> String?) -> String {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = variable(name), !value.isEmpty { return normalize(value) }
    }
    return "en"
  }

  /// Whether text names a locale as `--locale` and `LANG` do: `bn`, `ur_PK`, `pt-BR`,
  /// `ur_PK.UTF-8`, `C`.
  package static func isLocaleName(_ text: String) -> Bool {
    guard !text.isEmpty, text.count <= 64,
      text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.@".contains($0)) }),
      let first = text.first, first.isLetter
    else { return false }
    if text == "C" || text == "POSIX" || text.hasPrefix("C.") { return true }
    let name = normalize(text)
    let parts = name.split(separator: "-", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...3).contains(language.count),
      language.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    return parts.dropFirst().allSatisfy {
      (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
  }

  /// The language of a locale: `ur-PK` → `ur`.
  package static func language(of locale: String) -> String {
    String(locale.split(separator: "-").first ?? "").lowercased()
  }

  /// The table iOS would use for a device language: the same locale, else the same language,
  /// else the language-less table, else the development language, else `Base`, else English.
  /// A key missing from the chosen table is not looked up in another, as on iOS.
  package func tableName(for locale: String) -> String? {
    let wanted = Self.normalize(locale)
    if tables[wanted] != nil { return wanted }
    if let match = tables.keys.first(where: { $0.lowercased() == wanted.lowercased() }) { return match }
    let language = Self.language(of: wanted)
    if tables[language] != nil { return language }
    if let match = tables.keys.sorted().first(where: { !$0.isEmpty && Self.language(of: $0) == language }) {
      return match
    }
    for fallback in ["", developmentLanguage, "Base", "en"].compactMap({ $0 }) where tables[fallback] != nil {
      return fallback
    }
    return tables.keys.sorted().first
  }

  /// The string for a key in a device language, if the app has it.
  package func lookup(_ key: String, locale: String) -> LocalizedString? {
    guard let name = tableName(for: locale) else { return nil }
    return tables[name]?.entries[key]
  }

  // MARK: - Loading

  /// Loads strings from paths; the first error throws (exit code 65; 66 for a missing file).
  package static func load(_ paths: [String]) throws(UNTermError) -> AppStrings {
    var strings = AppStrings()
    var sink = DiagnosticSink(file: paths.first ?? "-")
    for path in paths { try strings.add(path, &sink) }
    if let error = sink.firstError { throw UNTermError(error) }
    return strings
  }

  /// Loads strings from paths for lint: every finding, errors included, is returned; only a
  /// missing or unreadable file throws.
  package static func analyze(_ paths: [String]) throws(UNTermError) -> (AppStrings, [Diagnostic]) {
    var strings = AppStrings()
    var sink = DiagnosticSink(file: paths.first ?? "-")
    for path in paths { try strings.add(path, &sink) }
    return (strings, sink.diagnostics)
  }

  /// What `--watch` watches for a set of `--strings` paths: each path as given (a folder is
  /// watched whole), and the `LANG.lproj` folders inside a folder of them, whose files change
  /// without the folder above seeing it. Read again after each reload, so a language added
  /// later is watched from then on.
  package static func watchedPaths(_ paths: [String]) -> [String] {
    var watched: [String] = []
    for path in paths {
      watched.append(path)
      var isDirectory: ObjCBool = false
      let url = URL(fileURLWithPath: path)
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
        url.pathExtension != "lproj"
      else { continue }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
      for name in names.prefix(Self.maximumFolders + 1) where name.hasSuffix(".lproj") {
        watched.append((path as NSString).appendingPathComponent(name))
      }
    }
    return watched
  }

  /// Adds a file or folder.
  package mutating func add(_ path: String, _ sink: inout DiagnosticSink) throws(UNTermError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw UNTermError(.noInput, file: path, "no such file or folder")
    }
    guard isDirectory.boolValue else {
      try addFile(path, locale: Self.locale(ofFile: path), &sink)
      return
    }
    let url = URL(fileURLWithPath: path)
    if url.pathExtension == "lproj" {
      try addFolder(path, locale: Self.normalize(url.deletingPathExtension().lastPathComponent), &sink)
      return
    }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    var found = 0
    for name in names where name.hasSuffix(".lproj") || name == "Localizable.xcstrings" {
      found += 1
      guard found <= Self.maximumFolders else {
        throw UNTermError(.dataError, file: path, "more than \(Self.maximumFolders) .lproj folders")
      }
      let child = url.appendingPathComponent(name).path
      if name.hasSuffix(".lproj") {
        try addFolder(child, locale: Self.normalize(String(name.dropLast(6))), &sink)
      } else {
        try addFile(child, locale: "", &sink)
      }
    }
    if found == 0 {
      throw UNTermError(
        .dataError, file: path,
        "holds no LANG.lproj folders and no Localizable.xcstrings; --strings takes those, or one strings file")
    }
  }

  /// The language a lone file belongs to: its `LANG.lproj` folder's, else none.
  private static func locale(ofFile path: String) -> String {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    return folder.pathExtension == "lproj" ? normalize(folder.deletingPathExtension().lastPathComponent) : ""
  }

  private mutating func addFolder(_ path: String, locale: String, _ sink: inout DiagnosticSink) throws(UNTermError) {
    let url = URL(fileURLWithPath: path)
    var any = false
    // The .stringsdict after the .strings: its plural entries win, as in Foundation.
    for name in ["Localizable.strings", "Localizable.stringsdict"] {
      let file = url.appendingPathComponent(name).path
      guard FileManager.default.fileExists(atPath: file) else { continue }
      any = true
      try addFile(file, locale: locale, &sink)
    }
    if !any { tables[locale, default: Table()].files.append(path) }
  }

  private mutating func addFile(_ path: String, locale: String, _ sink: inout DiagnosticSink) throws(UNTermError) {
    let bytes = try InputFile.read(path, limit: Self.maximumFileSize)
    var fileSink = DiagnosticSink(file: path)
    defer { sink.append(contentsOf: fileSink.diagnostics) }
    if path.hasSuffix(".xcstrings") {
      addCatalog(bytes, file: path, &fileSink)
      return
    }
    var entries: [String: LocalizedString] = [:]
    if PropertyList.isBinary(bytes) || PropertyList.isXML(bytes) || path.hasSuffix(".stringsdict") {
      let root: PlistNode
      do {
        root = try PropertyList.parse(bytes)
      } catch {
        fileSink.report(.invalidStrings, at: error.place.diagnosticLocation, SafeText(sanitizing: error.message))
        return
      }
      guard let members = root.dictionary else {
        fileSink.report(
          .invalidStrings, at: root.place.diagnosticLocation,
          "the property list must be a dictionary of strings, not \(root.typeNameWithArticle)")
        return
      }
      for member in members {
        if let entry = StringsDictEntry.read(member.key, member.value, file: path, &fileSink) {
          entries[member.key] = entry
        }
      }
    } else {
      for entry in StringsFile.parse(bytes, sink: &fileSink) {
        entries[entry.key] = LocalizedString(format: entry.value, origin: "\(path):\(entry.position)")
      }
    }
    var table = tables[locale, default: Table()]
    table.entries.merge(entries) { _, new in new }
    table.files.append(path)
    tables[locale] = table
  }
}

extension PlistPlace {
  /// `FILE:LINE:COL`, or `FILE` for a binary list.
  func origin(_ file: String) -> String {
    switch self {
    case .position(let p): return "\(file):\(p)"
    case .offset(let o): return "\(file) (byte \(o))"
    }
  }
}

/// One entry of a `.stringsdict` (or a property-list `.strings`): a plain string, or a
/// dictionary with `NSStringLocalizedFormatKey` and its plural variables, a device-specific
/// rule, or a variable-width rule.
enum StringsDictEntry {
  static let categories: [String: PluralCategory] = Dictionary(
    uniqueKeysWithValues: PluralCategory.allCases.map { ($0.rawValue, $0) })

  /// An entry: a plain string, or a dictionary with a device-specific rule, a variable-width
  /// rule, or a format and its plural variables.
  static func read(_ key: String, _ node: PlistNode, file: String, _ sink: inout DiagnosticSink) -> LocalizedString? {
    if let text = node.string { return LocalizedString(format: text, origin: node.place.origin(file)) }
    guard let members = node.dictionary else {
      sink.report(
        .invalidStrings, at: node.place.diagnosticLocation,
        "the entry \(OneLine.quote(key)) must be a string or a dictionary, not \(node.typeNameWithArticle)")
      return nil
    }
    let byKey = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    if let device = byKey["NSStringDeviceSpecificRuleType"] {
      return deviceSpecific(key, device, entry: node, file: file, &sink)
    }
    if let widths = byKey["NSStringVariableWidthRuleType"] {
      return widest(key, widths, file: file, &sink)
    }
    return formatted(key, node, members: members, file: file, &sink)
  }

  /// An `NSStringDeviceSpecificRuleType` entry: each device's variant, and as its format the
  /// `other` device's (else the first device's by name).
  private static func deviceSpecific(
    _ key: String, _ device: PlistNode, entry node: PlistNode, file: String, _ sink: inout DiagnosticSink
  ) -> LocalizedString? {
    guard let variants = device.dictionary, !variants.isEmpty else {
      sink.report(
        .invalidStrings, at: device.place.diagnosticLocation,
        "NSStringDeviceSpecificRuleType of \(OneLine.quote(key)) must be a dictionary of devices")
      return nil
    }
    var entry = LocalizedString(format: "", origin: node.place.origin(file))
    for variant in variants {
      if let read = read(key, variant.value, file: file, &sink) { entry.devices[variant.key] = read }
    }
    entry.format =
      entry.devices["other"]?.format ?? entry.devices.sorted { $0.key < $1.key }.first?.value.format ?? ""
    return entry
  }

  /// An `NSStringVariableWidthRuleType` entry: width variants for UI of different sizes, of
  /// which a notification shows the widest.
  private static func widest(
    _ key: String, _ widths: PlistNode, file: String, _ sink: inout DiagnosticSink
  ) -> LocalizedString? {
    guard let variants = widths.dictionary, let widest = variants.max(by: { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) })
    else {
      sink.report(
        .invalidStrings, at: widths.place.diagnosticLocation,
        "NSStringVariableWidthRuleType of \(OneLine.quote(key)) must be a dictionary of widths")
      return nil
    }
    return read(key, widest.value, file: file, &sink)
  }

  /// An entry with `NSStringLocalizedFormatKey`: the format and the plural variables it names,
  /// every other key of the entry being one.
  private static func formatted(
    _ key: String, _ node: PlistNode, members: [PlistNode.Member], file: String, _ sink: inout DiagnosticSink
  ) -> LocalizedString? {
    guard let formatNode = members.first(where: { $0.key == "NSStringLocalizedFormatKey" })?.value else {
      sink.report(
        .invalidStrings, at: node.place.diagnosticLocation,
        "the entry \(OneLine.quote(key)) has no NSStringLocalizedFormatKey")
      return nil
    }
    guard let format = formatNode.string else {
      sink.report(
        .invalidStrings, at: formatNode.place.diagnosticLocation,
        "NSStringLocalizedFormatKey of \(OneLine.quote(key)) must be a string")
      return nil
    }
    var entry = LocalizedString(format: format, origin: formatNode.place.origin(file))
    for (name, value) in members.map({ ($0.key, $0.value) }) where name != "NSStringLocalizedFormatKey" {
      guard let variable = pluralVariable(name, value, of: key, &sink) else { return nil }
      entry.variables[name] = variable
    }
    for spec in StringFormat.specifiers(format) where spec.kind == .variable {
      if let name = spec.variable, entry.variables[name] == nil {
        sink.report(
          .undefinedPluralVariable, at: formatNode.place.diagnosticLocation,
          "\(OneLine.quote(key)) uses %#@\(name)@ but defines no variable \(OneLine.quote(name)); it shows as written")
      }
    }
    return entry
  }

  /// A variable of an entry: an `NSStringPluralRuleType` dictionary of forms by plural
  /// category, which must have the `other` form.
  private static func pluralVariable(
    _ name: String, _ value: PlistNode, of key: String, _ sink: inout DiagnosticSink
  ) -> PluralVariable? {
    guard let rule = value.dictionary else {
      sink.report(
        .invalidStrings, at: value.place.diagnosticLocation,
        "the variable \(OneLine.quote(name)) of \(OneLine.quote(key)) must be a dictionary")
      return nil
    }
    let ruleByKey = Dictionary(rule.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    guard ruleByKey["NSStringFormatSpecTypeKey"]?.string == "NSStringPluralRuleType" else {
      sink.report(
        .invalidStrings, at: value.place.diagnosticLocation,
        "the variable \(OneLine.quote(name)) of \(OneLine.quote(key)) needs NSStringFormatSpecTypeKey NSStringPluralRuleType"
      )
      return nil
    }
    var forms: [PluralCategory: String] = [:]
    for (ruleKey, ruleValue) in rule.map({ ($0.key, $0.value) }) {
      if let category = categories[ruleKey] {
        guard let text = ruleValue.string else {
          sink.report(
            .invalidStrings, at: ruleValue.place.diagnosticLocation,
            "the \(ruleKey) form of \(OneLine.quote(name)) must be a string")
          return nil
        }
        forms[category] = text
      } else if ruleKey != "NSStringFormatSpecTypeKey" && ruleKey != "NSStringFormatValueTypeKey" {
        sink.report(
          .unknownKey, at: ruleValue.place.diagnosticLocation,
          "unknown key \(OneLine.quote(ruleKey)) in the plural rule \(OneLine.quote(name)) is ignored")
      }
    }
    guard forms[.other] != nil else {
      sink.report(
        .invalidStrings, at: value.place.diagnosticLocation,
        "the plural rule \(OneLine.quote(name)) of \(OneLine.quote(key)) has no \"other\" form, which every language needs"
      )
      return nil
    }
    let valueType = ruleByKey["NSStringFormatValueTypeKey"]?.string ?? "d"
    return PluralVariable(valueType: valueType, forms: forms)
  }
}
