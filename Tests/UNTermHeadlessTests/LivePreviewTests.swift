import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermShell
@testable import UserNotificationsModel

/// `unterm --watch`: saved files reload into the running session as events. The files are
/// copies of the samples in a temporary folder, edited as an editor saves them; the session runs
/// on the in-memory terminal, or is asked for its frame.
@Suite("The live preview reloads saves into the running session", .serialized, .hangGuard)
struct LivePreviewTests {
  /// A session on copies of the samples, its payloads delivered as `unterm` delivers them, a
  /// live preview of it, and an in-memory terminal with the interactive loop.
  final class Rig {
    let folder: URL
    let session: Session
    let preview: LivePreview
    let terminal: InMemoryTerminal
    let shell: InteractiveShell
    var responses: [UNNotificationResponse] = []

    init(
      payloads: [String] = ["message.json"], extensions: [String] = [], strings: [String] = [], width: Int = 100,
      height: Int = 30, configure: (inout SessionConfiguration) -> Void = { _ in }
    ) throws {
      let folder = try Fixtures.temporaryDirectory()
      self.folder = folder
      let stringFiles = [
        "Localization/en.lproj/Localizable.strings", "Localization/en.lproj/Localizable.stringsdict",
        "Localization/bn.lproj/Localizable.strings", "Localization/bn.lproj/Localizable.stringsdict",
      ]
      for name in ["categories.json", "ChatExtension/Info.plist", "media/avatar.png"] + stringFiles + payloads
        + extensions
      {
        let target = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
          at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent(name), to: target)
      }
      var configuration = SessionConfiguration()
      configuration.categoriesFile = folder.appendingPathComponent("categories.json").path
      for app in Fixtures.sampleApps {
        configuration.categoriesFiles.append(
          AppCategoriesFile(app: app, path: folder.appendingPathComponent("categories.json").path))
      }
      configuration.extensionFiles = extensions.map { folder.appendingPathComponent($0).path }
      configuration.stringsPaths = strings.map { folder.appendingPathComponent($0).path }
      configure(&configuration)
      session = try SessionFactory.make(configuration, now: Fixtures.now)
      session.resize(width: width, height: height)
      session.showPaths(relativeTo: folder.path)
      var delivered: [LivePreview.Payload] = []
      for name in payloads {
        let file = folder.appendingPathComponent(name).path
        let identifier = session.nextRequestIdentifier()
        try session.push(try Payload.load(file, categories: session.state.store.categories), identifier: identifier)
        delivered.append(LivePreview.Payload(file: file, identifier: identifier))
      }
      session.finishServiceExtensions(within: 5)
      preview = try LivePreview(session: session, payloads: delivered)
      let terminal = InMemoryTerminal(width: width, height: height, now: Fixtures.now)
      self.terminal = terminal
      shell = InteractiveShell(session: session, depth: .palette256, clock: { terminal.now })
      session.onResponse = { [unowned self] response, _ in self.responses.append(response) }
    }

    deinit { preview.stop() }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Edits a file as an editor that saves by rename does.
    func edit(_ name: String, _ change: (String) -> String) throws {
      let text = try String(contentsOfFile: path(name), encoding: .utf8)
      try write(name, change(text))
    }

    /// Saves a file whole, by a temporary file renamed over it.
    func write(_ name: String, _ text: String) throws {
      try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    }

    /// Runs the loop until its queued input is used up.
    func run() { _ = shell.run(on: terminal) }

    var screen: [String] { terminal.screen.lines }
    var text: String { screen.joined(separator: "\n") }

    /// The frame the session draws now (no terminal).
    var frame: String { session.frame().grid.lines.joined(separator: "\n") }

