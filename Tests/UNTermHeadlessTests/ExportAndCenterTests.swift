import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermShell
@testable import UserNotificationsModel

#if canImport(Glibc)
  import Glibc
#endif

/// `unterm export` (what sends a payload to a real device) and `unterm center` (the session's
/// center over its socket), issue 13.4.
@Suite("Export and the center over the socket", .serialized, .hangGuard)
struct ExportAndCenterTests {
  /// A payload with everything a shell would take for its own: quotes of both kinds, `$`,
  /// backticks, a command substitution, `%` for printf, `!`, backslashes, line breaks between
  /// members, Urdu and Bengali.
  private static let hostile = """
    {
      "apns-headers": {"apns-priority": 10, "apns-collapse-id": "it's $HOME"},
      "aps": {"alert": {"title": "It's \\"$(touch pwned)\\" `id`", "body": "100% sure!\\\\n مرحبا আমি"}},
      "Simulator Target Bundle": "com.example.chat"
    }

    """

  /// A folder with `xcrun` and `curl` stand-ins that record their arguments (one file each) and
  /// standard input, the way the exported command line hands them over.
  private func fakeTools() throws -> (bin: URL, record: URL) {
    let dir = try Fixtures.temporaryDirectory()
    let bin = dir.appendingPathComponent("bin")
    let record = dir.appendingPathComponent("record")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: record, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      i=0
      for a in "$@"; do printf '%s' "$a" > "$RECORD/arg$i"; i=$((i+1)); done
      printf '%s' "$i" > "$RECORD/count"
      cat > "$RECORD/stdin"

      """
    for tool in ["xcrun", "curl"] {
      let url = bin.appendingPathComponent(tool)
      try Fixtures.writeExecutable(script, to: url)
    }
    return (bin, record)
  }

  private func arguments(in record: URL) throws -> [String] {
    let count = Int(try String(contentsOf: record.appendingPathComponent("count"), encoding: .utf8)) ?? 0
    return try (0..<count).map { try String(contentsOf: record.appendingPathComponent("arg\($0)"), encoding: .utf8) }
  }

  /// Runs an exported command line in a real shell, in a folder where `touch pwned` would leave
  /// a file if any part of the payload were run.
  private func runInShell(_ command: String, tools: (bin: URL, record: URL), environment: [String: String] = [:])
    throws -> (status: Int32, stdout: String, stderr: String)
  {
    var env = ["PATH": tools.bin.path + ":/usr/bin:/bin", "RECORD": tools.record.path]
    for (k, v) in environment { env[k] = v }
    return try Fixtures.run("/bin/sh", ["-c", command], environment: env, directory: tools.record.path)
  }

  @Test func theSimctlLineHandsSimctlThePayloadAsSent() throws {
    let dir = try Fixtures.temporaryDirectory()
    let file = dir.appendingPathComponent("hostile.json")
    try Data(Self.hostile.utf8).write(to: file)
    let exported = try Fixtures.run(Fixtures.unterm, ["export", "--simctl", file.path])
    #expect(exported.status == 0, "\(exported.stderr)")
    #expect(
      exported.stderr.contains(
        "note: apns-priority and apns-collapse-id are not sent, as simctl push takes no APNs headers"),
      "\(exported.stderr)")
    // --topic is the bundle identifier simctl pushes to: the note says so, not that it stays behind.
    let plain = dir.appendingPathComponent("plain.json")
    try Data(#"{"aps":{"alert":"Your dabba is here"},"apns-headers":{"apns-priority":"5"}}"#.utf8).write(to: plain)
    let topic = try Fixtures.run(Fixtures.unterm, ["export", "--simctl", "--topic", "com.dabba.app", plain.path])
    #expect(topic.stdout.contains("xcrun simctl push booted com.dabba.app -"), "\(topic.stdout)")
    #expect(
      topic.stderr.hasSuffix(
        "plain.json: note: apns-topic gives the app it pushes to (com.dabba.app); apns-priority is not sent, as simctl push takes no APNs headers\n"
      ), "\(topic.stderr)")
    #expect(!topic.stderr.contains("apns-topic is not sent"))
    let tools = try fakeTools()
    let ran = try runInShell(exported.stdout, tools: tools)
    #expect(ran.status == 0, "\(ran.stderr)")
    #expect(try arguments(in: tools.record) == ["simctl", "push", "booted", "com.example.chat", "-"])
    let sent = try Data(contentsOf: tools.record.appendingPathComponent("stdin"))
    let expected = try #require(JSONMemberSpans(Array(Self.hostile.utf8))).removing(
      ["apns-headers"], from: Array(Self.hostile.utf8))
    #expect(Array(sent) == expected)
    #expect(!FileManager.default.fileExists(atPath: tools.record.appendingPathComponent("pwned").path))
    // What simctl gets is a payload UNTerm itself takes, as the same notification.
    let again = PayloadAnalyzer.analyze(Array(sent), file: "sent.json", categories: nil)
    #expect(!again.hasErrors)
    #expect(again.content?.title == #"It's "$(touch pwned)" `id`"#)
  }

  @Test func theCurlRequestCarriesTheHeadersAndTheBodyIntact() throws {
    let dir = try Fixtures.temporaryDirectory()
    let file = dir.appendingPathComponent("hostile.json")
    try Data(Self.hostile.utf8).write(to: file)
    let exported = try Fixtures.run(
      Fixtures.unterm, ["export", "--curl", "--environment", "production", "--expiration", "0", file.path])
    #expect(exported.status == 0, "\(exported.stderr)")
    let tools = try fakeTools()
    let ran = try runInShell(
      exported.stdout, tools: tools, environment: ["DEVICE_TOKEN": "abc123", "APNS_AUTH_TOKEN": "eyJ.token"])
    #expect(ran.status == 0, "\(ran.stderr)")
    let args = try arguments(in: tools.record)
    var headers: [String] = []
    for (i, arg) in args.enumerated() where arg == "--header" && i + 1 < args.count { headers.append(args[i + 1]) }
    #expect(
      headers == [
        "apns-push-type: alert", "apns-priority: 10", "apns-collapse-id: it's $HOME", "apns-expiration: 0",
        "apns-topic: com.example.chat", "authorization: bearer eyJ.token",
      ])
    #expect(args.last == "https://api.push.apple.com/3/device/abc123")
    let body = try #require(args.firstIndex(of: "--data-binary").map { args[$0 + 1] })
    // The body is the payload without the headers object and without the Simulator's key.
    let root = try #require((try? JSONParser.parse(Array(body.utf8)))?.object)
    #expect(root.keys == ["aps"])
    #expect(!FileManager.default.fileExists(atPath: tools.record.appendingPathComponent("pwned").path))
    // No token set: the shell stops and says which.
    let missing = try runInShell(exported.stdout, tools: tools, environment: ["APNS_AUTH_TOKEN": "x"])
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("set DEVICE_TOKEN to the device token"))
  }

  @Test func theApnsFileNamesItsAppAndKeepsTheRest() throws {
    let dir = try Fixtures.temporaryDirectory()
    let file = dir.appendingPathComponent("p.json")
    try Data("{\n  \"aps\": {\"alert\": \"Hi\"}\n}\n".utf8).write(to: file)
    let exported = try Fixtures.run(Fixtures.unterm, ["export", "--apns", "--topic", "com.example.app", file.path])
    #expect(exported.status == 0, "\(exported.stderr)")
    #expect(
      exported.stdout == "{\n  \"Simulator Target Bundle\": \"com.example.app\",\n  \"aps\": {\"alert\": \"Hi\"}\n}\n")
    // Without an app to send to, each form says how to name one.
    for form in ["--apns", "--simctl", "--curl"] {
      let none = try Fixtures.run(Fixtures.unterm, ["export", form, file.path])
      #expect(none.status == 2)
      #expect(none.stderr.contains("--topic ID"), "\(none.stderr)")
    }
    // The session's --bundle, when given, is the app a payload that names none goes to (the
    // Apps rule: Simulator Target Bundle, else apns-topic, else --bundle), in every form.
    let apns = try Fixtures.run(Fixtures.unterm, ["export", "--apns", "--bundle", "com.example.chat", file.path])
    #expect(apns.status == 0, "\(apns.stderr)")
    #expect(apns.stdout.contains(#""Simulator Target Bundle": "com.example.chat""#), "\(apns.stdout)")
    let simctl = try Fixtures.run(Fixtures.unterm, ["export", "--simctl", "--bundle", "com.example.chat", file.path])
    #expect(simctl.status == 0, "\(simctl.stderr)")
    #expect(simctl.stdout.hasSuffix("| xcrun simctl push booted com.example.chat -\n"), "\(simctl.stdout)")
    let curl = try Fixtures.run(Fixtures.unterm, ["export", "--curl", "--bundle", "com.example.chat", file.path])
    #expect(curl.status == 0, "\(curl.stderr)")
    #expect(curl.stdout.contains("'apns-topic: com.example.chat'"), "\(curl.stdout)")
    // A payload's own app wins over --bundle, as in a session.
    let own = Data(#"{"aps":{"alert":"Hi"},"Simulator Target Bundle":"com.example.own"}"#.utf8)
    let ownFile = dir.appendingPathComponent("own.json")
    try own.write(to: ownFile)
    let kept = try Fixtures.run(Fixtures.unterm, ["export", "--simctl", "--bundle", "com.example.chat", ownFile.path])
    #expect(kept.stdout.hasSuffix("| xcrun simctl push booted com.example.own -\n"), "\(kept.stdout)")
    // A payload APNs would refuse is not exported.
    let bad = try Fixtures.run(
      Fixtures.unterm,
      ["export", "--curl", "--push-type", "background", "--priority", "5", "--topic", "a.b", file.path])
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("push-type"), "\(bad.stderr)")
    let two = try Fixtures.run(Fixtures.unterm, ["export", "--curl", "--simctl", file.path])
    #expect(two.status == 2)
  }

  /// A payload that fits APNs' 4096 bytes as written, but not once its DEL characters (legal
  /// raw in a JSON string) are escaped for the terminal, cannot be exported: that is the
  /// payload's fault, so exit 65 (invalid input) in every form, not 2 (a usage error), and one
  /// line naming the file.
  @Test func aPayloadTooLargeOnceEscapedIsInvalidInputNotAUsageError() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("dels.json")
    let body = String(repeating: "\u{7F}", count: 1000)
    try Data(#"{"aps":{"alert":"\#(body)"},"Simulator Target Bundle":"com.example.chat"}"#.utf8).write(to: file)
    for form in ["--apns", "--simctl", "--curl"] {
      let exported = try Fixtures.run(Fixtures.unterm, ["export", form, file.path])
      #expect(exported.status == 65, "\(form): \(exported.stderr)")
      #expect(exported.stdout.isEmpty)
      let lines = exported.stderr.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].hasPrefix("\(file.path): error: "), "\(form): \(exported.stderr)")
      #expect(exported.stderr.contains("over APNs' 4096"), "\(form): \(exported.stderr)")
    }
  }

  /// A payload whose own app or APNs header holds a control character cannot be exported as a
  /// command line (an .apns file keeps it JSON-escaped): the file's fault, exit 65; the same character in an option (--topic,
  /// --collapse-id, --simulator) is a usage error, exit 2. One line each, naming the file.
  @Test func aControlCharacterInThePayloadIsInvalidInputAndInAnOptionAUsageError() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let inBundle = dir.appendingPathComponent("bundle.json")
    try Data(#"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.ex\u001b[2Jample"}"#.utf8).write(to: inBundle)
    let inHeader = dir.appendingPathComponent("header.json")
    try Data(#"{"aps":{"alert":"x"},"apns-headers":{"apns-collapse-id":"a\u009bb"}}"#.utf8).write(to: inHeader)
    let plain = dir.appendingPathComponent("plain.json")
    try Data(#"{"aps":{"alert":"x"}}"#.utf8).write(to: plain)
    let cases: [(arguments: [String], status: Int32)] = [
      (["export", "--simctl", inBundle.path], 65),
      (["export", "--curl", inBundle.path], 65),
      (["export", "--curl", "--bundle", "com.example.app", inHeader.path], 65),
      (["export", "--curl", "--bundle", "com.example.app", "--collapse-id", "a\u{1B}b", plain.path], 2),
      (["export", "--simctl", "--topic", "a\u{9B}b", plain.path], 2),
      (["export", "--simctl", "--bundle", "com.example.app", "--simulator", "a\u{7}b", plain.path], 2),
    ]
    for (arguments, status) in cases {
      let exported = try Fixtures.run(Fixtures.unterm, arguments)
      #expect(exported.status == status, "\(arguments): \(exported.stderr)")
      #expect(exported.stdout.isEmpty)
      #expect(exported.stderr.split(separator: "\n").count == 1, "\(arguments): \(exported.stderr)")
      // A payload's fault names the file first; an option's is a usage error, which names none.
      if status == 2 {
        #expect(exported.stderr.hasPrefix("error: "), "\(arguments): \(exported.stderr)")
      } else {
        #expect(exported.stderr.hasPrefix(arguments.last ?? ""), "\(arguments): \(exported.stderr)")
      }
      #expect(TerminalBytes.violations(in: Array(exported.stderr.utf8)).isEmpty)
    }
  }

  @Test func shellQuotingRoundTripsEveryByteButNUL() throws {
    let seed = TestSeed()
    var random = seed.generator
    let alphabet = Array("a'\"$`\\ \n\t!%*?[]{}();&|<>~#=é😀مرحبا")
    let words = (0..<300).map { _ in
      String((0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
    }
    // One shell prints every word back, each ended by a NUL.
    let result = try Fixtures.run(
      "/bin/sh", ["-c", "printf '%s\\0' " + words.map(ShellQuote.quote).joined(separator: " ")])
    let back = result.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    #expect(back == words, "\(seed)")
    #expect(ShellQuote.quote("com.example.app") == "com.example.app")
    #expect(ShellQuote.quote("") == "''")
  }

  // MARK: - unterm center over the socket

  /// Drains the session (the work the socket posts to it) until `condition` holds: as long as
  /// the command it waits for may run (`Fixtures.run` kills it after that), and a little more.
  private func waitUntil(_ session: Session, _ condition: () -> Bool) {
    Eventually.wait(upTo: ChildProcess.defaultLimit + 10, between: session.drain, condition)
  }

  /// Runs the command line in another thread while this one serves the session.
  private func unterm(_ arguments: [String], session: Session) -> (status: Int32, stdout: String, stderr: String)? {
    let box = OutputBox()
    Thread { box.set(try? Fixtures.run(Fixtures.unterm, arguments)) }.start()
    waitUntil(session) { box.get() != nil }
    return box.get()
  }

  @Test func centerListsRemovesAndClearsTheRunningSession() throws {
    let dir = try Fixtures.temporaryDirectory()
    let socket = dir.appendingPathComponent("s.sock").path
    let session = try Fixtures.session()
    defer { session.detach() }
    let delivery = LiveDelivery(session: session, socketPath: socket, inbox: nil)
    _ = delivery.start()
    defer { delivery.stop() }

    // Pushes with headers, for another app: the second replaces the first by its collapse id.
    let first = try Fixtures.temporaryDirectory().appendingPathComponent("one.json")
    try Data(#"{"aps":{"alert":"One","thread-id":"t1","category":"message"}}"#.utf8).write(to: first)
    let pushed = try #require(
      unterm(
        [
          "push", "--socket", socket, "--bundle", "com.example.messages", "--collapse-id", "score", first.path,
          first.path,
        ],
        session: session))
    #expect(pushed.status == 0, "\(pushed.stderr)")
    #expect(pushed.stdout.components(separatedBy: "delivered as score").count == 3, "\(pushed.stdout)")
    try Fixtures.push(#"{"aps":{"alert":"Two"}}"#, into: session, as: "two")
    session.send(
      .schedule(
        UNNotificationRequest(
          identifier: "later", content: UNMutableNotificationContent(),
          trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false))))
    #expect(session.state.store.deliveredCount == 2)

    let listed = try #require(unterm(["center", "list", "--socket", socket], session: session))
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(
      listed.stdout.split(separator: "\n").map(String.init) == [
        "STATUS     IDENTIFIER  DATE                  APP                   THREAD  CATEGORY",
        "delivered  two         2025-11-29T20:00:00Z  com.example.app       -       -",
        "delivered  score       2025-11-29T20:00:00Z  com.example.messages  t1      message",
        "pending    later       2025-11-29T20:01:00Z  com.example.app       -       -",
      ], "\(listed.stdout)")
    let json = try #require(unterm(["center", "list", "--json", "--socket", socket], session: session))
    let root = try #require((try? JSONParser.parse(Array(json.stdout.utf8)))?.object)
    #expect(root["delivered"]?.array?.count == 2)
    #expect(root["pending"]?.array?.first?.object?["identifier"]?.string == "later")
    // Each entry names its app, last.
    let score = try #require(root["delivered"]?.array?.last?.object)
    #expect(score.members.last?.key == "bundleIdentifier")
    #expect(score["bundleIdentifier"]?.string == "com.example.messages")

    let removed = try #require(unterm(["center", "remove", "score", "nope", "--socket", socket], session: session))
    // An identifier nothing has is ignored, as iOS ignores it (reference, fact 23): success,
    // with a warning line so a typo is seen.
    #expect(removed.status == 0)
    #expect(removed.stdout == "removed score\n")
    #expect(
      removed.stderr
        == "warning: no notification has the identifier \"nope\" (delivered, held or pending); nothing removed, as iOS ignores it\n",
      "\(removed.stderr)")
    #expect(session.state.store.delivered("score") == nil)

    let cleared = try #require(unterm(["center", "clear", "--socket", socket], session: session))
    #expect(cleared.stdout == "cleared 1 notification\n")
    #expect(session.state.store.deliveredCount == 0)
    #expect(session.state.store.pending["later"] != nil)

    let wrong = try Fixtures.run(Fixtures.unterm, ["center", "lst", "--socket", socket])
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("did you mean 'list'?"))
  }

  @Test func aLineBreakCannotSmuggleARequestThroughAHeader() throws {
    var headers = APNsHeaders()
    headers[.collapseID] = "x\nCLEAR"
    #expect(throws: UNTermError.self) { try PushClient.push([("a", [])], headers: headers, socket: "/nonexistent") }
    #expect(throws: UNTermError.self) { try PushClient.center([.remove("a\nCLEAR")], socket: "/nonexistent") }
  }
}

/// Carries a result from a worker thread.
private final class OutputBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: (status: Int32, stdout: String, stderr: String)?

  func set(_ result: (status: Int32, stdout: String, stderr: String)?) {
    lock.lock()
    value = result ?? (-1, "", "could not run")
    lock.unlock()
  }

  func get() -> (status: Int32, stdout: String, stderr: String)? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
