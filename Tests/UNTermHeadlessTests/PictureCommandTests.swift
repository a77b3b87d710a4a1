import Foundation
import Testing
import UNTermTestSupport

/// `unterm render --format` and `unterm sheet` as users call them: outputs, exit codes,
/// one-line errors, a sheet that holds what it promises and nothing it should not.
@Suite("Pictures on the command line", .hangGuard)
struct PictureCommandTests {
  private func unterm(_ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil) throws
    -> (status: Int32, stdout: String, stderr: String)
  {
    try Fixtures.run(Fixtures.unterm, arguments, stdin: stdin, environment: environment)
  }

  private let now = ["--now", "2026-11-29T20:00:00Z"]
  private var categories: [String] { Fixtures.sampleCategoriesArguments }

  // MARK: - render --format

  @Test func textAndAnsiAreTodaysOutputs() throws {
    let base = ["render"] + now + categories + [Fixtures.sample("message-bengali.json")]
    let text = try unterm(base + ["--format", "text"])
    #expect(text.status == 0)
    expectSameScreen(
      text.stdout, try unterm(base + ["--color", "never"]).stdout, "--format text against --color never")
    #expect(!text.stdout.contains("\u{1B}"))
    let ansi = try unterm(base + ["--format", "ansi"])
    expectSameScreen(
      ansi.stdout, try unterm(base + ["--color", "always"]).stdout, "--format ansi against --color always")
    #expect(ansi.stdout.contains("\u{1B}["))
    // --format decides over --color.
    expectSameScreen(
      try unterm(base + ["--color", "always", "--format", "text"]).stdout, text.stdout,
      "--format text with --color always")
  }

  @Test(arguments: ["message-bengali.json", "message-urdu.json", "cjk-emoji.json"])
  func theSVGReadsLikeTheTextScreen(_ sample: String) throws {
    for view in ["banner", "expanded", "center"] {
      let base = ["render"] + now + categories + ["--view", view, Fixtures.sample(sample)]
      let svg = try unterm(base + ["--format", "svg"])
      #expect(svg.status == 0)
      #expect(
        svg.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
      let lines = try unterm(base + ["--format", "text"]).stdout.split(
        separator: "\n", omittingEmptySubsequences: false
      )
      .map(String.init)
      #expect(try PictureReader(svg.stdout).rows == Array(lines.dropLast()), "\(sample) \(view)")
    }
  }

