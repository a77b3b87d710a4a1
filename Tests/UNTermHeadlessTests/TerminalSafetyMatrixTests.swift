import Foundation
import Testing
import UNTermInput
import UNTermTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Text as a hostile payload author writes it: "pwned" (so a test can see the text was shown),
/// every C0 control, DEL, every C1 control (as UTF-8 code points), the sequences terminals act
/// on — CSI, OSC 0 (title) ended by BEL, OSC 52 (clipboard) ended by ST, DCS, APC, queries, and
/// C1's own CSI and OSC — and the twelve bidi controls.
enum Hostile {
  static let witness = "pwned"

  static let sequences =
    "\u{1B}[2J\u{1B}[H" + "\u{1B}]0;title\u{07}" + "\u{1B}]52;c;cHduZWQ=\u{1B}\\" + "\u{1B}P$qm\u{1B}\\"
    + "\u{1B}_apc\u{1B}\\" + "\u{1B}[c\u{1B}[21t" + "\u{9B}6n" + "\u{9D}0;c1\u{9C}"

  static let bidi = "\u{061C}\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"

  /// The text; `nul` and `slash` say whether the carrier can hold U+0000 and `/` (a file name
  /// holds neither, an argument no NUL).
  static func text(nul: Bool = true, slash: Bool = true) -> String {
    var out = witness
    for value in UInt32(nul ? 0 : 1)...0x1F {
      if let scalar = Unicode.Scalar(value) { out.unicodeScalars.append(scalar) }
    }
    out += "\u{7F}"
    for value in UInt32(0x80)...0x9F {
      if let scalar = Unicode.Scalar(value) { out.unicodeScalars.append(scalar) }
    }
    out += sequences + bidi + "end"
    return slash ? out : out.replacingOccurrences(of: "/", with: "")
  }

  /// For an argument on the command line.
  static var argument: String { text(nul: false) }

  /// For a file name (`.json`, `.session`…): no NUL, no `/`.
  static func fileName(_ suffix: String) -> String { text(nul: false, slash: false) + suffix }

  /// As a JSON string literal, every control escaped.
  static var json: String { JSONWriter.quote(text()) }

  /// As a quoted argument of a session script: `\`, `"` and line feeds escaped, the rest raw.
  static var script: String {
    let escaped = text(nul: false).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
      of: "\"", with: "\\\""
    ).replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "")
    return "\"\(escaped)\""
  }
}

/// Where the bytes a command writes go.
enum Output: String, Sendable, CaseIterable {
  /// The interactive session's screen (its standard output, a terminal).
  case screen
  case stdout
  case stderr
  /// The text of a `--cast` recording: every event's data and the header's title.
  case cast
}

/// A scratch folder for one row, and the `unterm` runs made in it.
final class Workspace {
  let dir: URL
  /// What each output received.
  var outputs: [Output: [UInt8]] = [:]

  init() throws { dir = try Fixtures.temporaryDirectory() }

  func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

