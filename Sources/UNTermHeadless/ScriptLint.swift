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
    let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    let rawLines = SessionScript.sourceLines(text)
    for line in script.lines {
      // The column of the line's argument, for the finding's position.
      func position(of argument: String) -> DiagnosticLocation {
        let raw = line.number <= rawLines.count ? rawLines[line.number - 1] : ""
        let tokens = (try? SessionScript.Tokenizer.tokens(raw, file: file, line: line.number)) ?? []
        let column = tokens.last { $0.text == argument || $0.text == argument + ".txt" }?.column ?? 1
        return .position(SourcePosition(line: line.number, column: column))
      }
      func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : folder.appendingPathComponent(path).path
      }
      func require(_ path: String, _ what: String, folder wantsFolder: Bool = false) {
        guard path != "-" else { return }
        var isDirectory: ObjCBool = false
        let resolved = resolve(path)
        let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory)
        let problem: String?
        if !exists {
          problem = "no such \(wantsFolder ? "folder" : "file")"
        } else if isDirectory.boolValue != wantsFolder {
          problem = wantsFolder ? "not a folder" : "a folder, not a file"
        } else if !wantsFolder && !FileManager.default.isReadableFile(atPath: resolved) {
          problem = "cannot be read"
        } else {
          problem = nil
        }
        guard let problem else { return }
        out.append(
          Diagnostic(
            file: file, location: position(of: path), code: .scriptMissingFile,
            message:
              "\(line.declaration.name) names \(what) \(OneLine.quote(path, limit: 120)): \(problem) (paths are relative to the script's folder)"
          ))
      }
      switch line.command {
      case .categories(let argument): require(AppScoped.parse(argument)?.value ?? argument, "the categories file")
      case .contentExtension(let path): require(path, "the extension descriptor")
      case .push(let path, _): require(path, "the payload")
      case .mediaDirectory(let path): require(path, "the media folder", folder: true)
      case .strings(let path):
        // A strings file or a folder of them.
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: resolve(path), isDirectory: &isDirectory)
        require(path, "the app's strings", folder: isDirectory.boolValue)
      case .theme(let name):
        if name.contains("/") || name.hasSuffix(".json") {
          require(name, "the theme file")
        } else if !themes.names.contains(name) && name != "default" {
          out.append(
            Diagnostic(
              file: file, location: position(of: name), code: .scriptMissingFile,
              message:
                "theme \(OneLine.quote(name)) is not in Themes/ (\(themes.names.joined(separator: ", "))) and is not a path to a theme file"
            ))
        }
      case .snapshot(let name, _):
        let path = folder.appendingPathComponent(name + ".txt").path
        if !FileManager.default.fileExists(atPath: path) {
          out.append(
            Diagnostic(
              file: file, location: position(of: name), code: .missingSnapshot,
              message:
                "snapshot \(name).txt does not exist beside the script yet: the next run records it, and fails when CI is set"
            ))
        }
      default:
        break
      }
    }
    // In the order of the script's lines.
    func place(_ d: Diagnostic) -> (Int, Int) { (d.position.line, d.position.column) }
    return out.enumerated().sorted { a, b in
      place(a.element) != place(b.element) ? place(a.element) < place(b.element) : a.offset < b.offset
    }.map(\.element)
  }
}
