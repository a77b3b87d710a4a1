import Foundation
import UserNotificationsModel

/// A String Catalog (`Localizable.xcstrings`, Xcode 15): JSON with the development language
/// and, for each key, its localizations — a `stringUnit` value, `plural` and `device`
/// `variations`, and `substitutions` (plural variables with an argument number and a format
/// specifier; `%arg` in their forms stands for the argument).
extension AppStrings {
  mutating func addCatalog(_ bytes: [UInt8], file: String, _ sink: inout DiagnosticSink) {
    let document: JSONNode
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      sink.report(error.kind.lintCode, at: .position(error.position), error.message)
      return
    }
    guard let root = document.object else {
      sink.report(
        .invalidStrings, at: .position(document.position),
        "a String Catalog is an object, not \(document.typeNameWithArticle)")
      return
    }
    var reader = CatalogReader(file: file, sink: sink)
    defer { sink = reader.sink }
    reader.unknownKeys(root, known: ["sourceLanguage", "strings", "version"], path: .root)
    guard let source = root["sourceLanguage"]?.string, !source.isEmpty else {
      reader.fail(document, .root, "a String Catalog needs its \"sourceLanguage\"")
      return
    }
    let language = Self.normalize(source)
    developmentLanguage = developmentLanguage ?? language
    guard let strings = root["strings"]?.object else {
      reader.fail(
        root["strings"] ?? document, JSONPath([.key("strings")]), "a String Catalog needs a \"strings\" object")
      return
    }
    var added: [String: [String: LocalizedString]] = [language: [:]]
    for member in strings.members {
      let key = member.key
      let path = JSONPath([.key("strings"), .key(key)])
      guard let entry = member.value.object else {
        reader.fail(member.value, path, "must be an object, not \(member.value.typeNameWithArticle)")
        continue
      }
      reader.unknownKeys(entry, known: ["comment", "extractionState", "localizations", "shouldTranslate"], path: path)
      var sourceDone = false
      if let localizations = entry["localizations"] {
        guard let object = localizations.object else {
          reader.fail(localizations, path.appending("localizations"), "must be an object")
          continue
        }
        for localization in object.members {
          let locale = Self.normalize(localization.key)
          let place = path.appending("localizations").appending(localization.key)
          if let value = reader.value(localization.value, path: place, key: key) {
            added[locale, default: [:]][key] = value
            if locale == language { sourceDone = true }
          }
        }
      }
      if !sourceDone {
        // A key with no source-language value is its own value, as Xcode compiles it.
        let origin = "\(file):\(member.keyPosition)"
        added[language, default: [:]][key] = LocalizedString(format: key, origin: origin)
      }
    }
    for (locale, entries) in added {
      var table = tables[locale, default: Table()]
      table.entries.merge(entries) { _, new in new }
      table.files.append(file)
      tables[locale] = table
    }
  }
}

private struct CatalogReader {
  let file: String
  var sink: DiagnosticSink

  mutating func unknownKeys(_ object: JSONObject, known: Set<String>, path: JSONPath) {
    for member in object.members where !known.contains(member.key) {
      sink.report(
        .unknownKey, at: .position(member.keyPosition),
        "\(path.appending(member.key)): unknown key \"\(member.key)\" is ignored")
    }
  }

  /// An error at a node's line and column, naming its JSON path.
  mutating func fail(_ node: JSONNode, _ path: JSONPath, _ message: String) {
    sink.report(.invalidStrings, at: .position(node.position), "\(path): \(message)")
  }

  /// A localization: a string unit, variations and substitutions.
  mutating func value(_ node: JSONNode, path: JSONPath, key: String, depth: Int = 0) -> LocalizedString? {
    guard depth < 4 else {
      fail(node, path, "variations nest too deeply")
      return nil
    }
    guard let object = node.object else {
      fail(node, path, "must be an object, not \(node.typeNameWithArticle)")
      return nil
    }
    unknownKeys(object, known: ["stringUnit", "variations", "substitutions"], path: path)
    var entry = LocalizedString(format: "", origin: "\(file):\(node.position)")
    if let unit = object["stringUnit"] {
      guard let text = stringUnit(unit, path: path.appending("stringUnit")) else { return nil }
      entry.format = text
    }
    if let variations = object["variations"] {
      guard self.variations(variations, path: path.appending("variations"), key: key, depth: depth, into: &entry)
      else { return nil }
    }
    if let substitutions = object["substitutions"] {
      guard self.substitutions(substitutions, path: path.appending("substitutions"), into: &entry) else {
        return nil
      }
    }
    return entry
  }

