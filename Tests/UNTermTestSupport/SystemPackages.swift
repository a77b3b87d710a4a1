import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The Debian packages some tests drive that a fresh machine of this project's kind lacks
/// (Chromium and the Noto fonts, GNU FriBidi's command, the shells the completions are for, the
/// man page checker). `swift test` installs what is missing the first time a suite asks —
/// through apt-get, with sudo when not root, saying once on stderr what it installs and why —
/// so the README's test command runs every test with nothing typed first (issue 26.1). Only
/// when the packages cannot be installed (no network, no sudo) is the suite skipped, with the
/// reason.
package enum SystemPackages {
  /// A tool a suite needs: a command on PATH (or at a path), and the packages that give it.
  package struct Need: Sendable {
    package var command: String
    package var packages: [String]
    /// What the tests do with it, for the one line said while installing.
    package var purpose: String
    /// Further files that must be there too (the fonts a browser draws with).
    package var files: [String] = []

    package init(command: String, packages: [String], purpose: String, files: [String] = []) {
      self.command = command
      self.packages = packages
      self.purpose = purpose
      self.files = files
    }

    /// Headless Chromium and the fonts for Bengali, Urdu, CJK and emoji.
    package static let browser = Need(
      command: "chromium", packages: ["chromium", "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"],
      purpose: "the browser tests of pictures",
      files: ["/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf"])
    /// GNU FriBidi's command, which UNTerm's reordering is checked against.
    package static let fribidi = Need(
      command: "fribidi", packages: ["libfribidi-bin"], purpose: "checking the bidi layout against GNU FriBidi")
    /// The shells the completion scripts are for.
    package static let zsh = Need(command: "zsh", packages: ["zsh"], purpose: "loading the zsh completion")
    package static let fish = Need(command: "fish", packages: ["fish"], purpose: "loading the fish completion")
    package static let bash = Need(command: "bash", packages: ["bash"], purpose: "loading the bash completion")
    /// nghttp2's client: a second HTTP/2 stack (its own HPACK and flow control) for the APNs
    /// endpoint.
    package static let nghttp = Need(
      command: "nghttp", packages: ["nghttp2-client"], purpose: "sending to the APNs endpoint with nghttp2's client")
    /// groff, which checks the manual pages render without warnings.
    package static let groff = Need(command: "groff", packages: ["groff"], purpose: "checking the manual pages")
  }

  /// Whether the need is met, installing its packages first when it is not (once per process;
  /// other test processes wait on a lock file meanwhile). Thread-safe.
  package static func ensure(_ need: Need) -> Bool { reason(need) == nil }

  /// Why a need cannot be met (the skip's comment), or nil when it is met.
  package static func reason(_ need: Need) -> String? {
    lock.lock()
    defer { lock.unlock() }
    if let known = results[need.command] { return known }
    let result = install(need)
    results[need.command] = .some(result)
    return result
  }

  nonisolated(unsafe) private static var results: [String: String?] = [:]
  private static let lock = NSLock()

  /// The path of a command, found on PATH or in the usual folders.
  package static func path(of command: String) -> String? {
    if command.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: command) ? command : nil }
    let folders =
      (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
      + ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin", "/sbin"]
    for folder in folders {
      let candidate = (folder as NSString).appendingPathComponent(command)
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  private static func isMet(_ need: Need) -> Bool {
    path(of: need.command) != nil && need.files.allSatisfy { FileManager.default.fileExists(atPath: $0) }
  }

  private static func install(_ need: Need) -> String? {
    if isMet(need) { return nil }
    if ProcessInfo.processInfo.environment["UNTERM_NO_INSTALL"] != nil {
      return
        "\(need.command) is missing and UNTERM_NO_INSTALL is set: apt-get install \(need.packages.joined(separator: " "))"
    }
    guard let aptGet = path(of: "apt-get") else {
      return "\(need.command) is missing, and there is no apt-get to install \(need.packages.joined(separator: " "))"
    }
    // One installer at a time across test processes (parallel runs, the example package).
    let lockPath = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-apt.lock").path
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
    if fd >= 0 { _ = flock(fd, LOCK_EX) }
    defer {
      if fd >= 0 {
        _ = flock(fd, LOCK_UN)
        close(fd)
      }
    }
    if isMet(need) { return nil }
    // All of them: apt-get leaves the installed ones as they are, and dpkg calls a removed
    // package whose configuration stayed "installed" too.
    let missing = need.packages
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-apt.log").path
    FileHandle.standardError.write(
      Data(
        "unterm tests: installing \(missing.joined(separator: " ")) with apt-get, for \(need.purpose) (output in \(log))\n"
          .utf8))
    let sudo: [String] = getuid() == 0 ? [] : ["sudo", "-n"]
    var environment = ProcessInfo.processInfo.environment
    environment["DEBIAN_FRONTEND"] = "noninteractive"
    let install = sudo + [aptGet, "install", "-y", "-q"] + missing
    var status = run(install, environment: environment, log: log)
    if status != 0 {
      // The package lists may be missing or stale on a fresh machine.
      _ = run(sudo + [aptGet, "update", "-q"], environment: environment, log: log)
      status = run(install, environment: environment, log: log)
    }
    if status == 0 && isMet(need) { return nil }
    return
      "\(need.command) is missing and apt-get install \(missing.joined(separator: " ")) failed (status \(status), see \(log)); install it by hand"
  }

  /// Runs a command to its end, its output appended to `log` (or nowhere), and gives its exit
  /// status (-1 when it cannot start).
  private static func run(_ arguments: [String], environment: [String: String], log: String? = nil) -> Int32 {
    guard let executable = path(of: arguments[0]) else { return -1 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(arguments.dropFirst())
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    var output = FileHandle.nullDevice
    if let log {
      if !FileManager.default.fileExists(atPath: log) { _ = FileManager.default.createFile(atPath: log, contents: nil) }
      if let handle = FileHandle(forWritingAtPath: log) {
        handle.seekToEndOfFile()
        output = handle
      }
    }
    process.standardOutput = output
    process.standardError = output
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Why Python modules a test client needs cannot be imported (installing the PyPI packages
  /// that give them first, with pip, once per process), or nil when they can.
  package static func pythonReason(modules: [String], packages: [String], purpose: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    let key = "python:" + modules.joined(separator: ",")
    if let known = results[key] { return known }
    let check = ["python3", "-c", modules.map { "import \($0)" }.joined(separator: "; ")]
    let environment = ProcessInfo.processInfo.environment
    var result: String?
    if run(check, environment: environment) != 0 {
      let log = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-pip.log").path
      FileHandle.standardError.write(
        Data(
          "unterm tests: installing \(packages.joined(separator: " ")) with pip, for \(purpose) (output in \(log))\n"
            .utf8))
      let status = run(["python3", "-m", "pip", "install", "-q"] + packages, environment: environment, log: log)
      if run(check, environment: environment) != 0 {
        result =
          "python3 cannot import \(modules.joined(separator: ", ")) and pip install \(packages.joined(separator: " ")) failed (status \(status), see \(log)); install them by hand"
      }
    }
    results[key] = .some(result)
    return result
  }
}
