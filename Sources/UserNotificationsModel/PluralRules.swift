import Foundation

/// The CLDR plural categories.
package enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable {
  case zero, one, two, few, many, other

  package static func < (a: PluralCategory, b: PluralCategory) -> Bool {
    allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
  }
}

/// CLDR cardinal plural rules (`common/supplemental/plurals.xml` of unicode-org/cldr), by language: which
/// category (one, few, many…) a number takes, as `.stringsdict` and String Catalog plural
/// variations choose their form.
///
/// The rules are CLDR's own condition text, evaluated here; the operands follow UTS #35:
/// `n` the absolute value, `i` its integer digits, `v`/`w` the number of visible fraction
/// digits with/without trailing zeros, `f`/`t` those digits as a number with/without trailing
/// zeros, `e`/`c` the compact exponent (always 0 here).
package enum PluralRules {
  /// Languages and their rules, in CLDR's order; `other` is what no rule matches.
  private static let table: [(languages: String, rules: [(PluralCategory, String)])] = [
    (
      "bm bo dz hnj id ig ii in ja jbo jv jw kde kea km ko lkt lo ms my nqo osa root sah ses sg su th to tpi vi wo yo yue zh",
      []
    ),
    ("am as bn doi fa gu hi kn pcm zu", [(.one, "i = 0 or n = 1")]),
    ("ff hy kab", [(.one, "i = 0,1")]),
    ("ast de en et fi fy gl ia io ji lij nl sc scn sv sw ur yi", [(.one, "i = 1 and v = 0")]),
    ("si", [(.one, "n = 0,1 or i = 0 and f = 1")]),
    ("ak bho guw ln mg nso pa ti wa", [(.one, "n = 0..1")]),
    ("tzm", [(.one, "n = 0..1 or n = 11..99")]),
    (
      "af an asa az bal bem bez bg brx ce cgg chr ckb dv ee el eo eu fo fur gsw ha haw hu jgo jmc ka kaj kcg kk kkj kl ks ksb ku ky lb lg mas mgo ml mn mr nah nb nd ne nn nnh no nr ny nyn om or os pap ps rm rof rwk saq sd sdh seh sn so sq ss ssy st syr ta te teo tig tk tn tr ts ug uz ve vo vun wae xh xog",
      [(.one, "n = 1")]
    ),
    ("da", [(.one, "n = 1 or t != 0 and i = 0,1")]),
    ("is", [(.one, "t = 0 and i % 10 = 1 and i % 100 != 11 or t != 0")]),
    ("mk", [(.one, "v = 0 and i % 10 = 1 and i % 100 != 11 or f % 10 = 1 and f % 100 != 11")]),
    ("ceb fil tl", [(.one, "v = 0 and i = 1,2,3 or v = 0 and i % 10 != 4,6,9 or v != 0 and f % 10 != 4,6,9")]),
    (
      "lv prg",
      [
        (.zero, "n % 10 = 0 or n % 100 = 11..19 or v = 2 and f % 100 = 11..19"),
        (.one, "n % 10 = 1 and n % 100 != 11 or v = 2 and f % 10 = 1 and f % 100 != 11 or v != 2 and f % 10 = 1"),
      ]
    ),
    ("lag", [(.zero, "n = 0"), (.one, "i = 0,1 and n != 0")]),
    ("ksh", [(.zero, "n = 0"), (.one, "n = 1")]),
    ("iu naq sat se sma smi smj smn sms", [(.one, "n = 1"), (.two, "n = 2")]),
    ("shi", [(.one, "i = 0 or n = 1"), (.few, "n = 2..10")]),
    ("mo ro", [(.one, "i = 1 and v = 0"), (.few, "v != 0 or n = 0 or n % 100 = 2..19")]),
    (
      "bs hr sh sr",
      [
        (.one, "v = 0 and i % 10 = 1 and i % 100 != 11 or f % 10 = 1 and f % 100 != 11"),
        (.few, "v = 0 and i % 10 = 2..4 and i % 100 != 12..14 or f % 10 = 2..4 and f % 100 != 12..14"),
      ]
    ),
    ("fr", [(.one, "i = 0,1"), (.many, "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5")]),
    ("pt", [(.one, "i = 0..1"), (.many, "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5")]),
    (
      "ca it pt_PT",
      [(.one, "i = 1 and v = 0"), (.many, "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5")]
    ),
    ("es", [(.one, "n = 1"), (.many, "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5")]),
    ("gd", [(.one, "n = 1,11"), (.two, "n = 2,12"), (.few, "n = 3..10,13..19")]),
    (
      "sl",
      [(.one, "v = 0 and i % 100 = 1"), (.two, "v = 0 and i % 100 = 2"), (.few, "v = 0 and i % 100 = 3..4 or v != 0")]
    ),
    (
      "dsb hsb",
      [
        (.one, "v = 0 and i % 100 = 1 or f % 100 = 1"), (.two, "v = 0 and i % 100 = 2 or f % 100 = 2"),
        (.few, "v = 0 and i % 100 = 3..4 or f % 100 = 3..4"),
      ]
    ),
    ("he iw", [(.one, "i = 1 and v = 0"), (.two, "i = 2 and v = 0"), (.many, "v = 0 and n != 0..10 and n % 10 = 0")]),
    ("cs sk", [(.one, "i = 1 and v = 0"), (.few, "i = 2..4 and v = 0"), (.many, "v != 0")]),
    (
      "pl",
      [
        (.one, "i = 1 and v = 0"), (.few, "v = 0 and i % 10 = 2..4 and i % 100 != 12..14"),
        (.many, "v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 12..14"),
      ]
    ),
    (
      "be",
      [
        (.one, "n % 10 = 1 and n % 100 != 11"), (.few, "n % 10 = 2..4 and n % 100 != 12..14"),
        (.many, "n % 10 = 0 or n % 10 = 5..9 or n % 100 = 11..14"),
      ]
    ),
    (
      "lt",
      [(.one, "n % 10 = 1 and n % 100 != 11..19"), (.few, "n % 10 = 2..9 and n % 100 != 11..19"), (.many, "f != 0")]
    ),
    ("mt", [(.one, "n = 1"), (.few, "n = 0 or n % 100 = 2..10"), (.many, "n % 100 = 11..19")]),
    (
      "ru uk",
      [
        (.one, "v = 0 and i % 10 = 1 and i % 100 != 11"), (.few, "v = 0 and i % 10 = 2..4 and i % 100 != 12..14"),
        (.many, "v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14"),
      ]
    ),
    (
      "br",
      [
        (.one, "n % 10 = 1 and n % 100 != 11,71,91"), (.two, "n % 10 = 2 and n % 100 != 12,72,92"),
        (.few, "n % 10 = 3..4,9 and n % 100 != 10..19,70..79,90..99"), (.many, "n != 0 and n % 1000000 = 0"),
      ]
    ),
    ("ga", [(.one, "n = 1"), (.two, "n = 2"), (.few, "n = 3..6"), (.many, "n = 7..10")]),
    (
      "gv",
      [
        (.one, "v = 0 and i % 10 = 1"), (.two, "v = 0 and i % 10 = 2"), (.few, "v = 0 and i % 100 = 0,20,40,60,80"),
        (.many, "v != 0"),
      ]
    ),
    (
      "kw",
      [
        (.zero, "n = 0"), (.one, "n = 1"),
        (
          .two,
          "n % 100 = 2,22,42,62,82 or n % 1000 = 0 and n % 100000 = 1000..20000,40000,60000,80000 or n != 0 and n % 1000000 = 100000"
        ),
        (.few, "n % 100 = 3,23,43,63,83"), (.many, "n != 1 and n % 100 = 1,21,41,61,81"),
      ]
    ),
    (
      "ar ars",
      [(.zero, "n = 0"), (.one, "n = 1"), (.two, "n = 2"), (.few, "n % 100 = 3..10"), (.many, "n % 100 = 11..99")]
    ),
    ("cy", [(.zero, "n = 0"), (.one, "n = 1"), (.two, "n = 2"), (.few, "n = 3"), (.many, "n = 6")]),
  ]

  private static let byLanguage: [String: [(PluralCategory, String)]] = {
    var out: [String: [(PluralCategory, String)]] = [:]
    for entry in table {
      for language in entry.languages.split(separator: " ") { out[String(language)] = entry.rules }
    }
    return out
  }()

  /// The rules for a locale (`bn`, `ur-PK`, `pt_PT`…): the locale's own, else its language's,
  /// else `root`'s (everything is `other`).
  private static func rules(for locale: String) -> [(PluralCategory, String)] {
    let normalized = locale.replacingOccurrences(of: "-", with: "_")
    if let rules = byLanguage[normalized] { return rules }
    let language = String(normalized.split(separator: "_").first ?? "").lowercased()
    return byLanguage[language] ?? []
  }

  /// The categories a locale's language uses, `other` last.
  package static func categories(for locale: String) -> [PluralCategory] {
    rules(for: locale).map(\.0) + [.other]
  }

  /// The category of a number written as decimal text (`3`, `-1`, `1.50`), or `other` when
  /// the text is not a number.
  package static func category(of number: String, locale: String) -> PluralCategory {
    guard let operands = Operands(number) else { return .other }
    for (category, condition) in rules(for: locale) where Condition.matches(condition, operands) {
      return category
    }
    return .other
  }

  /// A number's operands, from its decimal text.
  struct Operands {
    var n: Double
    var i: Int
    var v: Int
    var w: Int
    var f: Int
    var t: Int

    init?(_ text: String) {
      var body = Substring(text)
      if body.first == "-" || body.first == "+" { body = body.dropFirst() }
      let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
      guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
        whole.count <= 18
      else { return nil }
      let fraction = parts.count > 1 ? parts[1] : ""
      guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.count <= 18,
        parts.count == 1 || !fraction.isEmpty
      else { return nil }
      i = Int(whole) ?? 0
      v = fraction.count
      f = Int(fraction) ?? 0
      var trimmed = fraction
      while trimmed.last == "0" { trimmed.removeLast() }
      w = trimmed.count
      t = Int(trimmed) ?? 0
      n = Double(String(whole) + (fraction.isEmpty ? "" : "." + fraction)) ?? Double(i)
    }

    func value(_ operand: Character) -> Double? {
      switch operand {
      case "n": return n
      case "i": return Double(i)
      case "v": return Double(v)
      case "w": return Double(w)
      case "f": return Double(f)
      case "t": return Double(t)
      case "e", "c": return 0
      default: return nil
      }
    }
  }

  /// CLDR condition syntax: `or` of `and` of relations `operand [% m] (=|!=) ranges`.
  enum Condition {
    static func matches(_ condition: String, _ operands: Operands) -> Bool {
      condition.components(separatedBy: " or ").contains { conjunction in
        conjunction.components(separatedBy: " and ").allSatisfy { relation($0, operands) }
      }
    }

    private static func relation(_ text: String, _ operands: Operands) -> Bool {
      let negated = text.contains("!=")
      let sides = text.components(separatedBy: negated ? "!=" : "=")
      guard sides.count == 2 else { return false }
      let expression = sides[0].split(separator: "%").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let operand = expression.first?.first, var value = operands.value(operand) else { return false }
      if expression.count == 2, let modulus = Double(expression[1]), modulus > 0 {
        value = value.truncatingRemainder(dividingBy: modulus)
      }
      let inList = sides[1].trimmingCharacters(in: .whitespaces).split(separator: ",").contains { item in
        let bounds = item.components(separatedBy: "..")
        if bounds.count == 2, let low = Double(bounds[0]), let high = Double(bounds[1]) {
          // A range matches integers only: 1.5 is not in 1..2.
          return value >= low && value <= high && value.rounded() == value
        }
        return Double(item) == value
      }
      return negated ? !inList : inList
    }
  }
}
