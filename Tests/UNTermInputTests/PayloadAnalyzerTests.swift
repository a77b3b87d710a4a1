import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UserNotificationsModel

@Suite("APNs payload loading")
struct PayloadAnalyzerTests {
  private func codes(_ payload: Payload, _ severity: Severity? = nil) -> [String] {
    payload.diagnostics.filter { severity == nil || $0.severity == severity }.map(\.code.rawValue)
  }

  @Test func alertStringBecomesTheBody() throws {
    let payload = Fixtures.payload(#"{"aps":{"alert":"Hi"}}"#)
    #expect(payload.content?.body == "Hi")
    #expect(payload.content?.title == "")
    #expect(!payload.hasErrors)
  }

  @Test func readsTheWholeApsDictionary() throws {
    let payload = Fixtures.payload(
      #"""
      {"aps":{"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"L"},"badge":7,
      "sound":{"critical":1,"name":"alarm.caf","volume":0.5},"thread-id":"th","category":"cat",
      "mutable-content":1,"target-content-id":"win","interruption-level":"time-sensitive",
      "relevance-score":0.25,"filter-criteria":"work"},"custom":{"n":[1,2]},"Simulator Target Bundle":"com.example.App"}
      """#)
    let content = try #require(payload.content)
    #expect(content.title == "T")
    #expect(content.subtitle == "S")
    #expect(content.body == "B")
    #expect(content.launchImageName == "L")
    #expect(content.badge == 7)
    #expect(content.sound?.isCritical == true)
    #expect(content.sound?.volume == 0.5)
    #expect(content.threadIdentifier == "th")
    #expect(content.categoryIdentifier == "cat")
    #expect(content.targetContentIdentifier == "win")
    #expect(content.interruptionLevel == .timeSensitive)
    #expect(content.relevanceScore == 0.25)
    #expect(content.filterCriteria == "work")
    #expect(payload.info.mutableContent)
    #expect(payload.info.bundleIdentifier == "com.example.App")
    #expect((content.userInfo["custom"] as? [String: Any])?["n"] as? [Any] != nil)
    #expect(content.userInfo["Simulator Target Bundle"] == nil)
    #expect(content.userInfo["aps"] != nil)
  }

  @Test func customKeysReachUserInfoAsFoundationValues() throws {
    let content = try #require(
      Fixtures.payload(#"{"aps":{"alert":"x"},"n":3,"d":2.5,"b":true,"s":"str","z":null}"#).content)
    #expect(content.userInfo["n"] as? Int == 3)
    #expect(content.userInfo["n"] as? Double == 3)
    #expect(content.userInfo["d"] as? Double == 2.5)
    #expect(content.userInfo["b"] as? Bool == true)
    #expect(content.userInfo["s"] as? String == "str")
    #expect(content.userInfo["z"] is NSNull)
  }

  @Test func keysInsideApsThatAppleDoesNotDefineAreIgnoredWithAWarning() {
    let payload = Fixtures.payload(#"{"aps":{"alert":"x","custom":1}}"#)
    #expect(codes(payload, .warning) == ["unknown-aps-key"])
    #expect(payload.content != nil)
  }

  @Test func sizeLimitIsExactly4096Bytes() {
    func payload(ofSize size: Int) -> String {
      let base = #"{"aps":{"alert":""}}"#
      return #"{"aps":{"alert":""# + String(repeating: "a", count: size - base.utf8.count) + #""}}"#
    }
    let ok = Fixtures.payload(payload(ofSize: 4096))
    #expect(ok.info.byteCount == 4096)
    #expect(!ok.hasErrors)
    let big = Fixtures.payload(payload(ofSize: 4097))
    #expect(codes(big, .error) == ["payload-too-large"])
    #expect(big.diagnostics.first?.message.contains("4097 bytes") == true)
    // Every byte as sent counts, whitespace included.
    #expect(Fixtures.payload(payload(ofSize: 4096) + "\n").hasErrors)
    #expect(Fixtures.payload(payload(ofSize: 4095) + " ").info.byteCount == 4096)
  }

  @Test(arguments: [
    (#"[]"#, "not-an-object"), (#"{"alert":"x"}"#, "missing-aps"), (#"{"aps":[]}"#, "type-mismatch"),
    (#"{"aps":{"alert":5}}"#, "type-mismatch"), (#"{"aps":{"alert":{"title":5}}}"#, "type-mismatch"),
    (#"{"aps":{"alert":"x","badge":-1}}"#, "number-out-of-range"),
    (#"{"aps":{"alert":"x","badge":1.5}}"#, "number-out-of-range"),
    (#"{"aps":{"alert":"x","badge":"3"}}"#, "type-mismatch"),
    (#"{"aps":{"alert":"x","badge":123456789012345678901234567890}}"#, "number-out-of-range"),
    (#"{"aps":{"alert":"x","sound":{"critical":2}}}"#, "invalid-value"),
    (#"{"aps":{"alert":"x","sound":{"volume":3}}}"#, "number-out-of-range"),
    (#"{"aps":{"alert":{"loc-args":[1]}}}"#, "type-mismatch"),
    (#"{"aps":{"alert":"x"},"big":1e400}"#, "number-out-of-range"),
    (#"{"aps":{"alert":"x","thread-id":7}}"#, "type-mismatch"),
    (#"{"aps":{"alert":"x"},"Simulator Target Bundle":1}"#, "type-mismatch"),
    (#"{"aps":{"alert":"A","alert":"B"}}"#, "duplicate-key"),
    ("{\"aps\":{\"alert\":\"x\"", "invalid-json"),
  ])
  func rejectsShapeAndTypeErrors(json: String, code: String) {
    let payload = Fixtures.payload(json)
    #expect(payload.hasErrors)
    #expect(codes(payload, .error).contains(code), "\(codes(payload))")
    #expect(payload.content == nil)
    #expect(throws: UNTermError.self) { try payload.request(identifier: "r") }
  }

  @Test func errorsNameTheLineColumnAndJSONPath() {
    let payload = Fixtures.payload(#"{"aps":{"alert":{"title":["x"]}}}"#)
    let error = payload.diagnostics.first { $0.severity == .error }
    // A wrong type points at its key: {"aps":{"alert":{ is 17 characters.
    #expect(
      error?.formatted == "test.json:1:18: error[type-mismatch]: must be a string, not an array [aps.alert.title]")
  }

  @Test func unknownCategoryIsAWarningWithDidYouMean() throws {
    let categories = try Fixtures.sampleCategories().byIdentifier
    let payload = Fixtures.payload(#"{"aps":{"alert":"x","category":"Message"}}"#, categories: categories)
    let warning = payload.diagnostics.first { $0.code == .unknownCategory }
    #expect(warning?.severity == .warning)
    #expect(warning?.message.contains("Did you mean \"message\"?") == true)
    #expect(!payload.hasErrors)
    #expect(codes(Fixtures.payload(#"{"aps":{"alert":"x","category":"message"}}"#, categories: categories)).isEmpty)
  }

  @Test func mutableContentWithoutAlertTextIsFlagged() {
    #expect(
      codes(Fixtures.payload(#"{"aps":{"mutable-content":1,"badge":1}}"#)).contains("mutable-content-without-alert"))
    #expect(
      !codes(Fixtures.payload(#"{"aps":{"mutable-content":1,"alert":"x"}}"#)).contains("mutable-content-without-alert"))
  }

  @Test func contentAvailableWithAlertIsFlagged() {
    #expect(
      codes(Fixtures.payload(#"{"aps":{"content-available":1,"alert":"x","sound":"default"}}"#)).contains(
        "content-available-with-alert"))
    #expect(codes(Fixtures.payload(#"{"aps":{"content-available":1}}"#)).isEmpty)
  }

  @Test func unknownInterruptionLevelSuggestsTheSpelling() {
    let payload = Fixtures.payload(#"{"aps":{"alert":"x","interruption-level":"time-senstive"}}"#)
    let warning = payload.diagnostics.first { $0.code == .unknownInterruptionLevel }
    #expect(warning?.message.contains("Did you mean \"time-sensitive\"?") == true)
    #expect(payload.content?.interruptionLevel == .active)
  }

  @Test func relevanceScoreOutsideZeroToOneIsFlagged() {
    #expect(codes(Fixtures.payload(#"{"aps":{"alert":"x","relevance-score":25}}"#)).contains("relevance-score-range"))
  }

  @Test func localizationKeysShowTheKeyWithArguments() {
    let payload = Fixtures.payload(
      #"{"aps":{"alert":{"loc-key":"%@ and %@ invited you","loc-args":["Jenna","Frank"]}}}"#)
    #expect(payload.content?.body == "Jenna and Frank invited you")
    #expect(codes(payload, .note) == ["localization-key"])
  }

  @Test func controlCharactersAreKeptInTheModel() {
    let payload = Fixtures.payload(#"{"aps":{"alert":{"body":"A\u0000B\u001b[2J\u202eC"}}}"#)
    #expect(payload.content?.body == "A\u{0}B\u{1B}[2J\u{202E}C")
  }

  @Test func hostileInputsGiveADefinedResult() {
    let inputs: [[UInt8]] = [
      [0xEF, 0xBB, 0xBF] + Array(#"{"aps":{"alert":"bom"}}"#.utf8),
      [0xFF, 0xFE] + Array(#"{"aps":{}}"#.utf8).flatMap { [$0, 0] },
      Array(#"{"aps":{"alert":""#.utf8) + [0xFF] + Array(#""}}"#.utf8),
      Array(#"{"aps":{"alert":"\ud800"}}"#.utf8),
      Array(#"{"aps":{"alert":"x","badge":-0}}"#.utf8),
      Array(("{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 1_000_000) + "\"}}").utf8),
    ]
    let verdicts = inputs.map { PayloadAnalyzer.analyze($0, file: "x", categories: nil).hasErrors }
    #expect(verdicts == [false, true, true, true, false, true])
  }

  /// Random mutations of the samples: each gets a verdict — content when it loads, an error
  /// finding when it does not — never a crash, and every finding is one line naming the file.
  @Test func randomMutationsGetAVerdict() throws {
    let seeds = try Fixtures.files(in: Fixtures.samples) { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }
      .compactMap { FileManager.default.contents(atPath: Fixtures.sample($0)).map { [UInt8]($0) } }
    try #require(!seeds.isEmpty)
    let seed = TestSeed()
    var generator = seed.generator
    var verdicts = (loaded: 0, refused: 0)
    for _ in 0..<2_000 {
      var bytes = seeds.randomElement(using: &generator) ?? []
      for _ in 0..<Int.random(in: 1...8, using: &generator) where !bytes.isEmpty {
        let i = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[i] = UInt8.random(in: 0...255, using: &generator)
        case 1: bytes.remove(at: i)
        default: bytes.insert(bytes[Int.random(in: 0..<bytes.count, using: &generator)], at: i)
        }
      }
      let payload = PayloadAnalyzer.analyze(bytes, file: "fuzz", categories: nil)
      #expect((payload.content == nil) == payload.hasErrors, "\(seed)")
      let lines = payload.diagnostics.map(\.formatted)
      #expect(lines.allSatisfy { $0.hasPrefix("fuzz:") && !$0.contains("\n") }, "\(seed): \(lines)")
      if payload.content == nil { verdicts.refused += 1 } else { verdicts.loaded += 1 }
    }
    #expect(verdicts.loaded + verdicts.refused == 2_000)
    #expect(verdicts.refused > 0, "\(seed)")
  }
}
