import UNTermInput

/// The forms `unterm lint` writes its findings in (`--format`).
package enum LintFormat: String, CaseIterable, Sendable {
  /// `FILE:LINE:COL: SEVERITY[CODE]: MESSAGE [PATH]`, one a line: what compilers print.
  case text
  /// A JSON array of objects: the contract's five keys, `line` and `column`.
  case json
  /// SARIF 2.1.0, as code-scanning services read it.
  case sarif
  /// GitHub Actions workflow commands: one annotation a finding.
  case github
  /// A GitLab code-quality report (Code Climate's issue format): merge requests show it.
  case codeclimate
}

/// Findings gathered by `lint`, and the forms it writes them in. Every form is made from the
/// same `Diagnostic` values: file, line and column, JSON path, severity, code and message.
package struct LintReport: Sendable {
  package var diagnostics: [Diagnostic] = []

  package init(diagnostics: [Diagnostic] = []) { self.diagnostics = diagnostics }

  /// Whether a finding is an error (lint then exits 1).
  package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The text form, one line a finding.
  package var text: [SafeText] { diagnostics.map(\.formatted) }

  /// The findings as a JSON array: the contract's five keys (`file`, `path`, `severity`,
  /// `code`, `message`), then `line` and `column`. File names, paths and messages are
  /// JSON-escaped.
  package var json: SafeText {
    let items: [JSONWriter.Value] = diagnostics.map { d in
      .object([
        ("file", .string(d.file)), ("path", .string(d.pathText)), ("severity", .string(d.severity.rawValue)),
        ("code", .string(d.code.rawValue)), ("message", .string(d.message.text)),
        ("line", .int(d.position.line)), ("column", .int(d.position.column)),
      ])
    }
    return JSONWriter.safeText(.array(items))
  }

  /// One-line totals: `1 error, 2 warnings, 0 notes in 3 files`.
  package func summary(files: Int) -> SafeText {
    let errors = diagnostics.filter { $0.severity == .error }.count
    let warnings = diagnostics.filter { $0.severity == .warning }.count
    let notes = diagnostics.filter { $0.severity == .note }.count
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return
      "\(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note")) in \(plural(files, "file"))"
  }
}

// MARK: - GitHub Actions annotations

extension LintReport {
  /// One workflow command a finding — `::error file=F,line=L,col=C,title=CODE::MESSAGE` (and
  /// `::warning`, `::notice` for a note) — which the runner shows as an annotation on the line.
  ///
  /// The runner reads a command only at the start of a line, so nothing from a file may start
  /// one: the file name and message pass the sanitizer first (every control, line separator
  /// and bidi control becomes a visible placeholder), then the format's own escapes apply — `%`,
  /// CR and LF in the message, and also `:` and `,` in a property, so a file name cannot end
  /// the properties or add one. `paths` gives each file as the annotation names it (relative to
  /// the workspace).
  package func github(paths: ArtifactPaths) -> [SafeText] {
    diagnostics.map { d in
      let command: String
      switch d.severity {
      case .error: command = "error"
      case .warning: command = "warning"
      case .note: command = "notice"
      }
      let file = SafeText(sanitizing: paths.relative(d.file) ?? d.file).text
      let path: SafeText = d.location.path.components.isEmpty ? "" : " [\(d.pathText)]"
      let message = d.message.oneLine + path
      let line =
        "::\(command) file=\(WorkflowCommand.property(file)),line=\(d.position.line),col=\(d.position.column),"
        + "title=\(WorkflowCommand.property(d.code.rawValue))::\(WorkflowCommand.data(message.text))"
      // Sanitized, then escaped: the escapes add no control, so the sanitizer keeps them as
      // they are.
      return SafeText(sanitizing: line)
    }
  }
}

// MARK: - GitLab code quality

extension LintReport {
  /// The findings as a GitLab code-quality report: a JSON array of Code Climate issues, each
  /// with its description, the code as `check_name`, a fingerprint (the same finding gets the
  /// same one in every run, so GitLab can tell new findings from old: it is made of the file,
  /// the code, the JSON path and the message, not the line, so a line added above a finding
  /// does not make it new; the second of two such findings counts as a part), a severity (`major` for an
  /// error, `minor` for a warning, `info` for a note) and the file (relative to the working
  /// directory) and line (Code Climate's locations are lines or positions, not both; GitLab
  /// shows the line).
  package func codeClimate(paths: ArtifactPaths) -> SafeText {
    var seen: [[String]: Int] = [:]
    let items: [JSONWriter.Value] = diagnostics.map { d in
      let severity: String
      switch d.severity {
      case .error: severity = "major"
      case .warning: severity = "minor"
      case .note: severity = "info"
      }
      let file = paths.relative(d.file) ?? d.file
      let path: SafeText = d.location.path.components.isEmpty ? "" : " [\(d.pathText)]"
      var identity = [file, d.code.rawValue, d.pathText, d.message.text]
      let occurrence = seen[identity, default: 0]
      seen[identity] = occurrence + 1
      if occurrence > 0 { identity.append(String(occurrence)) }
      return .object([
        ("description", .string((d.message.oneLine + path).text)),
        ("check_name", .string(d.code.rawValue)),
        ("fingerprint", .string(Self.fingerprint(identity))),
        ("severity", .string(severity)),
        (
          "location",
          .object([
            ("path", .string(file)),
            ("lines", .object([("begin", .int(d.position.line))])),
          ])
        ),
      ])
    }
    return JSONWriter.safeText(.array(items))
  }

  /// A stable fingerprint of a finding's parts: two FNV-1a 64-bit hashes (forwards and of the
  /// parts reversed), as 32 hex digits.
  static func fingerprint(_ parts: [String]) -> String {
    func fnv(_ bytes: some Sequence<UInt8>) -> UInt64 {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      return hash
    }
    let joined = Array(parts.joined(separator: "\u{0}").utf8)
    func hex(_ value: UInt64) -> String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    return hex(fnv(joined)) + hex(fnv(joined.reversed()))
  }
}

/// The escapes of GitHub Actions workflow commands (`@actions/core`'s `escapeData` and
/// `escapeProperty`).
package enum WorkflowCommand {
  /// A command's message: `%`, CR and LF escaped.
  package static func data(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A property's value: as a message, and `:` and `,` too.
  package static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}

/// Names files as CI systems want them: relative to the working directory (the checkout), or
/// absolute when outside it.
package struct ArtifactPaths: Sendable {
  /// The working directory, absolute, without a final `/`.
  package var base: String

  package init(workingDirectory: String) {
    var base = workingDirectory
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    self.base = base
  }

  /// A file as given (`SamplePayloads/a.json`, `./a.json`, `/abs/a.json`) made absolute and
  /// normal (`.` and `..` resolved as text, links kept): nil for standard input (`-`).
  package func absolute(_ file: String) -> String? {
    guard file != "-" && !file.isEmpty else { return nil }
    let joined = file.hasPrefix("/") ? file : base + "/" + file
    var parts: [Substring] = []
    for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The file relative to the working directory, or nil when it is outside it (or standard
  /// input).
  package func relative(_ file: String) -> String? {
    guard let absolute = absolute(file) else { return nil }
    let prefix = base == "/" ? "/" : base + "/"
    guard absolute.hasPrefix(prefix), absolute.count > prefix.count else { return nil }
    return String(absolute.dropFirst(prefix.count))
  }
}
