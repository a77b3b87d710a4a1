import Testing
import UserNotificationsModel

@testable import UNTermState

/// Format strings as Foundation formats them, with `loc-args` as text.
@Suite("String formats")
struct StringFormatTests {
  private func format(_ text: String, _ arguments: [String], locale: String = "en") -> String {
    StringFormat.format(text, arguments: arguments, locale: locale)
  }

  @Test(arguments: [
    ("%@ and %@ invited you", ["Jenna", "Frank"], "Jenna and Frank invited you"),
    ("%2$@ was invited by %1$@", ["Jenna", "Frank"], "Frank was invited by Jenna"),
    ("%1$@, %1$@!", ["Hi"], "Hi, Hi!"),
    ("%d new", ["3"], "3 new"),
    ("%ld / %lld / %lu / %i", ["-4", "5", "6", "7"], "-4 / 5 / 6 / 7"),
    ("100%% sure", [], "100% sure"),
    ("[%5d] [%-5@] [%05d]", ["42", "ab", "7"], "[   42] [ab   ] [00007]"),
    ("%x %X %o", ["255", "255", "8"], "ff FF 10"),
    ("%.2f km", ["3.14159"], "3.14 km"),
    ("%c", ["65"], "A"),
    // A number specifier given text shows the text (a device would print a pointer's digits).
    ("%d players", ["many"], "many players"),
    // Missing arguments show as nothing; extra ones are not shown.
    ("%@ and %@", ["Jenna"], "Jenna and "),
    ("Hello", ["unused"], "Hello"),
    // Not a specifier: kept as written.
    ("50%y off %", [], "50%y off %"),
    // A star width comes from an argument, held to 1000 columns.
    ("[%*d]", ["4", "7"], "[   7]"),
  ])
  func formatsLikeFoundation(_ text: String, _ arguments: [String], _ expected: String) {
    #expect(format(text, arguments) == expected)
  }

  @Test func aHugeStarWidthIsHeldToAThousandColumns() {
    #expect(format("%*d", ["999999999", "1"]).count == 1000)
  }

  @Test func pluralVariablesChooseTheirFormByTheLocalesRules() {
    let players = PluralVariable(valueType: "d", forms: [.one: "%d player", .other: "%d players"])
    let variables = ["players": players]
    #expect(StringFormat.format("%#@players@ waiting", arguments: ["1"], variables: variables) == "1 player waiting")
    #expect(StringFormat.format("%#@players@ waiting", arguments: ["3"], variables: variables) == "3 players waiting")
    // Bengali's "one" is 0 and 1; English's "one" is only 1.
    #expect(StringFormat.format("%#@players@", arguments: ["0"], variables: variables, locale: "bn") == "0 player")
    #expect(StringFormat.format("%#@players@", arguments: ["0"], variables: variables, locale: "en") == "0 players")
  }

  @Test func aVariableTakesItsOwnArgumentWhateverItsPosition() {
    let variables = [
      "count": PluralVariable(valueType: "d", forms: [.one: "%d message", .other: "%d messages"])
    ]
    #expect(
      StringFormat.format("%@ sent %#@count@", arguments: ["Ana", "2"], variables: variables) == "Ana sent 2 messages")
    #expect(
      StringFormat.format("%2$#@count@ from %1$@", arguments: ["Ana", "1"], variables: variables)
        == "1 message from Ana")
  }

  @Test func appleUsesTheZeroFormForIntegerZeroInEveryLanguage() {
    // Foundation picks "zero" for 0 even in English (developer.apple.com/forums/thread/37637).
    let variable = PluralVariable(valueType: "d", forms: [.zero: "none", .one: "one", .other: "%d"])
    #expect(variable.form(for: "0", locale: "en") == "none")
    #expect(variable.form(for: "1", locale: "en") == "one")
    let float = PluralVariable(valueType: "f", forms: [.zero: "none", .one: "one", .other: "other"])
    #expect(float.form(for: "0.0", locale: "en") == "other")
  }

  @Test func specifiersKnowTheirArgumentsAndKinds() {
    let specs = StringFormat.specifiers("%2$@ has %1$d and %@ %#@n@")
    #expect(specs.map(\.argument) == [1, 0, 0, 1])
    #expect(specs.map(\.kind) == [.object, .integer, .object, .variable])
    #expect(specs.last?.variable == "n")
  }
}

/// CLDR cardinal rules, checked with CLDR's own sample numbers.
@Suite("Plural rules")
struct PluralRulesTests {
  @Test(arguments: [
    // English and Urdu: one is exactly 1 with no visible fraction.
    ("en", "1", PluralCategory.one), ("en", "0", .other), ("en", "2", .other), ("en", "1.0", .other),
    ("ur", "1", .one), ("ur", "0", .other), ("ur", "21", .other), ("ur-PK", "1", .one),
    // Bengali and Hindi: one is i = 0 or n = 1, so 0, 1 and 0.5.
    ("bn", "0", .one), ("bn", "1", .one), ("bn", "2", .other), ("bn", "0.5", .one), ("bn", "1.5", .other),
    ("hi", "0", .one),
    // Arabic: six categories.
    ("ar", "0", .zero), ("ar", "1", .one), ("ar", "2", .two), ("ar", "3", .few), ("ar", "110", .few),
    ("ar", "11", .many), ("ar", "99", .many), ("ar", "100", .other), ("ar", "102", .other),
    // Russian, Polish: few and many by the last digits.
    ("ru", "1", .one), ("ru", "21", .one), ("ru", "11", .many), ("ru", "3", .few), ("ru", "5", .many),
    ("ru", "1.5", .other), ("pl", "22", .few), ("pl", "12", .many),
    // French: 0 and 1 are one; a million is many.
    ("fr", "0", .one), ("fr", "1000000", .many),
    // Japanese: only other.
    ("ja", "1", .other),
    // Welsh: zero, one, two, few (3), many (6).
    ("cy", "3", .few), ("cy", "6", .many), ("cy", "4", .other),
    // Not a number.
    ("en", "one", .other),
  ])
  func categoriesFollowCLDR(_ locale: String, _ number: String, _ expected: PluralCategory) {
    #expect(PluralRules.category(of: number, locale: locale) == expected)
  }

  @Test func languagesListTheirCategories() {
    #expect(PluralRules.categories(for: "bn") == [.one, .other])
    #expect(PluralRules.categories(for: "ar") == [.zero, .one, .two, .few, .many, .other])
    #expect(PluralRules.categories(for: "xx") == [.other])
  }
}