    /// Waits (in real time) for the watching thread to post its reloads, and lets the loop draw
    /// them, until the screen shows what `done` wants.
    func waitForReload(_ what: String, timeout: TimeInterval = 10, until done: (String) -> Bool) throws {
      let limit = Date().addingTimeInterval(timeout)
      while Date() < limit {
        if session.queue.isEmpty {
          Thread.sleep(forTimeInterval: 0.01)
          continue
        }
        terminal.input([.wake], after: 0.01)
        run()
        if done(text) { return }
      }
      throw PreviewFailure(description: "\(what) did not appear; the screen:\n\(text)")
    }
  }

  struct PreviewFailure: Error, CustomStringConvertible {
    var description: String
  }

  @Test("Saves through the watching thread: the focus, the open view, a half-typed reply and the responses survive")
  func stateSurvivesAReload() throws {
    let rig = try Rig(payloads: ["message.json", "meeting.json"])
    #expect(Set(["categories.json", "message.json", "meeting.json"].map(rig.path)).isSubset(of: rig.preview.files))
    #expect(rig.preview.start().hasPrefix("Watching"))
    // Answer the meeting, then open the message and start a reply.
    rig.terminal.type(" ", after: 0.1)
    rig.terminal.type("1", after: 0.1)
    rig.terminal.type(" ", after: 0.1)
    rig.terminal.type("1", after: 0.1)
    rig.terminal.type("on my w", after: 0.1)
    rig.run()
    #expect(rig.text.contains("✓ accept · req-2"))
    #expect(rig.text.contains("│ Reply "))
    #expect(rig.text.contains("on my w"))

    try rig.edit("message.json") { $0.replacingOccurrences(of: "\"Ana Lima\"", with: "\"Ana Lima (edited)\"") }
    try rig.edit("categories.json") { $0.replacingOccurrences(of: "\"Reply\"", with: "\"Answer\"") }
    try rig.waitForReload("the edited title and action") {
      $0.contains("Ana Lima (edited)") && $0.contains("│ Answer ")
    }
    // Everything the user had is still there.
    #expect(rig.text.contains("on my w"))
    #expect(rig.text.contains("✓ accept · req-2"))
    #expect(rig.text.contains("Reloaded message.json"))
    #expect(rig.text.contains("Reloaded categories.json"))
    let expanded = try #require(rig.session.state.expanded)
    #expect(expanded.notification.request.identifier == "req-1")
    #expect(expanded.reply?.field.text == "on my w")
    #expect(!rig.session.state.isLocked)
    #expect(rig.session.state.store.deliveredCount == 1)

    // The reply goes on and is sent for the same request, with the content now shown.
    rig.terminal.type("ay", after: 0.1)
    rig.terminal.press(.enter, after: 0.1)
    rig.run()
    let reply = try #require(rig.responses.last as? UNTextInputNotificationResponse)
    #expect(reply.userText == "on my way")
    #expect(reply.notification.request.identifier == "req-1")
    #expect(reply.notification.request.content.title == "Ana Lima (edited)")
    #expect(rig.text.contains("✓ reply · req-1"))
  }

  @Test("The list keeps its focus and order when a notification that is not first is reloaded")
  func focusAndOrderSurvive() throws {
    let rig = try Rig(payloads: ["message.json", "meeting.json", "long-body.json"])
    rig.session.send(.command(.openCenter))
    rig.session.send(.key(.down))
    let focused = try #require(rig.session.state.listFocus)
    let order = rig.session.state.store.deliveredNewestFirst.map(\.request.identifier)
    let dates = rig.session.state.store.deliveredNewestFirst.map(\.date)
    let file = rig.preview.files.first { $0.hasSuffix("meeting.json") } ?? ""
    try rig.edit("meeting.json") { $0.replacingOccurrences(of: "Design review", with: "Design review (moved)") }
    rig.preview.apply([file])
    #expect(rig.session.state.listFocus == focused)
    #expect(rig.session.state.store.deliveredNewestFirst.map(\.request.identifier) == order)
    #expect(rig.session.state.store.deliveredNewestFirst.map(\.date) == dates)
    #expect(rig.session.state.isListOpen)
    #expect(rig.frame.contains("Design review (moved)"))
  }

  @Test("A half-saved payload keeps the last good version, its error stays on top of the pane until fixed")
  func syntaxErrorThenFix() throws {
    let rig = try Rig()
    let file = rig.path("message.json")
    let good = try String(contentsOfFile: file, encoding: .utf8)
    // Written half-way: the editor has not written the rest yet.
    try rig.write("message.json", String(good.prefix(60)))
    rig.preview.apply([file])
    #expect(rig.frame.contains("Ana Lima"))
    #expect(rig.frame.contains("Are we still on for 8?"))
    let problem = try #require(rig.session.state.fileProblems.first)
    #expect(problem.place.hasPrefix(file + ":"))
    #expect(problem.place.split(separator: ":").count == 3, "FILE:LINE:COL, got \(problem.place)")
    // More activity does not push it out of sight.
    for i in 0..<40 { rig.session.send(.notice(.info, "busy \(i)")) }
    let errorLine = try #require(rig.frame.split(separator: "\n").first { $0.contains("message.json:") })
    #expect(errorLine.contains("error:"))
    #expect(rig.frame.contains("Activity"))

    try rig.write("message.json", good.replacingOccurrences(of: "Ana Lima", with: "Ana Lima, fixed"))
    rig.preview.apply([file])
    #expect(rig.session.state.fileProblems.isEmpty)
    #expect(rig.frame.contains("Ana Lima, fixed"))
    #expect(rig.frame.contains("message.json: fixed; reloaded"))
    #expect(!rig.frame.contains("error:"))
    #expect(rig.session.state.store.deliveredCount == 1)
  }

  @Test("A deleted payload is an error until it is back; re-created, it reloads")
  func deletedThenRecreated() throws {
    let rig = try Rig()
    let file = rig.path("message.json")
    let good = try String(contentsOfFile: file, encoding: .utf8)
    try FileManager.default.removeItem(atPath: file)
    rig.preview.apply([file])
    #expect(rig.frame.contains("Ana Lima"))
    #expect(rig.session.state.fileProblems.first?.message == "no such file")
    try rig.write("message.json", good.replacingOccurrences(of: "Dinner tonight?", with: "Lunch instead?"))
    rig.preview.apply([file])
    #expect(rig.frame.contains("Lunch instead?"))
    #expect(rig.session.state.fileProblems.isEmpty)
  }

  @Test("Locked, the lock survives; a payload's error shows its place, its message hidden with the previews")
  func lockedSession() throws {
    let rig = try Rig { $0.locked = true }
    let file = rig.path("message.json")
    try rig.write("message.json", #"{"aps": {"alert": {"title": "secret"#)
    rig.preview.apply([file])
    #expect(rig.session.state.isLocked)
    let line = try #require(rig.frame.split(separator: "\n").first { $0.contains("message.json:") })
    #expect(line.contains("error: ‹hidden while previews"))
    // A categories file's error is not content: it shows in full.
    try rig.write("categories.json", "{")
    rig.preview.apply([rig.path("categories.json")])
    #expect(rig.frame.contains("categories.json:1:2: error:"))
    #expect(rig.session.state.isLocked)
  }

  @Test("A reply field whose action is gone after a reload closes, saying what was typed")
  func replyWhoseActionIsGone() throws {
    let rig = try Rig()
    rig.session.send(.command(.longPress))
    rig.session.send(.command(.chooseAction("reply")))
    rig.session.send(.command(.type("almost")))
    try rig.edit("categories.json") {
      $0.replacingOccurrences(of: "\"identifier\": \"reply\"", with: "\"identifier\": \"respond\"")
    }
    rig.preview.apply([rig.path("categories.json")])
    #expect(rig.session.state.expanded != nil)
    #expect(rig.session.state.expanded?.reply == nil)
    #expect(rig.session.state.notices.contains { $0.text.contains("\"almost\"") && $0.text.contains("\"reply\"") })
  }

  @Test("A descriptor and the Info.plist it names are watched: the open custom view reloads, errors then fixes")
  func extensionDescriptorAndInfoPlist() throws {
    let rig = try Rig(payloads: ["chat-thread.json"], extensions: ["extension-chat-card.json"])
    let plist = rig.path("ChatExtension/Info.plist")
    #expect(rig.preview.files.contains(plist))
    rig.session.send(.command(.longPress))
    #expect(rig.frame.contains("Like"))
    try rig.edit("extension-chat-card.json") { $0.replacingOccurrences(of: "👍 Like", with: "Love it") }
    rig.preview.apply([rig.path("extension-chat-card.json")])
    #expect(rig.frame.contains("Love it"))
    #expect(rig.session.state.expanded != nil)

    let goodPlist = try String(contentsOfFile: plist, encoding: .utf8)
    try rig.write("ChatExtension/Info.plist", "<?xml version=\"1.0\"?><plist><dict>")
    rig.preview.apply([plist])
    #expect(rig.frame.contains("Love it"), "the last good view stays")
    #expect(rig.session.state.fileProblems.map(\.file) == [plist])
    try rig.write("ChatExtension/Info.plist", goodPlist)
    rig.preview.apply([plist])
    #expect(rig.session.state.fileProblems.isEmpty)
    #expect(rig.frame.contains("Info.plist: fixed; reloaded"))
  }

  @Test("A payload answered before its save is delivered anew under its identifier")
  func answeredThenSaved() throws {
    let rig = try Rig()
    rig.session.send(.command(.longPress))
    rig.session.send(.command(.chooseAction("like")))
    #expect(rig.session.state.store.deliveredCount == 0)
    try rig.edit("message.json") { $0.replacingOccurrences(of: "Ana Lima", with: "Ana again") }
    rig.preview.apply([rig.path("message.json")])
    #expect(rig.session.state.store.delivered("req-1")?.request.content.title == "Ana again")
    #expect(rig.session.state.responses.count == 1)
  }

  @Test("A theme file given with --theme is watched: a save recolours the screen, a broken one keeps the last")
  func themeFile() throws {
    let themeFile = try Fixtures.temporaryDirectory().appendingPathComponent("mine.json").path
    try FileManager.default.copyItem(
      atPath: Fixtures.themes.appendingPathComponent("dark.json").path, toPath: themeFile)
    let rig = try Rig { $0.theme = themeFile }
    #expect(rig.preview.files.contains(themeFile))
    let before = rig.session.renderer.theme
    let text = try String(contentsOfFile: themeFile, encoding: .utf8)
    try text.replacingOccurrences(of: ##""title": { "fg": "#ffffff""##, with: ##""title": { "fg": "#ff0000""##)
      .write(toFile: themeFile, atomically: true, encoding: .utf8)
    rig.preview.apply([themeFile])
    let recoloured = rig.session.renderer.theme
    #expect(recoloured != before)
    #expect(rig.session.state.fileProblems.isEmpty)

    try "{ \"name\": ".write(toFile: themeFile, atomically: true, encoding: .utf8)
    rig.preview.apply([themeFile])
    #expect(rig.session.renderer.theme == recoloured, "the last good theme stays")
    #expect(rig.session.state.fileProblems.map(\.file) == [themeFile])
    #expect(rig.frame.contains("mine.json:"))
  }

  @Test(
    "The app's strings are watched: a save re-words the screen, a broken one keeps the last, a new language is seen")
  func stringsFolder() throws {
    let rig = try Rig(payloads: ["localized.json"], strings: ["Localization"])
    let english = "Localization/en.lproj/Localizable.strings"
    #expect(rig.preview.files.contains(rig.path("Localization/en.lproj")))
    #expect(rig.frame.contains("Game invite from Jenna"))

    try rig.edit(english) { $0.replacingOccurrences(of: "Game invite from %@", with: "%@ challenges you") }
    rig.preview.apply([rig.path("Localization/en.lproj")])
    #expect(rig.frame.contains("Jenna challenges you"))
    #expect(rig.session.state.fileProblems.isEmpty)

    // Saved half-way: the words on screen stay, the error names the folder being watched.
    try rig.write(english, "\"GAME_INVITE_TITLE\" = \"Half")
    rig.preview.apply([rig.path("Localization/en.lproj")])
    #expect(rig.frame.contains("Jenna challenges you"), "the last good strings stay")
    #expect(rig.session.state.fileProblems.map(\.file) == [rig.path("Localization/en.lproj")])
    #expect(rig.frame.contains("Localizable.strings:1:"))

    try rig.write(english, "\"GAME_INVITE_TITLE\" = \"Invited by %@\";\n")
    rig.preview.apply([rig.path("Localization/en.lproj")])
    #expect(rig.frame.contains("Invited by Jenna"))
    #expect(rig.session.state.fileProblems.isEmpty)
    #expect(rig.frame.contains("en.lproj: fixed; reloaded"))

    // A language added while the session runs is watched from the next reload on.
    let french = rig.path("Localization/fr.lproj")
    try FileManager.default.createDirectory(atPath: french, withIntermediateDirectories: true)
    rig.preview.apply([rig.path("Localization")])
    #expect(rig.preview.files.contains(french))
  }
}
