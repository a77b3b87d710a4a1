import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UserNotificationsModel

/// The APNs request's headers (issue 13.4): the payload file's `apns-headers` object and the
/// command line's, checked as APNs checks them, each refusal with APNs' reason string.
@Suite("APNs request headers")
struct APNsHeadersTests {
  private func analyze(_ json: String, headers: [APNsHeaders.Field: String] = [:]) -> Payload {
    var options = APNsHeaders()
    for (field, value) in headers { options[field] = value }
    return PayloadAnalyzer.analyze(Array(json.utf8), file: "p.json", categories: nil, headers: options)
  }

  private func codes(_ payload: Payload) -> [String] { payload.diagnostics.map(\.code.rawValue) }

  @Test func theHeadersObjectIsNotPartOfThePayloadNorOfItsSize() throws {
    let body = #"{"aps":{"alert":"x"},"k":"v"}"#
    let json = #"{"apns-headers":{"apns-priority":5,"apns-collapse-id":"c"},"aps":{"alert":"x"},"k":"v"}"#
    let payload = analyze(json)
    #expect(payload.diagnostics.isEmpty, "\(payload.diagnostics)")
    #expect(String(decoding: payload.sentBytes, as: UTF8.self) == body)
    #expect(payload.info.byteCount == body.utf8.count)
    #expect(payload.info.headers.priority == "5")
    #expect(payload.info.headers.collapseID == "c")
    let userInfo = try #require(payload.content?.userInfo)
    #expect(userInfo["apns-headers"] == nil)
    #expect(userInfo["k"] as? String == "v")
  }

