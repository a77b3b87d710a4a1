import UserNotificationsModel

/// A categories file (the contract's JSON format) loaded into `UNNotificationCategory` values,
/// with the findings of a design review.
package struct CategoriesFile: @unchecked Sendable {
  package var file: String
  package var categories: [UNNotificationCategory]
  package var diagnostics: [Diagnostic]

  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The categories by identifier.
  package var byIdentifier: [String: UNNotificationCategory] {
    var out: [String: UNNotificationCategory] = [:]
    for category in categories where out[category.identifier] == nil {
      out[category.identifier] = category
    }
    return out
  }

  /// Loads a categories file; shape and type errors throw (exit code 65), design findings stay
  /// in `diagnostics`.
  package static func load(_ path: String) throws(UNTermError) -> CategoriesFile {
    let bytes = try InputFile.read(path)
    let loaded = analyze(bytes, file: path)
    if let error = loaded.diagnostics.first(where: { $0.severity == .error && !$0.isDesignFinding }) {
      throw UNTermError(error)
    }
    return loaded
  }

  /// The design codes: the file loads, but lint reports them.
  package static let designCodes: Set<LintCode> = [
    .duplicateActionIdentifier, .duplicateCategory, .emptyIdentifier,
  ]

  private static let actionOptions: [String: UNNotificationActionOptions] = [
    "authenticationRequired": .authenticationRequired, "destructive": .destructive,
    "foreground": .foreground,
  ]
  private static let categoryOptions: [String: UNNotificationCategoryOptions] = [
    "customDismissAction": .customDismissAction, "allowInCarPlay": .allowInCarPlay,
    "hiddenPreviewsShowTitle": .hiddenPreviewsShowTitle,
    "hiddenPreviewsShowSubtitle": .hiddenPreviewsShowSubtitle,
    "allowAnnouncement": .allowAnnouncement,
  ]

  /// Parses and reviews a categories file.
  package static func analyze(_ bytes: [UInt8], file: String) -> CategoriesFile {
    var reader = Reader(sink: DiagnosticSink(file: file))
    let document: JSONNode
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      reader.sink.report(error.kind.lintCode, at: .position(error.position), error.message)
      return CategoriesFile(file: file, categories: [], diagnostics: reader.sink.diagnostics)
    }
    reader.sink.document = document
    let list: [JSONNode]
    let listPath: JSONPath
    if let root = document.object {
      for key in root.keys where key != "categories" {
        reader.sink.report(.unknownKey, JSONPath([.key(key)]), "unknown key \"\(key)\" is ignored")
      }
      guard let node = root["categories"] else {
        reader.sink.report(.missingKey, .root, "expected a \"categories\" array")
        return CategoriesFile(file: file, categories: [], diagnostics: reader.sink.diagnostics)
      }
      guard let array = node.array else {
        reader.sink.report(
          .typeMismatch, JSONPath([.key("categories")]), "must be an array, not \(node.typeNameWithArticle)")
        return CategoriesFile(file: file, categories: [], diagnostics: reader.sink.diagnostics)
      }
      list = array
      listPath = JSONPath([.key("categories")])
    } else if let array = document.array {
      list = array
      listPath = .root
    } else {
      reader.sink.report(.typeMismatch, .root, "expected an object with a \"categories\" array")
      return CategoriesFile(file: file, categories: [], diagnostics: reader.sink.diagnostics)
    }
    var categories: [UNNotificationCategory] = []
    for (i, node) in list.enumerated() {
      if let category = reader.category(node, path: listPath.appending(i)) {
        categories.append(category)
      }
    }
    reader.review(categories, listPath: listPath)
    return CategoriesFile(file: file, categories: categories, diagnostics: reader.sink.diagnostics)
  }

  private struct Reader {
    var sink: DiagnosticSink

    mutating func category(_ node: JSONNode, path: JSONPath) -> UNNotificationCategory? {
      guard let object = node.object else {
        sink.report(.typeMismatch, path, "a category must be an object, not \(node.typeNameWithArticle)")
        return nil
      }
      let known: Set<String> = [
        "identifier", "actions", "intentIdentifiers", "options", "hiddenPreviewsBodyPlaceholder",
        "categorySummaryFormat",
      ]
      unknownKeys(object, known: known, path: path)
      guard let identifier = string(object, "identifier", path, required: true) else { return nil }
      var actions: [UNNotificationAction] = []
      if let node = object["actions"] {
        if let array = node.array {
          for (i, item) in array.enumerated() {
            if let action = action(item, path: path.appending("actions").appending(i)) {
              actions.append(action)
            }
          }
        } else {
          sink.report(.typeMismatch, path.appending("actions"), "must be an array, not \(node.typeNameWithArticle)")
        }
      }
      let intents = stringArray(object, "intentIdentifiers", path) ?? []
      let options = optionSet(
        object, path, table: CategoriesFile.categoryOptions, kind: "category",
        initial: UNNotificationCategoryOptions())
      let placeholders = localizable(object, "hiddenPreviewsBodyPlaceholder", path, allowed: ["u"])
      let summaries = localizable(object, "categorySummaryFormat", path, allowed: ["u", "@"])
      let category = UNNotificationCategory(
        identifier: identifier, actions: actions, intentIdentifiers: intents,
        hiddenPreviewsBodyPlaceholder: placeholders?.first, categorySummaryFormat: summaries?.first, options: options)
      category.localizedPlaceholders = placeholders?.byLocale ?? [:]
      category.localizedSummaryFormats = summaries?.byLocale ?? [:]
      return category
    }

    /// A text the app localizes: a string (looked up as a key in the app's strings at display,
    /// as `localizedUserNotificationString(forKey:)` defers it), or an object of languages
    /// (`{"en": "%u new messages", "bn": "…"}`); the first language is the development one.
    private mutating func localizable(_ object: JSONObject, _ key: String, _ path: JSONPath, allowed: Set<Character>)
      -> (first: String, byLocale: [String: String])?
    {
      guard let node = object[key] else { return nil }
      let keyPath = path.appending(key)
      if let text = node.string {
        checkFormat(text, allowed: allowed, path: keyPath, name: key)
        return (text, [:])
      }
      guard let languages = node.object, !languages.members.isEmpty else {
        sink.report(
          .typeMismatch, keyPath,
          "must be a string, or an object of languages such as {\"en\": \"…\", \"bn\": \"…\"}, not \(node.typeNameWithArticle)"
        )
        return nil
      }
      var byLocale: [String: String] = [:]
      var first: String?
      for member in languages.members {
        let memberPath = keyPath.appending(member.key)
        guard let text = member.value.string else {
          sink.report(.typeMismatch, memberPath, "must be a string, not \(member.value.typeNameWithArticle)")
          continue
        }
        guard Self.looksLikeLanguage(member.key) else {
          sink.report(
            .invalidValue, memberPath,
            "\(OneLine.quote(member.key)) is not a language code such as en, bn, ur or pt-BR")
          continue
        }
        checkFormat(text, allowed: allowed, path: memberPath, name: key)
        byLocale[AppStrings.normalize(member.key)] = text
        if first == nil { first = text }
      }
      guard let first else { return nil }
      return (first, byLocale)
    }

    /// A language code: two or three letters, then optional `-` or `_` parts (`pt-BR`, `zh-Hans`).
    private static func looksLikeLanguage(_ code: String) -> Bool {
      let parts = code.split(separator: "-", omittingEmptySubsequences: false).flatMap {
        $0.split(separator: "_", omittingEmptySubsequences: false)
      }
      guard let language = parts.first, (2...3).contains(language.count),
        language.allSatisfy({ $0.isASCII && $0.isLetter })
      else { return false }
      return parts.dropFirst().allSatisfy {
        (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
      }
    }

    mutating func action(_ node: JSONNode, path: JSONPath) -> UNNotificationAction? {
      guard let object = node.object else {
        sink.report(.typeMismatch, path, "an action must be an object, not \(node.typeNameWithArticle)")
        return nil
      }
      unknownKeys(object, known: ["identifier", "title", "options", "textInput", "icon"], path: path)
      guard let identifier = string(object, "identifier", path, required: true),
        let title = string(object, "title", path, required: true)
      else { return nil }
      if title.trimmingCharacters(in: .whitespaces).isEmpty {
        sink.report(.emptyTitle, path.appending("title"), "the action's button has no title")
      }
      let options = optionSet(
        object, path, table: CategoriesFile.actionOptions, kind: "action",
        initial: UNNotificationActionOptions())
      var icon: UNNotificationActionIcon?
      if let node = object["icon"] {
        let iconPath = path.appending("icon")
        if let dict = node.object {
          unknownKeys(dict, known: ["systemImageName", "templateImageName"], path: iconPath)
          if let name = string(dict, "systemImageName", iconPath) {
            icon = UNNotificationActionIcon(systemImageName: name)
          } else if let name = string(dict, "templateImageName", iconPath) {
            icon = UNNotificationActionIcon(templateImageName: name)
          } else {
            sink.report(.missingKey, iconPath, "an icon needs systemImageName or templateImageName")
          }
        } else {
          sink.report(.typeMismatch, iconPath, "must be an object, not \(node.typeNameWithArticle)")
        }
      }
      guard let inputNode = object["textInput"] else {
        return UNNotificationAction(identifier: identifier, title: title, options: options, icon: icon)
      }
      let inputPath = path.appending("textInput")
      guard let input = inputNode.object else {
        sink.report(
          .typeMismatch, inputPath,
          "must be an object with buttonTitle and placeholder, not \(inputNode.typeNameWithArticle)")
        return nil
      }
      unknownKeys(input, known: ["buttonTitle", "placeholder"], path: inputPath)
      let button = string(input, "buttonTitle", inputPath) ?? ""
      let placeholder = string(input, "placeholder", inputPath) ?? ""
      if button.isEmpty {
        sink.report(
          .textInputIncomplete, inputPath.appending("buttonTitle"),
          "the text-input action has no send-button title; the field's button would be blank")
      }
      if placeholder.isEmpty {
        sink.report(
          .textInputIncomplete, inputPath.appending("placeholder"),
          "the text-input action has no placeholder; the empty field gives the user no hint")
      }
      return UNTextInputNotificationAction(
        identifier: identifier, title: title, options: options, icon: icon,
        textInputButtonTitle: button, textInputPlaceholder: placeholder)
    }

    private mutating func unknownKeys(_ object: JSONObject, known: Set<String>, path: JSONPath) {
      for key in object.keys where !known.contains(key) {
        let hint = Suggestion.closest(to: key, in: known).map { ". Did you mean \"\($0)\"?" } ?? ""
        sink.report(.unknownKey, path.appending(key), "unknown key \"\(key)\" is ignored\(hint)")
      }
    }

    private mutating func string(
      _ object: JSONObject, _ key: String, _ path: JSONPath, required: Bool = false
    ) -> String? {
      guard let node = object[key] else {
        if required { sink.report(.missingKey, path, "missing \"\(key)\"") }
        return nil
      }
      guard let value = node.string else {
        sink.report(.typeMismatch, path.appending(key), "must be a string, not \(node.typeNameWithArticle)")
        return nil
      }
      return value
    }

    private mutating func stringArray(_ object: JSONObject, _ key: String, _ path: JSONPath) -> [String]? {
      guard let node = object[key] else { return nil }
      guard let items = node.array else {
        sink.report(.typeMismatch, path.appending(key), "must be an array of strings, not \(node.typeNameWithArticle)")
        return nil
      }
      var out: [String] = []
      for (i, item) in items.enumerated() {
        if let s = item.string {
          out.append(s)
        } else {
          sink.report(
            .typeMismatch, path.appending(key).appending(i), "must be a string, not \(item.typeNameWithArticle)")
        }
      }
      return out
    }

    private mutating func optionSet<T: OptionSet>(
      _ object: JSONObject, _ path: JSONPath, table: [String: T], kind: String, initial: T
    ) -> T where T.Element == T {
      var result = initial
      guard let names = stringArray(object, "options", path) else { return result }
      for (i, name) in names.enumerated() {
        if let option = table[name] {
          result.insert(option)
        } else {
          let hint = Suggestion.closest(to: name, in: table.keys).map { " Did you mean \"\($0)\"?" } ?? ""
          sink.report(
            .unknownOption, path.appending("options").appending(i),
            "unknown \(kind) option \(OneLine.quote(name)); expected \(table.keys.sorted().joined(separator: ", ")).\(hint)"
          )
        }
      }
      return result
    }

    private mutating func checkFormat(_ format: String, allowed: Set<Character>, path: JSONPath, name: String) {
      var chars = Array(format)[...]
      while let c = chars.popFirst() {
        guard c == "%" else { continue }
        while let d = chars.first, d.isNumber || d == "$" || d == "l" { chars.removeFirst() }
        guard let spec = chars.popFirst() else { break }
        if spec == "%" { continue }
        if !allowed.contains(spec) {
          sink.report(
            .unsupportedFormat, path,
            "\(name) uses %\(spec); iOS supports only \(allowed.sorted().map { "%\($0)" }.joined(separator: " and ")) here"
          )
        }
      }
    }

    /// The design review: Apple's rules for identifiers and what users see of the actions.
    mutating func review(_ categories: [UNNotificationCategory], listPath: JSONPath) {
      var seenCategories: [String: Int] = [:]
      var seenActions: [String: (Int, Int)] = [:]
      for (ci, category) in categories.enumerated() {
        let path = listPath.appending(ci)
        if category.identifier.isEmpty {
          sink.report(.emptyIdentifier, path.appending("identifier"), "a category identifier must not be empty")
        }
        if let first = seenCategories[category.identifier] {
          sink.report(
            .duplicateCategory, path.appending("identifier"),
            "category \(OneLine.quote(category.identifier)) is also defined at \(listPath.appending(first)); only one can be registered"
          )
        } else {
          seenCategories[category.identifier] = ci
        }
        if category.actions.count > 10 {
          sink.report(
            .tooManyActions, path.appending("actions"),
            "\(category.actions.count) actions; iOS shows at most 10 in the expanded view, so \(category.actions.dropFirst(10).map { OneLine.quote($0.title) }.joined(separator: ", ")) never \(category.actions.count == 11 ? "appears" : "appear")"
          )
        }
        if !category.categorySummaryFormat.isEmpty || !category.localizedSummaryFormats.isEmpty {
          sink.report(
            .stackSummaryFormat, path.appending("categorySummaryFormat"),
            "categorySummaryFormat is shown by iOS 12 to 14 only; current iOS shows a stack's newest notification with the cards behind it and no summary text (UNTerm: --stack-summary ios12 shows it)"
          )
        }
        if category.actions.count > 2 {
          sink.report(
            .bannerShowsTwoActions, path.appending("actions"),
            "where space is short (a banner) iOS shows only the first two actions: \(category.actions.prefix(2).map { OneLine.quote($0.title) }.joined(separator: " and "))"
          )
        }
        for (ai, action) in category.actions.enumerated() {
          let actionPath = path.appending("actions").appending(ai).appending("identifier")
          if action.identifier.isEmpty {
            sink.report(.emptyIdentifier, actionPath, "an action identifier must not be empty")
            continue
          }
          if let (fc, fa) = seenActions[action.identifier] {
            let other = listPath.appending(fc).appending("actions").appending(fa)
            sink.report(
              .duplicateActionIdentifier, actionPath,
              "action \(OneLine.quote(action.identifier)) is also defined at \(other); Apple requires every action identifier to be unique across all categories"
            )
          } else {
            seenActions[action.identifier] = (ci, ai)
          }
        }
      }
    }
  }
}

extension Diagnostic {
  /// A design finding: reported by lint, but the categories still load.
  package var isDesignFinding: Bool { CategoriesFile.designCodes.contains(code) }
}
