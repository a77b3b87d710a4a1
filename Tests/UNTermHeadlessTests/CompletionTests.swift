import Foundation
import Testing
import UNTermTestSupport

@testable import unterm

/// `unterm completion bash|zsh|fish` prints a script each shell loads, completing commands,
/// options, their values and files by kind (issue 26.3).
@Suite("Shell completion", .serialized, .hangGuard)
struct CompletionTests {
  private func script(_ shell: String) throws -> URL {
    let out = try Fixtures.run(Fixtures.unterm, ["completion", shell])
    #expect(out.status == 0, "\(out.stderr)")
    let url = try Fixtures.temporaryDirectory().appendingPathComponent("unterm.\(shell)")
    try Data(out.stdout.utf8).write(to: url)
    return url
  }

  /// bash, as its completion machinery calls the function: the words so far, the one at the
  /// cursor, and what it puts in COMPREPLY.
  @Test func bashCompletesCommandsOptionsValuesAndFiles() throws {
    let missing = SystemPackages.reason(.bash)
    try #require(missing == nil, "\(missing ?? "")")
    let file = try script("bash")
    func complete(_ words: [String]) throws -> [String] {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let program =
        "source '\(file.path)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _unterm; printf '%s\\n' \"${COMPREPLY[@]}\""
      let out = try Fixtures.run("/bin/bash", ["-c", program], directory: Fixtures.samples.path)
      #expect(out.status == 0, "\(out.stderr)")
      return out.stdout.split(separator: "\n").map(String.init).sorted()
    }
    #expect(try complete(["unterm", "ren"]) == ["render"])
    #expect(try complete(["unterm", "render", "--view", ""]) == ["banner", "center", "expanded"])
    #expect(try complete(["unterm", "--dev"]) == ["--device", "--device-token"])
    #expect(try complete(["unterm", "--devi"]).allSatisfy { $0.hasPrefix("--device") })
    #expect(try complete(["unterm", "lint", "--explain", "unknown-c"]) == ["unknown-category"])
    #expect(try complete(["unterm", "--theme", "d"]).contains("dark"))
    #expect(try complete(["unterm", "lint", "--format", "s"]) == ["sarif"])
    #expect(try complete(["unterm", "completion", "f"]) == ["fish"])
    // Files by kind: a run takes .session scripts (and the folders that hold them).
    let scripts = try complete(["unterm", "run", "Scripts/m"])
    #expect(scripts.contains("Scripts/message-dismiss.session"), "\(scripts)")
    #expect(!scripts.contains { $0.hasSuffix(".txt") }, "\(scripts)")
    let payloads = try complete(["unterm", "render", "mess"])
    #expect(payloads.contains("message.json") && payloads.contains("message-urdu.json"), "\(payloads)")
  }

  @Test func fishCompletesCommandsOptionsValuesAndFiles() throws {
    let missing = SystemPackages.reason(.fish)
    try #require(missing == nil, "\(missing ?? "")")
    let fish = try #require(SystemPackages.path(of: "fish"))
    let file = try script("fish")
    func complete(_ line: String) throws -> [String] {
      let out = try Fixtures.run(
        fish, ["--no-config", "-c", "source '\(file.path)'; complete -C '\(line)'"], directory: Fixtures.samples.path)
      #expect(out.status == 0, "\(out.stderr)")
      return out.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
    }
    #expect(try complete("unterm ren") == ["render"])
    #expect(try complete("unterm render --view ") == ["banner", "center", "expanded"])
    #expect(try complete("unterm --dev") == ["--device", "--device-token"])
    #expect(try complete("unterm lint --explain unknown-c") == ["unknown-category"])
    #expect(try complete("unterm run Scripts/message-d") == ["Scripts/message-dismiss.session"])
  }

  /// zsh's completion only runs in an interactive shell: a real one in tmux, and the Tab key.
  @Test(.enabled(if: TmuxDriver.isAvailable)) func zshCompletesInTheShell() throws {
    let missing = SystemPackages.reason(.zsh)
    try #require(missing == nil, "\(missing ?? "")")
    let zsh = try #require(SystemPackages.path(of: "zsh"))
    let file = try script("zsh")
    let bin = URL(fileURLWithPath: Fixtures.unterm).deletingLastPathComponent().path
    let tmux = try TmuxDriver(width: 100, height: 20)
    defer { tmux.kill() }
    tmux.type("cd \(Fixtures.samples.path) && PATH=\(bin):$PATH ZDOTDIR=/nonexistent \(zsh) -f")
    tmux.keys("Enter")
    tmux.type("PS1='zsh> '; autoload -U compinit; compinit -u; source \(file.path)")
    tmux.keys("Enter")
    try tmux.waitFor("zsh> ")
    tmux.type("unterm --dev")
    tmux.keys("Tab")
    try tmux.waitFor("zsh> unterm --device")
    tmux.type(" ipa")
    tmux.keys("Tab")
    try tmux.waitFor("zsh> unterm --device ipad")
    tmux.keys("C-u")
    tmux.type("unterm run Scripts/message-d")
    tmux.keys("Tab")
    try tmux.waitFor("Scripts/message-dismiss.session")
  }

  @Test func aShellItDoesNotKnowIsAUsageError() throws {
    let out = try Fixtures.run(Fixtures.unterm, ["completion", "tcsh"])
    #expect(out.status == 2)
    #expect(out.stderr.contains("bash, zsh or fish"))
  }
}
