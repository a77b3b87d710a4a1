import Foundation
import UNTermHeadless
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The `unterm` executable: picks a command, runs it, and maps errors to the contract's exit
/// codes and one-line messages — the only place that does.
@main
enum UNTermMain {
  static var version: String { UNTermVersion.current }

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let code: ExitCode
    do throws(UNTermError) {
      if let error = argumentNotUTF8() { throw error }
      code = try run(arguments)
    } catch {
      warn(error.line)
      code = error.exitCode
    }
    exit(code.rawValue)
  }

  /// An argument that is not UTF-8 (a Linux file name is any bytes): Swift hands it on with
  /// U+FFFD in place of the bad bytes, so it would name a file that does not exist ("no such
  /// file" for one that does). Said instead: exit 66 for an existing file, else 2.
  static func argumentNotUTF8() -> UNTermError? {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
      guard UTF8Validation.firstProblem(in: bytes) != nil else { continue }
      let shown = String(decoding: bytes, as: UTF8.self)
      if access(argument, F_OK) == 0 {
        return UNTermError(
          .noInput, file: shown, "the file's name is not valid UTF-8, so UNTerm cannot name it; rename the file")
      }
      return UNTermError(.usage, "argument \(index) '\(shown)' is not valid UTF-8")
    }
    return nil
  }

  static func run(_ arguments: [String]) throws(UNTermError) -> ExitCode {
    guard let first = arguments.first else {
      return try InteractiveCommand.run(Arguments([], command: .interactive), demo: true)
    }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "--help", "-h", "help":
      if first == "help", let topic = rest.first {
        if topic == "interactive" || topic == "keys" {
          showHelp(Help.interactive)
          return .success
        }
        // The manual page and the reference pages, made from the declarations.
        if topic == "man" {
          Console.write(SafeText(sanitizing: Manual.page, multiline: true))
          return .success
        }
        if topic == "reference" {
          let names = Reference.Topic.allCases.map(\.rawValue)
          guard rest.count == 2, let page = Reference.Topic(rawValue: rest[1]) else {
            throw UNTermError(.usage, "help reference takes one of \(names.joined(separator: ", "))")
          }
          Console.write(SafeText(sanitizing: Reference.page(page), multiline: true))
          return .success
        }
        return try run([topic, "--help"])
      }
      showHelp(Help.main)
      return .success
    case "--version":
      Console.line("unterm \(version)")
      return .success
    case UNTermCommand.render.rawValue: return try RenderCommand.run(Arguments(rest, command: .render))
    case UNTermCommand.lint.rawValue: return try LintCommand.run(Arguments(rest, command: .lint))
    case UNTermCommand.run.rawValue: return try RunCommand.run(Arguments(rest, command: .run))
    case UNTermCommand.log.rawValue: return try LogCommand.run(Arguments(rest, command: .log))
    case UNTermCommand.push.rawValue: return try PushCommand.run(Arguments(rest, command: .push))
    case UNTermCommand.sheet.rawValue: return try SheetCommand.run(Arguments(rest, command: .sheet))
    case UNTermCommand.export.rawValue: return try ExportCommand.run(Arguments(rest, command: .export))
    case UNTermCommand.center.rawValue: return try CenterCommand.run(Arguments(rest, command: .center))
    case UNTermCommand.apns.rawValue: return try APNsCommand.run(Arguments(rest, command: .apns))
    case UNTermCommand.completion.rawValue: return try Completion.run(Arguments(rest, command: .completion))
    default:
      if !first.hasPrefix("-") && !first.hasSuffix(".json") && !first.hasSuffix(".apns")
        && !FileManager.default.fileExists(atPath: first)
      {
        let hint =
          Suggestion.closest(to: first, in: UNTermCommand.allCases.filter { $0 != .interactive }.map(\.rawValue)).map {
            " (did you mean '\($0)'?)"
          } ?? ""
        throw UNTermError(.usage, "unknown command or missing file '\(first)'\(hint); see 'unterm --help'")
      }
      return try InteractiveCommand.run(Arguments(arguments, command: .interactive), demo: false)
    }
  }

  /// Writes a line to standard error.
  static func warn(_ text: SafeText) {
    Console.line(text, to: .standardError)
  }

  /// Writes a `--help` text to standard output. Help is the program's own text, made from the
  /// declarations; it passes the sanitizer all the same, as everything printed does.
  static func showHelp(_ text: String) {
    Console.line(SafeText(sanitizing: text, multiline: true))
  }
}
