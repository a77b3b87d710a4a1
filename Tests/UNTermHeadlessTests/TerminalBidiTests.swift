import Foundation
import Testing
import UNTermBidi
import UNTermInput

@testable import UNTermHeadless

/// `--bidi auto`: who reorders right-to-left text, from what the terminal tells its programs.
@Suite("Terminal bidi detection")
struct TerminalBidiTests {
  @Test(
    arguments: [
      // xterm, the Linux console, tmux in a plain terminal: nobody else reorders.
      (["TERM": "xterm-256color"], BidiMode.visual, BidiMode.visual),
      (["TERM": "linux"], .visual, .visual),
      (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"], .visual, .visual),
      // VTE reorders by default, but the interactive session switches that off with CSI 8 l.
      (["TERM": "xterm-256color", "VTE_VERSION": "7006"], .visual, .logical),
      // A VTE too old to do bidi.
      (["TERM": "xterm-256color", "VTE_VERSION": "5202"], .visual, .visual),
      // tmux inside VTE: the escape does not reach VTE, which reorders tmux's screen.
      (["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "VTE_VERSION": "7006"], .logical, .logical),
      // Konsole and mlterm always reorder.
      (["TERM": "xterm-256color", "KONSOLE_VERSION": "230804"], .logical, .logical),
      (["TERM": "mlterm"], .logical, .logical),
      // An empty variable is unset: `TMUX= unterm` in VTE, `KONSOLE_VERSION=` elsewhere.
      (["TERM": "xterm-256color", "TMUX": "", "VTE_VERSION": "7006"], .visual, .logical),
      (["TERM": "xterm-256color", "KONSOLE_VERSION": ""], .visual, .visual),
    ])
  func autoFollowsTheTerminal(_ environment: [String: String], interactive: BidiMode, render: BidiMode) {
    #expect(TerminalBidi.mode(.auto, environment: environment, controlsTerminal: true) == interactive)
    #expect(TerminalBidi.mode(.auto, environment: environment, controlsTerminal: false) == render)
  }

  /// A file's reader (a browser, an editor) runs the bidi algorithm itself: the text stays in
  /// logical order whatever the terminal, unless visual is asked for (issue 25.3).
  @Test func aScreenWrittenToAFileIsInLogicalOrder() {
    for environment in [["KONSOLE_VERSION": "230804"], ["TERM": "xterm-256color"]] {
      #expect(
        TerminalBidi.mode(.auto, environment: environment, controlsTerminal: false, isTerminal: false) == .logical)
      #expect(
        TerminalBidi.mode(.terminal, environment: environment, controlsTerminal: false, isTerminal: false) == .logical)
      #expect(
        TerminalBidi.mode(.visual, environment: environment, controlsTerminal: false, isTerminal: false) == .visual)
    }
  }

  /// `render` and the session read the few variables they need one at a time rather than
  /// copying the whole environment: the answers are the same.
  @Test func theProcessEnvironmentReadOneVariableAtATime() {
    let name = "UNTERM_TEST_ONE_VARIABLE_\(getpid())"
    setenv(name, "ur_PK.UTF-8", 1)
    defer { unsetenv(name) }
    #expect(ProcessEnvironment.value(name) == "ur_PK.UTF-8")
    #expect(ProcessEnvironment.value(name + "_UNSET") == nil)
    let environment = ProcessInfo.processInfo.environment
    #expect(TerminalBidi.terminal(environment: ProcessEnvironment.value) == TerminalBidi.terminal(environment))
    #expect(AppStrings.environmentLocale(ProcessEnvironment.value) == AppStrings.environmentLocale(environment))
    for variables in [["KONSOLE_VERSION": "230804"], ["VTE_VERSION": "7006", "TMUX": ""], ["TERM": "mlterm"]] {
      #expect(
        TerminalBidi.mode(.auto, environment: { variables[$0] }, controlsTerminal: true)
          == TerminalBidi.mode(.auto, environment: variables, controlsTerminal: true))
    }
  }

  @Test func anExplicitSettingWins() {
    let konsole = ["KONSOLE_VERSION": "230804"]
    #expect(TerminalBidi.mode(.visual, environment: konsole, controlsTerminal: true) == .visual)
    #expect(TerminalBidi.mode(.terminal, environment: [:], controlsTerminal: true) == .logical)
  }
}