  /// Reads `variations` (`plural` and `device`) into the entry, whose format becomes the
  /// `other` form's when it has no string unit of its own; `false` when they are invalid.
  private mutating func variations(
    _ node: JSONNode, path: JSONPath, key: String, depth: Int, into entry: inout LocalizedString
  ) -> Bool {
    guard let kinds = node.object else {
      fail(node, path, "must be an object")
      return false
    }
    for kind in kinds.members {
      let kindPath = path.appending(kind.key)
      guard let cases = kind.value.object else {
        fail(kind.value, kindPath, "must be an object")
        return false
      }
      switch kind.key {
      case "plural":
        guard plural(cases, of: kind.value, path: kindPath, key: key, depth: depth, into: &entry) else { return false }
      case "device":
        for member in cases.members {
          guard let form = value(member.value, path: kindPath.appending(member.key), key: key, depth: depth + 1)
          else {
            return false
          }
          entry.devices[member.key] = form
        }
      default:
        sink.report(
          .unknownKey, at: .position(kind.keyPosition),
          "\(kindPath): unknown variation \"\(kind.key)\" is ignored")
      }
    }
    if entry.format.isEmpty {
      entry.format = entry.plural[.other]?.format ?? entry.devices["other"]?.format ?? ""
    }
    return true
  }

  /// Reads a `plural` variation's forms, by plural category, into the entry; `false` when a
  /// form is invalid or the `other` form is missing.
  private mutating func plural(
    _ cases: JSONObject, of node: JSONNode, path: JSONPath, key: String, depth: Int,
    into entry: inout LocalizedString
  ) -> Bool {
    for member in cases.members {
      guard let category = PluralCategory(rawValue: member.key) else {
        fail(
          member.value, path.appending(member.key),
          "\"\(member.key)\" is not a plural category (zero, one, two, few, many, other)")
        return false
      }
      guard let form = value(member.value, path: path.appending(member.key), key: key, depth: depth + 1) else {
        return false
      }
      entry.plural[category] = form
    }
    guard entry.plural[.other] != nil else {
      fail(node, path, "a plural variation needs an \"other\" form, which every language needs")
      return false
    }
    return true
  }

  /// Reads `substitutions` into the entry's plural variables; `false` when one is invalid.
  private mutating func substitutions(_ node: JSONNode, path: JSONPath, into entry: inout LocalizedString) -> Bool {
    guard let members = node.object else {
      fail(node, path, "must be an object")
      return false
    }
    for member in members.members {
      guard substitution(member.key, member.value, path: path.appending(member.key), into: &entry) else {
        return false
      }
    }
    return true
  }

  /// Reads one substitution: a plural variable whose forms' `%arg` is its format specifier,
  /// taking argument `argNum` when it gives one; `false` when it is invalid.
  private mutating func substitution(
    _ name: String, _ node: JSONNode, path subPath: JSONPath, into entry: inout LocalizedString
  ) -> Bool {
    guard let sub = node.object else {
      fail(node, subPath, "must be an object")
      return false
    }
    unknownKeys(sub, known: ["argNum", "formatSpecifier", "variations"], path: subPath)
    let specifier = sub["formatSpecifier"]?.string ?? "lld"
    guard specifier.count <= 4, specifier.allSatisfy({ "hlqLztjdiuoxXfFeEgGaA@".contains($0) }) else {
      fail(
        sub["formatSpecifier"] ?? node, subPath.appending("formatSpecifier"),
        "\"\(specifier)\" is not a format specifier")
      return false
    }
    var forms: [PluralCategory: String] = [:]
    if let plural = sub["variations"]?.object?["plural"]?.object {
      for form in plural.members {
        let formPath = subPath.appending("variations").appending("plural").appending(form.key)
        guard let category = PluralCategory(rawValue: form.key) else {
          fail(form.value, formPath, "\"\(form.key)\" is not a plural category")
          return false
        }
        guard let unit = form.value.object?["stringUnit"],
          let text = stringUnit(unit, path: formPath.appending("stringUnit"))
        else {
          fail(form.value, formPath, "a substitution's form needs a stringUnit")
          return false
        }
        forms[category] = text.replacingOccurrences(of: "%arg", with: "%" + specifier)
      }
    }
    guard forms[.other] != nil else {
      fail(node, subPath, "a substitution needs a plural \"other\" form")
      return false
    }
    entry.variables[name] = PluralVariable(valueType: specifier, forms: forms)
    if let number = sub["argNum"]?.number?.integer {
      guard number >= 1, number <= 99 else {
        fail(sub["argNum"] ?? node, subPath.appending("argNum"), "argNum must be from 1 to 99")
        return false
      }
      // The variable takes argument argNum, wherever it appears.
      entry.format = entry.format.replacingOccurrences(of: "%#@\(name)@", with: "%\(number)$#@\(name)@")
    }
    return true
  }

  mutating func stringUnit(_ node: JSONNode, path: JSONPath) -> String? {
    guard let object = node.object else {
      fail(node, path, "must be an object with a \"value\"")
      return nil
    }
    unknownKeys(object, known: ["state", "value"], path: path)
    guard let value = object["value"]?.string else {
      fail(node, path, "a stringUnit needs a \"value\" string")
      return nil
    }
    return value
  }
}