  @Test func aPayloadOverTheLimitOnlyWithItsHeadersIsAccepted() {
    // 4096 bytes of payload plus the headers object: what APNs counts is 4096.
    let filler = String(repeating: "x", count: 4096 - #"{"aps":{"alert":""}}"#.utf8.count)
    let payload = #"{"aps":{"alert":"\#(filler)"}}"#
    #expect(payload.utf8.count == 4096)
    let withHeaders = #"{"apns-headers":{"apns-topic":"com.example.app"},"# + payload.dropFirst()
    let analyzed = analyze(withHeaders)
    #expect(!analyzed.hasErrors, "\(analyzed.diagnostics)")
    #expect(analyzed.info.byteCount == 4096)
    #expect(codes(analyze(String(withHeaders.dropLast()) + " }")) == ["payload-too-large"])
    // A VoIP push may be 5120 bytes.
    #expect(
      !analyze(#"{"apns-headers":{"apns-push-type":"voip","apns-topic":"a.b.voip"},"# + payload.dropFirst() + " ")
        .hasErrors)
  }

  /// Every refusal, reported with the reason APNs answers with.
  @Test(arguments: [
    (#"{"aps":{"alert":"x"}}"#, [APNsHeaders.Field.priority: "7"], "bad-priority", "400 BadPriority"),
    (#"{"aps":{"content-available":1}}"#, [.pushType: "background"], "bad-priority", "400 BadPriority"),
    (
      #"{"aps":{"content-available":1}}"#, [.pushType: "background", .priority: "10"], "bad-priority", "400 BadPriority"
    ),
    (#"{"aps":{"content-available":1}}"#, [.priority: "10"], "bad-priority", "400 BadPriority"),
    (
      #"{"aps":{"alert":"x","content-available":1}}"#, [.pushType: "background", .priority: "5"], "push-type-mismatch",
      "400 InvalidPushType"
    ),
    (
      #"{"aps":{"badge":1,"content-available":1}}"#, [.pushType: "background", .priority: "5"], "push-type-mismatch",
      "400 InvalidPushType"
    ),
    (
      #"{"aps":{"content-available":1}}"#, [.pushType: "alert", .priority: "5"], "push-type-mismatch",
      "400 InvalidPushType"
    ),
    (#"{"aps":{"alert":"x"}}"#, [.pushType: "alrt"], "invalid-push-type", "400 InvalidPushType"),
    (
      #"{"aps":{"alert":"x"}}"#, [.collapseID: String(repeating: "é", count: 33)], "bad-collapse-id",
      "400 BadCollapseId"
    ),
    (#"{"aps":{"alert":"x"}}"#, [.expiration: "tomorrow"], "bad-expiration", "400 BadExpirationDate"),
    (#"{"aps":{"alert":"x"}}"#, [.expiration: "-5"], "bad-expiration", "400 BadExpirationDate"),
    (#"{"aps":{"alert":"x"}}"#, [.topic: "com.example app"], "bad-topic", "400 BadTopic"),
    (#"{"aps":{"alert":"x"}}"#, [.pushType: "voip", .topic: "com.example.app"], "bad-topic", "400 BadTopic"),
    (
      #"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.example.chat"}"#, [.topic: "com.example.mail"],
      "topic-mismatch", "400 DeviceTokenNotForTopic"
    ),
  ])
  func eachRefusalNamesItsReason(json: String, headers: [APNsHeaders.Field: String], code: String, reason: String) {
    let payload = analyze(json, headers: headers)
    let finding = payload.diagnostics.first { $0.code.rawValue == code }
    #expect(finding?.severity == .error, "\(payload.diagnostics)")
    #expect(finding?.message.contains("APNs answers \(reason)") == true, "\(finding?.message ?? "none")")
    // A refused push is not delivered: the payload has no content.
    #expect(payload.content == nil)
    #expect(LintCode(rawValue: code)?.summary.hasSuffix("APNs: \(reason).") == true)
  }

  @Test func whatAPNsTakesPasses() {
    for headers: [APNsHeaders.Field: String] in [
      [.pushType: "alert", .priority: "10", .collapseID: String(repeating: "a", count: 64)],
      [.priority: "1"], [.expiration: "0"], [.expiration: "1767225600"],
      [.pushType: "voip", .topic: "com.example.app.voip"],
    ] {
      let payload = analyze(#"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.example.app"}"#, headers: headers)
      #expect(payload.diagnostics.filter { $0.code != .pushTypeNotShown }.isEmpty, "\(headers): \(payload.diagnostics)")
    }
    let background = analyze(#"{"aps":{"content-available":1}}"#, headers: [.pushType: "background", .priority: "5"])
    #expect(background.diagnostics.isEmpty, "\(background.diagnostics)")
  }

  @Test func fileHeadersAreReportedAtTheirPlaceAndTheCommandLineWins() {
    let json = #"{"apns-headers":{"apns-priority":"7","apns-prority":"5","apns-topic":3},"aps":{"alert":"x"}}"#
    let payload = analyze(json)
    let found = payload.diagnostics.map { "\($0.pathText) \($0.code.rawValue)" }
    #expect(
      found == [
        "apns-headers.apns-prority unknown-apns-header", "apns-headers.apns-topic unknown-apns-header",
        "apns-headers.apns-priority bad-priority",
      ], "\(found)")
    #expect(payload.diagnostics.first?.message.contains(#"Did you mean "apns-priority"?"#) == true)
    // The option replaces the file's value, and a problem with it is the option's.
    #expect(!analyze(json, headers: [.priority: "5"]).diagnostics.contains { $0.code == .badPriority })
    let option = analyze(#"{"aps":{"alert":"x"}}"#, headers: [.priority: "11"])
    // An option has no place in the file: the whole document, 1:1 and path $.
    #expect(
      option.diagnostics.first?.formatted.hasPrefix(#"p.json:1:1: error[bad-priority]: --priority "11": "#) == true)
    #expect(option.diagnostics.first?.formatted.hasSuffix(" [$]") == true)
    // The file's headers: an unknown one at its key, a bad value at the value.
    #expect(payload.diagnostics.map(\.position.description) == ["1:38", "1:57", "1:34"])
    #expect(codes(analyze(#"{"apns-headers":[],"aps":{"alert":"x"}}"#)) == ["type-mismatch"])
  }

  @Test func anExpiredPushIsFoundAtAGivenTime() {
    var headers = APNsHeaders()
    headers[.expiration] = "1767225600"  // 2026-01-01T00:00:00Z
    #expect(APNsRules.expired(headers, at: Date(timeIntervalSince1970: 1_767_225_599)) == nil)
    #expect(APNsRules.expired(headers, at: Date(timeIntervalSince1970: 1_767_225_601)) != nil)
    headers[.expiration] = "0"
    #expect(APNsRules.expired(headers, at: .distantFuture) == nil)
  }

  // MARK: - Cutting members out of a file

  @Test(arguments: [
    (#"{"apns-headers":{"a":"}"},"aps":{}}"#, #"{"aps":{}}"#),
    (#"{"aps":{}, "apns-headers" : {"x":[1,"]"]} }"#, #"{"aps":{} }"#),
    (
      "{\n  \"aps\": {},\n  \"apns-headers\": {},\n  \"k\": \"\\\"}\"\n}\n",
      "{\n  \"aps\": {},\n  \"k\": \"\\\"}\"\n}\n"
    ),
    (#"{"apns\u002dheaders":1,"aps":2}"#, #"{"aps":2}"#),
    (#"{"apns-headers":{}}"#, "{}"),
  ])
  func membersAreCutByteForByte(input: String, expected: String) throws {
    let spans = try #require(JSONMemberSpans(Array(input.utf8)))
    let out = spans.removing(["apns-headers"], from: Array(input.utf8))
    #expect(String(decoding: out, as: UTF8.self) == expected)
    #expect((try? JSONParser.parse(out)) != nil)
  }

  @Test func aMemberGoesInWithTheFirstMembersSpacing() throws {
    let pretty = "{\n  \"aps\": {\"alert\": \"x\"}\n}\n"
    let spans = try #require(JSONMemberSpans(Array(pretty.utf8)))
    let out = String(
      decoding: spans.inserting(key: "Simulator Target Bundle", value: "a.b", into: Array(pretty.utf8)), as: UTF8.self)
    #expect(out == "{\n  \"Simulator Target Bundle\": \"a.b\",\n  \"aps\": {\"alert\": \"x\"}\n}\n")
    #expect(JSONMemberSpans(Array("[1]".utf8)) == nil)
  }
}
