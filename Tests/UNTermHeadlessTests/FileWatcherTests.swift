import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermShell

#if canImport(Glibc)
  import Glibc
#endif

/// The watcher behind `--watch`, on real inotify in temporary folders. Saves are made the ways
/// editors make them; the times the watcher is told (`now`) are the test's, so coalescing is
/// checked exactly whatever the machine's load: inotify queues an event before the write that
/// made it returns.
@Suite("FileWatcher: saves seen through inotify, coalesced", .hangGuard)
struct FileWatcherTests {
  let folder: URL
  let timing = FileWatcher.Timing()

  init() throws { folder = try Fixtures.temporaryDirectory() }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// A save in place: open with O_TRUNC, write, close.
  func save(_ text: String, to file: String, flags: Int32 = O_TRUNC) {
    let fd = open(file, O_WRONLY | O_CREAT | flags, 0o644)
    precondition(fd >= 0, "cannot open \(file)")
    _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
  }

  /// A save by rename, as VS Code and vim (backupcopy=no) do: a temporary file renamed over.
  func saveByRename(_ text: String, to file: String) {
    let temporary = (file as NSString).deletingLastPathComponent + "/." + (file as NSString).lastPathComponent + ".swp"
    save(text, to: temporary)
    precondition(rename(temporary, file) == 0)
  }

  /// The events queued so far, read at `now`, and what is taken once the quiet period passed.
  func settle(_ watcher: FileWatcher, at now: Double) -> Set<String> {
    watcher.readEvents(now: now)
    return watcher.takeChanges(now: now + timing.quiet)
  }

