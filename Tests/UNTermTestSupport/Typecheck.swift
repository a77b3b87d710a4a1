import Foundation
import Testing

/// Typechecks a Swift file against the package's built modules, as code in another module of
/// the package would be: for tests that a rule is the compiler's, not a comment's.
package enum Typecheck {
  /// The package name SwiftPM compiled the modules with (it follows the checkout's folder name).
  private static func packageName(products: URL) throws -> String {
    let description = products.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(products.lastPathComponent + ".yaml")
    let text = try String(contentsOf: description, encoding: .utf8)
    let marker = #""-package-name",""#
    let start = try #require(text.range(of: marker), "no -package-name in \(description.path)")
    return String(text[start.upperBound...].prefix { $0 != "\"" })
  }

  private static var swiftc: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return (path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc"])
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The compiler's exit status and its error lines.
  package static func run(_ source: String) throws -> (status: Int32, errors: [String]) {
    let products = Fixtures.productsDirectory
    let compiler = try #require(swiftc, "swiftc is not on PATH")
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("outside.swift")
    try Data(source.utf8).write(to: file)
    // The C modules SwiftPM maps for Swift ones that import them (CMediaDecode).
    let cModules = ((try? FileManager.default.contentsOfDirectory(atPath: products.path)) ?? []).map {
      products.appendingPathComponent($0).appendingPathComponent("module.modulemap").path
    }.filter { FileManager.default.fileExists(atPath: $0) }
    let result = try Fixtures.run(
      compiler,
      [
        "-typecheck", "-package-name", try packageName(products: products), "-I",
        products.appendingPathComponent("Modules").path, "-module-cache-path", dir.appendingPathComponent("cache").path,
      ] + cModules.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path],
      timeout: 600)  // the compiler loading the modules can take minutes on a busy machine
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init)
    return (result.status, errors)
  }
}
