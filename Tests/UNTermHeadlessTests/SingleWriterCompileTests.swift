import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermCore

/// The compiler keeps the single-writer rule: code outside UNTermCore can read every stored
/// property of `CenterState` but assign to none of them. Each property is found by reflection,
/// so a new one declared writable fails here.
@Suite("Only the core writes the state", .hangGuard)
struct SingleWriterCompileTests {
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

  private func typecheck(_ source: String) throws -> (status: Int32, errors: [String]) {
    let products = Fixtures.productsDirectory
    let compiler = try #require(Self.swiftc, "swiftc is not on PATH")
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("outside.swift")
    try Data(source.utf8).write(to: file)
    // The C modules below the core (CFriBidi) are found through the module maps SwiftPM wrote.
    let names = (try? FileManager.default.contentsOfDirectory(atPath: products.path)) ?? []
    let moduleMaps = names.filter { $0.hasSuffix(".build") }.map {
      products.appendingPathComponent($0).appendingPathComponent("module.modulemap").path
    }.filter { FileManager.default.fileExists(atPath: $0) }
    let result = try Fixtures.run(
      compiler,
      [
        "-typecheck", "-package-name", try Self.packageName(products: products), "-I",
        products.appendingPathComponent("Modules").path, "-module-cache-path", dir.appendingPathComponent("cache").path,
      ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path],
      timeout: 600)  // the compiler loading the modules can take minutes on a busy machine
    let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }.map(String.init)
    return (result.status, errors)
  }

  @Test func noStoredPropertyCanBeAssignedFromAnotherModule() throws {
    let properties = Mirror(reflecting: CenterState(now: Fixtures.now)).children.compactMap(\.label)
    #expect(properties.count >= 20, "\(properties)")
    let reads = properties.map { "  _ = s.\($0)" }.joined(separator: "\n")
    let writes = properties.map { "  s.\($0) = s.\($0)" }.joined(separator: "\n")
    let prelude = "import Foundation\nimport UNTermCore\n\nfunc outside() {\n  var s = CenterState(now: Date())\n"
    // Reading and sending events compiles, so the failures below are about the setters only.
    let allowed = try typecheck(prelude + reads + "\n  _ = s.handle(.key(.enter))\n}\n")
    #expect(allowed.status == 0, "\(allowed.errors.joined(separator: "\n"))")
    // Nor can a core helper that takes the state `inout` be borrowed to change it.
    let refused = try typecheck(prelude + writes + "\n  ListLayout.scrollToFocus(&s)\n}\n")
    #expect(refused.status != 0)
    #expect(refused.errors.contains { $0.contains("'scrollToFocus'") }, "ListLayout.scrollToFocus is reachable")
    for property in properties {
      #expect(
        refused.errors.contains { $0.contains("'\(property)' setter is inaccessible") },
        "s.\(property) can be assigned outside UNTermCore")
    }
  }

  /// A response reaches the delegate and the log only as the state recorded it in the
  /// Responses pane: no other module can make the `.respond` effect's value.
  @Test func onlyTheUpdateMakesAResponseForTheApp() throws {
    let prelude = """
      import Foundation
      import UNTermCore
      import UserNotifications

      func outside(_ n: UNNotification, _ context: ResponseContext, _ effect: Effect) {
        if case .respond(let recorded) = effect { _ = recorded.response.actionIdentifier }

      """
    let reading = try typecheck(prelude + "}\n")
    #expect(reading.status == 0, "\(reading.errors.joined(separator: "\n"))")
    let making = try typecheck(
      prelude
        + "  _ = Effect.respond(RecordedResponse(UNNotificationResponse(notification: n, actionIdentifier: \"x\"), context))\n}\n"
    )
    #expect(making.status != 0)
    #expect(making.errors.contains { $0.contains("initializer is inaccessible") }, "\(making.errors)")
  }
}
