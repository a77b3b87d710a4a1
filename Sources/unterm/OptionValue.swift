import Foundation
import UNTermAPNs
import UNTermHeadless
import UNTermInput
import UNTermLint
import UNTermRender
import UNTermScript
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

// How each kind of option value is read, checked, named and completed.

/// A screen size, `80x24`.
struct ScreenSize: Sendable, Equatable {
  var width: Int
  var height: Int
}

/// How an option's value is read, checked and named (in the manner of swift-argument-parser's
/// `ExpressibleByArgument`): the placeholder the help shows, and what a bad value is told.
struct OptionValue<Value: Sendable>: Sendable {
  /// `FILE`, `iphone|ipad`.
  let placeholder: String
  /// Completes "--NAME …, not 'VALUE'": "must be iphone or ipad", "takes a duration such as 30s".
  let expectation: String
  /// What a shell offers for the value (`unterm completion`).
  var completion = ValueCompletion.none
  let parse: @Sendable (String) -> Value?
}

/// What a shell's completion offers for a value or an argument.
enum ValueCompletion: Sendable, Equatable {
  /// Nothing: the user types it.
  case none
  /// One of these words.
  case words([String])
  /// Files with one of these extensions (any file when empty), and folders to reach them;
  /// `folders` also offers folders as values of their own (a strings folder).
  case files([String], folders: Bool = false)
  /// Folders.
  case directories
  /// The themes' names, and theme files.
  case themes
  /// The lint codes (`--explain`).
  case lintCodes
}

extension OptionValue where Value == String {
  /// Any text: a file, a name, a code. `FILE` completes files, `DIR` folders, `PATH` either.
  static func text(_ placeholder: String) -> OptionValue {
    let completion: ValueCompletion
    switch placeholder {
    case "FILE": completion = .files([])
    case "DIR": completion = .directories
    case "PATH": completion = .files([], folders: true)
    case "NAME|FILE": completion = .themes
    default: completion = .none
    }
    return OptionValue(placeholder: placeholder, expectation: "takes \(placeholder)", completion: completion) { $0 }
  }

  /// A file of these kinds (`--extension FILE`: .json or .plist), or their folders too.
  static func file(_ placeholder: String, extensions: [String], folders: Bool = false) -> OptionValue {
    OptionValue(
      placeholder: placeholder, expectation: "takes \(placeholder)", completion: .files(extensions, folders: folders)
    ) { $0 }
  }
}

extension OptionValue where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
  /// One of an enumeration's raw values; the placeholder and the message list them all.
  static var choice: OptionValue {
    // Joined by hand: `joined(separator:)` is not specialized here, and its first call looks up
    // witness tables at run time, a cost every start would pay for every choice.
    var placeholder = ""
    var list = ""
    let names = Value.allCases.map(\.rawValue)
    for (index, name) in names.enumerated() {
      if index > 0 {
        placeholder += "|"
        list += index == names.count - 1 ? " or " : ", "
      }
      placeholder += name
      list += name
    }
    return OptionValue(placeholder: placeholder, expectation: "must be \(list)", completion: .words(names)) {
      Value(rawValue: $0)
    }
  }
}

extension OptionValue where Value == String {
  /// An APNs request header's value, refused here when APNs would refuse it whatever the
  /// payload (`APNsRules.isWellFormed`); what depends on the payload is checked with each one.
  static func apnsHeader(_ field: APNsHeaders.Field, _ placeholder: String) -> OptionValue {
    OptionValue(placeholder: placeholder, expectation: APNsRules.wellFormed(field)) {
      APNsRules.isWellFormed(field, $0) ? $0 : nil
    }
  }

  /// A language as `LANG` writes it (`bn`, `ur_PK.UTF-8`, `pt-BR`), normalized (`ur-PK`).
  static var locale: OptionValue {
    OptionValue(placeholder: "LANG", expectation: "takes a language such as en, bn, ur or pt-BR") {
      AppStrings.isLocaleName($0) ? AppStrings.normalize($0) : nil
    }
  }
}

extension OptionValue where Value == TimeInterval {
  /// `30s`, `500ms`, `1.5s`: more than zero.
  static var duration: OptionValue {
    OptionValue(placeholder: "DURATION", expectation: "takes a duration such as 30s or 500ms") {
      SessionScript.duration($0).flatMap { $0 > 0 ? $0 : nil }
    }
  }

  /// A finite number that `isValid` accepts.
  static func number(
    _ placeholder: String, example: String, where isValid: @escaping @Sendable (Double) -> Bool
  ) -> OptionValue {
    OptionValue(placeholder: placeholder, expectation: "takes a number such as \(example)") {
      Double($0).flatMap { $0.isFinite && isValid($0) ? $0 : nil }
    }
  }
}

