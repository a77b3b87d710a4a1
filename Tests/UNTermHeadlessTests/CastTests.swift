import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript

@Suite("Asciicast recording")
struct CastTests {
  @Test func castHasAHeaderFramesAndMarkers() throws {
    let dir = try Fixtures.temporaryDirectory()
    let castPath = dir.appendingPathComponent("demo.cast").path
    let script = try SessionScript.parse(
      """
      \(Fixtures.sampleCategoriesScript)
      push \(Fixtures.sample("message.json"))
      longpress
      action like
      expect response like
      """, file: dir.appendingPathComponent("demo.session").path)
    let writer = try CastWriter(path: castPath, speed: 1)
    let result = ScriptRunner(script: script, options: RunOptions(), observer: writer).run()
    writer.close()
    #expect(result.passed)
    let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: castPath)), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    let header = try #require(try JSONParser.parse(Array(lines[0].utf8)).object)
    #expect(header["version"]?.number?.integer == 2)
    #expect(header["width"]?.number?.integer == 80)
    #expect(header["height"]?.number?.integer == 24)
    var previous = -1.0
    var markers: [String] = []
    for line in lines.dropFirst() {
      let event = try #require(try JSONParser.parse(Array(line.utf8)).array)
      #expect(event.count == 3)
      let time = try #require(event[0].number?.double)
      #expect(time >= previous)
      previous = time
      let kind = try #require(event[1].string)
      #expect(["o", "m", "r"].contains(kind))
      if kind == "m" { markers.append(event[2].string ?? "") }
    }
    #expect(markers.contains { $0.hasPrefix("delivery req-1") })
    #expect(markers.contains { $0.hasPrefix("response like") })
  }
}
