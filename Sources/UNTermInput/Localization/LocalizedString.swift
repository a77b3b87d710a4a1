import UserNotificationsModel

/// One string of the app's localization: a format, with what varies by number or device.
package struct LocalizedString: Sendable, Hashable {
  /// The format: a `.strings` value, a `.stringsdict` `NSStringLocalizedFormatKey`, or a
  /// String Catalog `stringUnit` value.
  package var format: String
  /// The plural variables `%#@name@` names.
  package var variables: [String: PluralVariable] = [:]
  /// A String Catalog plural variation of the whole string: a form per category, chosen by the
  /// first numeric argument of the `other` form.
  package var plural: [PluralCategory: LocalizedString] = [:]
  /// Device variations (`iphone`, `ipad`, `other`…): a String Catalog's `device` variation or a
  /// `.stringsdict` `NSStringDeviceSpecificRuleType`.
  package var devices: [String: LocalizedString] = [:]
  /// Where it was defined: `FILE:LINE:COL`, for lint.
  package var origin: String

  package init(format: String, origin: String) {
    self.format = format
    self.origin = origin
  }

  /// The variant for a device: its own, else `other`, else the string itself.
  package func variant(forDevice device: String) -> LocalizedString {
    guard !devices.isEmpty else { return self }
    if let own = devices[device] { return own.variant(forDevice: device) }
    if let other = devices["other"] { return other.variant(forDevice: device) }
    return self
  }

  /// The text for these arguments in a locale, on a device.
  package func formatted(_ arguments: [String], locale: String, device: String) -> String {
    let chosen = variant(forDevice: device)
    if !chosen.plural.isEmpty {
      let other = chosen.plural[.other] ?? chosen
      let numeric = StringFormat.specifiers(other.format).first {
        $0.kind == .integer || $0.kind == .unsigned || $0.kind == .float
      }
      let value = numeric.map { $0.argument < arguments.count ? arguments[$0.argument] : "" } ?? ""
      let category = PluralVariable.category(
        for: value, valueType: numeric.map { $0.length + String($0.conversion) } ?? "d", locale: locale
      ) { chosen.plural[$0] != nil }
      let entry = chosen.plural[category] ?? other
      return StringFormat.format(entry.format, arguments: arguments, variables: entry.variables, locale: locale)
    }
    return StringFormat.format(chosen.format, arguments: arguments, variables: chosen.variables, locale: locale)
  }

  /// Every format text this string can produce (each device and plural form, each variable
  /// form), for lint's checks.
  package var allFormats: [(format: String, variables: [String: PluralVariable])] {
    var out: [(String, [String: PluralVariable])] = []
    if plural.isEmpty {
      out.append((format, variables))
    } else {
      for category in PluralCategory.allCases { if let form = plural[category] { out += form.allFormats } }
    }
    for device in devices.keys.sorted() { out += devices[device]?.allFormats ?? [] }
    return out
  }
}
