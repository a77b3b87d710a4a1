import Foundation
import Testing
import UNTermTestSupport

/// Package.swift says what each target may use, and the compiler believes it only in part: a
/// module another dependency brings along can be imported without being declared (issue 27.6).
/// Every module of this package a target imports is declared, and every library it declares is
/// imported (programs a test target declares are the ones its tests run).
@Suite("The manifest")
struct ManifestTests {
  struct Target {
    var name: String
    var path: String
    var dependencies: Set<String>
    var isExecutable: Bool
  }

  /// The targets as Package.swift declares them, read from its text: each `.target(`,
  /// `.executableTarget(`, `.testTarget(` or `.systemLibrary(` with its name, path and the
  /// dependencies in its `dependencies: [ … ]`.
  static func targets() throws -> [Target] {
    let manifest = try String(contentsOf: Fixtures.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let body = manifest[manifest.range(of: "targets: [")!.upperBound...]
    var result: [Target] = []
    let starts = body.matches(of: /\.(target|executableTarget|testTarget|systemLibrary)\(/)
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : body.endIndex
      let text = String(body[start.range.lowerBound..<end])
      guard let name = text.firstMatch(of: /name: "([^"]+)"/)?.output.1 else { continue }
      let kind = String(start.output.1)
      let path =
        text.firstMatch(of: /path: "([^"]+)"/).map { String($0.output.1) }
        ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
      var dependencies = Set<String>()
      if let list = text.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
        let quoted = list.output.1.split(separator: "\n").map { $0.split(separator: "//").first ?? "" }.joined()
        dependencies = Set(quoted.matches(of: /"([^"]+)"/).map { String($0.output.1) })
      }
      result.append(
        Target(name: String(name), path: path, dependencies: dependencies, isExecutable: kind == "executableTarget"))
    }
    return result
  }

  /// The package's modules a target's Swift files import.
  static func imports(of target: Target, among modules: Set<String>) throws -> Set<String> {
    let folder = Fixtures.root.appendingPathComponent(target.path)
    guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var found = Set<String>()
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
        guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
          words[..<at].allSatisfy({ ["internal", "package", "public", "private", "fileprivate"].contains($0) })
        else { continue }
        if modules.contains(words[at + 1]) { found.insert(words[at + 1]) }
      }
    }
    return found
  }

  @Test func everyImportIsDeclaredAndEveryDeclaredLibraryImported() throws {
    let targets = try Self.targets()
    #expect(targets.count > 30, "\(targets.map(\.name))")
    // The reading finds what the manifest says.
    let unterm = try #require(targets.first { $0.name == "unterm" })
    #expect(unterm.isExecutable && unterm.dependencies.isSuperset(of: ["UNTermShell", "UNTermHeadless"]))
    #expect(targets.first { $0.name == "UNTermMediaTests" }?.path == "Tests/UNTermMediaTests")
    let modules = Set(targets.map(\.name))
    let programs = Set(targets.filter(\.isExecutable).map(\.name))
    for target in targets {
      let imported = try Self.imports(of: target, among: modules).subtracting([target.name])
      let undeclared = imported.subtracting(target.dependencies)
      #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring them")
      // C targets are imported by their module names too; a program is a dependency so that it
      // is built for the target that runs it.
      let unused = target.dependencies.subtracting(imported).subtracting(programs)
      #expect(unused.isEmpty, "\(target.name) declares \(unused.sorted()) and imports none of them")
    }
  }

  /// Docs/architecture.md's map names every library module with what it may import, and says
  /// what Package.swift says: the map cannot go stale.
  @Test func theArchitectureMapIsThePackagesGraph() throws {
    let targets = try Self.targets()
    let libraries = targets.filter { !$0.isExecutable && !$0.path.hasPrefix("Tests/") }
    let map = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Docs/architecture.md"), encoding: .utf8)
    var mapped: [String: Set<String>] = [:]
    for row in map.split(separator: "\n") where row.hasPrefix("| `") {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3 else { continue }
      let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      mapped[name] = Set(cells[2].matches(of: /`([^`]+)`/).map { String($0.output.1) })
    }
    #expect(Set(mapped.keys) == Set(libraries.map(\.name)), "the map's modules differ from Package.swift's libraries")
    for target in libraries {
      #expect(
        mapped[target.name] == target.dependencies,
        "\(target.name): the map says \(mapped[target.name]?.sorted() ?? []), Package.swift \(target.dependencies.sorted())"
      )
    }
  }
}