  /// Writes a file; returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  var environment: [String: String] {
    [
      "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": dir.path, "PATH": "/usr/bin:/bin",
      "SWIFT_BACKTRACE": "enable=no", "XDG_RUNTIME_DIR": dir.path, "UNTERM_HOME": Fixtures.root.path,
    ]
  }

  /// Runs `unterm` with standard output and standard error on two pseudo-terminals, as a user
  /// sees them; what each received is kept under `stdout` (or `screen`) and `stderr`.
  func unterm(_ arguments: [String], as output: Output = .stdout, timeout: TimeInterval = ChildProcess.defaultLimit)
    throws
  {
    let terminal = try PseudoTerminal(width: 100, height: 30)
    let errors = try PseudoTerminal()
    try terminal.start(Fixtures.unterm, arguments, environment: environment, standardError: errors)
    try terminal.waitForExit(timeout: timeout, standardError: errors)
    outputs[output, default: []] += terminal.output
    outputs[.stderr, default: []] += errors.output
  }

  /// Starts the interactive session on a pseudo-terminal with its socket in the folder, runs
  /// `meanwhile` (given the socket) once its screen shows `ready`, waits for the screen to show
  /// the untrusted text, then quits with `q`.
  func interactive(_ arguments: [String], ready: String, meanwhile: (String) throws -> Void = { _ in }) throws {
    let terminal = try PseudoTerminal(width: 100, height: 30)
    let errors = try PseudoTerminal()
    let socket = path("s.sock")
    try terminal.start(
      Fixtures.unterm, ["--socket", socket] + arguments, environment: environment, standardError: errors)
    try terminal.waitFor(ready)
    try meanwhile(socket)
    try terminal.waitFor(Hostile.witness)
    terminal.send("q")
    try terminal.waitForExit(standardError: errors)
    outputs[.screen, default: []] += terminal.output
    outputs[.stderr, default: []] += errors.output
  }

  /// Reads a cast file's text: the header's title and every event's data.
  func readCast(_ file: String) throws {
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    var text: [UInt8] = []
    for (index, line) in lines.enumerated() {
      let value = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
      if index == 0, let header = value as? [String: Any] {
        text += Array(((header["title"] as? String) ?? "").utf8)
      } else if let event = value as? [Any], event.count == 3, let data = event[2] as? String {
        text += Array(data.utf8)
      }
    }
    outputs[.cast, default: []] += text
  }
}

/// One row of the matrix: a command, a place untrusted text reaches it from, the output that
/// must show that text (sanitized), and how to make it happen.
struct SafetyRow: Sendable, CustomTestStringConvertible {
  var command: String
  var place: String
  var shownOn: Set<Output>
  var run: @Sendable (Workspace) throws -> Void

  var testDescription: String { "\(command) × \(place)" }
}

/// The commands × the places untrusted text appears. A new command or output is one more row.
enum SafetyMatrix {
  static let payload =
    #"{"aps":{"alert":{"title":\#(Hostile.json),"subtitle":\#(Hostile.json),"body":\#(Hostile.json)}}}"#
  static let badPayload = #"{"aps":{"alert":"x","badge":-1}}"#
  static let keyPayload = #"{"aps":{"alert":{"title":"x",\#(Hostile.json):1},\#(Hostile.json):1}}"#
  static let duplicateKey = #"{"aps":{"alert":"x"},\#(Hostile.json):1,\#(Hostile.json):2}"#
  static let samples = Fixtures.samples.path

