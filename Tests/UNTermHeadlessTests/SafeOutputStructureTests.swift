import Foundation
import Testing
import UNTermTestSupport

/// Untrusted text cannot reach an output raw, and that is the compiler's rule: every output
/// takes `SafeText`, which only the sanitizer, the escapers, literals and interpolation make;
/// and nothing in `Sources/` writes to standard output or error except `Console`.
@Suite("Safe text is structural")
struct SafeOutputStructureTests {
  @Test func theCompilerRefusesARawStringAtEveryOutput() throws {
    let prelude = """
      import UNTermInput
      import UNTermHeadless

      func outside(raw: String, sub: Substring, literal: StaticString) {

      """
    // Each of these compiles: the program's own text, interpolation (which sanitizes), the
    // sanitizer, the escapers; and the outputs' types are `SafeText`.
    let allowed = [
      #"Console.line("literal \u{1B}[0m")"#,
      #"Console.line("shown: \(raw) \(sub) \(42)")"#,
      #"Console.write(SafeText(sanitizing: raw, multiline: true), to: .standardError)"#,
      #"_ = UNTermError(.usage, "unknown option '\(raw)'")"#,
      #"_ = Diagnostic(file: raw, location: .file, code: .invalidJSON, message: "bad \(sub)")"#,
      #"Console.line(SafeText(xmlEscaping: raw) + JSONWriter.safeText(.string(raw)))"#,
      #"let _: KeyPath<UNTermError, SafeText> = \.line"#,
      #"let _: KeyPath<UNTermError, SafeText> = \.message"#,
      #"let _: KeyPath<Diagnostic, SafeText> = \.formatted"#,
      #"let _: KeyPath<ScriptFailure, SafeText> = \.report"#,
      #"let _: KeyPath<TraceLine, SafeText> = \.printed"#,
    ]
    let accepted = try Typecheck.run(prelude + allowed.map { "  " + $0 }.joined(separator: "\n") + "\n}\n")
    #expect(accepted.status == 0, "\(accepted.errors.joined(separator: "\n"))")

    // Each of these is refused: a `String` never becomes `SafeText` without the sanitizer.
    let refused = [
      "Console.line(raw)",
      "Console.write(raw, to: .standardError)",
      "_ = UNTermError(.usage, raw)",
      "_ = Diagnostic(file: raw, location: .file, code: .invalidJSON, message: raw)",
      "let _: SafeText = raw",
      "let _: SafeText = SafeText(verified: raw)",
      "let _: SafeText = SafeText(stringLiteral: raw)",
      "var i = SafeText.Interpolation(literalCapacity: 0, interpolationCount: 0); i.appendLiteral(raw)",
      "Console.line(\"a\" + raw)",
    ]
    let firstLine = prelude.split(separator: "\n", omittingEmptySubsequences: false).count
    let result = try Typecheck.run(prelude + refused.map { "  " + $0 }.joined(separator: "\n") + "\n}\n")
    #expect(result.status != 0)
    for (offset, line) in refused.enumerated() {
      let marker = "outside.swift:\(firstLine + offset):"
      #expect(result.errors.contains { $0.contains(marker) }, "compiles, but must not: \(line)")
    }
  }

  /// What writes to standard output or error directly. `Console` is the one writer; the
  /// restore handler writes fixed bytes from a signal handler; the example app uses only the
  /// public API (which has no `SafeText`), and prints its own text and `UNTermSession`'s
  /// errors, which are sanitized; `unterm-floor`, the bare program start-up is measured
  /// against, uses nothing of UNTerm's and prints only a number and its own messages.
  static let directWrites = [
    #"(?<![.\w])print\("#, #"Swift\.print\("#, #"\bdebugPrint\("#, #"(?<![.\w])dump\("#,
    #"FileHandle\.standard(Output|Error)"#, #"\bf?puts\("#, #"\bfwrite\("#, #"\bv?printf\("#, #"\bputchar\("#,
    #"\bwrite\((STDOUT_FILENO|STDERR_FILENO|1|2)\s*,"#, #"printw\("#,
  ]
  static let allowedWriters: Set<String> = [
    "Sources/UNTermInput/Support/Console.swift", "Sources/UNTermHeadless/TerminalRestore.swift",
    "Sources/unterm-example/main.swift", "Sources/unterm-floor/main.swift",
  ]

  @Test func nothingInSourcesWritesToTheStreamsButConsole() throws {
    let sources = Fixtures.root.appendingPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") }
    #expect(files.count > 50, "\(files.count) Swift files under Sources/")
    let writes = try Self.directWrites.map { try NSRegularExpression(pattern: $0) }
    let maker = try NSRegularExpression(pattern: #"SafeText\(verified:"#)
    var found: [String] = []
    for file in files.sorted() {
      let relative = "Sources/" + file
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = String(line)
        if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
        let range = NSRange(code.startIndex..., in: code)
        if !Self.allowedWriters.contains(relative),
          writes.contains(where: { $0.firstMatch(in: code, range: range) != nil })
        {
          found.append("\(relative):\(number + 1): writes to a standard stream past Console: \(code)")
        }
        if relative != "Sources/UNTermInput/Support/SafeText.swift", maker.firstMatch(in: code, range: range) != nil {
          found.append("\(relative):\(number + 1): makes SafeText without the sanitizer: \(code)")
        }
      }
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}
