import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput

/// Right-to-left text is in logical order wherever the output is not a terminal (issue 25.3):
/// what a script checks, what `render` writes to a file or pipe, snapshots, JUnit and pictures
/// hold `نیا پیغام` as it was typed, so a script can match it and a browser or an editor shows
/// it the right way round; `--bidi visual` still gives display order on request.
@Suite("Right-to-left text in logical order off the terminal", .hangGuard)
struct RightToLeftOutputTests {
  static let title = "نیا پیغام"
  static let payload = #"{"aps":{"alert":{"title":"نیا پیغام","body":"آپ کا آرڈر راستے میں ہے"}}}"#

  private func folder() throws -> URL {
    let dir = try Fixtures.temporaryDirectory()
    try Data(Self.payload.utf8).write(to: dir.appendingPathComponent("ur.json"))
    return dir
  }

  private func unterm(_ arguments: [String], in dir: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments, directory: dir.path)
  }

  @Test func aScriptMatchesUrduAsItIsWritten() throws {
    let dir = try folder()
    let script = "push ur.json\ncenter\nexpect screen \"\(Self.title)\"\nexpect screen card \"آپ کا آرڈر\"\n"
    try Data(script.utf8).write(to: dir.appendingPathComponent("ur.session"))
    let run = try unterm(["run", "ur.session"], in: dir)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    // With --bidi visual the screen is in display order, and the script still reads the text
    // as written.
    let visual = try unterm(["run", "--bidi", "visual", "ur.session"], in: dir)
    #expect(visual.status == 0, "\(visual.stdout)\(visual.stderr)")
  }

  @Test func renderToAFileAndASnapshotHoldTheTextByteForByte() throws {
    let dir = try folder()
    let rendered = try unterm(["render", "--view", "center", "ur.json"], in: dir)
    #expect(rendered.status == 0, "\(rendered.stderr)")
    #expect(rendered.stdout.contains(Self.title))
    #expect(Array(rendered.stdout.utf8).firstRange(of: Array(Self.title.utf8)) != nil)
    try Data("push ur.json\nsnapshot ur\n".utf8).write(to: dir.appendingPathComponent("snap.session"))
    let recorded = try unterm(["run", "snap.session"], in: dir)
    #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
    let snapshot = try String(contentsOf: dir.appendingPathComponent("ur.txt"), encoding: .utf8)
    #expect(snapshot.contains(Self.title), "\(snapshot)")
    // Asked for, display order: reordered and joined.
    try FileManager.default.removeItem(at: dir.appendingPathComponent("ur.txt"))
    _ = try unterm(["run", "--bidi", "visual", "snap.session"], in: dir)
    let visual = try String(contentsOf: dir.appendingPathComponent("ur.txt"), encoding: .utf8)
    #expect(visual.contains("ﻡﺎﻐﯿﭘ ﺎﯿﻧ"), "\(visual)")
    #expect(!visual.contains(Self.title))
  }

  @Test func junitAndTheFailureReportHoldTheTextAsWritten() throws {
    let dir = try folder()
    try Data("push ur.json\nexpect screen \"not there\"\n".utf8).write(to: dir.appendingPathComponent("f.session"))
    let run = try unterm(["run", "--junit", "r.xml", "f.session"], in: dir)
    #expect(run.status == 1)
    #expect(run.stdout.contains(Self.title), "\(run.stdout)")
    let xml = try String(contentsOf: dir.appendingPathComponent("r.xml"), encoding: .utf8)
    #expect(xml.contains(Self.title), "\(xml)")
    #expect(!xml.contains("ﻡﺎﻐﯿﭘ"))
  }
}

/// The same text as a browser shows it: an SVG of the screen and a JUnit report page read from
/// the right, letters joined (Chromium places each character).
@Suite(
  "Right-to-left pictures in a browser", .serialized, .enabled(if: Chromium.isAvailable, Chromium.missing),
  .hangGuard)
