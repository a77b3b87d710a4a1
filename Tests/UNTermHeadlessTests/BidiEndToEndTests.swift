import Foundation
import Testing
import UNTermTestSupport

/// The real `unterm` in tmux (which does no bidi, so `--bidi auto` is `visual`): an Urdu
/// notification and an Urdu reply read from the right, `g` switches the localized text's
/// language, and the app gets the reply in logical order.
@Suite("Right-to-left end to end in tmux", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct BidiEndToEndTests {
  private func waitForLine(_ path: String, timeout: TimeInterval = Eventually.limit) throws -> String {
    let limit = Date().addingTimeInterval(timeout)
    while Date() < limit {
      if let data = FileManager.default.contents(atPath: path),
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first
      {
        return String(line)
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw TmuxDriver.Timeout(description: "no response in \(path)")
  }

  private func start(_ tmux: TmuxDriver, _ arguments: String) {
    tmux.type(
      "LANG=C.UTF-8 NO_COLOR= \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) \(arguments); echo EXIT=$?"
    )
    tmux.keys("Enter")
  }

  @Test func gSwitchesTheLanguageAndUrduReadsFromTheRight() throws {
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    start(tmux, "--strings \(Fixtures.sample("Localization")) --locale ur \(Fixtures.sample("localized.json"))")
    // Joined and reordered, the English name at the left end of the Urdu title.
    try tmux.waitFor("ﺕﻮﻋﺩ ﯽﮐ ﻞﯿﮭﮐ ﮯﺳ ﻑﺮﻃ ﯽﮐ Jenna │")
    tmux.type("g")
    try tmux.waitFor("Jenna-এর কাছ থেকে খেলার আমন্ত্রণ")
    tmux.type("g")
    try tmux.waitFor("Game invite from Jenna")
    tmux.type("g")
    try tmux.waitFor("ﺕﻮﻋﺩ ﯽﮐ ﻞﯿﮭﮐ ﮯﺳ ﻑﺮﻃ ﯽﮐ Jenna │")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }

  @Test func anUrduReplyReadsFromTheRightAndReachesTheAppInLogicalOrder() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let log = dir.appendingPathComponent("responses.jsonl").path
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    start(tmux, "--log \(log) \(Fixtures.sample("message-urdu.json"))")
    try tmux.waitFor("ﮧﺸﺋﺎﻋ │")
    tmux.keys("Space")
    try tmux.waitFor("1  Reply")
    tmux.type("1")
    try tmux.waitFor("Message…")
    // An Urdu sentence with digits and an English word: the caret follows "Zoom", typed last.
    tmux.type("ٹھیک ہے 9 بجے Zoom")
    try tmux.waitFor("Zoom ﮯﺠﺑ 9 ﮯﮨ ﮏﯿﮭﭨ")
    // ← four times: before "Z", on screen; what is typed there goes before it.
    for _ in 0..<4 { tmux.keys("Left") }
    tmux.type("x")
    try tmux.waitFor("xZoom ﮯﺠﺑ 9 ﮯﮨ ﮏﯿﮭﭨ")
    tmux.keys("Enter")
    let response = try waitForLine(log)
    #expect(response.contains(#""userText":"ٹھیک ہے 9 بجے xZoom""#), "\(response)")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }
}
