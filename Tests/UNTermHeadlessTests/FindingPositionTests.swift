import Foundation
import Testing
import UNTermInput
import UNTermTestSupport

/// Every finding points at its line and column: the key of a missing or mistyped value, the
/// value itself when it is not allowed, 1:1 for the whole document. The positions below are
/// counted by hand (columns count characters — Unicode scalars — from 1, a tab is one).
@Suite("Findings and errors point at their line and column in every kind of file")
struct FindingPositionTests {
  let dir: URL

  init() throws { dir = try Fixtures.temporaryDirectory() }

  @discardableResult
  private func write(_ name: String, _ text: String) throws -> String {
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    return name
  }

  private func unterm(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments, directory: dir.path)
  }

  /// `FILE:LINE:COL code [PATH]` for each finding of `lint --json`.
  private func places(_ arguments: [String]) throws -> [String] {
    let result = try unterm(["lint", "--json"] + arguments)
    return try Finding.parse(result.stdout).map { "\($0.file):\($0.line):\($0.column) \($0.code) [\($0.path)]" }
  }

  static let payload = """
    {
      "aps": {
        "alert": {"title": 5, "bodyy": "x"},
        "badge": -1,
        "sound": {"critical": 1, "volume": 2},
        "category": "nope",
        "thread-id": ["t"]
      },
      "x": 1e999
    }

    """

  @Test func aPayload() throws {
    try write("p.json", Self.payload)
    let found = try places(["p.json"])
    for expected in [
      "p.json:3:15 type-mismatch [aps.alert.title]",  // the key "title" (a wrong type)
      "p.json:3:27 unknown-alert-key [aps.alert.bodyy]",  // the key "bodyy"
      "p.json:4:14 number-out-of-range [aps.badge]",  // the value -1
      "p.json:5:40 number-out-of-range [aps.sound.volume]",  // the value 2
      "p.json:5:5 critical-entitlement [aps.sound]",  // the key "sound"
      "p.json:6:17 unknown-category [aps.category]",  // the value "nope"
      "p.json:7:5 type-mismatch [aps.thread-id]",  // the key "thread-id"
      "p.json:9:8 number-out-of-range [x]",  // the value 1e999
    ] {
      #expect(found.contains(expected), "\(expected) not in \(found)")
    }
    // Columns count characters: a Bengali cluster of five scalars, an emoji and two CJK
    // characters before the value put -1 at column 38.
    try write("b.json", #"{"aps":{"alert":"ক্ষমা 😀 漢字","badge":-1}}"#)
    #expect(try places(["b.json"]) == ["b.json:1:38 number-out-of-range [aps.badge]"])
    // The APNs request headers a payload file carries: an unknown one at its key, a bad value at
    // the value.
    try write(
      "h.json",
      """
      {
        "aps": {"alert": "x"},
        "apns-headers": {"apns-priority": "7", "apns-pushtype": "alert", "apns-topic": "a b"}
      }

      """)
    #expect(
      try places(["h.json"]) == [
        "h.json:3:42 unknown-apns-header [apns-headers.apns-pushtype]",
        "h.json:3:37 bad-priority [apns-headers.apns-priority]", "h.json:3:82 bad-topic [apns-headers.apns-topic]",
      ])
    // Urdu counts the same way: eleven scalars (two words and a space, and a space) put -1 at 39.
    try write("u.json", #"{"aps":{"alert":"آپ کا پیغام","badge":-1}}"#)
    #expect(try places(["u.json"]) == ["u.json:1:39 number-out-of-range [aps.badge]"])
    // A document that is not what it should be is at 1:1, path $; a syntax error at its place.
    try write("w.json", "\n\n  [1, 2]")
    #expect(try places(["w.json"]) == ["w.json:1:1 not-an-object [$]"])
    try write("s.json", "{\n  \"aps\": {\"alert\": \"x\",}\n}")
    #expect(try places(["s.json"]) == ["s.json:2:24 invalid-json [$]"])
  }

  @Test func theSameErrorsFromRenderRunAndTheInteractiveCommand() throws {
    try write("p.json", Self.payload)
    // The first error: the number out of range (userInfo is read before aps).
    let line = "p.json:9:8: error: the number 1e999 is out of range [x]\n"
    let render = try unterm(["render", "p.json"])
    #expect(render.status == 65)
    #expect(render.stderr == line)
    let interactive = try unterm(["p.json"])
    #expect(interactive.status == 65)
    #expect(interactive.stderr == line)
    try write("s.session", "size 40x10\npush p.json\n")
    let run = try unterm(["run", "s.session"])
    #expect(run.status == 65)
    #expect(run.stdout.contains("s.session:2:1: push p.json\n"), "\(run.stdout)")
    #expect(run.stderr.hasSuffix("/p.json:9:8: error: the number 1e999 is out of range [x]\n"), "\(run.stderr)")
    // A theme file's error, at the value that is not a colour.
    try write("t.json", "{\n  \"roles\": {\n    \"title\": {\"fg\": \"purple\"}\n  }\n}\n")
    let theme = try unterm(["render", "--theme", "t.json", "p.json"])
    #expect(theme.status == 65)
    #expect(theme.stderr.hasPrefix("t.json:3:21: error: unknown colour \"purple\""), "\(theme.stderr)")
    #expect(theme.stderr.hasSuffix(" [roles.title.fg]\n"))
  }

  @Test func aCategoriesFile() throws {
    try write(
      "c.json",
      """
      {
        "categories": [
          {
            "identifier": "message",
            "actions": [
              {"identifier": "reply", "title": "Reply", "options": ["destructiv"]},
              {"title": "No id"}
            ],
            "colour": "red"
          }
        ]
      }

      """)
    let found = try places(["--categories", "c.json"])
    for expected in [
      "c.json:6:63 unknown-option [categories[0].actions[0].options[0]]",  // the value "destructiv"
      "c.json:7:9 missing-key [categories[0].actions[1]]",  // the action with no identifier: its {
      "c.json:9:7 unknown-key [categories[0].colour]",  // the key "colour"
    ] {
      #expect(found.contains(expected), "\(expected) not in \(found)")
    }
    try write("empty.json", #"{"categories": {}}"#)
    #expect(try places(["--categories", "empty.json"]) == ["empty.json:1:2 type-mismatch [categories]"])
  }

  @Test func aDescriptor() throws {
    try write(
      "d.json",
      """
      {
        "NSExtensionAttributes": {
          "UNNotificationExtensionCategory": "media",
          "UNNotificationExtensionInitialContentSizeRatio": 0
        },
        "view": {
          "elements": [
            {"label": "{{title}}", "style": "huge"},
            {"spacer": 8, "extra": true}
          ]
        }
      }

      """)
    let found = try places(["--extension", "d.json"])
    #expect(
      found.contains(
        "d.json:4:55 number-out-of-range [NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio]")
    )
    try write(
      "v.json",
      """
      {
        "NSExtensionAttributes": {
          "UNNotificationExtensionCategory": "media",
          "UNNotificationExtensionInitialContentSizeRatio": 0.5
        },
        "view": {
          "elements": [
            {"label": "{{title}}", "style": "huge"},
            {"spacer": 8, "extra": true}
          ]
        }
      }

      """)
    let view = try places(["--extension", "v.json"])
    for expected in [
      "v.json:8:39 invalid-value [view.elements[0].style]",  // the value "huge"
      "v.json:9:21 unknown-key [view.elements[1].extra]",  // the key "extra"
      "v.json:3:5 extension-without-payload [NSExtensionAttributes.UNNotificationExtensionCategory]",
      "v.json:6:3 extension-size [view]",  // the height is the view's: its key
    ] {
      #expect(view.contains(expected), "\(expected) not in \(view)")
    }
    try write("none.json", #"{"view": {}}"#)
    #expect(try places(["--extension", "none.json"]) == ["none.json:1:1 missing-key [$]"])
  }

  static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>NSExtension</key>
    \t<dict>
    \t\t<key>NSExtensionAttributes</key>
    \t\t<dict>
    \t\t\t<key>UNNotificationExtensionCategory</key>
    \t\t\t<string>media</string>
    \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
    \t\t\t<string>tall</string>
    \t\t\t<key>UNNotificationExtensionDefaultContentHidden</key>
    \t\t\t<string>yes</string>
    \t\t</dict>
    \t\t<key>NSExtensionPointIdentifier</key>
    \t\t<string>com.apple.widget-extension</string>
    \t</dict>
    </dict>
    </plist>

    """

  @Test func anInfoPlistNamedOrReferenced() throws {
    try write("ext/Info.plist", Self.plist)
    let attributes = "NSExtension.NSExtensionAttributes"
    let expected = [
      "ext/Info.plist:17:3 wrong-extension-point [NSExtension.NSExtensionPointIdentifier]",  // the <string>
      // A string where a number belongs: a wrong type, so its <key>.
      "ext/Info.plist:11:4 type-mismatch [\(attributes).UNNotificationExtensionInitialContentSizeRatio]",
      "ext/Info.plist:13:4 type-mismatch [\(attributes).UNNotificationExtensionDefaultContentHidden]",  // its <key>
    ]
    #expect(try places(["--extension", "ext/Info.plist"]) == expected)
    // Named by a descriptor: the findings are the plist's own, at its lines.
    try write("d.json", #"{"infoPlist": "ext/Info.plist"}"#)
    #expect(try places(["--extension", "d.json"]) == expected)
    try write("gone.json", "{\n  \"infoPlist\": \"nowhere.plist\"\n}")
    #expect(try places(["--extension", "gone.json"]) == ["gone.json:2:3 unreadable-file [infoPlist]"])
    // A missing dictionary: the key that should hold it.
    try write("bare.plist", "<plist>\n<dict>\n  <key>NSExtension</key>\n  <dict/>\n</dict>\n</plist>\n")
    #expect(
      try places(["--extension", "bare.plist"]) == ["bare.plist:3:3 missing-key [NSExtension.NSExtensionAttributes]"])
    // A malformed one: where the XML goes wrong.
    try write("bad.plist", "<plist>\n<dict>\n  <key>a</key>\n  <strin>x</strin>\n</dict>\n</plist>\n")
    #expect(try places(["--extension", "bad.plist"]) == ["bad.plist:4:3 invalid-plist [$]"])
  }

  /// Xcode builds an extension's Info.plist as a binary property list: it loads as the XML one
  /// does, its findings have the same codes and paths (at 1:1, as a binary file has no lines),
  /// and a broken one names the byte where it breaks.
  @Test func aBinaryInfoPlistAsXcodeBuildsIt() throws {
    func binary(_ xml: String) throws -> Data {
      let object = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
      return try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }
    let sample = try String(contentsOfFile: Fixtures.sample("ChatExtension/Info.plist"), encoding: .utf8)
    try write("xml/Info.plist", sample)
    let built = dir.appendingPathComponent("built/Info.plist")
    try FileManager.default.createDirectory(at: built.deletingLastPathComponent(), withIntermediateDirectories: true)
    try binary(sample).write(to: built)
    #expect(PropertyList.isBinary(Array(try Data(contentsOf: built))))
    // The same expanded screen from either.
    let screens = try ["xml", "built"].map { folder in
      try unterm([
        "render", "--view", "expanded", "--categories", Fixtures.sample("categories.json"), "--extension",
        "\(folder)/Info.plist", Fixtures.sample("chat-thread.json"),
      ])
    }
    #expect(screens[0].status == 0, "\(screens[0].stderr)")
    #expect(screens[1].status == 0, "\(screens[1].stderr)")
    #expect(screens[1].stdout == screens[0].stdout)
    // Findings: the XML one's codes and paths, at 1:1.
    try binary(Self.plist).write(to: built)
    #expect(
      try places(["--extension", "built/Info.plist"]) == [
        "built/Info.plist:1:1 wrong-extension-point [NSExtension.NSExtensionPointIdentifier]",
        "built/Info.plist:1:1 type-mismatch [NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio]",
        "built/Info.plist:1:1 type-mismatch [NSExtension.NSExtensionAttributes.UNNotificationExtensionDefaultContentHidden]",
      ])
    // Cut short: refused, naming the byte, exit 65 when rendered.
    let whole = try Data(contentsOf: built)
    try whole.prefix(whole.count - 20).write(to: built)
    let cut = try unterm(["render", "--extension", "built/Info.plist", Fixtures.sample("chat-thread.json")])
    #expect(cut.status == 65)
    #expect(
      cut.stderr
        == "built/Info.plist:1:1: error: binary property list: the trailer's integer sizes are invalid (byte \(whole.count - 46))\n"
    )
  }

  /// A key twice in an Info.plist is `duplicate-key`, as in JSON, at the second `<key>`, naming
  /// the first.
  @Test func aDuplicateKeyInAnInfoPlist() throws {
    try write(
      "d.plist",
      "<plist>\n<dict>\n  <key>a</key><string>x</string>\n  <key>a</key><string>y</string>\n</dict>\n</plist>\n")
    let result = try unterm(["lint", "--extension", "d.plist"])
    #expect(
      result.stdout.hasPrefix(
        "d.plist:4:3: error[duplicate-key]: duplicate key \"a\" in a dictionary (first at 3:3) [$]\n"),
      "\(result.stdout)")
  }

  /// A line ends at LF, CR LF or a lone CR, as editors and SARIF count lines: the same file
  /// with each ending gives the same places, of every kind of file.
  @Test func crlfAndCRFilesCountLinesAsEditorsDo() throws {
    let categories = """
      {
        "categories": [
          {"identifier": "পিঙ্গ", "actions": [{"identifier": "a", "title": "জবাব", "options": ["destructiv"]}]}
        ]
      }

      """
    let script = "size 40x10\n  push missing.json\nwiat 1s\n"
    var found: [String: [String]] = [:]
    for (name, end) in [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")] {
      func ending(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: end) }
      try write("\(name)/p.json", ending(Self.payload))
      try write("\(name)/c.json", ending(categories))
      try write("\(name)/Info.plist", ending(Self.plist))
      try write("\(name)/s.session", ending(script))
      found[name] = try places([
        "--categories", "\(name)/c.json", "--extension", "\(name)/Info.plist", "\(name)/p.json", "\(name)/s.session",
      ]).map { String($0.dropFirst(name.count + 1)) }
    }
    let lf = try #require(found["lf"])
    for expected in [
      "p.json:6:17 unknown-category [aps.category]", "p.json:9:8 number-out-of-range [x]",
      // After Bengali names of five and four scalars (two and three characters on screen).
      "c.json:3:90 unknown-option [categories[0].actions[0].options[0]]",
      "Info.plist:17:3 wrong-extension-point [NSExtension.NSExtensionPointIdentifier]",
      "s.session:2:8 script-missing-file [$]", "s.session:3:1 script-syntax [$]",
    ] {
      #expect(lf.contains(expected), "\(expected) not in \(lf)")
    }
    #expect(found["crlf"] == lf)
    #expect(found["cr"] == lf)
    // The interactive command and run name the same place in a CR LF file.
    let render = try unterm(["render", "crlf/p.json"])
    #expect(render.stderr == "crlf/p.json:9:8: error: the number 1e999 is out of range [x]\n")
    let run = try unterm(["run", "cr/s.session"])
    #expect(run.stderr == "cr/s.session:3:1: error: unknown command \"wiat\"; did you mean 'wait'?\n")
  }

  /// A file that is not UTF-8 is refused at its first bad byte, whatever kind of file it is,
  /// by lint and by run alike: counted in scalars after a byte-order mark, Bengali and a CR LF.
  @Test func invalidUTF8IsFoundAtItsFirstBadByte() throws {
    func bytes(_ text: String, then bad: [UInt8], _ rest: String) -> Data {
      Data(text.utf8) + Data(bad) + Data(rest.utf8)
    }
    let bom = "\u{FEFF}"
    try bytes(bom + "{\r\n  \"aps\": {\"alert\": \"ক্ষ", then: [0xC3, 0x28], "\"}\r\n}\r\n")
      .write(to: dir.appendingPathComponent("p.json"))
    try bytes(bom + "size 40x10\r\ntype \"ক্ষ", then: [0xFF], "\"\r\n").write(to: dir.appendingPathComponent("s.session"))
    try bytes("<plist>\r\n<dict>\r\n  <key>ক্ষ", then: [0xE0, 0x41], "</key>\r\n</dict>\r\n</plist>\r\n")
      .write(to: dir.appendingPathComponent("i.plist"))
    #expect(
      try places(["--extension", "i.plist", "p.json", "s.session"]) == [
        // `  "aps": {"alert": "` is 20 scalars and ক্ষ three more; `type "` 6; `  <key>` 7.
        "p.json:2:24 invalid-utf8 [$]", "s.session:2:10 invalid-utf8 [$]", "i.plist:3:11 invalid-plist [$]",
      ])
    let run = try unterm(["run", "s.session"])
    #expect(run.status == 65)
    #expect(run.stderr == "s.session:2:10: error: invalid UTF-8 sequence at byte 0xFF; a script is UTF-8 text\n")
  }

  /// Script columns count scalars as JSON's do: a Bengali conjunct is five, not one.
  @Test func scriptColumnsCountScalars() throws {
    try write(
      "b.session",
      "expect screen \"ক্ষমা\" banana\nexpect screen \"آپ کا\" extra\nexpect response x \"ক্ষমা\\q\"\nexpect screen\n")
    #expect(
      try places(["b.session"]) == [
        "b.session:1:23 script-syntax [$]", "b.session:2:23 script-syntax [$]", "b.session:3:25 script-syntax [$]",
        "b.session:4:14 script-syntax [$]",
      ])
  }

  @Test func aSessionScript() throws {
    try write("s.session", "size 40x10\n  push missing.json\nwiat 1s\ntheme \"no such\"\n")
    #expect(
      try places(["s.session"]) == [
        "s.session:2:8 script-missing-file [$]", "s.session:3:1 script-syntax [$]",
        "s.session:4:7 script-missing-file [$]",
      ])
    let run = try unterm(["run", "s.session"])
    #expect(run.status == 65)
    #expect(run.stderr == "s.session:3:1: error: unknown command \"wiat\"; did you mean 'wait'?\n")
  }
}
