import Foundation
import Testing
import UNTermTestSupport

/// The contract's locked flow for scripts — `lock`, `push`, `longpress`, `action X`, the passcode,
/// then the response — through the real `unterm run`: with hidden previews (the default) the
/// passcode comes at the long-press, with `--previews always` at the authentication-required
/// action, and either way the response is delivered only after the passcode.
@Suite("A locked script's passcode, with and without previews")
struct LockedScriptFlowTests {
  private static let categories = #"""
    {"categories":[{"identifier":"note","actions":[
      {"identifier":"archive","title":"Archive","options":["authenticationRequired"]},
      {"identifier":"like","title":"Like"}]}]}
    """#
  private static let payload = #"{"aps":{"alert":{"title":"Ana","body":"কাল দেখা হবে"},"category":"note"}}"#

  /// The contract's order: the action first, then the passcode it asks for.
  private static let contractFlow = """
    categories categories.json
    passcode 2468
    lock
    push note.json
    longpress
    expect screen card "কাল দেখা হবে"
    action archive
    expect no response
    type "1111"
    key enter
    expect no response
    key esc
    longpress
    action archive
    type "2468"
    key enter
    expect response archive
    expect no response
    """

  /// Hidden previews: the passcode first, then the expanded view and the action.
  private static let hiddenPreviewFlow = """
    categories categories.json
    passcode 2468
    lock
    push note.json
    longpress
    expect screen not "কাল দেখা হবে"
    expect no response
    type "2468"
    key enter
    action archive
    expect response archive
    """

  private func run(_ script: String, _ options: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let dir = try Fixtures.temporaryDirectory()
    try Self.categories.write(to: dir.appendingPathComponent("categories.json"), atomically: true, encoding: .utf8)
    try Self.payload.write(to: dir.appendingPathComponent("note.json"), atomically: true, encoding: .utf8)
    let file = dir.appendingPathComponent("locked.session")
    try script.write(to: file, atomically: true, encoding: .utf8)
    return try Fixtures.run(Fixtures.unterm, ["run"] + options + [file.path])
  }

  @Test func previewsAlwaysGivesTheContractsFlow() throws {
    let result = try run(Self.contractFlow, ["--previews", "always"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test func hiddenPreviewsAskAtTheLongPress() throws {
    let result = try run(Self.hiddenPreviewFlow, [])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    // The contract's order fails there, at the action, and says why.
    let contract = try run(Self.contractFlow.replacingOccurrences(of: "expect screen card", with: "#"), [])
    #expect(contract.status == 1)
    #expect(contract.stdout.contains("no actions are listed"), "\(contract.stdout)")
  }
}
