import Foundation
import Testing
import UNTermTestSupport

/// Every Swift file reads in one sitting (issue 27.3): none over about 500 lines, no function
/// over about 80, except declaration tables and generated files, named below with why. The
/// failure lists every offender with its size, so a split starts from the list.
@Suite("Sources read in one sitting")
struct SourceSizeTests {
  static let fileLimit = 500
  static let functionLimit = 80

  /// Files that may be longer, and why: a declaration table (a list of values the compiler
  /// checks), or a file a command generates. None is needed today; one named here must exist.
  static let exemptFiles: [String: String] = [:]

  @Test func noFileOrFunctionIsOverItsLimit() throws {
    var offenders: [String] = []
    var measured = 0
    let files = try Self.swiftFiles()
    for exempt in Self.exemptFiles.keys where !files.contains(exempt) { offenders.append("\(exempt): exempt but gone") }
    for relative in files where Self.exemptFiles[relative] == nil {
      let text = try String(contentsOf: Fixtures.root.appendingPathComponent(relative), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      if lines > Self.fileLimit { offenders.append("\(relative): \(lines) lines (limit \(Self.fileLimit))") }
      let functions = SwiftFunctions.bodies(in: text)
      measured += functions.count
      for function in functions where function.lines > Self.functionLimit {
        offenders.append(
          "\(relative):\(function.line): \(function.name) is \(function.lines) lines (limit \(Self.functionLimit))")
      }
    }
    #expect(files.count > 300 && measured > 3000, "\(files.count) files, \(measured) functions measured")
    #expect(offenders.isEmpty, "\n\(offenders.joined(separator: "\n"))")
  }

  /// The measure itself: a function's lines run from its declaration to its closing brace,
  /// braces in strings and comments do not count, and a declaration without a body (an
  /// `@_silgen_name` import, a protocol requirement) has none.
  @Test func theMeasureCountsBodiesNotStringsOrDeclarations() {
    let source = """
      protocol P {
        func required() -> Int
      }
      @_silgen_name("strlen") func strlen(_ s: UnsafePointer<CChar>) -> Int
      @_silgen_name("getpid")
      func getpid(
      ) -> Int32

      func short() {
        let s = "{ not a brace"  // { nor this
        /* { nor this */
        _ = s
      }
      func multiline(
        _ a: Int
      ) -> String {
        \"\"\"
        }}}
        \\(a)
        \"\"\"
      }
      """
    let found = SwiftFunctions.bodies(in: source).map { "\($0.name) \($0.line) \($0.lines)" }
    #expect(found == ["short 9 5", "multiline 14 8"])
  }

  static func swiftFiles() throws -> [String] {
    var files: [String] = []
    for folder in ["Sources", "Tests", "Examples"] {
      let base = Fixtures.root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let path as String in walker where path.hasSuffix(".swift") && !path.contains(".build/") {
        files.append(folder + "/" + path)
      }
    }
    return files.sorted()
  }
}

/// Finds the functions of a Swift source and how long each is, without a Swift parser: strings
/// and comments are blanked, then each declaration's braces are matched.
enum SwiftFunctions {
  struct Function: Equatable {
    var name: String
    /// The declaration's line, from 1.
    var line: Int
    /// From the declaration's first line to its closing brace's.
    var lines: Int
  }

