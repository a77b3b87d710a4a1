import Foundation
import Testing
import UNTermTestSupport

/// `make install` puts everything an installed `unterm` needs under a prefix — the binary, the
/// themes and samples, the manual page, the three completions — and the installed binary uses
/// its own `share/unterm`, not the source tree it was built from (issue 26.4).
@Suite("Installing under a prefix", .serialized, .hangGuard)
struct InstallTests {
  private func make(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run("/usr/bin/make", ["-C", Fixtures.root.path] + arguments, timeout: 120)
  }

  @Test func installPutsEverythingUnderThePrefixAndUninstallTakesItAway() throws {
    let prefix = try Fixtures.temporaryDirectory().appendingPathComponent("local")
    let installed = try make(["install-files", "PREFIX=\(prefix.path)", "BIN=\(Fixtures.unterm)"])
    #expect(installed.status == 0, "\(installed.stderr)")
    let files = [
      "bin/unterm", "share/unterm/Themes/dark.json", "share/unterm/SamplePayloads/message.json",
      "share/man/man1/unterm.1", "share/bash-completion/completions/unterm", "share/zsh/site-functions/_unterm",
      "share/fish/vendor_completions.d/unterm.fish",
    ]
    for file in files {
      #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
    }
    let unterm = prefix.appendingPathComponent("bin/unterm").path
    // A theme only the installed share holds: found, so the binary reads its own share/unterm.
    try Data(#"{"name":"installed","roles":{}}"#.utf8).write(
      to: prefix.appendingPathComponent("share/unterm/Themes/installed.json"))
    let elsewhere = try Fixtures.temporaryDirectory()
    let environment = ["HOME": elsewhere.path, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
    let themed = try Fixtures.run(
      unterm,
      [
        "render", "--theme", "installed",
        prefix.appendingPathComponent("share/unterm/SamplePayloads/message.json").path,
      ],
      environment: environment, directory: elsewhere.path)
    #expect(themed.status == 0, "\(themed.stderr)")
    let dark = try Fixtures.run(
      unterm,
      [
        "render", "--theme", "dark", "--format", "ansi",
        prefix.appendingPathComponent("share/unterm/SamplePayloads/message.json").path,
      ],
      environment: environment, directory: elsewhere.path)
    #expect(dark.status == 0, "\(dark.stderr)")
    let help = try Fixtures.run(unterm, ["help"], environment: environment, directory: elsewhere.path)
    #expect(help.status == 0 && help.stdout.contains("unterm render"))
    // $UNTERM_HOME still decides over the installed share.
    var overridden = environment
    overridden["UNTERM_HOME"] = Fixtures.root.path
    let home = try Fixtures.run(
      unterm, ["render", "--theme", "installed", Fixtures.sample("message.json")], environment: overridden,
      directory: elsewhere.path)
    #expect(home.status == 66, "\(home.stderr)")
    // man finds the page under the prefix.
    if let man = SystemPackages.path(of: "man") {
      let page = try Fixtures.run(
        man, ["-M", prefix.appendingPathComponent("share/man").path, "-P", "cat", "unterm"],
        environment: environment)
      #expect(page.stdout.contains("unterm render"), "\(page.stderr)")
    }
    let removed = try make(["uninstall", "PREFIX=\(prefix.path)"])
    #expect(removed.status == 0, "\(removed.stderr)")
    for file in files {
      #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
    }
  }
}