  @Test("A save in place is taken once the quiet period has passed, and names only that file")
  func saveInPlace() throws {
    let a = path("a.json")
    let b = path("b.json")
    save("{}", to: a)
    save("{}", to: b)
    let watcher = try FileWatcher(files: [a, b])
    save(#"{"aps":{}}"#, to: a)
    watcher.readEvents(now: 10)
    #expect(watcher.nextDue == 10 + timing.quiet)
    #expect(watcher.takeChanges(now: 10 + timing.quiet / 2).isEmpty)
    #expect(watcher.takeChanges(now: 10 + timing.quiet) == [a])
    #expect(watcher.nextDue == nil)
  }

  @Test("A file written in two steps is one change, taken a quiet period after the second step")
  func writtenInTwoSteps() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    save(#"{"aps":{"alert":"#, to: a)
    watcher.readEvents(now: 10)
    save(#""Hello"}}"#, to: a, flags: O_APPEND)
    watcher.readEvents(now: 10.015)
    #expect(watcher.takeChanges(now: 10.03).isEmpty, "taken before the quiet period after the last step")
    #expect(watcher.takeChanges(now: 10.015 + timing.quiet) == [a])
    #expect(try String(contentsOfFile: a, encoding: .utf8) == #"{"aps":{"alert":"Hello"}}"#)
  }

  @Test("Continuous saving is still taken: at most the limit after the first event")
  func continuousSavingIsBounded() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    var taken: [Double] = []
    for step in 0..<20 {
      let now = 10 + Double(step) * 0.01
      save("{\"n\":\(step)}", to: a)
      watcher.readEvents(now: now)
      if !watcher.takeChanges(now: now).isEmpty { taken.append(now) }
    }
    // Taken at the first step past the limit (the steps are 10 ms apart).
    #expect(taken.first.map { $0 - 10 <= timing.limit + 0.01 + 1e-9 } == true, "\(taken)")
    #expect(taken.count >= 2, "continuous saving for 200 ms is taken more than once: \(taken)")
  }

  @Test("A save by rename over the file is seen, and the new file keeps being watched")
  func saveByRenameOver() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    saveByRename(#"{"v":1}"#, to: a)
    #expect(settle(watcher, at: 10) == [a])
    save(#"{"v":2}"#, to: a)
    #expect(settle(watcher, at: 11) == [a])
    saveByRename(#"{"v":3}"#, to: a)
    #expect(settle(watcher, at: 12) == [a])
  }

  @Test("A deleted file is a change; re-created, it is one again and stays watched")
  func deleteAndRecreate() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    unlink(a)
    #expect(settle(watcher, at: 10) == [a])
    save(#"{"back":true}"#, to: a)
    #expect(settle(watcher, at: 11) == [a])
    save(#"{"again":true}"#, to: a)
    #expect(settle(watcher, at: 12) == [a])
  }

  @Test("A burst of 50 saves, in place and by rename, is one change")
  func burstOfFiftySaves() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    for i in 0..<50 {
      if i % 2 == 0 { save("{\"n\":\(i)}", to: a) } else { saveByRename("{\"n\":\(i)}", to: a) }
    }
    watcher.readEvents(now: 10)
    #expect(watcher.takeChanges(now: 10 + timing.quiet) == [a])
    #expect(watcher.nextDue == nil)
    #expect(watcher.takeChanges(now: 20).isEmpty, "the burst was taken once")
  }

  @Test("The same burst through the blocking wait gives one set of changes")
  func burstThroughTheWait() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    for i in 0..<50 { save("{\"n\":\(i)}", to: a) }
    let (changes, ready) = watcher.wait(orAnyOf: [])
    #expect(changes == [a] && ready.isEmpty)
    #expect(watcher.nextDue == nil)
  }

  @Test("Other files in the folder, and the folder's temporary files, change nothing")
  func otherFilesAreIgnored() throws {
    let a = path("a.json")
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    save("{}", to: path("other.json"))
    save("{}", to: path(".a.json.swp"))
    watcher.readEvents(now: 10)
    #expect(watcher.nextDue == nil)
    #expect(watcher.takeChanges(now: 20).isEmpty)
  }

  @Test("A symbolic link counts as changed when the file it points to is saved in its own folder")
  func symbolicLinkTarget() throws {
    let elsewhere = try Fixtures.temporaryDirectory()
    let target = elsewhere.appendingPathComponent("real.json").path
    save("{}", to: target)
    let link = path("link.json")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let watcher = try FileWatcher(files: [link])
    saveByRename(#"{"v":1}"#, to: target)
    #expect(settle(watcher, at: 10) == [link])
  }

  @Test("A folder removed and made again: its file counts as changed, and is watched again")
  func folderComesBack() throws {
    let sub = folder.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    let a = sub.appendingPathComponent("a.json").path
    save("{}", to: a)
    let watcher = try FileWatcher(files: [a])
    try FileManager.default.removeItem(at: sub)
    #expect(settle(watcher, at: 10) == [a])
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    #expect(settle(watcher, at: 11) == [a])
    save(#"{"v":1}"#, to: a)
    #expect(settle(watcher, at: 12) == [a])
  }

  @Test("A folder given whole counts payload-like files in it, never the file being written there")
  func wholeFolder() throws {
    let out = path("unterm-sheet.html")
    let watcher = try FileWatcher(files: [folder.path], ignoring: [out])
    save("<html>", to: out)
    save("{}", to: path(".unterm-sheet.html.1.tmp"))
    #expect(settle(watcher, at: 10).isEmpty)
    save("{}", to: path("new.json"))
    #expect(settle(watcher, at: 11) == [folder.path])
  }

  @Test("The set of files can change: a file added later is watched, one dropped is not")
  func changingTheSet() throws {
    let a = path("a.json")
    let other = try Fixtures.temporaryDirectory()
    let b = other.appendingPathComponent("b.plist").path
    save("{}", to: a)
    save("<plist/>", to: b)
    let watcher = try FileWatcher(files: [a])
    save("<plist>", to: b)
    #expect(settle(watcher, at: 10).isEmpty)
    watcher.watch([b])
    save("{}", to: a)
    save("<plist></plist>", to: b)
    #expect(settle(watcher, at: 11) == [b])
  }
}
