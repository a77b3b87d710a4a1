import Foundation
import UNTermInput
import UserNotificationsModel

/// What is on top of the screen, which decides what a key does.
package enum KeyContext: String, Hashable, Sendable, CaseIterable {
  /// The home screen, a banner or the notification list.
  case main
  /// The expanded (long-press) view with its actions.
  case expanded
  /// A text field: a text-input action's reply, or the passcode prompt.
  case textField
  /// The keys overlay (`?`).
  case keysOverlay

  /// How the README and `unterm help keys` name it.
  package var name: String {
    switch self {
    case .main: return "the list or a banner"
    case .expanded: return "the expanded view"
    case .textField: return "a text field"
    case .keysOverlay: return "the keys overlay"
    }
  }
}

/// Some key contexts, as bits. The key table is made at the first frame of every command that
/// draws one (the status bar's hints come from it), and a `Set<KeyContext>` cost each start a
/// run-time conformance lookup.
package struct KeyContexts: OptionSet, Hashable, Sendable {
  package let rawValue: UInt8

  package init(rawValue: UInt8) { self.rawValue = rawValue }

  package init(_ context: KeyContext) {
    switch context {
    case .main: rawValue = 1
    case .expanded: rawValue = 2
    case .textField: rawValue = 4
    case .keysOverlay: rawValue = 8
    }
  }

  package static var main: Self { Self(.main) }
  package static var expanded: Self { Self(.expanded) }
  package static var textField: Self { Self(.textField) }
  package static var keysOverlay: Self { Self(.keysOverlay) }
  /// Every context.
  package static var everywhere: Self { KeyContext.allCases.reduce(into: []) { $0.insert(Self($1)) } }

  /// Whether one context is among these.
  package func contains(_ context: KeyContext) -> Bool { contains(Self(context)) }
}

/// The keys a binding answers.
package enum KeyPattern: Hashable, Sendable {
  case key(Key)
  /// `1`–`9` and `0` (the tenth), the expanded view's numbered actions.
  case actionNumber
  /// Any character typed (a text field inserts it).
  case character
  /// Any key at all (the keys overlay closes).
  case anyKey
  /// Shift with `←` `→` `Home` `End` (a text field's selection).
  case shifted

  /// Whether a pressed key is one of these.
  package func matches(_ pressed: Key) -> Bool {
    switch self {
    case .key(let key): return key == pressed
    case .actionNumber: return Self.actionNumber(of: pressed) != nil
    case .character:
      if case .character = pressed { return true }
      return false
    case .anyKey: return true
    case .shifted:
      guard case .modified(let key, let modifiers) = pressed, modifiers == .shift else { return false }
      return [.left, .right, .home, .end].contains(key)
    }
  }

  /// A pattern naming keys one by one wins over one that takes many.
  var precedence: Int {
    switch self {
    case .key: return 0
    case .actionNumber, .shifted: return 1
    case .character: return 2
    case .anyKey: return 3
    }
  }

  /// The action a number key chooses: 1–9, and 0 for the tenth.
  package static func actionNumber(of key: Key) -> Int? {
    guard case .character(let c) = key, c.isASCII, let digit = c.wholeNumberValue else { return nil }
    return digit == 0 ? 10 : digit
  }

  /// As the keys overlay shows it: `↑`, `⏎`, `1–9 0`.
  package var label: String {
    switch self {
    case .key(let key): return key.description
    case .actionNumber: return "1–9 0"
    case .character: return "type"
    case .anyKey: return "any key"
    case .shifted: return "⇧"
    }
  }

  /// As the README's key table writes it: `` `Enter` ``, `` `1`–`9`, `0` ``.
  package var markdown: String {
    switch self {
    case .key(let key): return "`\(key.documentationName)`"
    case .actionNumber: return "`1`–`9`, `0`"
    case .character: return "typing"
    case .anyKey: return "any key"
    case .shifted: return "`Shift` with `←` `→` `Home` `End`"
    }
  }
}

