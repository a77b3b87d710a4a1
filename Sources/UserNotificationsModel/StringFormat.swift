import Foundation

/// Format strings as Foundation formats them (`String(format:)`, `localizedStringWithFormat`),
/// for arguments that arrive as text: `loc-args` are strings in the payload, and a count is
/// written as its digits.
///
/// Specifiers: `%@`, `%d %i %u %o %x %X` (with `h hh l ll q z t j` lengths), `%f %F %e %E %g
/// %G %a %A`, `%c %C`, `%s %S`, `%p`, `%%`; flags `- + space # 0`, a width and a precision
/// (numbers, or `*` taking an argument); positions `%2$@`. A numeric specifier takes the
/// number its argument's text reads as; text that is not a number is shown as it is (Apple
/// documents `loc-args` only for `%@`; a device would print what the object's pointer reads as).
/// An argument that is not there shows as nothing. `%#@name@` is a `.stringsdict` variable,
/// replaced by its plural form before formatting.
package enum StringFormat {
  /// What a specifier takes.
  package enum Kind: String, Sendable, Hashable {
    /// `%@`, `%s`: any text.
    case object
    case integer
    case unsigned
    case float
    case character
    case pointer
    /// `%#@name@`: a plural variable of a `.stringsdict` or String Catalog.
    case variable
  }

  /// One specifier of a format string.
  package struct Specifier: Sendable, Hashable {
    /// Its text, `%` included.
    package var text: String
    /// The argument it takes, from 0.
    package var argument: Int
    package var kind: Kind
    /// The variable's name for `%#@name@`.
    package var variable: String?
    /// Flags, width, precision and length as written (without the position).
    package var flags: String
    package var width: String
    package var precision: String
    package var length: String
    package var conversion: Character
    /// Arguments taken by `*` widths and precisions, before `argument`.
    package var starArguments: [Int]
  }

  /// A piece of a format: literal text or a specifier.
  package enum Piece: Sendable, Hashable {
    case literal(String)
    case specifier(Specifier)
  }

  /// The format split into literal text and specifiers, each specifier with the argument it
  /// takes (explicit positions, else the next in order).
  package static func parse(_ format: String) -> [Piece] {
    var pieces: [Piece] = []
    var literal = ""
    var next = 0
    let chars = Array(format)
    var i = 0
    func flush() {
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = ""
    }
    while i < chars.count {
      guard chars[i] == "%" else {
        literal.append(chars[i])
        i += 1
        continue
      }
      let start = i
      i += 1
      guard i < chars.count else {
        literal.append("%")
        break
      }
      if chars[i] == "%" {
        literal.append("%")
        i += 1
        continue
      }
      var position: Int?
      var j = i
      var digits = ""
      while j < chars.count, chars[j].isASCII, chars[j].isNumber {
        digits.append(chars[j])
        j += 1
      }
      if !digits.isEmpty, j < chars.count, chars[j] == "$", let n = Int(digits), n >= 1, n <= 99 {
        position = n - 1
        i = j + 1
      }
      var flags = ""
      while i < chars.count, "-+ #0'".contains(chars[i]) {
        flags.append(chars[i])
        i += 1
      }
      var stars: [Int] = []
      var width = ""
      if i < chars.count, chars[i] == "*" {
        width = "*"
        stars.append(next)
        next += 1
        i += 1
      } else {
        while i < chars.count, chars[i].isASCII, chars[i].isNumber, width.count < 4 {
          width.append(chars[i])
          i += 1
        }
      }
      var precision = ""
      if i < chars.count, chars[i] == "." {
        precision = "."
        i += 1
        if i < chars.count, chars[i] == "*" {
          precision += "*"
          stars.append(next)
          next += 1
          i += 1
        } else {
          while i < chars.count, chars[i].isASCII, chars[i].isNumber, precision.count < 4 {
            precision.append(chars[i])
            i += 1
          }
        }
      }
      var length = ""
      while i < chars.count, "hlqLztj".contains(chars[i]), length.count < 2 {
        length.append(chars[i])
        i += 1
      }
      guard i < chars.count else {
        literal += String(chars[start...])
        break
      }
      let conversion = chars[i]
      i += 1
      var kind: Kind
      var variable: String?
      switch conversion {
      case "@":
        kind = .object
        if flags.contains("#") {
          // %#@name@: the name runs to the next @.
          var name = ""
          var k = i
          while k < chars.count, chars[k] != "@", name.count < 64 {
            name.append(chars[k])
            k += 1
          }
          if k < chars.count, chars[k] == "@", !name.isEmpty {
            kind = .variable
            variable = name
            i = k + 1
          }
        }
      case "d", "i", "D": kind = .integer
      case "u", "o", "x", "X", "U", "O": kind = .unsigned
      case "f", "F", "e", "E", "g", "G", "a", "A": kind = .float
      case "c", "C": kind = .character
      case "s", "S": kind = .object
      case "p": kind = .pointer
      default:
        // Not a conversion: shown as written.
        literal += String(chars[start..<i])
        continue
      }
      flush()
      let argument = position ?? next
      if position == nil { next += 1 }
      pieces.append(
        .specifier(
          Specifier(
            text: String(chars[start..<i]), argument: argument, kind: kind, variable: variable, flags: flags,
            width: width, precision: precision, length: length, conversion: conversion, starArguments: stars)))
    }
    flush()
    return pieces
  }

  /// The specifiers of a format, in order.
  package static func specifiers(_ format: String) -> [Specifier] {
    parse(format).compactMap {
      if case .specifier(let s) = $0 { return s }
      return nil
    }
  }

  /// Formats text with arguments.
  ///
  /// - Parameters:
  ///   - variables: the plural variables `%#@name@` may name.
  ///   - locale: whose plural rules choose a variable's form.
  package static func format(
    _ format: String, arguments: [String], variables: [String: PluralVariable] = [:], locale: String = "en"
  ) -> String {
    var out = ""
    for piece in expand(format, arguments: arguments, variables: variables, locale: locale, depth: 0) {
      switch piece {
      case .literal(let text): out += text
      case .specifier(let spec): out += render(spec, arguments)
      }
    }
    return out
  }

  /// The pieces with every `%#@name@` replaced by its chosen form, whose own specifiers take
  /// the variable's argument.
  private static func expand(
    _ format: String, arguments: [String], variables: [String: PluralVariable], locale: String, depth: Int
  ) -> [Piece] {
    var pieces: [Piece] = []
    for piece in parse(format) {
      guard case .specifier(let spec) = piece, spec.kind == .variable, let name = spec.variable else {
        pieces.append(piece)
        continue
      }
      guard let variable = variables[name], depth < 4 else {
        // An unknown variable shows as written, as Foundation leaves it.
        pieces.append(.literal(spec.text))
        continue
      }
      let value = spec.argument < arguments.count ? arguments[spec.argument] : ""
      let form = variable.form(for: value, locale: locale)
      for inner in expand(form, arguments: arguments, variables: variables, locale: locale, depth: depth + 1) {
        if case .specifier(var innerSpec) = inner, !innerSpec.text.contains("$") {
          // An unnumbered specifier in a form is the variable's own argument.
          innerSpec.argument = spec.argument
          pieces.append(.specifier(innerSpec))
        } else {
          pieces.append(inner)
        }
      }
    }
    return pieces
  }

  private static func render(_ spec: Specifier, _ arguments: [String]) -> String {
    func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
    guard let text = argument(spec.argument) else { return "" }
    var width = spec.width
    var precision = spec.precision
    // A width or precision from an argument is held to 0…1000 columns.
    func star(_ index: Int?) -> Int? { index.flatMap(argument).flatMap { Int($0) }.map { min(max($0, 0), 1000) } }
    if width == "*" { width = star(spec.starArguments.first).map(String.init) ?? "" }
    if precision == ".*" { precision = star(spec.starArguments.last).map { ".\($0)" } ?? "" }
    // The thousands flag is not supported by every C library; Foundation ignores it for %@.
    let flags = spec.flags.filter { $0 != "'" && $0 != "#" || ($0 == "#" && spec.kind != .object) }
    switch spec.kind {
    case .object, .pointer, .variable:
      var shown = text
      if precision.count > 1, let limit = Int(precision.dropFirst()), spec.conversion != "@" {
        shown = String(shown.prefix(limit))
      }
      return pad(shown, width: Int(width) ?? 0, left: flags.contains("-"))
    case .integer:
      guard let value = integer(text) else { return pad(text, width: Int(width) ?? 0, left: flags.contains("-")) }
      return String(format: "%\(flags)\(width)\(precision)lld", value)
    case .unsigned:
      guard let value = integer(text) else { return pad(text, width: Int(width) ?? 0, left: flags.contains("-")) }
      let bits: UInt64 =
        spec.length.contains("l") || spec.length == "q" || spec.length == "z" || spec.length == "j"
          || spec.length == "t" || spec.conversion == "U" || spec.conversion == "O"
        ? UInt64(bitPattern: value) : UInt64(UInt32(truncatingIfNeeded: value))
      let conversion = spec.conversion == "U" ? "u" : spec.conversion == "O" ? "o" : String(spec.conversion)
      return String(format: "%\(flags)\(width)\(precision)ll\(conversion)", bits)
    case .float:
      guard let value = Double(text), !text.isEmpty, text.allSatisfy({ $0.isASCII }) else {
        return pad(text, width: Int(width) ?? 0, left: flags.contains("-"))
      }
      return String(format: "%\(flags)\(width)\(precision)\(spec.conversion)", value)
    case .character:
      if let code = integer(text), let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: code)), code > 0 {
        return pad(String(Character(scalar)), width: Int(width) ?? 0, left: flags.contains("-"))
      }
      return pad(text.first.map(String.init) ?? "", width: Int(width) ?? 0, left: flags.contains("-"))
    }
  }

  /// The integer a text reads as: digits with an optional sign, or a number with a fraction
  /// (cut towards zero, as a C conversion would).
  package static func integer(_ text: String) -> Int64? {
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII }) else { return nil }
    if let value = Int64(text) { return value }
    if let value = Double(text), value.isFinite, abs(value) < 9.2e18, text.contains(where: { $0.isNumber }) {
      return Int64(value)
    }
    return nil
  }

  private static func pad(_ text: String, width: Int, left: Bool) -> String {
    let fill = String(repeating: " ", count: max(0, min(width, 1000) - text.count))
    return left ? text + fill : fill + text
  }
}