  @Test func theHTMLPageHoldsTheSameSVGAndNothingToFetch() throws {
    let base = ["render"] + now + categories + ["--theme", "dark", "--size", "60x12", Fixtures.sample("message.json")]
    let html = try unterm(base + ["--format", "html"])
    let svg = try unterm(base + ["--format", "svg"])
    #expect(html.status == 0)
    #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
    #expect(html.stdout.contains("default-src 'none'"))
    #expect(html.stdout.contains("data-columns=\"60\" data-rows=\"12\""))
    // The inline picture is the SVG file's, less the XML declaration and namespace.
    let standalone = svg.stdout.replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
      .replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\"", with: "")
    #expect(html.stdout.contains(standalone.trimmingCharacters(in: .newlines)))
    // The dark theme's card colour, at truecolor.
    #expect(svg.stdout.contains("fill=\"#1c1c1e\""))
  }

  @Test func aHostilePayloadStaysText() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("hostile.json").path
    try Data(Fixtures.hostilePayload.utf8).write(to: URL(fileURLWithPath: path))
    let svg = try unterm(["render"] + now + ["--format", "svg", path])
    #expect(svg.status == 0)
    let reader = try PictureReader(svg.stdout)
    #expect(Set(reader.elements.map(\.name)) == ["svg", "title", "style", "rect", "text"])
    let text = try unterm(["render"] + now + ["--format", "text", path]).stdout
    #expect(
      reader.rows == Array(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()))
    #expect(reader.rows.contains { $0.contains("<script>document.documentElement.setAttr") })
    #expect(reader.rows.contains { $0.contains("␛[31mred␛[0m ‹RLO›evil‹PDF› & &amp;") })
    for format in ["svg", "html"] {
      let out = try unterm(["render"] + now + ["--format", format, path]).stdout
      #expect(!out.contains("<script"))
      #expect(!out.contains("<img"))
      #expect(!out.contains("\u{1B}"))
      #expect(!out.contains("\u{202E}"))
    }
  }

  @Test func badFormatIsAUsageError() throws {
    let result = try unterm(["render", "--format", "png", Fixtures.sample("message.json")])
    #expect(result.status == 2)
    #expect(
      result.stderr == "error: --format must be text, ansi, html or svg, not 'png' (see 'unterm render --help')\n")
  }

  // MARK: - sheet

  /// A sheet of some samples, written to a fresh folder.
  private func sheet(_ extra: [String], payloads: [String]) throws -> (
    status: Int32, stdout: String, stderr: String, html: String, path: String
  ) {
    let out = try Fixtures.temporaryDirectory().appendingPathComponent("sheet.html").path
    let result = try unterm(["sheet", "--out", out] + now + extra + payloads)
    let html = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    return (result.status, result.stdout, result.stderr, html, out)
  }

  @Test func theSheetShowsEveryPayloadAcrossTheMatrix() throws {
    let payloads = ["message.json", "message-bengali.json", "media-episode.json"].map(Fixtures.sample)
    let result = try sheet(
      categories + ["--extension", Fixtures.sample("extension-media-card.json")], payloads: payloads)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("\(result.path): 3 payloads, 36 screens, "))
    let html = result.html
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    // 3 payloads × 2 devices × 2 states × 3 views.
    #expect(html.components(separatedBy: "<svg ").count - 1 == 36)
    for device in ["iphone", "ipad"] {
      for state in ["unlocked", "locked"] {
        for view in ["banner", "expanded", "center"] {
          let tag = "data-device=\"\(device)\" data-state=\"\(state)\" data-view=\"\(view)\" data-theme=\"default\""
          #expect(html.components(separatedBy: tag).count - 1 == 3, "\(tag)")
        }
      }
    }
    for name in ["message.json", "message-bengali.json", "media-episode.json"] {
      #expect(html.contains("<h2>\(name)</h2>"))
    }
    // The extension's QA numbers beside the expanded views, and the overflow marked.
    #expect(html.contains("<dt>Initial height</dt><dd>269.25 pt (359 × 0.75)</dd>"))
    #expect(html.contains("<dt>Preferred height</dt><dd>352 pt</dd>"))
    #expect(html.contains("<dt>Overflow</dt><dd class=\"bad\">32 pt over</dd>"))
    #expect(html.contains("<dt>Elements cut</dt><dd class=\"bad\">label &quot;{{userInfo.credits}}&quot;</dd>"))
    #expect(html.contains("<dt>Overflow</dt><dd class=\"good\">none (40 pt to spare)</dd>"))
    #expect(html.contains("<span class=\"over\">32 pt over the 320 pt budget</span>"))
    #expect(html.contains("class=\"overflow-mark\""))
    #expect(html.contains("The content extension is not loaded while previews are hidden"))
    // The actions, with what each sends.
    #expect(html.contains("<span class=\"title\">Reply</span> → <code>reply</code> + userText"))
    #expect(html.contains("authenticationRequired · text input “Send”, placeholder “Message…”"))
    #expect(html.contains("<span class=\"title destructive\">Delete</span> → <code>delete</code>"))
    #expect(html.contains("<code>com.apple.UNNotificationDefaultActionIdentifier</code>"))
    // The lint findings at the top, from the same checks as `unterm lint`.
    let lint = try unterm(
      ["lint"] + categories + ["--extension", Fixtures.sample("extension-media-card.json")] + payloads)
    // (message.json's summary-arg is one note: deprecated since iOS 15; so are the four sample
    // categories' categorySummaryFormat, which current iOS does not show; the extension is sized
    // on two devices at two text sizes, and its loading height is one more note per device.)
    #expect(html.contains("<p class=\"summary\">0 errors, 1 warning, 12 notes in 5 files</p>"))
    #expect(lint.stderr == "0 errors, 1 warning, 12 notes in 5 files\n")
    #expect(html.contains("[extension-overflow]</span> on iPhone the view is 352 pt tall"))
    // Self-contained: nothing to fetch, nothing to run.
    for forbidden in ["<script", "<link", "<img", "<iframe", "src=", "url(", "@import", "http://", "https://"] {
      #expect(!html.contains(forbidden), "\(forbidden)")
    }
    #expect(html.contains("default-src 'none'"))
  }

  @Test func aPayloadThatShowsNothingSaysWhyOnce() throws {
    let result = try sheet(categories, payloads: [Fixtures.sample("background-update.json")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.html.contains("<svg"))
    #expect(
      result.html.contains(
        "<p class=\"note\">Nothing is shown for this payload on any device, lock state or view: req-1: no alert text, so nothing is shown"
      ))
  }

  @Test func theSheetIsTheSameForTheSameInputs() throws {
    let args = categories + ["--views", "expanded", "--devices", "iphone"]
    let a = try sheet(args, payloads: [Fixtures.sample("meeting.json")])
    let b = try sheet(args, payloads: [Fixtures.sample("meeting.json")])
    #expect(a.status == 0)
    #expect(a.html == b.html)
  }

  @Test func listsNarrowTheMatrixAndTheSingleOptionsToo() throws {
    let payload = [Fixtures.sample("message.json")]
    let lists = try sheet(
      categories + ["--devices", "ipad", "--states", "locked", "--views", "list,banner", "--themes", "dark,default"],
      payloads: payload)
    #expect(lists.status == 0, "\(lists.stderr)")
    #expect(lists.html.components(separatedBy: "<svg ").count - 1 == 4)
    #expect(!lists.html.contains("data-device=\"iphone\""))
    #expect(!lists.html.contains("data-view=\"expanded\""))
    #expect(lists.html.contains("<h3 class=\"theme\">Theme dark</h3>"))
    let single = try sheet(categories + ["--device", "ipad", "--locked", "--theme", "dark"], payloads: payload)
    #expect(single.html.components(separatedBy: "<svg ").count - 1 == 3)
    #expect(single.html.components(separatedBy: "data-device=\"ipad\" data-state=\"locked\"").count - 1 == 3)
    #expect(single.html.contains("data-theme=\"dark\""))
    // --out - writes the page to standard output.
    let stdout = try unterm(["sheet", "--out", "-", "--views", "banner"] + now + payload)
    #expect(stdout.status == 0)
    #expect(stdout.stdout.hasPrefix("<!DOCTYPE html>"))
    // A payload from standard input is read once and drawn on every screen.
    let stdin = try unterm(
      ["sheet", "--out", "-", "--views", "banner,expanded"] + now + categories + ["-"],
      stdin: try String(contentsOfFile: Fixtures.sample("message.json"), encoding: .utf8))
    #expect(stdin.status == 0, "\(stdin.stderr)")
    #expect(stdin.stdout.components(separatedBy: "<svg ").count - 1 == 8)
    // The body on the four unlocked screens (locked ones hide it).
    #expect(stdin.stdout.components(separatedBy: "Are we still on for 8?").count - 1 == 4)
  }

  @Test func usageErrorsExitTwoWithOneLine() throws {
    let message = Fixtures.sample("message.json")
    let cases: [([String], String)] = [
      (["sheet"], "error: sheet needs at least one PAYLOAD file (or - for stdin) (see 'unterm sheet --help')"),
      (
        ["sheet", "--devices", "iphone,andriod", message],
        "error: --devices takes a comma list of iphone and ipad, not 'iphone,andriod' (see 'unterm sheet --help')"
      ),
      (
        ["sheet", "--views", "banner,expandd", message],
        "error: --views takes a comma list of banner, expanded and center (or list), not 'banner,expandd' (see 'unterm sheet --help')"
      ),
      (
        ["sheet", "--states", "unlocked,", message],
        "error: --states takes a comma list of unlocked and locked, not 'unlocked,' (see 'unterm sheet --help')"
      ),
      (
        ["sheet", "--view", "banner", message],
        "error: option '--view' is taken by 'unterm render', not by 'unterm sheet' (see 'unterm sheet --help')"
      ),
      (
        ["sheet", "--out", "", message],
        "error: --out needs a file name (or - for standard output) (see 'unterm sheet --help')"
      ),
      (
        [
          "sheet"
        ] + Fixtures.sampleCategoriesArguments + [
          Fixtures.sample("extension-chat-card.json")
        ],
        "error: sheet needs at least one PAYLOAD among its files; none of them is a payload (see 'unterm sheet --help')"
      ),
    ]
    for (args, expected) in cases {
      let result = try unterm(args)
      #expect(result.status == 2, "\(args)")
      #expect(result.stderr == expected + "\n", "\(args)")
    }
    let help = try unterm(["sheet", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("Usage: unterm sheet"))
    #expect(
      try unterm(["--help"]).stdout.contains(
        "unterm sheet [SESSION OPTIONS] [MODES] [APNS REQUEST HEADERS] [--now ISO8601] [SHEET OPTIONS] [--watch] PAYLOAD ..."
      ))
    #expect(try unterm(["render", "--help"]).stdout.contains("--format text|ansi|html|svg"))
  }

  @Test func badInputsExitWithTheirCodesAndLeaveTheLastSheetAlone() throws {
    let dir = try Fixtures.temporaryDirectory()
    let out = dir.appendingPathComponent("sheet.html").path
    try Data("the last good sheet".utf8).write(to: URL(fileURLWithPath: out))
    let invalid = dir.appendingPathComponent("invalid.json").path
    try Data(#"{"aps":{"alert":{"title":42}}}"#.utf8).write(to: URL(fileURLWithPath: invalid))
    let cases: [([String], Int32, String)] = [
      ([invalid], 65, "\(invalid):1:18: error: must be a string, not a number [aps.alert.title]"),
      (["/nonexistent/p.json"], 66, "/nonexistent/p.json: error: no such file"),
      (
        ["--themes", "default,nosuch", Fixtures.sample("message.json")], 66,
        "nosuch: error: no such theme; available: default, dark, high-contrast, monochrome, or a path to a theme file"
      ),
    ]
    for (args, code, message) in cases {
      let result = try unterm(["sheet", "--out", out] + args)
      #expect(result.status == code, "\(args)")
      #expect(result.stderr == message + "\n", "\(args)")
      #expect(try String(contentsOfFile: out, encoding: .utf8) == "the last good sheet")
    }
    let unwritable = dir.appendingPathComponent("no-such-folder/sheet.html").path
    let result = try unterm(["sheet", "--out", unwritable, Fixtures.sample("message.json")])
    #expect(result.status == 73)
    #expect(result.stderr == "\(unwritable): error: cannot write the sheet: No such file or directory\n")
    let onto = try unterm(["sheet", "--out", dir.path, Fixtures.sample("message.json")])
    #expect(onto.status == 73)
    #expect(onto.stderr.split(separator: "\n").count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["invalid.json", "sheet.html"])
  }

  @Test func aHostilePayloadInTheSheetStaysText() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("hostile <b>&.json").path
    try Data(Fixtures.hostilePayload.utf8).write(to: URL(fileURLWithPath: path))
    let result = try sheet([], payloads: [path])
    #expect(result.status == 0, "\(result.stderr)")
    for forbidden in ["<script", "<img", "<b>", "</svg><img", "\u{1B}", "\u{202E}", "\u{7}"] {
      #expect(!result.html.contains(forbidden), "\(forbidden)")
    }
    #expect(result.html.contains("<h2>hostile &lt;b&gt;&amp;.json</h2>"))
    #expect(result.html.contains("&lt;script&gt;document.documentElement.setAttr"))
  }

  /// The commands guide's picture is what the command it gives for it prints (RECORD_SNAPSHOTS=1
  /// re-records it after a deliberate change to how screens look).
  @Test func theGuidesPictureIsWhatItsCommandDraws() throws {
    let guide = try String(contentsOf: Fixtures.root.appendingPathComponent("Docs/commands.md"), encoding: .utf8)
    let command = try #require(
      guide.components(separatedBy: "```sh\n").lazy.map { $0.components(separatedBy: "\n```")[0] }
        .first { $0.contains("> Docs/") })
    var words = command.replacingOccurrences(of: "\\\n", with: " ").split(separator: " ").map(String.init)
    #expect(Array(words.prefix(3)) == ["swift", "run", "unterm"])
    let target = try #require(words.last)
    words = Array(words.dropFirst(3).dropLast(2))
    let result = try Fixtures.run(Fixtures.unterm, words, directory: Fixtures.root.path)
    #expect(result.status == 0, "\(result.stderr)")
    let url = Fixtures.root.appendingPathComponent(target)
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try Data(result.stdout.utf8).write(to: url)
      return
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    #expect(
      committed == result.stdout,
      "\(target) is not what its command in Docs/commands.md draws (RECORD_SNAPSHOTS=1 re-records)")
    #expect(guide.contains("](\(target.replacingOccurrences(of: "Docs/", with: "")))"))
  }
}
