import Foundation
import UNTermInput
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// One command of the session language: its name, its arguments' grammar, what it does, and how
/// a line is read into a `ScriptCommand` with its caption. The parser, `unterm run --help`, the
/// live player's and casts' captions, and README's table (checked by a test) all come from
/// `ScriptCommand.declarations`.
package struct ScriptCommandDeclaration: Sendable {
  /// What reading a line gives: the command, and what `--live` and casts show for it.
  package struct Parsed: Sendable {
    package var command: ScriptCommand
    package var caption: String?

    package init(_ command: ScriptCommand, caption: String? = nil) {
      self.command = command
      self.caption = caption
    }
  }

  /// The command's words: `push`, `expect no response`.
  package let name: String
  /// The arguments as README and the help write them: `FILE [as ID]`. Upper-case words are
  /// values, lower-case words are typed as they stand, `[…]` is optional, `a|b` a choice.
  package let arguments: String
  /// What it does, one sentence.
  package let summary: String
  /// Whether it checks something: counted as an expectation, and a failure ends the script.
  package let isExpectation: Bool
  /// Reads the arguments that follow the name.
  package let parse: @Sendable (inout ScriptArguments) throws(SessionScript.ParseError) -> Parsed

  package var words: [String] { name.split(separator: " ").map(String.init) }

  /// `push FILE [as ID]`.
  package var usage: String { arguments.isEmpty ? name : "\(name) \(arguments)" }

  init(
    _ name: String, _ arguments: String, _ summary: String, isExpectation: Bool = false,
    parse: @escaping @Sendable (inout ScriptArguments) throws(SessionScript.ParseError) -> Parsed
  ) {
    self.name = name
    self.arguments = arguments
    self.summary = summary
    self.isExpectation = isExpectation
    self.parse = parse
  }

  /// A command without arguments.
  init(_ name: String, _ summary: String, _ command: ScriptCommand, caption: String? = nil) {
    self.init(name, "", summary) { _ throws(SessionScript.ParseError) in Parsed(command, caption: caption) }
  }
}

/// The arguments of one script line, read in order by a declaration.
package struct ScriptArguments: Sendable {
  let tokens: [SessionScript.Token]
  var index: Int
  let file: String
  let line: Int

  /// The column just after the line's last token, where a missing argument is reported.
  var endColumn: Int {
    tokens.last?.endColumn ?? 1
  }

  /// The next argument; `expected` says what it should be when it is missing.
  package mutating func next(_ expected: String) throws(SessionScript.ParseError) -> SessionScript.Token {
    guard index < tokens.count else {
      throw SessionScript.ParseError(file: file, line: line, column: endColumn, message: "expected \(expected)")
    }
    index += 1
    return tokens[index - 1]
  }

  /// The next argument, if the line has one.
  package mutating func optional() -> SessionScript.Token? {
    guard index < tokens.count else { return nil }
    index += 1
    return tokens[index - 1]
  }

  /// The arguments of `expect screen`: an optional region, an optional `not`, and the text,
  /// which must not be empty (an empty text is on every screen, so the check could not fail).
  mutating func screenCheck() throws(SessionScript.ParseError) -> (ScreenRegion, negated: Bool, String) {
    var region = ScreenRegion.screen
    var negated = false
    // A bare word followed by more is a region or `not`; a lone last word is the text.
    if index + 1 < tokens.count, !tokens[index].quoted, tokens[index].text != "not" {
      let token = tokens[index]
      guard let named = ScreenRegion(rawValue: token.text) else {
        throw fail(token, "expected a region (\(ScreenRegion.names)) or 'not' before the text, not \"\(token.text)\"")
      }
      region = named
      index += 1
    }
    if index < tokens.count, !tokens[index].quoted, tokens[index].text == "not" {
      negated = true
      index += 1
    }
    return (region, negated, try text(negated: negated))
  }

  /// The text an `expect screen` looks for; refused when empty.
  mutating func text(negated: Bool) throws(SessionScript.ParseError) -> String {
    let token = try next(negated ? "text in double quotes after 'not'" : "text in double quotes, or 'not' and text")
    guard !token.text.isEmpty else {
      throw fail(
        token,
        negated
          ? "expect screen not \"\" can never pass: every screen holds the empty text; give the text that must be absent"
          : "expect screen \"\" can never fail: every screen holds the empty text; give the text to look for")
    }
    return token.text
  }

  /// An error at a token.
  package func fail(_ token: SessionScript.Token, _ message: SafeText) -> SessionScript.ParseError {
    SessionScript.ParseError(file: file, line: line, column: token.column, message: message)
  }

  /// A number outside its range, at its token: the key, the range and what was written.
  package func outOfRange(_ token: SessionScript.Token, _ number: InputNumber) -> SessionScript.ParseError {
    SessionScript.ParseError(
      file: file, line: line, column: token.column, message: number.complaint(token.text), code: .numberOutOfRange)
  }
}