/// What a key does. The update carries each one out (`CenterState.handle`); the table below
/// says which key does it where.
package enum KeyAction: Hashable, Sendable {
  // Anywhere but a text field
  case quit, showKeys, toggleLock, switchDevice, nextTheme, nextLanguage, appToBackground, cycleFocus, toggleOffline
  // The list or a banner
  case focusPrevious, focusNext, focusPageUp, focusPageDown, focusFirst, focusLast
  case longPress, tap, clear, toggleList, hideBanner, showLess
  // The expanded view
  case chooseAction, selectPrevious, selectNext, activate, nextExtensionButton, playPause
  case scrollUp, scrollDown, closeExpanded
  // A text field
  case insert, cursorLeft, cursorRight, cursorStart, cursorEnd, deleteBackward, deleteForward, submit, cancel, select
  // The keys overlay
  case closeKeys
}

/// A hint in the status bar: the keys, then what they do now.
package struct StatusHint: Hashable, Sendable {
  package var keys: String
  package var text: String

  package init(_ keys: String, _ text: String) {
    self.keys = keys
    self.text = text
  }
}

/// One line of the keys overlay and of the README's key table: keys, where they work, what
/// each does there, the text that explains them, and the status-bar hint they give.
package struct KeyBinding: Sendable {
  /// One key (or kind of key) doing one thing in some contexts.
  package struct Entry: Hashable, Sendable {
    package var pattern: KeyPattern
    package var contexts: KeyContexts
    package var action: KeyAction
  }

  package var entries: [Entry]
  /// The keys overlay's text: one short line.
  package var help: String
  /// The README's and `unterm help keys`' text: the whole story.
  package var about: String
  /// What the status bar says about these keys in a context, if anything.
  package var hint: (@Sendable (CenterState, KeyContext) -> StatusHint?)?

  /// The keys, each once, in the order the entries name them.
  package var patterns: [KeyPattern] {
    var seen: [KeyPattern] = []
    for entry in entries where !seen.contains(entry.pattern) { seen.append(entry.pattern) }
    return seen
  }

  /// Where any of the keys work.
  package var contexts: KeyContexts { entries.reduce(into: []) { $0.formUnion($1.contexts) } }

  /// The keys as the overlay shows them: `↑ ↓ k j`.
  package var label: String { patterns.map(\.label).joined(separator: " ") }

  /// The keys as the README's table writes them.
  package var markdownKeys: String { patterns.map(\.markdown).joined(separator: " ") }
}

extension KeyBinding {
  /// A binding from groups of keys, each doing one thing in some contexts.
  init(
    _ help: String, about: String, _ groups: [([KeyPattern], KeyContexts, KeyAction)],
    hint: (@Sendable (CenterState, KeyContext) -> StatusHint?)? = nil
  ) {
    entries = groups.flatMap { keys, contexts, action in
      keys.map { Entry(pattern: $0, contexts: contexts, action: action) }
    }
    self.help = help
    self.about = about
    self.hint = hint
  }
}