/// A `.stringsdict` plural variable (`NSStringPluralRuleType`), or a String Catalog plural
/// substitution or variation: the forms by plural category, chosen by its argument's value.
package struct PluralVariable: Sendable, Hashable {
  /// `NSStringFormatValueTypeKey` (`d`, `ld`, `lu`, `f`…), as written.
  package var valueType: String
  package var forms: [PluralCategory: String]

  package init(valueType: String, forms: [PluralCategory: String]) {
    self.valueType = valueType
    self.forms = forms
  }

  /// The form for an argument: Apple's `zero` for an integer 0 when there is one (Foundation
  /// uses it in every language), else the CLDR category's form, else `other`.
  package func form(for value: String, locale: String) -> String {
    let category = Self.category(for: value, valueType: valueType, locale: locale) { forms[$0] != nil }
    return forms[category] ?? forms[.other] ?? ""
  }

  /// The category whose form is used for an argument, given which forms exist.
  package static func category(
    for value: String, valueType: String, locale: String, has: (PluralCategory) -> Bool
  ) -> PluralCategory {
    let isFloat = valueType.last.map { "fFeEgGaA".contains($0) } ?? false
    var number = value
    if !isFloat, let integer = StringFormat.integer(value) { number = String(integer) }
    if !isFloat, number == "0" || number == "-0", has(.zero) { return .zero }
    let category = PluralRules.category(of: number, locale: locale)
    return has(category) ? category : .other
  }
}
