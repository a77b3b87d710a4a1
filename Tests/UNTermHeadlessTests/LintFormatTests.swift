import Foundation
import Testing
import UNTermInput
import UNTermLint
import UNTermTestSupport

/// Files to lint that hold everything hostile and malformed the formats must carry: controls,
/// bidi overrides and workflow-command look-alikes in keys, values and file names; broken JSON,
/// bad UTF-8, deep nesting, duplicate keys; a bad categories file, descriptor, Info.plist and
/// script; a file outside the working directory.
struct LintCorpus {
  let dir: URL
  let outside: URL
  var files: [String] = []

  /// A payload whose text would forge a second workflow command if a line break or `%0A`
  /// survived, or end the properties if a `:` or `,` did.
  static let forgery = "x\n::error file=forged.json,line=1::forged\r\n%0A::warning::forged%0D,line=9:"

  init() throws {
    dir = try Fixtures.temporaryDirectory()
    outside = try Fixtures.temporaryDirectory()
    let forged = JSONWriter.quote(Self.forgery)
    try add("hostile.json", SafetyMatrix.keyPayload)
    try add("markup.json", Fixtures.hostilePayload.replacingOccurrences(of: "}}}", with: "},\"badge\":-1}}"))
    try add(
      "forge.json",
      #"{"aps":{"alert":"x","category":\#(forged),"interruption-level":\#(forged),\#(forged):1},\#(forged):{"a":1}}"#)
    // Not cats.json's hostile identifier, so it is an unregistered category.
    let category = JSONWriter.quote("Message" + Hostile.text())
    try add("category-value.json", #"{"aps":{"alert":"x","category":\#(category)}}"#)
    try add(Hostile.fileName(".json"), SafetyMatrix.badPayload)
    try add("with space, comma: colon%25 #hash?.json", SafetyMatrix.badPayload)
    try add("বাংলা.json", #"{"aps":{"alert":"x","badge":"many"}}"#)
    try add("broken.json", "{\n  \"aps\": {\"alert\": \"x\",}\n}")
    try add("bad-utf8.json", [0x7B, 0x22, 0x61, 0x70, 0x73, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])
    try add("deep.json", String(repeating: "[", count: 40) + String(repeating: "]", count: 40))
    try add("dup.json", SafetyMatrix.duplicateKey)
    try add("empty.json", "")
    try add(
      "cats.json",
      #"{"categories":[{"identifier":\#(Hostile.json),"actions":[{"identifier":"a","title":"","options":[\#(Hostile.json)]}]},{"actions":[]}]}"#
    )
    try add(
      "ext.json",
      #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":[\#(Hostile.json)],"UNNotificationExtensionInitialContentSizeRatio":-1},"view":{"elements":[{"label":"{{nope}}","style":\#(Hostile.json)}]}}"#
    )
    try add(
      "Info.plist",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>UNNotificationExtensionCategory</key>
      \t\t\t<integer>3</integer>
      \t\t\t<key>\u{1B}[31m&#x202E;</key>
      \t\t\t<true/>
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>
      """)
    try add("broken.plist", "<plist><dict><key>a</key><strng>x</strng></dict></plist>")
    try add("s.session", "push \(Hostile.script)\n\(Hostile.script)\nsize huge\n")
    let far = outside.appendingPathComponent("far.json")
    try Data(SafetyMatrix.badPayload.utf8).write(to: far)
    files.append(far.path)
  }

  private mutating func add(_ name: String, _ text: String) throws {
    try add(name, Array(text.utf8))
  }

  private mutating func add(_ name: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: dir.appendingPathComponent(name))
    files.append(name)
  }

  /// `unterm lint` on every file, run in the corpus's folder (so names are relative).
  func lint(_ options: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    var arguments = ["lint"] + options
    for file in files {
      arguments += file.hasSuffix(".plist") ? ["--extension", file] : [file]
    }
    return try Fixtures.run(Fixtures.unterm, arguments, directory: dir.path)
  }
}

/// One finding as `--json` gives it.
struct Finding: Equatable {
  var file, path, severity, code, message: String
  var line, column: Int

  static func parse(_ json: String) throws -> [Finding] {
    let items = try #require(try JSONParser.parse(Array(json.utf8)).array)
    return try items.map { item in
      let o = try #require(item.object)
      #expect(o.keys == ["file", "path", "severity", "code", "message", "line", "column"])
      return Finding(
        file: try #require(o["file"]?.string), path: try #require(o["path"]?.string),
        severity: try #require(o["severity"]?.string), code: try #require(o["code"]?.string),
        message: try #require(o["message"]?.string), line: try #require(o["line"]?.number?.integer),
        column: try #require(o["column"]?.number?.integer))
    }
  }

  /// What the GitHub and text forms add after the message: the JSON path, unless it is `$`.
  var messageWithPath: String { path == "$" ? message : "\(message) [\(path)]" }
}

/// No output may hold a control a terminal acts on: only line feeds.
func expectNoControls(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let bad = text.unicodeScalars.filter {
    ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || SafeText.bidiControlName($0.value) != nil
  }
  #expect(bad.isEmpty, "\(what) holds \(bad.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
}

@Suite("lint --format: the hostile and malformed corpus through every format")
struct LintFormatTests {
  let corpus: LintCorpus
  let findings: [Finding]

  init() throws {
    corpus = try LintCorpus()
    let json = try corpus.lint(["--format", "json"])
    #expect(json.status == 1)
    expectNoControls(json.stdout, "json")
    findings = try Finding.parse(json.stdout)
  }

  @Test func theCorpusGivesEveryKindOfFinding() throws {
    // Every file of the corpus has something to say.
    let named = Set(findings.map(\.file))
    for file in corpus.files {
      #expect(named.contains(file), "no finding for \(file) in \(named.sorted())")
    }
    let codes = Set(findings.map(\.code))
    for code in [
      "invalid-json", "invalid-utf8", "too-deep", "duplicate-key", "invalid-plist", "script-syntax", "unknown-key",
      "type-mismatch", "number-out-of-range", "unknown-category", "control-characters", "unknown-option", "missing-key",
    ] {
      #expect(codes.contains(code), "\(code) missing from \(codes.sorted())")
    }
    #expect(findings.allSatisfy { $0.line >= 1 && $0.column >= 1 })
    // --json is --format json.
    let legacy = try corpus.lint(["--json"])
    #expect(try Finding.parse(legacy.stdout) == findings)
    // And the two cannot disagree.
    let both = try corpus.lint(["--json", "--format", "sarif"])
    #expect(both.status == 2)
    #expect(both.stderr.contains("--json is --format json"), "\(both.stderr)")
  }

  @Test func theTextFormIsOneLineAFindingWithItsPositionAndPath() throws {
    let result = try corpus.lint([])
    #expect(result.status == 1)
    expectNoControls(result.stdout, "text")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(lines.count == findings.count)
    for (line, f) in zip(lines, findings) {
      let file = SafeText(sanitizing: f.file).text
      #expect(line.hasPrefix("\(file):\(f.line):\(f.column): \(f.severity)[\(f.code)]: "), "\(line)")
      #expect(line.hasSuffix(" [\(SafeText(sanitizing: f.path).text)]"), "\(line)")
    }
    #expect(result.stderr.contains("errors,"), "\(result.stderr)")
  }

  // MARK: - GitHub

  /// Parses a workflow command back as the runner does: `::NAME PROPERTIES::MESSAGE`, the
  /// properties split at `,` and each at its first `=`, then unescaped.
  static func parseCommand(_ line: String) -> (name: String, properties: [String: String], message: String)? {
    guard line.hasPrefix("::") else { return nil }
    let rest = line.dropFirst(2)
    guard let end = rest.range(of: "::") else { return nil }
    let head = rest[..<end.lowerBound]
    let message = String(rest[end.upperBound...])
    let name = head.prefix { $0 != " " }
    var properties: [String: String] = [:]
    for pair in head.dropFirst(name.count + 1).split(separator: ",") {
      guard let eq = pair.firstIndex(of: "=") else { return nil }
      properties[String(pair[..<eq])] = unescape(String(pair[pair.index(after: eq)...]), property: true)
    }
    return (String(name), properties, unescape(message, property: false))
  }

  static func unescape(_ text: String, property: Bool) -> String {
    var out = text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
    if property {
      out = out.replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
    }
    return out.replacingOccurrences(of: "%25", with: "%")
  }

  @Test func githubLinesParseBackToExactlyTheFindings() throws {
    let result = try corpus.lint(["--format", "github"])
    #expect(result.status == 1)
    expectNoControls(result.stdout, "github")
    #expect(!result.stdout.contains("\r"))
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    // One command a finding: nothing a payload holds started a line of its own.
    #expect(lines.count == findings.count, "\(result.stdout)")
    let commands = ["error": "error", "warning": "warning", "note": "notice"]
    let paths = ArtifactPaths(workingDirectory: corpus.dir.path)
    for (line, f) in zip(lines, findings) {
      let parsed = try #require(Self.parseCommand(line), "\(line)")
      #expect(parsed.name == commands[f.severity])
      #expect(Set(parsed.properties.keys) == ["file", "line", "col", "title"], "\(line)")
      #expect(parsed.properties["file"] == SafeText(sanitizing: paths.relative(f.file) ?? f.file).text)
      #expect(parsed.properties["line"] == String(f.line))
      #expect(parsed.properties["col"] == String(f.column))
      #expect(parsed.properties["title"] == f.code)
      #expect(parsed.message == SafeText(sanitizing: f.messageWithPath).text, "\(line)")
      #expect(!parsed.message.contains("\n") && !parsed.message.contains("\r"))
    }
    // The forged text arrives as text: its percent signs escaped, its line breaks shown.
    let forged = try #require(lines.first { $0.contains("forge.json") && $0.contains("title=unknown-aps-key") })
    #expect(forged.contains("%250A::warning::forged%250D"), "\(forged)")
    #expect(Self.parseCommand(forged)?.message.contains("␊::error file=forged.json,line=1::forged") == true)
  }

  @Test func workflowCommandEscapes() {
    #expect(WorkflowCommand.data("50% done\r\n::x") == "50%25 done%0D%0A::x")
    #expect(WorkflowCommand.property("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
  }

  // MARK: - Code Climate (GitLab)

  @Test func codeClimateIssuesCarryEveryFinding() throws {
    let result = try corpus.lint(["--format", "codeclimate"])
    expectNoControls(result.stdout, "codeclimate")
    let items = try #require(try JSONParser.parse(Array(result.stdout.utf8)).array)
    #expect(items.count == findings.count)
    var fingerprints = Set<String>()
    let severities = ["error": "major", "warning": "minor", "note": "info"]
    for (item, f) in zip(items, findings) {
      let o = try #require(item.object)
      #expect(o["description"]?.string == SafeText(sanitizing: f.messageWithPath).text)
      #expect(o["check_name"]?.string == f.code)
      #expect(o["severity"]?.string == severities[f.severity])
      let fingerprint = try #require(o["fingerprint"]?.string)
      fingerprints.insert(fingerprint)
      let location = try #require(o["location"]?.object)
      #expect(location["path"]?.string?.isEmpty == false)
      #expect(location["lines"]?.object?["begin"]?.number?.integer == f.line)
    }
    #expect(fingerprints.count == items.count)
    // The same findings give the same fingerprints.
    #expect(try corpus.lint(["--format", "codeclimate"]).stdout == result.stdout)
  }

  /// A line added above a finding moves it but leaves it the same finding for GitLab; two
  /// findings alike but for their lines still get two fingerprints.
  @Test func codeClimateFingerprintsDoNotDependOnTheLine() throws {
    let dir = try Fixtures.temporaryDirectory()
    func fingerprints(_ script: String) throws -> [String: Int] {
      try Data(script.utf8).write(to: dir.appendingPathComponent("s.session"))
      let result = try Fixtures.run(
        Fixtures.unterm, ["lint", "--format", "codeclimate", "s.session"], directory: dir.path)
      let items = try #require(try JSONParser.parse(Array(result.stdout.utf8)).array)
      var out: [String: Int] = [:]
      for item in items {
        let o = try #require(item.object)
        out[try #require(o["fingerprint"]?.string)] = o["location"]?.object?["lines"]?.object?["begin"]?.number?.integer
      }
      return out
    }
    let before = try fingerprints("push gone.json\npush gone.json\n")
    #expect(before.count == 2)
    let after = try fingerprints("size 40x10\n\npush gone.json\npush gone.json\n")
    #expect(Set(after.keys) == Set(before.keys))
    #expect(Set(after.values) == [3, 4])
  }
}