  static let rows: [SafetyRow] = [
    // The interactive session.
    SafetyRow(command: "unterm", place: "payload title, subtitle and body", shownOn: [.screen]) { w in
      try w.interactive([try w.write("hostile.json", payload)], ready: Hostile.witness)
    },
    SafetyRow(command: "unterm", place: "file name dropped into the inbox", shownOn: [.screen]) { w in
      try w.interactive([], ready: "Watching") { socket in
        let inbox = socket + ".inbox"
        try Data(#"{"aps":{"alert":"dropped"}}"#.utf8).write(to: URL(fileURLWithPath: inbox + "/.incoming"))
        rename(inbox + "/.incoming", inbox + "/" + Hostile.fileName(".json"))
      }
    },
    SafetyRow(command: "unterm", place: "theme name (--theme)", shownOn: [.stderr]) { w in
      try w.unterm(["--theme", Hostile.argument, try w.write("a.json", badPayload)])
    },
    SafetyRow(command: "unterm", place: "missing payload file", shownOn: [.stderr]) { w in
      try w.unterm([w.path(Hostile.fileName(".json"))])
    },
    SafetyRow(command: "unterm", place: "unknown command", shownOn: [.stderr]) { w in
      try w.unterm([Hostile.argument])
    },
    SafetyRow(command: "unterm help", place: "topic", shownOn: [.stderr]) { w in
      try w.unterm(["help", Hostile.argument])
    },
    // unterm push, into a running session.
    SafetyRow(command: "unterm push", place: "file name (delivered)", shownOn: [.stdout, .screen]) { w in
      let file = try w.write(Hostile.fileName(".json"), payload)
      try w.interactive([], ready: "Listening") { socket in
        try w.unterm(["push", "--socket", socket, file])
      }
    },
    SafetyRow(command: "unterm push", place: "refused payload's key", shownOn: [.stderr, .screen]) { w in
      let file = try w.write("dup.json", duplicateKey)
      try w.interactive([], ready: "Listening") { socket in
        try w.unterm(["push", "--socket", socket, file])
      }
    },
    SafetyRow(command: "unterm push", place: "socket path, no session", shownOn: [.stderr]) { w in
      try w.unterm(["push", "--socket", w.path(Hostile.fileName(".sock")), try w.write("a.json", payload)])
    },
    // unterm render.
    SafetyRow(command: "unterm render", place: "payload title, subtitle and body", shownOn: [.stdout]) { w in
      try w.unterm(["render", "--color", "always", try w.write("a.json", payload)])
    },
    SafetyRow(command: "unterm render", place: "payload key (a duplicate)", shownOn: [.stderr]) { w in
      try w.unterm(["render", try w.write("dup.json", duplicateKey)])
    },
    SafetyRow(command: "unterm render", place: "payload file name", shownOn: [.stderr]) { w in
      try w.unterm(["render", try w.write(Hostile.fileName(".json"), badPayload)])
    },
    SafetyRow(command: "unterm render", place: "option value (--size)", shownOn: [.stderr]) { w in
      try w.unterm(["render", "--size", Hostile.argument, try w.write("a.json", payload)])
    },
    SafetyRow(command: "unterm render", place: "unknown option", shownOn: [.stderr]) { w in
      try w.unterm(["render", "--" + Hostile.argument, try w.write("a.json", payload)])
    },
    SafetyRow(command: "unterm render --trace", place: "attachment URL", shownOn: [.stderr]) { w in
      let json = #"{"aps":{"alert":"x","mutable-content":1},"attachment-url":\#(Hostile.json)}"#
      try w.unterm(["render", "--trace", try w.write("a.json", json)])
    },
    SafetyRow(command: "unterm render", place: "theme file's role", shownOn: [.stderr]) { w in
      let theme = try w.write("t.json", #"{"roles":{\#(Hostile.json):{"bold":true}}}"#)
      try w.unterm(["render", "--theme", theme, try w.write("a.json", payload)])
    },
    // unterm lint.
    SafetyRow(command: "unterm lint", place: "payload keys", shownOn: [.stdout]) { w in
      try w.unterm(["lint", try w.write("a.json", keyPayload)])
    },
    SafetyRow(command: "unterm lint", place: "payload value (category)", shownOn: [.stdout]) { w in
      let json = #"{"aps":{"alert":"x","category":\#(Hostile.json)}}"#
      try w.unterm(["lint", "--categories", samples + "/categories.json", try w.write("a.json", json)])
    },
    SafetyRow(command: "unterm lint", place: "payload file name", shownOn: [.stdout]) { w in
      try w.unterm(["lint", try w.write(Hostile.fileName(".json"), badPayload)])
    },
    SafetyRow(command: "unterm lint", place: "script line", shownOn: [.stdout]) { w in
      try w.unterm(["lint", try w.write("s.session", "push \(Hostile.script)\n\(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm lint --json", place: "payload keys", shownOn: [.stdout]) { w in
      try w.unterm(["lint", "--json", try w.write("a.json", keyPayload)])
    },
    SafetyRow(command: "unterm lint --json", place: "payload file name", shownOn: [.stdout]) { w in
      try w.unterm(["lint", "--json", try w.write(Hostile.fileName(".json"), badPayload)])
    },
    SafetyRow(command: "unterm lint --explain", place: "code", shownOn: [.stderr]) { w in
      try w.unterm(["lint", "--explain", Hostile.argument])
    },
    // unterm run.
    SafetyRow(command: "unterm run", place: "script line and the file it names", shownOn: [.stdout, .stderr]) { w in
      try w.unterm(["run", try w.write("s.session", "push \(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm run", place: "script syntax error", shownOn: [.stderr]) { w in
      try w.unterm(["run", try w.write("s.session", "\(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm run", place: "theme name in a script", shownOn: [.stdout, .stderr]) { w in
      try w.unterm(["run", try w.write("s.session", "theme \(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm lint", place: "theme name in a script", shownOn: [.stdout]) { w in
      try w.unterm(["lint", try w.write("s.session", "theme \(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm run", place: "script file name", shownOn: [.stdout]) { w in
      try w.unterm(["run", try w.write(Hostile.fileName(".session"), "size 60x20\n")])
    },
    SafetyRow(command: "unterm run", place: "expectation and payload on the report's screen", shownOn: [.stdout]) {
      w in
      try w.write("a.json", payload)
      try w.unterm(["run", try w.write("s.session", "push a.json\nexpect screen \(Hostile.script)\n")])
    },
    SafetyRow(command: "unterm run", place: "snapshot file", shownOn: [.stdout]) { w in
      try w.write("shot.txt", Hostile.text())
      try w.unterm(["run", try w.write("s.session", "size 40x10\nsnapshot shot\n")])
    },
    SafetyRow(command: "unterm run", place: "typed reply in the recent responses", shownOn: [.stdout]) { w in
      let script = """
        \(Fixtures.sampleCategoriesScript("\(samples)/categories.json"))
        push \(samples)/message.json
        longpress
        action reply
        type \(Hostile.script)
        send
        expect no response
        """
      try w.unterm(["run", try w.write("s.session", script + "\n")])
    },
    SafetyRow(command: "unterm run --live", place: "captions and the screen", shownOn: [.stdout]) { w in
      try w.write("a.json", payload)
      try w.unterm([
        "run", "--live", "--speed", "50", try w.write("s.session", "push a.json\ntype \(Hostile.script)\n"),
      ])
    },
    SafetyRow(command: "unterm run --cast", place: "recording's screens, markers and title", shownOn: [.cast]) { w in
      try w.write("a.json", payload)
      let script = try w.write(Hostile.fileName(".session"), "push a.json\nexpect screen \(Hostile.script)\n")
      let cast = w.path("out.cast")
      try w.unterm(["run", "--cast", cast, script])
      try w.readCast(cast)
    },
    SafetyRow(command: "unterm run --cast", place: "recording's path", shownOn: [.stderr]) { w in
      let folder = w.path(Hostile.fileName(""))
      try w.unterm(["run", "--cast", folder + "/out.cast", try w.write("s.session", "size 40x10\n")])
    },
    // unterm log: a response log read back.
    SafetyRow(command: "unterm log", place: "response fields", shownOn: [.stdout]) { w in
      try w.unterm(["log", try w.write("log.jsonl", logRecord + "\n")])
    },
    SafetyRow(command: "unterm log --json", place: "response fields", shownOn: [.stdout]) { w in
      try w.unterm(["log", "--json", try w.write("log.jsonl", logRecord + "\n")])
    },
    SafetyRow(command: "unterm log", place: "damaged line and file name", shownOn: [.stderr]) { w in
      try w.unterm(["log", try w.write(Hostile.fileName(".jsonl"), "{\"x\":\(Hostile.json)\n[1]\n")])
    },
    // Pictures, printed to the terminal.
    SafetyRow(command: "unterm render --format svg", place: "payload and file name", shownOn: [.stdout]) { w in
      try w.unterm(["render", "--format", "svg", try w.write(Hostile.fileName(".json"), payload)])
    },
    SafetyRow(command: "unterm render --format html", place: "payload and file name", shownOn: [.stdout]) { w in
      try w.unterm(["render", "--format", "html", try w.write(Hostile.fileName(".json"), payload)])
    },
    SafetyRow(command: "unterm sheet --out -", place: "payload, file name and lint findings", shownOn: [.stdout]) {
      w in
      try w.unterm(["sheet", "--out", "-", "--device", "iphone", try w.write(Hostile.fileName(".json"), keyPayload)])
    },
  ]

  static let logRecord =
    #"{"actionIdentifier":\#(Hostile.json),"userText":\#(Hostile.json),"requestIdentifier":\#(Hostile.json),"categoryIdentifier":\#(Hostile.json),"threadIdentifier":\#(Hostile.json),"date":\#(Hostile.json),"device":\#(Hostile.json),"locked":false}"#
}

@Suite("Terminal safety: every command × every place untrusted text appears, bytes scanned on a PTY", .hangGuard)
struct TerminalSafetyMatrixTests {
  @Test(arguments: SafetyMatrix.rows)
  func row(_ row: SafetyRow) throws {
    let workspace = try Workspace()
    defer { try? FileManager.default.removeItem(at: workspace.dir) }
    try row.run(workspace)
    for (output, bytes) in workspace.outputs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let violations = TerminalBytes.violations(in: bytes)
      let shown = violations.prefix(5).map(\.description).joined(separator: "\n")
      #expect(
        violations.isEmpty,
        "\(row.testDescription): \(output.rawValue) received \(violations.count) control(s):\n\(shown)")
    }
    for output in row.shownOn {
      let bytes = workspace.outputs[output] ?? []
      let tail = TerminalBytes.escaped(Array(bytes.suffix(600)))
      #expect(
        bytes.firstRange(of: Array(Hostile.witness.utf8)) != nil,
        "\(row.testDescription): \(output.rawValue) does not show the untrusted text, so the row proves nothing:\n\(tail)"
      )
    }
  }

  /// The scanner itself: it lets through what ncurses writes and catches each hostile form.
  @Test func theScannerKnowsWhatNcursesWritesFromWhatAPayloadHolds() {
    let ncurses =
      "\u{1B}[?1049h\u{1B}[22;0;0t\u{1B}[1;24r\u{1B}(B\u{1B}[m\u{1B}[4l\u{1B}[?7h\u{1B}[?1h\u{1B}=\u{1B}[H\u{1B}[2J"
      + "\u{1B}[38;5;12;48;5;0m│ ক্ষমা یہ ␛]0;x␇ ‹RLO›\u{1B}[K\r\n\u{1B}[24d\u{1B}[?1006;1000h\u{1B}[?2004h\u{1B}[?25l"
      + "\u{1B}[?1049l\u{1B}[23;0;0t\u{1B}>\u{1B}[?12l\u{1B}[?25h"
    #expect(TerminalBytes.violations(in: Array(ncurses.utf8)).isEmpty)
    let hostile: [(String, String)] = [
      ("\u{1B}]0;title\u{07}", "OSC"), ("\u{1B}]52;c;eA==\u{1B}\\", "OSC"), ("\u{1B}P$qm\u{1B}\\", "DCS"),
      ("\u{1B}_x\u{1B}\\", "APC"), ("\u{1B}[c", "query"), ("\u{1B}[21t", "window"), ("\u{1B}[6n", "query"),
      ("\u{1B}[?1004h", "mode"), ("\u{07}", "C0"), ("\u{7F}", "DEL"), ("\u{9B}2J", "C1"), ("\u{202E}", "bidi"),
      ("\u{1B}c", "escape"),
    ]
    for (text, kind) in hostile {
      #expect(!TerminalBytes.violations(in: Array(("ok " + text + " ok").utf8)).isEmpty, "\(kind) passed")
    }
    #expect(!TerminalBytes.violations(in: [0x41, 0x9B, 0x41]).isEmpty, "a raw 8-bit C1 byte passed")
  }
}
