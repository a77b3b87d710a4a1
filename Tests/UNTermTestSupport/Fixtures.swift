import Foundation
import Testing
import UNTermHeadless
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel

/// Paths and builders shared by the test suites.
package enum Fixtures {
  /// The package root, found from this file's location.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  package static var samples: URL { root.appendingPathComponent("SamplePayloads") }
  package static var themes: URL { root.appendingPathComponent("Themes") }
  package static var testData: URL { root.appendingPathComponent("Tests/Fixtures") }

  package static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }
  package static func data(_ name: String) -> String { testData.appendingPathComponent(name).path }

  /// The built products folder (where `unterm` and the helpers are).
  package static var productsDirectory: URL {
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
      for _ in 0..<4 {
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("unterm").path) { return dir }
        dir = dir.deletingLastPathComponent()
      }
    }
    return root.appendingPathComponent(".build/debug")
  }

  /// The `unterm` binary under test.
  package static var unterm: String { productsDirectory.appendingPathComponent("unterm").path }

  /// A fixed clock for deterministic screens.
  package static let now = Date(timeIntervalSince1970: 1_764_446_400)  // 2025-11-29T20:00:00Z

  /// A payload from JSON text.
  package static func payload(
    _ json: String, file: String = "test.json", categories: [String: UNNotificationCategory]? = nil
  ) -> Payload {
    PayloadAnalyzer.analyze(Array(json.utf8), file: file, categories: categories.map(CategoryRegistry.init(everyApp:)))
  }

  /// A payload from JSON text, checked against each app's categories; `bundle` is
  /// `unterm push --bundle`'s.
  package static func payload(
    _ json: String, file: String = "test.json", registry: CategoryRegistry?, bundle: String? = nil
  ) -> Payload {
    PayloadAnalyzer.analyze(Array(json.utf8), file: file, categories: registry, bundle: bundle)
  }

  /// The apps the samples belong to (their `Simulator Target Bundle`s), beside the default app.
  package static let sampleApps = [
    "com.example.messages", "com.example.calendar", "com.example.podcasts", "com.example.Bank",
    "com.example.reminders",
  ]

  /// Registers the sample categories for the default app and for each sample app, as the demo
  /// does (`--categories ID=FILE` for each).
  package static func registerSampleCategories(_ configuration: inout SessionConfiguration) {
    configuration.categoriesFile = sample("categories.json")
    for app in sampleApps {
      configuration.categoriesFiles.append(AppCategoriesFile(app: app, path: sample("categories.json")))
    }
  }

  /// `--categories` for the sample categories, registered for the default app and each sample app.
  package static var sampleCategoriesArguments: [String] {
    ["--categories", sample("categories.json")]
      + sampleApps.flatMap { ["--categories", "\($0)=\(sample("categories.json"))"] }
  }

  /// The same, as shell words.
  package static var sampleCategoriesShell: String { sampleCategoriesArguments.joined(separator: " ") }

  /// The same as script lines (`categories [ID=]FILE`), without a last line break.
  package static var sampleCategoriesScript: String { sampleCategoriesScript(sample("categories.json")) }

  /// Script lines registering a categories file for the default app and each sample app.
  package static func sampleCategoriesScript(_ path: String) -> String {
    (["categories \(path)"] + sampleApps.map { "categories \($0)=\(path)" }).joined(separator: "\n")
  }

  /// The sample categories.
  package static func sampleCategories() throws -> CategoriesFile {
    try CategoriesFile.load(sample("categories.json"))
  }

  /// A session like `unterm render` makes, with the sample categories and the plain theme.
  package static func session(
    categories: Bool = true, device: DeviceProfile.Kind = .iphone, size: (Int, Int) = (80, 24),
    logFiles: any LogFileOperations = SystemLogFiles(), configure: (inout SessionConfiguration) -> Void = { _ in }
  ) throws -> Session {
    var configuration = SessionConfiguration()
    configuration.device = device
    if categories { registerSampleCategories(&configuration) }
    configure(&configuration)
    let session = try SessionFactory.make(configuration, now: now, logFiles: logFiles)
    session.resize(width: size.0, height: size.1)
    return session
  }

  /// Pushes JSON text into a session.
  package static func push(
    _ json: String, into session: Session, as id: String? = nil, bundle: String? = nil
  ) throws {
    let payload = Fixtures.payload(json, registry: session.state.store.registry, bundle: bundle)
    try session.push(payload, identifier: id)
  }

  /// Runs a program to its end and collects its output (`ChildProcess`: its own process group,
  /// output to files, no pipe to fill). A program still running after `timeout` seconds is
  /// killed with its group, and the run throws with what it wrote.
  package static func run(
    _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
    directory: String? = nil, timeout: TimeInterval = ChildProcess.defaultLimit
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let child = try ChildProcess(
      executable, arguments, environment: ChildProcess.environment(environment), directory: directory,
      stdin: stdin ?? "")
    let raw = try child.wait(upTo: timeout)
    return (ChildProcess.exitCode(raw), child.output, child.errors)
  }

  /// What a listing of a missing or empty fixture folder gives instead of no names.
  package static let emptyListing = "(no fixture files in "

  /// The names in a fixture folder that `include` accepts, sorted, for a parameterized test. A
  /// folder that is missing or holds none gives one name saying so, which `requireListed`
  /// fails on: a test over a folder can never pass by running zero cases.
  package static func listing(_ folder: URL, where include: (String) -> Bool) -> [String] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(include).sorted()
    return names.isEmpty ? [emptyListing + folder.path + ")"] : names
  }

  /// The names in a fixture folder that `include` accepts, sorted; a missing folder, or one
  /// with no such file, fails the test.
  package static func files(in folder: URL, where include: (String) -> Bool) throws -> [String] {
    let names = listing(folder, where: include)
    try requireListed(names[0])
    return names
  }

  /// Fails when a listed name stands for a missing or empty folder.
  package static func requireListed(_ name: String) throws {
    if name.hasPrefix(emptyListing) {
      throw FixtureListingError(
        message: "\(name.dropFirst(emptyListing.count).dropLast()): missing, or no fixture files in it")
    }
  }

  /// A fresh temporary folder.
  package static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Writes a program (a shell script) that a test then runs. The file is written through a
  /// close-on-exec descriptor: a plain write leaves the descriptor to every child another test
  /// starts at that moment, and while any of them holds it open for writing, running the script
  /// fails with "Text file busy" (exit 126) — a failure that comes and goes with the suite's load.
  package static func writeExecutable(_ text: String, to url: URL) throws {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    defer { close(fd) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
      bytes = bytes.dropFirst(written)
    }
    guard fchmod(fd, 0o755) == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif

extension Fixtures {
  /// Runs a program and returns its status and standard output: for programs that leave daemons
  /// behind (tmux), which would keep a pipe open. Never waits forever: a program still running
  /// after `timeout` is killed with its group, and the status is -1.
  package static func spawn(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) -> (
    status: Int32, output: String
  ) {
    guard
      let child = try? ChildProcess(
        executable, arguments, environment: ProcessInfo.processInfo.environment, stdin: nil),
      let raw = try? child.wait(upTo: timeout)
    else { return (-1, "") }
    return (ChildProcess.exitCode(raw), child.output)
  }

  /// Runs `body` with spawn attributes that start a program with no signal blocked and the
  /// usual ones at their defaults, and, with `newGroup`, in a process group of its own (so it
  /// and its helpers can be killed together). The test runner's threads block and ignore
  /// signals; a child that inherits that (a tmux server, the shell in its pane, `unterm` on a
  /// pseudo-terminal) would outlive `kill-server` or ignore the signals a test sends.
  package static func withFreshSignals<T>(
    newGroup: Bool = false, _ body: (UnsafePointer<posix_spawnattr_t>) -> T
  ) -> T {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    return body(&attributes)
  }
}

/// A fixture folder that is missing or empty: a test over it must fail, not pass with no cases.
package struct FixtureListingError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}
