import UNTermInput

/// The tool a SARIF report names. It has no `informationUri` (optional in SARIF 2.1.0): UNTerm
/// has no public home page, and a path on the machine that wrote the log means nothing to the
/// service that reads it; each rule's help text says where to read more.
package struct SARIFTool: Sendable {
  package var name: String
  package var version: String

  package init(name: String, version: String) {
    self.name = name
    self.version = version
  }
}

extension LintReport {
  /// The base a result's relative URI is resolved against: the working directory, the
  /// checkout on a CI runner.
  package static let sarifBase = "%SRCROOT%"

  /// The findings as a SARIF 2.1.0 log, as code-scanning services read it: one run; the tool's
  /// rules are every `LintCode` (id, name, short and full description, help, default level),
  /// and each finding is a result naming its rule (`ruleId`, `ruleIndex`), its level, its
  /// message, its file (a URI relative to the working directory, against `%SRCROOT%`; absolute
  /// when the file is outside it) with the line and column, and its JSON path as a logical
  /// location. Columns count Unicode code points (`columnKind`).
  package func sarif(tool: SARIFTool, paths: ArtifactPaths) -> SafeText {
    let codes = LintCode.allCases
    let rules: [JSONWriter.Value] = codes.map { code in
      .object([
        ("id", .string(code.rawValue)),
        ("name", .string(Self.ruleName(code))),
        ("shortDescription", .object([("text", .string(code.summary))])),
        ("fullDescription", .object([("text", .string(code.summary + " " + code.help))])),
        (
          "help",
          .object([
            (
              "text",
              .string("\(code.summary)\n\n\(code.help)\n\n`unterm lint --explain \(code.rawValue)` prints this.")
            )
          ])
        ),
        ("defaultConfiguration", .object([("level", .string(code.severity.rawValue))])),
      ])
    }
    var driver: [(String, JSONWriter.Value)] = [
      ("name", .string(tool.name)), ("version", .string(tool.version)), ("semanticVersion", .string(tool.version)),
    ]
    driver.append(("rules", .array(rules)))
    let index = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
    let results: [JSONWriter.Value] = diagnostics.map { d in
      var location: [(String, JSONWriter.Value)] = [
        (
          "physicalLocation",
          .object([
            ("artifactLocation", Self.artifactLocation(d.file, paths: paths)),
            (
              "region",
              .object([("startLine", .int(d.position.line)), ("startColumn", .int(d.position.column))])
            ),
          ])
        )
      ]
      if !d.location.path.components.isEmpty {
        location.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(d.pathText))])])))
      }
      return .object([
        ("ruleId", .string(d.code.rawValue)),
        ("ruleIndex", .int(index[d.code] ?? 0)),
        ("level", .string(d.severity.rawValue)),
        ("message", .object([("text", .string(d.message.oneLine.text))])),
        ("locations", .array([.object(location)])),
      ])
    }
    var run: [(String, JSONWriter.Value)] = [("tool", .object([("driver", .object(driver))]))]
    run.append(
      (
        "originalUriBaseIds",
        .object([(Self.sarifBase, .object([("uri", .string(Self.fileURI(paths.base, folder: true)))]))])
      )
    )
    run.append(("columnKind", .string("unicodeCodePoints")))
    run.append(("results", .array(results)))
    let log: JSONWriter.Value = .object([
      ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
      ("version", .string("2.1.0")),
      ("runs", .array([.object(run)])),
    ])
    return JSONWriter.safeText(log)
  }

  /// `unknown-category` → `UnknownCategory`: a rule's name, as SARIF suggests (an identifier).
  package static func ruleName(_ code: LintCode) -> String {
    code.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// A file's artifact location: a relative URI against `%SRCROOT%` inside the working
  /// directory, an absolute `file:` URI outside it, a description for standard input.
  private static func artifactLocation(_ file: String, paths: ArtifactPaths) -> JSONWriter.Value {
    if let relative = paths.relative(file) {
      return .object([("uri", .string(percentEncoded(relative))), ("uriBaseId", .string(sarifBase))])
    }
    if let absolute = paths.absolute(file) {
      return .object([("uri", .string(fileURI(absolute, folder: false)))])
    }
    return .object([("description", .object([("text", .string("standard input"))]))])
  }

  /// A `file:` URI for an absolute path; a folder's ends with `/`, as a base URI must.
  package static func fileURI(_ path: String, folder: Bool) -> String {
    let encoded = percentEncoded(path)
    return "file://" + encoded + (folder && !encoded.hasSuffix("/") ? "/" : "")
  }

  /// A path as a URI path (RFC 3986): unreserved characters, sub-delimiters, `@` and `/` are
  /// kept, every other byte of its UTF-8 is `%XX` — spaces, controls, `%`, `?`, `#`, `:` (which
  /// would read as a scheme in a relative reference) and every non-ASCII character.
  package static func percentEncoded(_ path: String) -> String {
    let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=@/".utf8)
    var out = ""
    for byte in path.utf8 {
      if kept.contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
      }
    }
    return out
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
