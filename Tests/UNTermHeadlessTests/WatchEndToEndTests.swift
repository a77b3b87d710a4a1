import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// `--watch` on the real binary, saved to as editors save: a temporary file renamed over the
/// one watched (VS Code, vim), a file written half-way, a file deleted and made again.
@Suite("--watch end to end", .serialized, .hangGuard)
struct WatchEndToEndTests {
  /// A folder with copies of the samples, edited as an editor does.
  struct Folder {
    let url: URL

    init(_ names: [String]) throws {
      url = try Fixtures.temporaryDirectory()
      for name in names {
        try FileManager.default.copyItem(
          at: Fixtures.samples.appendingPathComponent(name), to: url.appendingPathComponent(name))
      }
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// Saves by rename: the text goes to a temporary file beside it, which replaces the file.
    func saveByRename(_ name: String, _ text: String) throws {
      let temporary = path("." + name + ".swp")
      try text.write(toFile: temporary, atomically: false, encoding: .utf8)
      #expect(rename(temporary, path(name)) == 0)
    }
  }

  @Test(.enabled(if: TmuxDriver.isAvailable))
  func interactiveSessionKeepsTheReplyThroughSavesAndBrokenSaves() throws {
    let folder = try Folder(["categories.json", "message.json", "meeting.json"])
    let good = try folder.read("message.json")
    let log = folder.path("responses.jsonl")
    let tmux = try TmuxDriver(width: 100, height: 30)
    defer { tmux.kill() }
    tmux.type(
      "cd \(folder.url.path) && LANG=C.UTF-8 \(Fixtures.unterm) --watch --categories com.example.calendar=categories.json "
        + "--categories com.example.messages=categories.json --log \(log) --socket \(folder.path("push.sock")) message.json meeting.json; echo EXIT=$?"
    )
    tmux.keys("Enter")
    try tmux.waitFor("Watching 3 files")
    try tmux.waitFor("Design review")

    // Answer the meeting, then open the message and start a reply.
    tmux.keys("Space")
    try tmux.waitFor("1  Accept")
    tmux.type("1")
    try tmux.waitFor("✓ accept · req-2")
    tmux.keys("Space")
    try tmux.waitFor("1  Reply")
    tmux.type("1")
    try tmux.waitFor("Message…")
    tmux.type("on my w")
    try tmux.waitFor("on my w")

    // A save by rename: the new title shows; the reply field and what it holds stay.
    try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima (edited)"))
    try tmux.waitFor("Ana Lima (edited)")
    try tmux.waitFor("Reloaded message.json")
    #expect(tmux.screen().contains("on my w"))
    #expect(tmux.screen().contains("✓ accept · req-2"))

    // Half-written: the last good version stays and the error names the place.
    try folder.saveByRename("message.json", String(good.prefix(60)))
    try tmux.waitUntil { $0.contains("message.json:") && $0.contains(": error:") }
    var screen = tmux.screen()
    #expect(screen.contains("Ana Lima (edited)"))
    #expect(screen.contains("on my w"))
    let errorLine = screen.split(separator: "\n").first { $0.contains("message.json:") } ?? ""
    #expect(errorLine.range(of: #"message\.json:\d+:\d+: error: "#, options: .regularExpression) != nil, "\(errorLine)")

    // Deleted, then made again: still watched; the fix clears the error.
    unlink(folder.path("message.json"))
    try tmux.waitFor("no such file")
    try good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima, fixed").write(
      toFile: folder.path("message.json"), atomically: false, encoding: .utf8)
    try tmux.waitFor("Ana Lima, fixed")
    try tmux.waitFor("message.json: fixed; reloaded")
    screen = tmux.screen()
    #expect(!screen.contains(": error:"))
    #expect(screen.contains("on my w"))

    // The categories file too: the action's title changes under the open reply.
    let categories = try folder.read("categories.json")
    try folder.saveByRename("categories.json", categories.replacingOccurrences(of: "\"Reply\"", with: "\"Answer\""))
    try tmux.waitFor("Reloaded categories.json")