extension ScriptCommand {
  /// Every command of the session language, in the order the help and README list them.
  ///
  /// To add a command: add its case to `ScriptCommand` and its declaration here; the compiler
  /// then asks `ScriptRunner` (and any other exhaustive switch) for its behaviour, and a test
  /// asks for README's row.
  package static let declarations: [ScriptCommandDeclaration] = [
    .init("size", "COLSxROWS", "screen size (default 80x24)") { a throws(SessionScript.ParseError) in
      let t = try a.next("a size such as 80x24")
      let parts = t.text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
        let most = InputNumber.maximumTerminalSide
        throw a.fail(t, "expected a size from 1x1 to \(most)x\(most) such as 80x24, not \"\(t.text)\"")
      }
      guard let w = InputNumber.terminalSize.parseInt(parts[0]), let h = InputNumber.terminalSize.parseInt(parts[1])
      else { throw a.outOfRange(t, .terminalSize) }
      return .init(.size(width: w, height: h))
    },
    .init("device", DeviceProfile.Kind.allCases.map(\.rawValue).joined(separator: "|"), "device profile") {
      a throws(SessionScript.ParseError) in
      let names = DeviceProfile.Kind.allCases.map(\.rawValue)
      let t = try a.next(names.joined(separator: " or "))
      guard let kind = DeviceProfile.Kind(rawValue: t.text) else {
        throw a.fail(t, "expected \(names.joined(separator: " or ")), not \"\(t.text)\"")
      }
      return .init(.device(kind), caption: "device \(kind.rawValue)")
    },
    .init("theme", "NAME|FILE", "theme: a name from Themes/ or a theme file") { a throws(SessionScript.ParseError) in
      let name = try a.next("a theme name or file").text
      return .init(.theme(name), caption: "theme \(name)")
    },
    .init(
      "bundle", "ID",
      "the session's own app from here on, as run --bundle: payloads that name no app are its, and a bare categories FILE is its only"
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("a bundle identifier such as com.example.app")
      guard CategoryRegistry.isBundleIdentifier(t.text) else {
        throw a.fail(t, "expected a bundle identifier (letters, digits, dots and hyphens), not \"\(t.text)\"")
      }
      return .init(.bundle(t.text), caption: "app \(t.text)")
    },
    .init("app-name", "[ID=]NAME", "the name headers show for app ID; a bare NAME names the session's own app") {
      a throws(SessionScript.ParseError) in
      let t = try a.next("a name, or ID=NAME")
      guard let scoped = AppScoped.parse(t.text), !scoped.value.isEmpty else {
        throw a.fail(t, "expected NAME or ID=NAME (\(AppScoped.expectation("NAME"))), not \"\(t.text)\"")
      }
      return .init(.appName(app: scoped.app, name: scoped.value), caption: "app name \(scoped.value)")
    },
    .init(
      "previews", CenterState.Previews.allCases.map(\.rawValue).joined(separator: "|"),
      "when notification previews show, as --previews (when-unlocked hides them on a locked device)"
    ) { a throws(SessionScript.ParseError) in
      let names = CenterState.Previews.allCases.map(\.rawValue)
      let t = try a.next(names.joined(separator: ", "))
      guard let previews = CenterState.Previews(rawValue: t.text) else {
        throw a.fail(t, "expected \(names.joined(separator: ", ")), not \"\(t.text)\"")
      }
      return .init(.previews(previews), caption: "previews \(previews.rawValue)")
    },
    .init(
      "categories", "[ID=]FILE",
      "register app ID's categories (replaces all that app's, like setNotificationCategories); a bare FILE: the bundle's app's when one is named (bundle, run --bundle), else every app's without categories of its own"
    ) {
      a throws(SessionScript.ParseError) in
      let t = try a.next("a categories file")
      guard AppScoped.parse(t.text) != nil else {
        throw a.fail(t, "expected FILE or ID=FILE (\(AppScoped.expectation("FILE"))), not \"\(t.text)\"")
      }
      return .init(.categories(t.text))
    },
    .init("extension", "FILE", "add a content-extension descriptor") { a throws(SessionScript.ParseError) in
      .init(.contentExtension(try a.next("a content-extension descriptor file").text))
    },
    .init("passcode", "CODE", "passcode for authentication-required actions") { a throws(SessionScript.ParseError) in
      .init(.passcode(try a.next("a passcode").text))
    },
    .init("strings", "PATH", "the app's strings for loc keys, as --strings: a strings file or folder") {
      a throws(SessionScript.ParseError) in
      .init(.strings(try a.next("a strings file or folder").text))
    },
    .init("locale", "LANG", "the device language: en, bn, ur, pt-BR… (scripts start in en); g cycles it") {
      a throws(SessionScript.ParseError) in
      let t = try a.next("a language such as en, bn or ur")
      guard AppStrings.isLocaleName(t.text) else {
        throw a.fail(t, "expected a language such as en, bn, ur or pt-BR, not \"\(t.text)\"")
      }
      let locale = AppStrings.normalize(t.text)
      return .init(.locale(locale), caption: "language \(locale)")
    },
    .init("lock", "lock the device", .lock, caption: "lock"),
    .init("unlock", "[CODE]", "unlock the device (with the passcode, when one is set)") {
      a throws(SessionScript.ParseError) in
      .init(.unlock(a.optional()?.text), caption: "unlock")
    },
    .init(
      "push", "FILE [as ID]",
      "deliver a payload now; as ID sets the request identifier (same identifier replaces)"
    ) { a throws(SessionScript.ParseError) in
      let file = try a.next("a payload file").text
      var identifier: String?
      if let keyword = a.optional() {
        guard keyword.text == "as", !keyword.quoted else {
          throw a.fail(keyword, "expected 'as ID' or the end of the line, not \"\(keyword.text)\"")
        }
        identifier = try a.next("a request identifier after 'as'").text
      }
      return .init(.push(file, identifier: identifier), caption: "push \((file as NSString).lastPathComponent)")
    },
    .init("wait", "DURATION", "advance the virtual clock: 250ms, 2s, 1.5s, 10m, 8h") {
      a throws(SessionScript.ParseError) in
      let t = try a.next("a duration such as 2s, 250ms or 1.5s")
      guard let seconds = SessionScript.duration(t.text) else {
        if SessionScript.isDurationSyntax(t.text) { throw a.outOfRange(t, .waitDuration) }
        throw a.fail(t, "expected a duration such as 2s, 250ms or 1.5s, not \"\(t.text)\"")
      }
      return .init(
        .wait(seconds), caption: "wait \(seconds < 1 ? "\(Int(saturating: seconds * 1000))ms" : "\(seconds)s")")
    },
    .init(
      "wait until", "HH:MM", "advance the virtual clock to the next HH:MM (a Scheduled Summary's time, say)"
    ) { a throws(SessionScript.ParseError) in
      let time = try a.next("a time of day such as 18:00")
      guard let day = DayTime(time.text) else {
        throw a.fail(time, "expected a time of day such as 18:00, not \"\(time.text)\"")
      }
      return .init(.waitUntil(day), caption: "wait until \(day)")
    },
    .init(
      "wait push", "[N] [within DURATION]",
      "wait in real time for N pushes (default 1) to reach run --apns-listen's endpoint, at most DURATION (default 30s)"
    ) { a throws(SessionScript.ParseError) in
      var count = 1
      var within: TimeInterval = 30
      if let t = a.optional() {
        var keyword: SessionScript.Token? = t
        if let n = Int(t.text), !t.quoted {
          guard (1...100_000).contains(n) else { throw a.fail(t, "expected a number of pushes from 1 to 100000") }
          count = n
          keyword = a.optional()
        }
        if let keyword {
          guard keyword.text == "within", !keyword.quoted else {
            throw a.fail(keyword, "expected 'within DURATION' or the end of the line, not \"\(keyword.text)\"")
          }
          let d = try a.next("a duration such as 30s")
          guard let seconds = SessionScript.duration(d.text), seconds > 0 else {
            throw a.fail(d, "expected a duration such as 30s or 2m, not \"\(d.text)\"")
          }
          within = seconds
        }
      }
      return .init(
        .waitPush(count: count, within: within), caption: "wait for \(count == 1 ? "a push" : "\(count) pushes")")
    },
    .init(
      "key", "NAME [xN]",
      "press a key: \(Key.scriptNames()), or one character; xN repeats"
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("a key name or one character")
      guard let key = Key(scriptName: t.text) else {
        throw a.fail(
          t,
          "unknown key \"\(t.text)\"; expected \(Key.scriptNames(separator: ", ")), or one character"
        )
      }
      var count = 1
      if let repeatToken = a.optional() {
        let digits = repeatToken.text.dropFirst()
        guard repeatToken.text.hasPrefix("x"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
          throw a.fail(repeatToken, "expected a repeat count such as x3, not \"\(repeatToken.text)\"")
        }
        guard let n = InputNumber.keyRepeat.parseInt(digits) else { throw a.outOfRange(repeatToken, .keyRepeat) }
        count = n
      }
      return .init(.key(key, count: count), caption: "key \(key)\(count > 1 ? " ×\(count)" : "")")
    },
    .init("longpress", "long-press the focused notification (its expanded view)", .longPress, caption: "long-press"),
    .init("tap", "tap the focused notification (the default action)", .tap, caption: "tap"),
    .init("action", "ID", "choose the listed action with identifier ID (a failure if it is not listed)") {
      a throws(SessionScript.ParseError) in
      let id = try a.next("an action identifier").text
      return .init(.action(id), caption: "action \(id)")
    },
    .init("type", "\"TEXT\"", "type into the text field") { a throws(SessionScript.ParseError) in
      let text = try a.next("text in double quotes").text
      return .init(.type(text), caption: "type “\(text)”")
    },
    .init("send", "press the text field's send button", .send, caption: "send"),
    .init("dismiss", "clear the focused notification", .dismiss, caption: "clear"),
    .init("center", "open the notification list", .center, caption: "open Notification Center"),
    .init(
      "expect response", "ID [\"TEXT\"]",
      "the oldest unchecked delegate response has action identifier ID (and user text TEXT); @default and @dismiss stand for Apple's two system identifiers",
      isExpectation: true
    ) { a throws(SessionScript.ParseError) in
      var id = try a.next("an action identifier, @default or @dismiss").text
      if id == "@default" { id = "com.apple.UNNotificationDefaultActionIdentifier" }
      if id == "@dismiss" { id = "com.apple.UNNotificationDismissActionIdentifier" }
      return .init(.expectResponse(id, text: a.optional()?.text))
    },
    .init("expect no response", "", "no unchecked response remains", isExpectation: true) {
      _ throws(SessionScript.ParseError) in .init(.expectNoResponse)
    },
    .init(
      "expect screen", "[REGION] [not] \"TEXT\"",
      "TEXT is (with not: is not) in REGION: card (the focused card or expanded view), list, responses, activity, or screen (the default)",
      isExpectation: true
    ) { a throws(SessionScript.ParseError) in
      let (region, negated, text) = try a.screenCheck()
      return .init(negated ? .expectScreenNot(text, region: region) : .expectScreen(text, region: region))
    },
    .init(
      "expect activity", "NAME state|shows STATE|\"TEXT\"",
      "the Live Activity NAME (a start pushed `as NAME`, or activity-1, activity-2… in start order) is in STATE (\(ActivityExpectation.states.joined(separator: ", "))) on the session's clock, or its presentation shows TEXT",
      isExpectation: true
    ) { a throws(SessionScript.ParseError) in
      let name = try a.next("an activity's name, such as activity-1").text
      let kind = try a.next("state or shows")
      switch kind.text {
      case "state":
        let t = try a.next("a state: \(ActivityExpectation.states.joined(separator: ", "))")
        guard ActivityExpectation.states.contains(t.text) else {
          throw a.fail(t, "expected \(ActivityExpectation.states.joined(separator: ", ")), not \"\(t.text)\"")
        }
        return .init(.expectActivity(name, .state(t.text)))
      case "shows":
        let t = try a.next("the text in quotes")
        guard !t.text.isEmpty else { throw a.fail(t, "expect activity … shows \"\" can never fail: give the text") }
        return .init(.expectActivity(name, .shows(t.text)))
      default:
        throw a.fail(kind, "expected state or shows after the activity's name, not \"\(kind.text)\"")
      }
    },
    .init(
      "expect badge", "N",
      "the app badge is N: the badge of the app the script last pushed to (the session's own app before any push; each app has its own, all show on the status bar)",
      isExpectation: true
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("a badge number")
      guard !t.text.isEmpty, t.text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        throw a.fail(t, "expected a badge number, not \"\(t.text)\"")
      }
      guard let n = InputNumber.expectedBadge.parseInt(t.text) else { throw a.outOfRange(t, .expectedBadge) }
      return .init(.expectBadge(n))
    },
    .init(
      "snapshot", "NAME [REGION]",
      "the screen (or REGION of it) equals NAME.txt beside the script; a missing file is recorded (a failure when CI is set, unless --update-snapshots asked for it); --update-snapshots re-records",
      isExpectation: true
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("a snapshot name")
      var name = t.text
      if name.hasSuffix(".txt") { name.removeLast(4) }
      guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
        throw a.fail(t, "a snapshot name is a plain file name without '/'")
      }
      var region = ScreenRegion.screen
      if let token = a.optional() {
        guard !token.quoted, let named = ScreenRegion(rawValue: token.text) else {
          throw a.fail(
            token, "expected a region (\(ScreenRegion.names)) after the snapshot name, not \"\(token.text)\"")
        }
        region = named
      }
      return .init(.snapshot(name, region: region))
    },
    .init(
      "focus", "off|dnd|NAME [allow APP,…]",
      "turn a Focus on (Do Not Disturb or a named one) or off; allow names the apps it lets through, by bundle identifier or name"
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("off, dnd or a Focus's name")
      guard let mode = FocusMode(argument: t.text) else { throw a.fail(t, "expected off, dnd or a Focus's name") }
      var allow: [String]?
      if let keyword = a.optional() {
        guard keyword.text == "allow", !keyword.quoted else {
          throw a.fail(keyword, "expected 'allow APP,…' or the end of the line, not \"\(keyword.text)\"")
        }
        let list = try a.next("a comma list of apps after 'allow'")
        let apps = list.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
          !$0.isEmpty
        }
        guard !apps.isEmpty else { throw a.fail(list, "expected a comma list of bundle identifiers or app names") }
        allow = apps
      }
      return .init(.focus(mode, allow: allow), caption: mode.isOn ? "Focus: \(mode.displayName)" : "Focus off")
    },
    .init(
      "summary", "HH:MM[,HH:MM…]|off",
      "Scheduled Summary at these times of day (or off, which delivers what it held at once)"
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("times of day such as 08:00,18:00, or off")
      if t.text == "off", !t.quoted { return .init(.summary([]), caption: "Scheduled Summary off") }
      guard let times = DayTime.list(t.text) else {
        throw a.fail(t, "expected times of day such as 08:00,18:00, or off, not \"\(t.text)\"")
      }
      return .init(
        .summary(times), caption: "Scheduled Summary at \(times.map(\.description).joined(separator: ", "))")
    },
    .init(
      "text-size", DynamicTypeSize.allCases.map(\.rawValue).joined(separator: "|"),
      "the Dynamic Type size (l is iOS's default; ax1 to ax5 are the accessibility sizes)"
    ) { a throws(SessionScript.ParseError) in
      let names = DynamicTypeSize.allCases.map(\.rawValue)
      let t = try a.next("a text size: \(names.joined(separator: ", "))")
      guard let size = DynamicTypeSize(rawValue: t.text) else {
        throw a.fail(t, "expected a text size (\(names.joined(separator: ", "))), not \"\(t.text)\"")
      }
      return .init(.textSize(size), caption: "text size \(size.displayName)")
    },
    .init("foreground", "on|off", "bring the app to the foreground (willPresent then decides) or send it back") {
      a throws(SessionScript.ParseError) in
      let t = try a.next("on or off")
      guard t.text == "on" || t.text == "off" else { throw a.fail(t, "expected on or off, not \"\(t.text)\"") }
      return .init(
        .foreground(t.text == "on"), caption: t.text == "on" ? "app to the foreground" : "app to the background")
    },
    .init(
      "offline", "on|off",
      "take the device off the network or back: APNs holds each app's newest push meanwhile, and delivers it when back"
    ) { a throws(SessionScript.ParseError) in
      let t = try a.next("on or off")
      guard t.text == "on" || t.text == "off" else { throw a.fail(t, "expected on or off, not \"\(t.text)\"") }
      return .init(.offline(t.text == "on"), caption: t.text == "on" ? "device offline" : "device back online")
    },
    .init(
      "remove", "ID ...",
      "remove notifications of any app by request identifier, delivered, held or pending, as removeDeliveredNotifications and removePendingNotificationRequests do for an app's own (an identifier nothing has is ignored, as on iOS; the activity pane says so)"
    ) { a throws(SessionScript.ParseError) in
      var ids = [try a.next("a request identifier").text]
      while let more = a.optional() { ids.append(more.text) }
      return .init(.remove(ids), caption: "remove \(ids.joined(separator: ", "))")
    },
    .init(
      "clear", "remove every app's delivered notifications, as removeAllDeliveredNotifications does for an app's own",
      .clear,
      caption: "clear Notification Center"),
    .init(
      "media-dir", "PATH",
      "attachments of later pushes may be read from inside PATH (relative to the script), as unterm run --media-dir"
    ) { a throws(SessionScript.ParseError) in
      .init(.mediaDirectory(try a.next("a folder").text))
    },
  ]
}
