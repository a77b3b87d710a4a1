import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermState

/// The real binary in tmux: `?` lists the keys that were missing from it, and `t` says which
/// theme it switched to.
@Suite("Keys overlay and theme in tmux", .serialized, .enabled(if: TmuxDriver.isAvailable), .hangGuard)
struct KeyHelpEndToEndTests {
  @Test func theOverlayListsEveryKeyAndTNamesTheTheme() throws {
    let dir = try Fixtures.temporaryDirectory()
    let tmux = try TmuxDriver(width: 80, height: 24)
    defer { tmux.kill() }
    tmux.type(
      "LANG=C.UTF-8 \(Fixtures.unterm) \(Fixtures.sampleCategoriesShell) --socket \(dir.path)/s.sock "
        + "\(Fixtures.sample("message.json")); echo EXIT=$?")
    tmux.keys("Enter")
    try tmux.waitFor("Ana Lima")
    tmux.type("?")
    try tmux.waitFor("any key close")
    let overlay = tmux.screen()
    for binding in KeyBindings.all {
      #expect(overlay.contains(binding.label), "\(binding.label) is not in the overlay")
    }
    tmux.type("q")  // any key closes the overlay, and q does not quit from it
    try tmux.waitFor("? keys")
    tmux.type("t")
    try tmux.waitFor("Theme: dark")
    tmux.type("q")
    try tmux.waitFor("EXIT=0")
  }
}