    // The reply is sent for the same request, with the content now shown.
    tmux.type("ay")
    tmux.keys("Enter")
    try tmux.waitFor("✓ reply · req-1")
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(
      lines.last?.contains(#""actionIdentifier":"reply","userText":"on my way","requestIdentifier":"req-1""#) == true)
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  @Test func renderReprintsOnEverySaveAndSaysErrorsOnStandardError() throws {
    let folder = try Folder(["categories.json", "message.json"])
    let good = try folder.read("message.json")
    let run = try WatchedProcess(
      Fixtures.unterm,
      [
        "render", "--watch", "--color", "never", "--size", "60x12", "--categories", folder.path("categories.json"),
        folder.path("message.json"),
      ])
    defer { run.stop() }
    try run.waitForOutput { $0.contains("Ana Lima") }

    try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima (edited)"))
    try run.waitForOutput { $0.contains("Ana Lima (edited)") }
    // Through a pipe, a form feed separates the screens; each is whole.
    let screens = run.output.split(separator: "\u{0C}", omittingEmptySubsequences: false)
    #expect(screens.count == 2)
    #expect(screens.first?.contains("Ana Lima (edited)") == false)

    try folder.saveByRename("message.json", "{\"aps\": {\"alert\": ")
    try run.waitForErrors { $0.contains("message.json:1:") && $0.contains(": error:") }
    #expect(!run.output.hasSuffix("\u{0C}"), "the last good screen stays")
    #expect(run.errors.split(separator: "\n").count == 1, "one line: \(run.errors)")

    try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima, fixed"))
    try run.waitForOutput { $0.contains("Ana Lima, fixed") }
    #expect(run.output.split(separator: "\u{0C}").count == 3)

    // A burst of saves is one more screen, not one per save.
    for i in 0..<20 {
      try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Burst \(i)"))
    }
    try run.waitForOutput { $0.contains("Burst 19") }
    // One more save after the burst: its screen comes after every screen the burst made.
    try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "After the burst"))
    try run.waitForOutput { $0.contains("After the burst") }
    let count = run.output.split(separator: "\u{0C}").count
    // 3 screens before, 1 after; the 20 saves between are 1 screen, or a few when a busy machine
    // spreads them past the watcher's limit, never one per save.
    #expect(count >= 5 && count <= 7, "\(count) screens")

    // Interrupted, it ends as an interrupted program does.
    #expect(run.interrupt() == SIGINT)
  }

  @Test func sheetIsRewrittenOnEverySaveAndKeptWhenAFileBreaks() throws {
    let folder = try Folder(["categories.json", "message.json"])
    let good = try folder.read("message.json")
    let out = folder.path("sheet.html")
    let run = try WatchedProcess(
      Fixtures.unterm,
      [
        "sheet", "--watch", "--devices", "iphone", "--states", "unlocked", "--views", "banner", "--out", out,
        "--categories", folder.path("categories.json"), folder.path("message.json"),
      ])
    defer { run.stop() }
    try run.waitForOutput { $0.contains("sheet.html: 1 payload, ") }
    let sheet = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
    #expect(sheet().contains("Ana Lima"))

    try folder.saveByRename("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima (edited)"))
    try run.waitForOutput { $0.split(separator: "\n").count == 2 }
    #expect(sheet().contains("Ana Lima (edited)"))

    // A broken save: the error on stderr, the last sheet left as it was.
    let before = sheet()
    try folder.saveByRename("message.json", "{")
    try run.waitForErrors { $0.contains("message.json:") && $0.contains(": error:") }
    #expect(sheet() == before)
    // The categories file is watched too.
    try folder.saveByRename("message.json", good)
    try run.waitForOutput { $0.split(separator: "\n").count == 3 }
    let categories = try folder.read("categories.json")
    try folder.saveByRename("categories.json", categories.replacingOccurrences(of: "\"Reply\"", with: "\"Answer\""))
    try run.waitForOutput { $0.split(separator: "\n").count == 4 }
    #expect(sheet().contains("Answer"))
    #expect(run.interrupt() == SIGINT)
  }

  @Test func watchWithOnlyStandardInputIsAUsageError() throws {
    let result = try Fixtures.run(Fixtures.unterm, ["render", "--watch", "-"], stdin: "{\"aps\":{\"alert\":\"hi\"}}")
    #expect(result.status == 2)
    #expect(result.stderr.contains("--watch has no file to watch"))
  }
}

/// A program run with its standard output and error read as they come.
final class WatchedProcess: @unchecked Sendable {
  private let process = Process()
  private let lock = NSLock()
  private var out = Data()
  private var err = Data()

  init(_ executable: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.out.append(data) }
    }
    stderr.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.err.append(data) }
    }
    try process.run()
  }

  var output: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
  var errors: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

  // 30 s: on a loaded 2-core machine running the whole suite in parallel (and other builds), a
  // child's start and first render once took over 10 s; a wait ends as soon as the text comes.
  func waitForOutput(timeout: TimeInterval = 30, _ done: (String) -> Bool) throws {
    try wait(timeout: timeout, "output") { done(output) }
  }

  func waitForErrors(timeout: TimeInterval = 30, _ done: (String) -> Bool) throws {
    try wait(timeout: timeout, "standard error") { done(errors) }
  }

  private func wait(timeout: TimeInterval, _ what: String, _ done: () -> Bool) throws {
    let limit = Date().addingTimeInterval(timeout)
    while Date() < limit {
      if done() { return }
      Thread.sleep(forTimeInterval: 0.02)
    }
    throw TmuxDriver.Timeout(description: "\(what) did not come; stdout:\n\(output)\nstderr:\n\(errors)")
  }

  /// Sends SIGINT and waits (at most 10 s, then SIGKILL); the signal that ended the program,
  /// if one did.
  func interrupt() -> Int32? {
    process.interrupt()
    let limit = Date().addingTimeInterval(10)
    while process.isRunning && Date() < limit { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
  }

  func stop() {
    if process.isRunning { process.terminate() }
  }
}