struct RightToLeftBrowserTests {
  /// For each element holding `text`, the left edges (page pixels) of its first and last
  /// characters, found by a script in the page.
  private static func script(_ text: String) -> String {
    """
    (function () {
      var want = \(JSONWriter.write(.string(text))), out = [];
      var walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        var node = walker.currentNode, at = node.data.indexOf(want);
        if (at < 0 || node.parentNode.localName == 'script') continue;
        var range = document.createRange();
        range.setStart(node, at); range.setEnd(node, at + 1);
        var first = range.getBoundingClientRect().left;
        range.setStart(node, at + want.length - 1); range.setEnd(node, at + want.length);
        var last = range.getBoundingClientRect().left;
        out.push([first, last]);
      }
      var holder = document.createElementNS(document.documentElement.namespaceURI, 'desc');
      holder.setAttribute('id', 'unterm-result');
      holder.textContent = JSON.stringify(out);
      document.documentElement.appendChild(holder);
    })();
    """
  }

  /// The first and last characters' left edges for each place the text is, in a page.
  private func edges(of text: String, in file: URL, svg: Bool) throws -> [[Double]] {
    var page = try String(contentsOf: file, encoding: .utf8)
    let tag = svg ? "</svg>" : "</body>"
    guard let end = page.range(of: tag, options: .backwards) else { throw BrowserError(message: "no \(tag)") }
    page.replaceSubrange(
      end,
      with: (svg ? "<script><![CDATA[" : "<script>") + Self.script(text)
        + (svg ? "]]></script>" : "</script>") + tag)
    let copy = file.deletingPathExtension().appendingPathExtension("measured." + file.pathExtension)
    try Data(page.utf8).write(to: copy)
    let dom = try Chromium.dumpDOM(copy, window: (900, 600))
    guard let start = dom.range(of: "id=\"unterm-result\">"),
      let stop = dom.range(of: "<", range: start.upperBound..<dom.endIndex)
    else { throw BrowserError(message: "no result in \(copy.path)") }
    return try JSONDecoder().decode([[Double]].self, from: Data(dom[start.upperBound..<stop.lowerBound].utf8))
  }

  @Test func anSVGOfTheScreenReadsFromTheRight() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(RightToLeftOutputTests.payload.utf8).write(to: dir.appendingPathComponent("ur.json"))
    let out = try Fixtures.run(
      Fixtures.unterm, ["render", "--format", "svg", "--size", "60x12", "ur.json"], directory: dir.path)
    #expect(out.status == 0, "\(out.stderr)")
    let svg = dir.appendingPathComponent("ur.svg")
    try Data(out.stdout.utf8).write(to: svg)
    let found = try edges(of: RightToLeftOutputTests.title, in: svg, svg: true)
    #expect(found.count == 1, "\(found)")
    // The first letter typed is drawn right of the last: the line reads from the right.
    for pair in found { #expect(pair[0] > pair[1], "\(pair)") }
  }

  @Test func aJUnitReportPageReadsFromTheRight() throws {
    let dir = try Fixtures.temporaryDirectory()
    try Data(RightToLeftOutputTests.payload.utf8).write(to: dir.appendingPathComponent("ur.json"))
    try Data("push ur.json\nexpect screen \"not there\"\n".utf8).write(to: dir.appendingPathComponent("f.session"))
    _ = try Fixtures.run(Fixtures.unterm, ["run", "--junit", "r.xml", "f.session"], directory: dir.path)
    let xml = try String(contentsOf: dir.appendingPathComponent("r.xml"), encoding: .utf8)
    // A CI server's report page shows system-out as preformatted text, as this page does.
    let start = try #require(xml.range(of: "<system-out>"))
    let end = try #require(xml.range(of: "</system-out>"))
    let out = String(xml[start.upperBound..<end.lowerBound])
    let page = dir.appendingPathComponent("report.html")
    try Data(
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><pre>\(out)</pre></body></html>".utf8
    ).write(to: page)
    let found = try edges(of: RightToLeftOutputTests.title, in: page, svg: false)
    #expect(!found.isEmpty)
    for pair in found { #expect(pair[0] > pair[1], "\(pair)") }
  }
}
