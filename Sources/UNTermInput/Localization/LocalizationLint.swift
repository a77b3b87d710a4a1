import UserNotificationsModel

/// `lint --strings`: each payload's `loc-key`s checked against the app's strings in every
/// language — a key a language lacks (iOS shows the key itself there), and format specifiers
/// whose count or kind does not match the `loc-args` given.
package enum LocalizationLint {
  package static func check(_ payload: Payload, strings: AppStrings) -> [Diagnostic] {
    guard let alert = payload.content?.localizedAlert, !strings.isEmpty else { return [] }
    var sink = DiagnosticSink(file: payload.file)
    let alertPath = JSONPath([.key("aps"), .key("alert")])
    let languages = strings.tables.keys.filter { $0 != "Base" }.sorted()
    let fields = [
      (alert.title, "title-loc-key", "title-loc-args"), (alert.subtitle, "subtitle-loc-key", "subtitle-loc-args"),
      (alert.body, "loc-key", "loc-args"),
    ]
    for (slot, keyName, argsName) in fields {
      guard let field = slot else { continue }
      var keyChecked = false
      for language in languages {
        let place = language.isEmpty ? "the app's strings" : "the \(language) strings"
        guard let entry = strings.tables[language]?.entries[field.key] else {
          let device = language.isEmpty ? "the device" : "a device in \(language)"
          sink.report(
            .missingLocalization, alertPath.appending(keyName),
            "\(keyName) \(OneLine.quote(field.key)) is not in \(place); on \(device), iOS shows the key itself")
          // There the key is the format: its own specifiers are checked once, not per language.
          if !keyChecked {
            keyChecked = true
            for problem in problems(LocalizedString(format: field.key, origin: ""), arguments: field.arguments)
            where !StringFormat.specifiers(field.key).isEmpty {
              sink.report(problem.code, alertPath.appending(argsName), "the key as a format: \(problem.message)")
            }
          }
          continue
        }
        for problem in problems(entry, arguments: field.arguments) {
          sink.report(
            problem.code, alertPath.appending(argsName),
            "\(keyName) \(OneLine.quote(field.key)) in \(place) (\(entry.origin)): \(problem.message)")
        }
      }
    }
    return sink.diagnostics
  }

  /// What is wrong with formatting one string with these arguments: each distinct problem
  /// once.
  package static func problems(_ entry: LocalizedString, arguments: [String]) -> [(code: LintCode, message: String)] {
    var out: [(LintCode, String)] = []
    var seen: Set<String> = []
    func add(_ code: LintCode, _ message: String) {
      if seen.insert(message).inserted { out.append((code, message)) }
    }
    for (format, variables) in entry.allFormats {
      var used: Set<Int> = []
      var checks: [(StringFormat.Specifier, Int)] = []
      for spec in StringFormat.specifiers(format) {
        used.insert(spec.argument)
        used.formUnion(spec.starArguments)
        checks.append((spec, spec.argument))
        if spec.kind == .variable, let name = spec.variable, let variable = variables[name] {
          for form in variable.forms.values {
            for inner in StringFormat.specifiers(form) {
              let index = inner.text.contains("$") ? inner.argument : spec.argument
              used.insert(index)
              checks.append((inner, index))
            }
          }
        }
      }
      let needed = (used.max() ?? -1) + 1
      if needed > arguments.count {
        add(
          .locArgsMismatch,
          "\(OneLine.quote(format)) takes \(needed) argument\(needed == 1 ? "" : "s") but \(arguments.count) \(arguments.count == 1 ? "is" : "are") given; a missing one shows as nothing"
        )
      } else if !arguments.isEmpty, used.count < arguments.count {
        let unused = (0..<arguments.count).filter { !used.contains($0) }.map { "\($0 + 1)" }
        add(
          .locArgsMismatch,
          "\(OneLine.quote(format)) does not use argument \(unused.joined(separator: ", ")) of \(arguments.count); it never shows"
        )
      }
      for (spec, index) in checks where index < arguments.count {
        let numeric: Bool
        switch spec.kind {
        case .integer, .unsigned, .float, .character: numeric = true
        case .variable:
          numeric = spec.variable.flatMap { variables[$0] }.map { !$0.valueType.hasSuffix("@") } ?? false
        case .object, .pointer: numeric = false
        }
        let text = arguments[index]
        // Foundation reads %s as a C string and %p as an address: a loc-arg (an NSString) shows
        // as neither.
        if let conversion = spec.text.last, "sSp".contains(conversion) {
          add(
            .locArgsKindMismatch,
            "\(spec.text) takes \(conversion == "p" ? "a pointer" : "a C string") but argument \(index + 1) is an NSString on a device; use %@"
          )
          continue
        }
        if numeric && StringFormat.integer(text) == nil && Double(text) == nil {
          add(
            .locArgsKindMismatch,
            "\(spec.text) takes a number but argument \(index + 1) is \(OneLine.quote(text)); loc-args are strings, so use %@ for text"
          )
        }
      }
    }
    return out
  }
}
