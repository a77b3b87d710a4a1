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
    var scanner = Scanner(Array(format))
    func flush() {
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = ""
    }
    while let c = scanner.current {
      guard c == "%" else {
        literal.append(c)
        scanner.index += 1
        continue
      }
      let start = scanner.index
      scanner.index += 1
      guard let following = scanner.current else {
        literal.append("%")
        break
      }
      if following == "%" {
        literal.append("%")
        scanner.index += 1
        continue
      }
      switch scanner.specifier(from: start) {
      case .literal(let text):
        literal += text
      case .specifier(let specifier):
        flush()
        pieces.append(.specifier(specifier))
      }
    }
    flush()
    return pieces
  }

  /// What a conversion character takes; `nil` when it is not a conversion.
  private static func kind(of conversion: Character) -> Kind? {
    switch conversion {
    case "@", "s", "S": return .object
    case "d", "i", "D": return .integer
    case "u", "o", "x", "X", "U", "O": return .unsigned
    case "f", "F", "e", "E", "g", "G", "a", "A": return .float
    case "c", "C": return .character
    case "p": return .pointer
    default: return nil
    }
  }

  /// Reads a format's characters specifier by specifier, counting the arguments taken in order.
  private struct Scanner {
    let chars: [Character]
    /// The character read next.
    var index = 0
    /// The argument the next specifier without a position takes.
    var next = 0

    init(_ chars: [Character]) { self.chars = chars }

    /// The character at `index`; `nil` at the end.
    var current: Character? { index < chars.count ? chars[index] : nil }

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// The specifier whose `%` is at `start`, read from just after it; literal text, shown as
    /// written, when the format ends before its conversion or the conversion is not one.
    mutating func specifier(from start: Int) -> Piece {
      let position = readPosition()
      let flags = read(upTo: Int.max) { "-+ #0'".contains($0) }
      var stars: [Int] = []
      let width = readStar(into: &stars) ? "*" : read(upTo: 4, while: Self.isDigit)
      var precision = ""
      if current == "." {
        index += 1
        precision = "." + (readStar(into: &stars) ? "*" : read(upTo: 3, while: Self.isDigit))
      }
      let length = read(upTo: 2) { "hlqLztj".contains($0) }
      guard let conversion = current else { return .literal(String(chars[start...])) }
      index += 1
      guard var kind = StringFormat.kind(of: conversion) else { return .literal(String(chars[start..<index])) }
      var variable: String?
      if conversion == "@", flags.contains("#"), let name = readVariableName() {
        kind = .variable
        variable = name
      }
      let argument = position ?? next
      if position == nil { next += 1 }
      return .specifier(
        Specifier(
          text: String(chars[start..<index]), argument: argument, kind: kind, variable: variable, flags: flags,
          width: width, precision: precision, length: length, conversion: conversion, starArguments: stars))
    }

    /// An explicit position `n$` (1…99) as the argument it takes, from 0; `nil`, with nothing
    /// read, when there is none.
    private mutating func readPosition() -> Int? {
      var end = index
      var digits = ""
      while end < chars.count, Self.isDigit(chars[end]) {
        digits.append(chars[end])
        end += 1
      }
      guard !digits.isEmpty, end < chars.count, chars[end] == "$", let n = Int(digits), n >= 1, n <= 99 else {
        return nil
      }
      index = end + 1
      return n - 1
    }

    /// The characters `accept` takes, at most `limit` of them.
    private mutating func read(upTo limit: Int, while accept: (Character) -> Bool) -> String {
      var text = ""
      var taken = 0
      while let c = current, accept(c), taken < limit {
        text.append(c)
        taken += 1
        index += 1
      }
      return text
    }

    /// Reads a `*` width or precision, which takes the next argument in order.
    private mutating func readStar(into stars: inout [Int]) -> Bool {
      guard current == "*" else { return false }
      stars.append(next)
      next += 1
      index += 1
      return true
    }

    /// The name of a `%#@name@` variable, which runs to the next `@` (at most 64 characters);
    /// `nil`, with nothing read, when no `@` closes it.
    private mutating func readVariableName() -> String? {
      var name = ""
      var end = index
      while end < chars.count, chars[end] != "@", name.count < 64 {
        name.append(chars[end])
        end += 1
      }
      guard end < chars.count, chars[end] == "@", !name.isEmpty else { return nil }
      index = end + 1
      return name
    }
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
