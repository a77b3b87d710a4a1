import UserNotificationsModel

/// The app's strings and the device language: what turns `loc-key`s, the hidden-previews
/// placeholder and the category summary into the text iOS shows.
package struct Localization: Sendable {
  /// The app's strings (`--strings`); empty when none were given.
  package var strings: AppStrings
  /// The device language (`--locale`), normalized (`bn`, `ur-PK`).
  package var locale: String

  package init(strings: AppStrings = AppStrings(), locale: String = "en") {
    self.strings = strings
    self.locale = AppStrings.normalize(locale)
  }

  /// The languages `g` cycles through: the strings' languages, and the current one.
  package var locales: [String] {
    var list = strings.locales
    if !list.contains(locale) { list.append(locale) }
    return list.sorted()
  }

  /// The language after the current one.
  package var nextLocale: String {
    let list = locales
    guard let i = list.firstIndex(of: locale) else { return list.first ?? locale }
    return list[(i + 1) % list.count]
  }

  /// The text of a localized field: the app's string for the key, formatted with the
  /// arguments; for a key the strings lack, the key itself is the format, as on iOS (so
  /// arguments without a specifier in it do not show).
  package func text(_ field: UNLocalizedAlert.Field, device: String) -> String {
    if let string = strings.lookup(field.key, locale: locale) {
      return string.formatted(field.arguments, locale: locale, device: device)
    }
    return StringFormat.format(field.key, arguments: field.arguments, locale: locale)
  }

  /// Whether the strings have a key in the current language.
  package func has(_ key: String) -> Bool { strings.lookup(key, locale: locale) != nil }

  /// Title, subtitle and body as shown now: each localized field in the current language,
  /// the others as the content has them.
  package func displayed(_ content: UNNotificationContent, device: String) -> (
    title: String, subtitle: String, body: String
  ) {
    let alert = content.localizedAlert
    return (
      alert?.title.map { text($0, device: device) } ?? content.title,
      alert?.subtitle.map { text($0, device: device) } ?? content.subtitle,
      alert?.body.map { text($0, device: device) } ?? content.body
    )
  }

  /// A copy of the content with its localized fields in the current language (what the app's
  /// delegate and service extension see), keeping the keys for later changes of language.
  package func localized(_ content: UNNotificationContent, device: String) -> UNNotificationContent {
    guard let alert = content.localizedAlert, !alert.isEmpty,
      let copy = content.mutableCopy() as? UNMutableNotificationContent
    else { return content }
    let shown = displayed(content, device: device)
    copy.title = shown.title
    copy.subtitle = shown.subtitle
    copy.body = shown.body
    copy.localizedAlert = alert
    return copy
  }

  /// A category's text in the current language: the categories file's value for it, else the
  /// app's string whose key is the text (as `localizedUserNotificationString(forKey:)` defers
  /// it), else the text. Integer specifiers take `count`, `%@` takes `argument`, whatever
  /// their order, as Apple documents these two formats.
  package func categoryText(_ text: String, variants: [String: String], count: Int, argument: String) -> String {
    let arguments = [String(count), argument]
    if let own = variants[locale] ?? variants[AppStrings.language(of: locale)] {
      return StringFormat.format(Self.bindByKind(own), arguments: arguments, locale: locale)
    }
    if !text.isEmpty, let string = strings.lookup(text, locale: locale) {
      var bound = string
      bound.format = Self.bindByKind(string.format)
      return bound.formatted(arguments, locale: locale, device: "")
    }
    return StringFormat.format(Self.bindByKind(text), arguments: arguments, locale: locale)
  }

  /// The format with every unnumbered specifier numbered by what it takes: numbers (and plural
  /// variables) the count (1), objects the argument (2).
  static func bindByKind(_ format: String) -> String {
    var out = ""
    for piece in StringFormat.parse(format) {
      switch piece {
      case .literal(let text): out += text.replacingOccurrences(of: "%", with: "%%")
      case .specifier(let spec):
        guard !spec.text.contains("$") else {
          out += spec.text
          continue
        }
        let position = spec.kind == .object || spec.kind == .pointer ? 2 : 1
        out += "%\(position)$" + spec.text.dropFirst()
      }
    }
    return out
  }

  /// The hidden-previews placeholder of a category in the current language, `nil` when it has
  /// none.
  package func placeholder(_ category: UNNotificationCategory?, count: Int) -> String? {
    guard let category, !category.hiddenPreviewsBodyPlaceholder.isEmpty || !category.localizedPlaceholders.isEmpty
    else { return nil }
    return categoryText(
      category.hiddenPreviewsBodyPlaceholder, variants: category.localizedPlaceholders, count: count, argument: "")
  }

  /// The formats a category text may use now: the categories file's for this language, else the
  /// app's string whose key is the text (each of its forms), else the text.
  private func categoryFormats(_ text: String, variants: [String: String]) -> [String] {
    if let own = variants[locale] ?? variants[AppStrings.language(of: locale)] { return [own] }
    if !text.isEmpty, let string = strings.lookup(text, locale: locale) {
      return string.allFormats.flatMap { [$0.format] + $0.variables.values.flatMap { $0.forms.values } }
    }
    return [text]
  }

  /// Whether a category has a summary format.
  package func hasSummary(_ category: UNNotificationCategory?) -> Bool {
    guard let category else { return false }
    return !category.categorySummaryFormat.isEmpty || !category.localizedSummaryFormats.isEmpty
  }

  /// Whether the category's summary, as localized now, shows the summary argument (`%@`).
  package func summaryTakesArgument(_ category: UNNotificationCategory?) -> Bool {
    guard let category else { return false }
    return categoryFormats(category.categorySummaryFormat, variants: category.localizedSummaryFormats).contains {
      StringFormat.specifiers($0).contains { $0.kind == .object }
    }
  }

  /// The summary of a stack of a category in the current language, `nil` when it has no format.
  package func summary(_ category: UNNotificationCategory?, count: Int, argument: String) -> String? {
    guard let category, !category.categorySummaryFormat.isEmpty || !category.localizedSummaryFormats.isEmpty
    else { return nil }
    return categoryText(
      category.categorySummaryFormat, variants: category.localizedSummaryFormats, count: count, argument: argument)
  }
}