  static func bodies(in source: String) -> [Function] {
    let lines = blankStringsAndComments(source).split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    let declaration =
      /^\s*(?:@[\w().":, ]+\s+)*(?:(?:public|package|private|fileprivate|internal|static|class|final|mutating|nonmutating|override|convenience|required|nonisolated|dynamic|indirect)(?:\(set\))?\s+)*(?:func\s+([^\s(<]+)|(init)[?!]?\s*[(<]|(deinit)\b|(subscript)\s*[(<]|var\s+(\w+)\s*:[^=]*\{\s*$)/
    let anotherDeclaration =
      /^\s*(@|((public|package|private|fileprivate|internal|static|mutating)\s+)*(func|struct|enum|class|extension|let|var)\b|\})/
    var found: [Function] = []
    for (index, line) in lines.enumerated() {
      guard let match = line.firstMatch(of: declaration) else { continue }
      let name = String(match.output.1 ?? match.output.2 ?? match.output.3 ?? match.output.4 ?? match.output.5 ?? "")
      var depth = 0
      var opened = false
      var end: Int?
      scan: for j in index..<lines.count {
        // A signature has no blank line in it: one before the brace ends a declaration without
        // a body, as does the next declaration.
        if !opened && j > index
          && (lines[j].allSatisfy(\.isWhitespace) || lines[j].firstMatch(of: anotherDeclaration) != nil)
        {
          break
        }
        for character in lines[j] {
          if character == "{" {
            depth += 1
            opened = true
          } else if character == "}" && opened {
            depth -= 1
            if depth == 0 {
              end = j
              break scan
            }
          }
        }
      }
      if let end { found.append(Function(name: name, line: index + 1, lines: end - index + 1)) }
    }
    return found
  }

  /// The source with the contents of every string literal and comment replaced by spaces,
  /// lines kept, so braces in them are not counted.
  static func blankStringsAndComments(_ source: String) -> String {
    let chars = Array(source)
    var out = chars
    var i = 0
    func blank(_ from: Int, _ to: Int) {
      for k in from..<min(to, chars.count) where chars[k] != "\n" { out[k] = " " }
    }
    func starts(_ text: String, at k: Int) -> Bool {
      let t = Array(text)
      return k + t.count <= chars.count && Array(chars[k..<k + t.count]) == t
    }
    while i < chars.count {
      if starts("//", at: i) {
        let end = chars[i...].firstIndex(of: "\n") ?? chars.count
        blank(i, end)
        i = end
      } else if starts("/*", at: i) {
        var depth = 0
        let start = i
        repeat {
          if starts("/*", at: i) {
            depth += 1
            i += 2
          } else if starts("*/", at: i) {
            depth -= 1
            i += 2
          } else {
            i += 1
          }
        } while depth > 0 && i < chars.count
        blank(start, i)
      } else if chars[i] == "#" || chars[i] == "\"" {
        var hashes = 0
        while i + hashes < chars.count && chars[i + hashes] == "#" { hashes += 1 }
        guard i + hashes < chars.count, chars[i + hashes] == "\"" else {
          i += max(1, hashes)
          continue
        }
        let start = i
        i = skipString(chars, from: i + hashes, hashes: hashes)
        blank(start, i)
      } else {
        i += 1
      }
    }
    return String(out)
  }

  /// The index just past a string literal whose opening quote is at `quote`.
  private static func skipString(_ chars: [Character], from quote: Int, hashes: Int) -> Int {
    let multiline = quote + 2 < chars.count && chars[quote + 1] == "\"" && chars[quote + 2] == "\""
    let delimiter = multiline ? 3 : 1
    var i = quote + delimiter
    let closing = Array(repeating: Character("\""), count: delimiter) + Array(repeating: Character("#"), count: hashes)
    while i < chars.count {
      if chars[i] == "\\" && i + hashes + 1 < chars.count && chars[i + 1..<i + 1 + hashes].allSatisfy({ $0 == "#" }) {
        i += hashes + 1
        if i < chars.count && chars[i] == "(" {
          // An interpolation: skip to its closing parenthesis.
          var depth = 0
          repeat {
            if chars[i] == "(" { depth += 1 } else if chars[i] == ")" { depth -= 1 }
            i += 1
          } while depth > 0 && i < chars.count
        } else {
          i += 1
        }
      } else if i + closing.count <= chars.count && Array(chars[i..<i + closing.count]) == closing {
        return i + closing.count
      } else if !multiline && chars[i] == "\n" {
        return i
      } else {
        i += 1
      }
    }
    return i
  }
}
