import Foundation
import UNTermInput
import UNTermScript

/// What `lint` finds in a session script without running it: every syntax error (not only the
/// first), and every file, folder or theme a line names that `unterm run` would not find —
/// with paths resolved against the script's folder, as the runner resolves them.
package enum ScriptLint {
  package static func check(_ text: String, file: String, themes: ThemeCatalog = ThemeCatalog()) -> [Diagnostic] {
    let (script, errors) = SessionScript.parseAll(text, file: file)
    var out = errors.map { error in
      Diagnostic(
        file: file, location: .position(SourcePosition(line: error.line, column: error.column)), code: error.code,
        message: error.message)
    }
    let checker = ScriptLineChecker(file: file, rawLines: SessionScript.sourceLines(text), themes: themes)
    for line in script.lines { out += checker.findings(for: line) }
    return inLineOrder(out)
  }

  /// The findings in the order of the script's lines (and columns), each line's in the order
  /// they were found.
  private static func inLineOrder(_ found: [Diagnostic]) -> [Diagnostic] {
    func place(_ d: Diagnostic) -> (Int, Int) { (d.position.line, d.position.column) }
    return found.enumerated().sorted { a, b in
      place(a.element) != place(b.element) ? place(a.element) < place(b.element) : a.offset < b.offset
    }.map(\.element)
  }
}

/// Checks what one line of a script names — files, folders, a theme, a snapshot — as
/// `unterm run` would look for it.
private struct ScriptLineChecker {
  let file: String
  /// The script's folder, which relative paths are resolved against.
  let folder: URL
  /// The script's lines as written, to find an argument's column.
  let rawLines: [String]
  let themes: ThemeCatalog

  init(file: String, rawLines: [String], themes: ThemeCatalog) {
    self.file = file
    self.folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    self.rawLines = rawLines
    self.themes = themes
  }

  /// What the line names that `run` would not find; nothing for a line that names nothing.
  func findings(for line: SessionScript.Line) -> [Diagnostic] {
    switch line.command {
    case .categories(let argument):
      return require(AppScoped.parse(argument)?.value ?? argument, "the categories file", on: line)
    case .contentExtension(let path): return require(path, "the extension descriptor", on: line)
    case .push(let path, _): return require(path, "the payload", on: line)
    case .mediaDirectory(let path): return require(path, "the media folder", folder: true, on: line)
    case .strings(let path):
      // A strings file or a folder of them.
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: resolve(path), isDirectory: &isDirectory)
      return require(path, "the app's strings", folder: isDirectory.boolValue, on: line)
    case .theme(let name): return theme(name, on: line)
    case .snapshot(let name, _): return snapshot(name, on: line)
    default: return []
    }
  }

  /// The column of the line's argument, for the finding's position.
  private func position(of argument: String, on line: SessionScript.Line) -> DiagnosticLocation {
    let raw = line.number <= rawLines.count ? rawLines[line.number - 1] : ""
    let tokens = (try? SessionScript.Tokenizer.tokens(raw, file: file, line: line.number)) ?? []
    let column = tokens.last { $0.text == argument || $0.text == argument + ".txt" }?.column ?? 1
    return .position(SourcePosition(line: line.number, column: column))
  }

  private func resolve(_ path: String) -> String {
    path.hasPrefix("/") ? path : folder.appendingPathComponent(path).path
  }

  /// A finding when the file (or folder) a line names is missing, of the wrong kind, or
  /// unreadable; `-` (standard input) is never checked.
  private func require(_ path: String, _ what: String, folder wantsFolder: Bool = false, on line: SessionScript.Line)
    -> [Diagnostic]
  {
    guard path != "-", let problem = problem(with: resolve(path), folder: wantsFolder) else { return [] }
    return [
      Diagnostic(
        file: file, location: position(of: path, on: line), code: .scriptMissingFile,
        message:
          "\(line.declaration.name) names \(what) \(OneLine.quote(path, limit: 120)): \(problem) (paths are relative to the script's folder)"
      )
    ]
  }

  /// What is wrong with the file or folder at `resolved`, if anything.
  private func problem(with resolved: String, folder wantsFolder: Bool) -> String? {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory)
    if !exists {
      return "no such \(wantsFolder ? "folder" : "file")"
    } else if isDirectory.boolValue != wantsFolder {
      return wantsFolder ? "not a folder" : "a folder, not a file"
    } else if !wantsFolder && !FileManager.default.isReadableFile(atPath: resolved) {
      return "cannot be read"
    }
    return nil
  }

  /// A theme file that is missing, or a theme name that is neither in Themes/ nor `default`.
  private func theme(_ name: String, on line: SessionScript.Line) -> [Diagnostic] {
    if name.contains("/") || name.hasSuffix(".json") { return require(name, "the theme file", on: line) }
    guard !themes.names.contains(name) && name != "default" else { return [] }
    return [
      Diagnostic(
        file: file, location: position(of: name, on: line), code: .scriptMissingFile,
        message:
          "theme \(OneLine.quote(name)) is not in Themes/ (\(themes.names.joined(separator: ", "))) and is not a path to a theme file"
      )
    ]
  }

  /// A snapshot not yet recorded beside the script.
  private func snapshot(_ name: String, on line: SessionScript.Line) -> [Diagnostic] {
    let path = folder.appendingPathComponent(name + ".txt").path
    guard !FileManager.default.fileExists(atPath: path) else { return [] }
    return [
      Diagnostic(
        file: file, location: position(of: name, on: line), code: .missingSnapshot,
        message:
          "snapshot \(name).txt does not exist beside the script yet: the next run records it, and fails when CI is set"
      )
    ]
  }
}