extension OptionValue where Value == ScreenSize {
  /// A screen size no smaller than the smallest screen UNTerm draws (`Renderer.minimumWidth`
  /// × `minimumHeight`): a printed screen has no terminal to grow (issue 25.7).
  static var screenSize: OptionValue {
    let most = InputNumber.maximumTerminalSide
    let least = "\(Renderer.minimumWidth)x\(Renderer.minimumHeight)"
    return OptionValue(
      placeholder: "COLSxROWS",
      expectation: "takes COLSxROWS from \(least) (the smallest screen UNTerm draws) to \(most)x\(most), such as 80x24"
    ) {
      let parts = $0.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let w = InputNumber.terminalSize.parseInt(parts[0]),
        let h = InputNumber.terminalSize.parseInt(parts[1]), w >= Renderer.minimumWidth, h >= Renderer.minimumHeight
      else { return nil }
      return ScreenSize(width: w, height: h)
    }
  }
}

extension OptionValue {
  /// A comma list of names, each read by `item`; a name given twice counts once.
  static func list<Item: Equatable & Sendable>(
    _ placeholder: String, of names: String, _ item: @escaping @Sendable (String) -> Item?
  ) -> OptionValue<[Item]> {
    OptionValue<[Item]>(placeholder: placeholder, expectation: "takes a comma list of \(names)") { text in
      var items: [Item] = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let value = item(part.trimmingCharacters(in: .whitespaces)) else { return nil }
        if !items.contains(value) { items.append(value) }
      }
      return items
    }
  }
}

extension OptionValue where Value == AppScoped {
  /// `ID=VALUE` or a bare `VALUE` (`AppScoped.parse`).
  static func appScoped(_ placeholder: String) -> OptionValue {
    OptionValue(placeholder: "[ID=]\(placeholder)", expectation: AppScoped.expectation(placeholder)) {
      AppScoped.parse($0)
    }
  }

  /// `ID=FILE` or a bare `FILE`; a file that exists under the whole text is that file, so
  /// `--categories team=a.json` reads the file of that name where there is one.
  static var appScopedFile: OptionValue {
    OptionValue(placeholder: "[ID=]FILE", expectation: AppScoped.expectation("FILE"), completion: .files(["json"])) {
      FileManager.default.fileExists(atPath: $0) ? AppScoped(app: nil, value: $0) : AppScoped.parse($0)
    }
  }
}

extension OptionValue where Value == String {
  /// A bundle identifier: letters, digits, dots and hyphens.
  static var bundleIdentifier: OptionValue {
    OptionValue(
      placeholder: "ID",
      expectation: "takes a bundle identifier such as com.acme.bank (letters, digits, dots and hyphens)"
    ) { CategoryRegistry.isBundleIdentifier($0) ? $0 : nil }
  }
}

extension OptionValue where Value == APNsListenAddress {
  /// `PORT`, `HOST:PORT` or `[IPV6]:PORT`.
  static var listenAddress: OptionValue {
    OptionValue(placeholder: "[HOST:]PORT", expectation: "takes [HOST:]PORT, a port from 0 to 65535") {
      try? APNsListenAddress.parse($0)
    }
  }
}

extension OptionValue where Value == (id: String, file: String) {
  /// `KEYID=FILE.p8`.
  static var keyFile: OptionValue {
    OptionValue(
      placeholder: "KEYID=FILE.p8", expectation: "takes KEYID=FILE.p8 (the key's 10-character ID and its file)",
      completion: .files(["p8"])
    ) { text in
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex
      else { return nil }
      return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
  }
}

extension OptionValue where Value == FocusMode {
  /// `off`, `dnd` or a Focus's name.
  static var focus: OptionValue {
    OptionValue(
      placeholder: "off|dnd|NAME", expectation: "takes off, dnd or the name of a Focus such as Work",
      completion: .words(["off", "dnd"])
    ) { FocusMode(argument: $0) }
  }
}

extension OptionValue where Value == [DayTime] {
  /// `08:00,18:00`.
  static var dayTimes: OptionValue {
    OptionValue(placeholder: "HH:MM[,HH:MM…]", expectation: "takes times of day such as 08:00,18:00") {
      DayTime.list($0)
    }
  }
}

extension OptionValue where Value == UNNotificationPresentationOptions {
  /// `banner,list,sound,badge` or `none`.
  static var presentationOptions: OptionValue {
    OptionValue(
      placeholder: "banner,list,sound,badge|none",
      expectation: "takes a comma list of banner, list, sound and badge, or none"
    ) { UNNotificationPresentationOptions(optionList: $0) }
  }
}

extension OptionValue where Value == Date {
  static var iso8601: OptionValue {
    OptionValue(placeholder: "ISO8601", expectation: "takes an ISO 8601 time such as 2026-11-29T20:00:00Z") {
      ISO8601.parse($0)
    }
  }
}
