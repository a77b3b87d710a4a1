import Testing

@testable import UNTermInput
@testable import UNTermScript

@Suite("Session language parser")
struct SessionScriptTests {
  private func parse(_ text: String) throws(SessionScript.ParseError) -> [ScriptCommand] {
    try SessionScript.parse(text, file: "s.session").lines.map(\.command)
  }

  @Test func parsesEveryCommand() throws {
    let commands = try parse(
      #"""
      # a comment
      size 100x30
      device ipad
      theme dark
      categories cats.json
      extension ext.json
      passcode 1234
      lock
      unlock
      unlock 1234
      push msg.json
      push msg.json as chat-1   # trailing comment
      wait 250ms
      wait 1.5s
      key enter
      key x x3
      key space
      longpress
      tap
      action reply
      type "On my way \"now\"\n#1 \\ ok"
      send
      dismiss
      center
      expect response reply "On my way"
      expect response @default
      expect response @dismiss
      expect no response
      expect screen "Ana Lima"
      expect screen not "Delete"
      expect badge 3
      snapshot after-reply
      expect screen card "Ana Lima"
      expect screen activity not "Delete"
      expect screen card
      snapshot the-card.txt card
      media-dir ../media
      """#)
    #expect(
      commands == [
        .size(width: 100, height: 30), .device(.ipad), .theme("dark"), .categories("cats.json"),
        .contentExtension("ext.json"), .passcode("1234"), .lock, .unlock(nil), .unlock("1234"),
        .push("msg.json", identifier: nil), .push("msg.json", identifier: "chat-1"), .wait(0.25), .wait(1.5),
        .key(.enter, count: 1), .key(.character("x"), count: 3), .key(.character(" "), count: 1),
        .longPress, .tap, .action("reply"), .type("On my way \"now\"\n#1 \\ ok"), .send, .dismiss, .center,
        .expectResponse("reply", text: "On my way"),
        .expectResponse("com.apple.UNNotificationDefaultActionIdentifier", text: nil),
        .expectResponse("com.apple.UNNotificationDismissActionIdentifier", text: nil),
        .expectNoResponse, .expectScreen("Ana Lima", region: .screen), .expectScreenNot("Delete", region: .screen),
        .expectBadge(3), .snapshot("after-reply", region: .screen), .expectScreen("Ana Lima", region: .card),
        .expectScreenNot("Delete", region: .activity), .expectScreen("card", region: .screen),
        .snapshot("the-card", region: .card), .mediaDirectory("../media"),
      ])
  }

  @Test(arguments: [
    ("bogus", 1, 1, "unknown command"),
    ("longpres", 1, 1, "did you mean 'longpress'"),
    ("size 80by24", 1, 6, "expected a size"),
    ("device android", 1, 8, "expected iphone or ipad"),
    ("wait 2 s", 1, 6, "expected a duration"),
    ("wait", 1, 5, "expected a duration"),
    ("key hyper", 1, 5, "unknown key"),
    ("key x 3", 1, 7, "repeat count"),
    ("type \"open", 1, 6, "unterminated string"),
    ("type \"bad \\q\"", 1, 11, "unknown escape"),
    ("push a.json sa x", 1, 13, "expected 'as ID'"),
    ("push a.json as", 1, 15, "request identifier"),
    ("expect", 1, 7, "response, no response"),
    ("expect maybe", 1, 8, "expected response"),
    ("expect no reply", 1, 11, "expect no response"),
    ("expect badge many", 1, 14, "badge number"),
    ("tap now", 1, 5, "unexpected \"now\""),
    ("snapshot a/b", 1, 10, "plain file name"),
    ("type x\"y\"", 1, 7, "quote must start a token"),
    // An empty text is on every screen: the check could never fail (or never pass).
    ("expect screen \"\"", 1, 15, "can never fail"),
    ("expect screen card \"\"", 1, 20, "can never fail"),
    ("expect screen not \"\"", 1, 19, "can never pass"),
    ("expect screen list not \"\"", 1, 24, "can never pass"),
    ("expect screen not", 1, 18, "text in double quotes after 'not'"),
    ("expect screen cards \"x\"", 1, 15, "expected a region (card|list|responses|activity|screen) or 'not'"),
    ("snapshot shot cards", 1, 15, "expected a region"),
    ("media-dir", 1, 10, "expected a folder"),
  ])
  func reportsErrorsWithLineAndColumn(line: String, row: Int, column: Int, message: String) {
    do {
      _ = try parse(line)
      Issue.record("expected a parse error for \(line)")
    } catch {
      #expect(error.line == row)
      #expect(error.column == column, "\(error)")
      #expect(error.message.contains(message), "\(error.message)")
      #expect(error.description.hasPrefix("s.session:\(row):\(column): error: "))
    }
  }

  @Test func windowsLineEndingsParse() throws {
    #expect(
      try parse("lock\r\nunlock 1234\r\nsnapshot shot.txt\r\n") == [
        .lock, .unlock("1234"), .snapshot("shot", region: .screen),
      ])
  }

  @Test func errorLineNumbersCountCommentsAndBlankLines() {
    do {
      _ = try parse("# header\n\nlock\n  oops")
      Issue.record("expected an error")
    } catch {
      #expect(error.line == 4 && error.column == 3)
    }
  }

  /// What a grammar's value words stand for in an example line.
  private static let exampleValues = [
    "COLSxROWS": "80x24", "FILE": "f.json", "NAME": "enter", "CODE": "1234", "ID": "reply", "DURATION": "2s",
    "\"TEXT\"": "\"hello there\"", "N": "3", "xN": "x3", "REGION": "card", "PATH": "media", "LANG": "bn",
    "HH:MM": "18:00", "HH:MM[,HH:MM…]": "08:00,18:00", "APP,…": "Messages,com.example.chat",
    "[ID=]FILE": "com.example.chat=f.json", "[ID=]NAME": "com.example.chat=Dabba", "STATE": "active",
  ]

  /// A declaration's arguments as example lines: with every optional part left out, and with
  /// every one given. `a|b` takes its first choice; upper-case words are values.
  private func exampleLines(_ declaration: ScriptCommandDeclaration) -> (shortest: String, longest: String) {
    var shortest = [declaration.name]
    var longest = [declaration.name]
    var optional = false
    for word in declaration.arguments.split(separator: " ").map(String.init) {
      // A word with an optional part inside (`[ID=]FILE`) is one required value.
      if let whole = Self.exampleValues[word], !word.hasSuffix("]") {
        longest.append(whole)
        if !optional { shortest.append(whole) }
        continue
      }
      var word = word
      if word.hasPrefix("[") {
        optional = true
        word.removeFirst()
      }
      let closes = word.hasSuffix("]")
      if closes { word.removeLast() }
      let choice = word.split(separator: "|").map(String.init).first ?? word
      let value = Self.exampleValues[choice] ?? Self.exampleValues[word] ?? choice
      #expect(
        value != choice || choice == choice.lowercased(), "\(declaration.usage): no example for \(choice)")
      longest.append(value)
      if !optional { shortest.append(value) }
      if closes { optional = false }
    }
    return (shortest.joined(separator: " "), longest.joined(separator: " "))
  }

  /// Every declared grammar parses as written — shortest and longest — as its own command,
  /// and a required argument left out is an error at the end of the line.
  @Test func everyDeclaredGrammarParsesAsWritten() throws {
    for declaration in ScriptCommand.declarations {
      let (shortest, longest) = exampleLines(declaration)
      for line in Set([shortest, longest]) {
        let parsed = try SessionScript.parse(line, file: "s.session").lines
        #expect(parsed.map(\.declaration.name) == [declaration.name], "\(line)")
      }
      if shortest != declaration.name {
        #expect(throws: SessionScript.ParseError.self, "\(declaration.name) without arguments") {
          try SessionScript.parse(declaration.name, file: "s.session")
        }
      }
    }
  }

  @Test func linesCarryTheirCaptionsAndWhetherTheyCheckSomething() throws {
    let lines = try SessionScript.parse(
      "push ../a/msg.json as x\nkey down x3\nwait 250ms\nwait 2s\nexpect badge 1\nsize 80x24", file: "s.session"
    ).lines
    #expect(lines.map(\.caption) == ["push msg.json", "key ↓ ×3", "wait 250ms", "wait 2.0s", nil, nil])
    #expect(lines.map(\.isExpectation) == [false, false, false, false, true, false])
  }

  @Test func unknownCommandsSuggestTheClosestDeclaredOne() {
    #expect(SessionScript.commandNames.first == "size")
    #expect(SessionScript.commandNames.filter { $0 == "expect" }.count == 1)
    do {
      _ = try parse("expect scren \"x\"")
      Issue.record("expected a parse error")
    } catch {
      #expect(
        error.message == "expected response, no response, screen, activity or badge after 'expect', not \"scren\"")
    }
  }
}
