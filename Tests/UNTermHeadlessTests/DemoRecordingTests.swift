import Foundation
import Testing
import UNTermTestSupport

/// `unterm run --svg FILE` writes an animated SVG of the scripts as they play (issue 26.5):
/// one frame a change of screen, each shown from its moment on the demo's pace until the next,
/// looping, with no script in it. Headless Chromium shows it at a few times.
@Suite("Demo recordings as animated SVG", .serialized, .hangGuard)
struct DemoRecordingTests {
  private func record(_ script: String, speed: String = "1") throws -> (svg: String, file: URL) {
    let dir = try Fixtures.temporaryDirectory()
    let file = dir.appendingPathComponent("demo.session")
    try Data(script.utf8).write(to: file)
    let svg = dir.appendingPathComponent("demo.svg")
    let run = try Fixtures.run(Fixtures.unterm, ["run", "--svg", svg.path, "--speed", speed, file.path])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    return (try String(contentsOf: svg, encoding: .utf8), svg)
  }

  private var tour: String {
    """
    categories \(Fixtures.sample("categories.json"))
    push \(Fixtures.sample("meeting.json"))
    wait 2s
    longpress
    action accept
    expect response accept

    """
  }

  @Test func theRecordingIsSelfContainedAndTimedByThePace() throws {
    let (svg, _) = try record(tour)
    let reader = try PictureReader(svg)
    #expect(!svg.contains("<script"))
    for forbidden in ["href=", "url(", "@import", "https://"] { #expect(!svg.contains(forbidden)) }
    let frames = reader.all("g").filter { $0.attributes["class"] == "frame" }
    // The pushed banner, the wait, the long-press, the choice, the end (the categories change
    // nothing to see: no frame of their own).
    #expect(frames.count == 6, "\(frames.count)")
    let starts = frames.compactMap { $0.attributes["data-start"].flatMap(Double.init) }
    #expect(starts == [0, 1.6, 4.4, 5.2, 6.0, 6.8], "\(starts)")
    #expect(reader.all("svg").first?.attributes["data-duration"] == "8.800")
    // Twice as fast: every moment halved.
    let fast = try PictureReader(try record(tour, speed: "2").svg)
    let fastStarts = fast.all("g").compactMap { $0.attributes["data-start"].flatMap(Double.init) }
    #expect(fastStarts == [0, 0.8, 2.2, 2.6, 3.0, 3.4], "\(fastStarts)")
  }

  @Test(.enabled(if: Chromium.isAvailable, Chromium.missing))
  func chromiumShowsEachFrameAtItsTime() throws {
    let (svg, file) = try record(tour)
    // A copy with a script that stops every animation at a few times and says which frame is
    // visible then, and what it shows.
    let times = [0.5, 2.0, 5.5, 6.2, 8.0]
    let probe = """
      (function () {
        var out = [];
        var times = \(times);
        var frames = document.querySelectorAll('.frame');
        times.forEach(function (t) {
          document.getAnimations().forEach(function (a) { a.pause(); a.currentTime = t * 1000; });
          var shown = [];
          frames.forEach(function (f) { if (getComputedStyle(f).visibility === 'visible') shown.push(f.id + ':' + f.textContent); });
          out.push(shown);
        });
        var d = document.createElementNS('http://www.w3.org/2000/svg', 'desc');
        d.setAttribute('id', 'unterm-result');
        d.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
        document.documentElement.appendChild(d);
      })();
      """
    let copy = file.deletingPathExtension().appendingPathExtension("probe.svg")
    let end = try #require(svg.range(of: "</svg>", options: .backwards))
    var text = svg
    text.replaceSubrange(end, with: "<script><![CDATA[\(probe)]]></script></svg>")
    try Data(text.utf8).write(to: copy)
    let dom = try Chromium.dumpDOM(copy, window: (700, 420))
    let start = try #require(dom.range(of: "id=\"unterm-result\">"))
    let stop = try #require(dom.range(of: "<", range: start.upperBound..<dom.endIndex))
    let json = try #require(Data(base64Encoded: String(dom[start.upperBound..<stop.lowerBound])))
    let shown = try JSONDecoder().decode([[String]].self, from: json)
    #expect(shown.map(\.count) == [1, 1, 1, 1, 1], "one frame at a time: \(shown)")
    let ids = shown.map { $0.first?.split(separator: ":").first.map(String.init) ?? "" }
    #expect(ids == ["f0", "f1", "f3", "f4", "f5"], "\(ids)")
    #expect(shown[0][0].contains("No notifications"))
    #expect(shown[1][0].contains("Design review"))
    #expect(shown[2][0].contains("Accept") && shown[2][0].contains("Decline"))
    #expect(shown[3][0].contains("✓accept · req-1"))
    #expect(shown[4][0].contains("✓ demo.session"))
  }
}
