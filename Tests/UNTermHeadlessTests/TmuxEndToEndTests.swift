import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// Drives the real `unterm` binary in tmux as a person would: keys in, screens out.
@Suite("End to end in tmux", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct TmuxEndToEndTests {
  @Test func replyInBengaliThenAuthenticatedActionThenSIGTERM() throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("responses.jsonl").path
    let socket = dir.appendingPathComponent("push.sock").path
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    let command = [
      "stty -a > \(dir.path)/before.txt;",
      "LANG=C.UTF-8 NO_COLOR= \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell)",
      "--passcode 2468 --log \(log) --socket \(socket) \(Fixtures.sample("message.json"));",
      "echo EXIT=$?; stty -a > \(dir.path)/after.txt; echo AFTER-$((1 + 1))",
    ].joined(separator: " ")
    tmux.type(command)
    tmux.keys("Enter")
    try tmux.waitFor("Ana Lima")

    // Long-press, choose Reply, type Bengali, send.
    tmux.keys("Space")
    try tmux.waitFor("1  Reply")
    tmux.type("1")
    try tmux.waitFor("Message…")
    tmux.type("আমি আসছি")
    try tmux.waitFor("আমি আসছি")
    tmux.keys("Enter")
    let first = try waitForLines(log, count: 1)
    #expect(
      first[0].contains(
        #""actionIdentifier":"reply","userText":"আমি আসছি","requestIdentifier":"req-1","categoryIdentifier":"message""#))
    #expect(first[0].contains(#""locked":false"#))
    try tmux.waitFor("✓ reply · req-1")

    // Lock, push an alert from another "terminal": its preview is hidden, so expanding it
    // asks for the passcode first; then choose its action.
    tmux.type("L")
    try tmux.waitFor("Locked")
    let pushed = try Fixtures.run(
      Fixtures.unterm, ["push", "--socket", socket, Fixtures.sample("security-alert.apns")])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    #expect(pushed.stdout.contains("delivered as req-2"))
    try tmux.waitFor("Security alert")
    tmux.keys("Space")
    try tmux.waitFor("Enter Passcode")
    #expect(!tmux.screen().contains("Lisbon"))
    tmux.type("0000")
    tmux.keys("Enter")
    try tmux.waitFor("Wrong passcode")
    #expect(try waitForLines(log, count: 1).count == 1)
    tmux.type("2468")
    tmux.keys("Enter")
    try tmux.waitFor("It Was Me")
    try tmux.waitFor("Lisbon")
    tmux.type("1")
    let second = try waitForLines(log, count: 2)
    #expect(
      second[1].contains(
        #""actionIdentifier":"approve","requestIdentifier":"req-2","categoryIdentifier":"security-alert""#))

    // SIGTERM: the terminal comes back as it was.
    let pids = try Fixtures.run("/usr/bin/pgrep", ["-f", "--", "--socket \(socket)"]).stdout
      .split(separator: "\n").compactMap { Int32($0) }
    #expect(!pids.isEmpty)
    for pid in pids { kill(pid, SIGTERM) }
    // (The command line itself reads "EXIT=$?", so only the real status matches.)
    try tmux.waitFor("EXIT=143")
    // `stty -a > after.txt; echo AFTER-$((1 + 1))`: once AFTER-2 shows, the file is whole.
    try tmux.waitFor("AFTER-2")
    let before = try String(contentsOfFile: "\(dir.path)/before.txt", encoding: .utf8)
    let after = try String(contentsOfFile: "\(dir.path)/after.txt", encoding: .utf8)
    #expect(before == after)
    #expect(after.contains(" icanon") && after.contains(" echo"))
  }

  /// Keys as terminals send them, under each `TERM` a user may have: inside tmux with
  /// `TERM=xterm-256color`, Home (`ESC [ 1 ~`) used to cancel the reply (Esc) and send action 1.
  /// Every key here is sent as raw bytes, one write each, as a terminal sends a key press.
  @Test(arguments: ["xterm", "xterm-256color", "screen-256color", "tmux-256color", "linux", "vt100"])
  func keysArriveAsPressedUnder(_ term: String) throws {
    let dir = try Fixtures.temporaryDirectory()
    let log = dir.appendingPathComponent("responses.jsonl").path
    let socket = dir.appendingPathComponent("push.sock").path
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "TERM=\(term) LANG=C.UTF-8 \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) --log \(log) "
        + "--socket \(socket) \(Fixtures.sample("message.json")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Ana Lima")

    // Esc alone still works: the expanded view opens and closes.
    tmux.keys("Space")
    try tmux.waitFor("1  Reply")
    tmux.bytes("\u{1B}")
    try tmux.waitUntil { !$0.contains("1  Reply") }
    tmux.keys("Space")
    try tmux.waitFor("1  Reply")

    // A paste outside a text field does nothing: it does not choose action 1.
    tmux.bytes("\u{1B}[200~1\u{1B}[201~")
    tmux.type("1")
    try tmux.waitFor("Message…")
    tmux.type("b")
    try tmux.waitFor("│ b ")

    // Keys that do nothing in a text field: neither text nor Esc.
    let e = "\u{1B}"
    let inert =
      ["[2~", "[5~", "[6~", "OP", "OQ", "OR", "OS", "[[A", "[[E", "[11~", "[15~", "[17~", "[18~", "[19~", "[20~"]
      + ["[21~", "[23~", "[24~", "[1;2A", "[1;5D", "[1;3C", "[1;6B", "[1;5H", "[3;5~", "[5;3~", "[Z", "x", "1", "[a"]
      + ["Od", "[99~", "[1;9Z", "[I", "[O", "[?1;2c"]
    for tail in inert { tmux.bytes(e + tail) }
    // Home as tmux, xterm (both cursor-key modes) and rxvt send it, then End likewise.
    for home in ["[1~", "OH", "[H", "[7~"] {
      tmux.bytes(e + home)
      tmux.type("h")
    }
    for end in ["[4~", "OF", "[F", "[8~"] {
      tmux.bytes(e + end)
      tmux.type("e")
    }
    tmux.bytes(e + "OD")
    tmux.bytes(e + "[D")
    tmux.bytes(e + "[3~")
    tmux.bytes(e + "[200~[p\u{1}]" + e + "[201~")
    try tmux.waitFor("hhhhbee[p␁]e")
    tmux.keys("Enter")
    let lines = try waitForLines(log, count: 1)
    #expect(lines.count == 1)
    #expect(lines[0].contains(#""actionIdentifier":"reply","userText":"hhhhbee[p\u0001]e""#), "\(term): \(lines[0])")
    try tmux.waitFor("✓ reply · req-1")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  @Test func withoutATerminalItPointsToRenderAndRun() throws {
    let result = try Fixtures.run(Fixtures.unterm, [Fixtures.sample("message.json")])
    #expect(result.status == 1)
    #expect(result.stderr.contains("unterm render"))
    #expect(result.stderr.contains("unterm run"))
  }

  @Test func pushWithNoRunningSessionSaysSo() throws {
    let result = try Fixtures.run(
      Fixtures.unterm, ["push", "--socket", "/tmp/unterm-no-such-session.sock", Fixtures.sample("message.json")])
    #expect(result.status == 1)
    #expect(result.stderr.contains("no UNTerm session is running"))
  }

  private func waitForLines(_ path: String, count: Int) throws -> [String] {
    func lines() -> [String] {
      FileManager.default.contents(atPath: path).map {
        String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
      } ?? []
    }
    guard Eventually.wait(every: 0.05, { lines().count >= count }) else {
      throw TmuxDriver.Timeout(description: "the log did not reach \(count) line(s)")
    }
    return lines()
  }
}

/// A private tmux server with one 80×24 pane.
struct TmuxDriver {
  struct Timeout: Error, CustomStringConvertible {
    var description: String
  }

  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }
  static var path: String {
    ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
      ?? "/usr/bin/tmux"
  }

  let server = "unterm-test-\(UUID().uuidString.prefix(8))"
  /// The tmux server and the shell in its pane (a session leader: what runs there is in its
  /// session), so `kill` can make sure nothing outlives the test.
  private let serverPID: pid_t?
  private let panePID: pid_t?

  init(width: Int, height: Int) throws {
    let result = Fixtures.spawn(
      Self.path,
      [
        "-L", server, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "main", "-P", "-F",
        "#{pid} #{pane_pid}",
        "env -i PATH=/usr/bin:/bin HOME=/tmp TERM=xterm-256color PS1='$ ' bash --norc --noprofile",
      ])
    let pids = result.output.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    serverPID = pids.first
    panePID = pids.dropFirst().first
    guard result.status == 0 else { throw Timeout(description: "tmux would not start") }
    // Keys typed before the shell reads its terminal could be echoed twice or lost.
    try waitFor("$")
  }

  /// Runs a tmux command on this server; `nil` when it failed.
  @discardableResult
  func run(_ arguments: [String]) -> String? {
    let result = Fixtures.spawn(Self.path, ["-L", server] + arguments)
    return result.status == 0 ? result.output : nil
  }

  func type(_ text: String) { run(["send-keys", "-t", "main", "-l", text]) }
  func keys(_ name: String) { run(["send-keys", "-t", "main", name]) }
  func screen() -> String { run(["capture-pane", "-p", "-t", "main"]) ?? "" }
  /// Sends bytes as they are (a terminal's key sequence), in one write.
  func bytes(_ text: String) {
    run(["send-keys", "-t", "main", "-H"] + text.utf8.map { String(format: "%02x", $0) })
  }

  /// Waits until the screen satisfies `condition`: at once when it does, at most `timeout`.
  func waitUntil(timeout: TimeInterval = Eventually.limit, _ condition: (String) -> Bool) throws {
    guard Eventually.wait(upTo: timeout, every: 0.05, { condition(screen()) }) else {
      throw Timeout(description: "the screen did not change as expected:\n\(screen())")
    }
  }

  /// Ends the server, and kills whatever still runs in the pane's session and the server itself
  /// (a program that ignored the hang-up, a server that did not answer).
  func kill() {
    run(["kill-server"])
    if let panePID { ProcessSessions.kill(session: panePID) }
    if let serverPID { Glibc.kill(serverPID, SIGKILL) }
  }

  func waitFor(_ text: String, timeout: TimeInterval = Eventually.limit) throws {
    guard Eventually.wait(upTo: timeout, every: 0.05, { screen().contains(text) }) else {
      throw Timeout(description: "\(OneLine.quote(text)) did not appear; the screen:\n\(screen())")
    }
  }
}