/// Every key of the interactive session, in one table. The update looks keys up here, and the
/// keys overlay, the status-bar hints, `unterm help keys` and the README's key table (checked
/// by a test) are made from it. To add a key, add a row (and, for a new kind of action, a
/// `KeyAction` case, which the compiler then asks the update to carry out).
package enum KeyBindings {
  private static let screens: KeyContexts = [.main, .expanded]
  private static let everywhere = KeyContexts.everywhere

  /// The order is the overlay's and the README's, and the status bar's among the hints shown.
  package static let all: [KeyBinding] = [
    KeyBinding(
      "choose an action (0 = tenth)",
      about: "choose the Nth action of the expanded view (0 = tenth); arrows + `Enter` also work",
      [([.actionNumber], [.expanded], .chooseAction)],
      hint: { state, context in
        guard context == .expanded, let e = state.expanded else { return nil }
        let count = state.actions(for: e).count
        guard count > 0 else { return nil }
        return StatusHint(count == 1 ? "1" : "1-\(min(count, 9))\(count == 10 ? ",0" : "")", "action")
      }),
    KeyBinding(
      "move between notifications or actions",
      about:
        "move the focus between notifications (`↓` into a stack fans it out); in the expanded view, select an action",
      [
        ([.key(.up)], [.main], .focusPrevious), ([.key(.down)], [.main], .focusNext),
        ([.key(.character("k"))], [.main], .focusPrevious), ([.key(.character("j"))], [.main], .focusNext),
        ([.key(.up), .key(.character("k"))], [.expanded], .selectPrevious),
        ([.key(.down), .key(.character("j"))], [.expanded], .selectNext),
      ],
      hint: { state, context in
        switch context {
        case .main: return state.isListShown && state.store.deliveredCount > 1 ? StatusHint("↑↓", "move") : nil
        case .expanded:
          guard let e = state.expanded, state.actions(for: e).count > 1 else { return nil }
          return StatusHint("↑↓", "select")
        default: return nil
        }
      }),
    KeyBinding(
      "long-press: expanded view with actions",
      about:
        "long-press: the expanded view with the category's actions; on an iPhone's home screen with no banner, the Dynamic Island's expanded presentation (`Esc` makes it compact again)",
      [([.key(.character(" ")), .key(.character("l"))], [.main], .longPress)],
      hint: { state, context in
        context == .main && state.focusedNotification != nil ? StatusHint("Space", "actions") : nil
      }),
    KeyBinding(
      "tap: open, fan out a stack; choose; send",
      about:
        "tap: the default action (on a locked device the passcode first), or fan out a collapsed stack; in the expanded view the selected action (or the focused button of an interactive extension); in a text field, send",
      [
        ([.key(.enter)], [.main], .tap), ([.key(.enter)], [.expanded], .activate),
        ([.key(.enter)], [.textField], .submit),
      ],
      hint: { state, context in
        switch context {
        case .main:
          guard let n = state.focusedNotification else { return nil }
          return StatusHint("⏎", state.isCollapsedStack(n) ? "expand" : "open")
        case .expanded: return StatusHint("⏎", state.expanded?.selection == nil ? "open" : "choose")
        case .textField: return StatusHint("⏎", state.passcodePrompt != nil ? "unlock" : "send")
        case .keysOverlay: return nil
        }
      }),
    KeyBinding(
      "clear (a collapsed stack: all of it)",
      about:
        "clear (explicit dismissal, like the expanded view's Dismiss button; the dismiss identifier reaches the delegate only with `customDismissAction`); on a collapsed stack, the whole group, one response per notification",
      [([.key(.character("x"))], screens, .clear)],
      hint: { state, context in
        switch context {
        case .main:
          guard let n = state.focusedNotification else { return nil }
          return StatusHint("x", state.isCollapsedStack(n) ? "clear all" : "clear")
        case .expanded: return StatusHint("x", "clear")
        default: return nil
        }
      }),
    KeyBinding(
      "play / pause media",
      about: "play / pause an audio or movie attachment or an extension's media",
      [([.key(.character("p"))], [.expanded], .playPause)],
      hint: { state, context in
        guard context == .expanded, let e = state.expanded, !state.arePreviewsHidden else { return nil }
        let hasMedia =
          e.extensionView.map { $0.mediaButton != .none } ?? (CenterState.mediaAttachment(of: e.notification) != nil)
        return hasMedia ? StatusHint("p", "play/pause") : nil
      }),
    KeyBinding(
      "close / hide the banner / cancel",
      about:
        "close the expanded view or the list, hide the banner (not a dismissal), cancel a reply or the passcode (nothing is sent)",
      [
        ([.key(.escape)], [.main], .hideBanner), ([.key(.escape)], [.expanded], .closeExpanded),
        ([.key(.escape)], [.textField], .cancel),
      ],
      hint: { state, context in
        switch context {
        case .main: return state.isBannerShown ? StatusHint("Esc", "hide") : nil
        case .expanded: return StatusHint("Esc", "close")
        case .textField: return StatusHint("Esc", "cancel")
        case .keysOverlay: return nil
        }
      }),
    KeyBinding(
      "show less: collapse the stack",
      about: "show less: collapse the fanned-out stack back to its newest card and summary",
      [([.key(.character("s"))], [.main], .showLess)],
      hint: { state, context in
        context == .main && state.isListShown && state.fannedOutGroup != nil ? StatusHint("s", "show less") : nil
      }),
    KeyBinding(
      "the buttons of an interactive extension",
      about: "move between the buttons of an interactive content extension (`Enter` presses one)",
      [([.key(.tab)], [.expanded], .nextExtensionButton)]),
    KeyBinding(
      "a page of the list; scroll the view",
      about:
        "move the focus a page up or down the list (the entries it shows at once); scroll a tall expanded view by the rows it shows",
      [
        ([.key(.pageUp)], [.main], .focusPageUp), ([.key(.pageDown)], [.main], .focusPageDown),
        ([.key(.pageUp)], [.expanded], .scrollUp), ([.key(.pageDown)], [.expanded], .scrollDown),
      ]),
    KeyBinding(
      "first / last notification; in a field too",
      about: "the first or last notification of the list; in a text field, the start or end of the text",
      [
        ([.key(.home)], [.main], .focusFirst), ([.key(.end)], [.main], .focusLast),
        ([.key(.home)], [.textField], .cursorStart), ([.key(.end)], [.textField], .cursorEnd),
      ]),
    KeyBinding(
      "show or hide the notification list",
      about: "show / hide the notification list",
      [([.key(.character("c"))], [.main], .toggleList)],
      hint: { state, context in
        context == .main && !state.isLocked ? StatusHint("c", state.isListOpen ? "close list" : "list") : nil
      }),
    KeyBinding(
      "lock or unlock; F: cycle Focus modes",
      about:
        "lock / unlock (the passcode when one is set); `F` cycles Focus: off → Do Not Disturb → the named Focus (`--focus NAME`), if one was given → off, and the status bar shows it",
      [([.key(.character("L"))], screens, .toggleLock), ([.key(.character("F"))], screens, .cycleFocus)],
      hint: { state, context in context == .main ? StatusHint("L", state.isLocked ? "unlock" : "lock") : nil }),
    KeyBinding(
      "switch iPhone / iPad",
      about: "switch iPhone / iPad",
      [([.key(.character("d"))], screens, .switchDevice)]),
    KeyBinding(
      "next theme / language (says which)",
      about:
        "the next theme; `g` the next language of the app's strings (`--strings`), which what is on screen follows at once; the activity pane names it",
      [([.key(.character("t"))], screens, .nextTheme), ([.key(.character("g"))], screens, .nextLanguage)]),
    KeyBinding(
      "app to the background; o: offline / online",
      about:
        "send the app back to the background; `o` takes the device off the network or back: meanwhile APNs (`--apns-listen`) holds each app's newest push until its `apns-expiration`, and delivers it when the device is back; the status bar says `Offline`",
      [([.key(.character("h"))], screens, .appToBackground), ([.key(.character("o"))], screens, .toggleOffline)]),
    KeyBinding(
      "show these keys",
      about: "show the keys",
      [([.key(.character("?"))], screens, .showKeys)],
      hint: { _, context in screens.contains(context) ? StatusHint("?", "keys") : nil }),
    KeyBinding(
      "quit (Ctrl-C even in a text field)",
      about: "quit (`Ctrl-C` even in a text field)",
      [([.key(.character("q"))], screens, .quit), ([.key(.interrupt)], everywhere, .quit)]),
    KeyBinding(
      "type into a reply or the passcode",
      about: "in a text field, insert the character",
      [([.character], [.textField], .insert)],
      hint: { state, context in
        context == .textField ? StatusHint("type", state.passcodePrompt != nil ? "passcode" : "reply") : nil
      }),
    KeyBinding(
      "move, select (⇧), delete (text field)",
      about:
        "in a text field, move the cursor on screen (in right-to-left text too, as on iOS), select with `Shift` (typing, `Backspace` and `Delete` replace the selection), delete before or after the cursor",
      [
        ([.key(.left)], [.textField], .cursorLeft), ([.key(.right)], [.textField], .cursorRight),
        ([.shifted], [.textField], .select),
        ([.key(.backspace)], [.textField], .deleteBackward), ([.key(.delete)], [.textField], .deleteForward),
      ]),
    KeyBinding(
      "close this overlay",
      about: "close the keys overlay",
      [([.anyKey], [.keysOverlay], .closeKeys)],
      hint: { _, context in context == .keysOverlay ? StatusHint("any key", "close") : nil }),
  ]

  /// What a key does in a context: the entry naming the key itself wins over one taking a
  /// kind of key (a number, any character, any key).
  package static func action(for key: Key, in context: KeyContext) -> KeyAction? {
    var best: KeyBinding.Entry?
    for binding in all {
      for entry in binding.entries where entry.contexts.contains(context) && entry.pattern.matches(key) {
        if best.map({ entry.pattern.precedence < $0.pattern.precedence }) ?? true { best = entry }
      }
    }
    return best?.action
  }

  /// The status bar's hints for a state: in table order, what is typed first.
  package static func hints(for state: CenterState) -> [StatusHint] {
    let context = state.keyContext
    var typed: [StatusHint] = []
    var keys: [StatusHint] = []
    for binding in all where binding.contexts.contains(context) {
      guard let hint = binding.hint?(state, context) else { continue }
      if binding.patterns.contains(.character) { typed.append(hint) } else { keys.append(hint) }
    }
    return typed + keys
  }

  /// The README's key table, in Markdown.
  package static var markdownTable: String {
    (["| key | does |", "|---|---|"] + all.map { "| \($0.markdownKeys) | \($0.about) |" })
      .joined(separator: "\n")
  }

  /// The keys for `unterm help keys`: each binding's keys, then its text, wrapped to `width`.
  package static func helpText(width: Int = 78) -> String {
    let column = 14
    var lines: [String] = []
    for binding in all {
      let about = binding.about.replacingOccurrences(of: "`", with: "")
      var line = "  " + binding.label.padding(toLength: column - 2, withPad: " ", startingAt: 0)
      if binding.label.count > column - 3 { line = "  " + binding.label + " " }
      for word in about.split(separator: " ") {
        if line.count + word.count + 1 > width, line.count > column {
          lines.append(line)
          line = String(repeating: " ", count: column)
        }
        line += (line.hasSuffix(" ") ? "" : " ") + word
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}

extension CenterState {
  /// Whether a notification is drawn as a collapsed stack in the list, where a tap fans it
  /// out and `x` clears the whole group.
  package func isCollapsedStack(_ notification: UNNotification) -> Bool {
    guard overlay == nil, isListShown, let key = store.groupKey(ofDelivered: notification.request.identifier)
    else { return false }
    return store.count(of: key) > 1 && !ListLayout.isGroupExpanded(key, self)
  }

  /// What decides what a key does now.
  package var keyContext: KeyContext {
    if isHelpVisible { return .keysOverlay }
    switch overlay {
    case .passcode: return .textField
    case .expanded(let e): return e.reply != nil ? .textField : .expanded
    case nil: return .main
    }
  }
}

extension Key {
  /// How documentation names the key: `Enter`, `Backspace`; otherwise as on screen.
  package var documentationName: String {
    switch self {
    case .enter: return "Enter"
    case .backspace: return "Backspace"
    case .delete: return "Delete"
    default: return description
    }
  }
}
