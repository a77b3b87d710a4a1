import UNTermBidi

/// The `--bidi` setting: `auto` is resolved from the environment by `TerminalBidi`.
package enum BidiSetting: String, Sendable, CaseIterable {
  case auto, visual, terminal

  /// How an output that is not a terminal holds right-to-left text: in logical order, unless
  /// `visual` is asked for explicitly (issue 25.3).
  package var fileMode: BidiMode { self == .visual ? .visual : .logical }
}

/// What a terminal does with right-to-left text, guessed from the environment it gives its
/// programs, and who should reorder it.
///
/// - VTE (GNOME Terminal, Tilix, Terminator…; `VTE_VERSION` 5703 or later) runs the bidi
///   algorithm itself by default since 0.57.3 ("implicit mode"), but follows ECMA-48 BDSM: the
///   interactive session sends `CSI 8 l` to make it show cells as written and reorders itself,
///   and gives it `CSI 8 h` back on exit. A screen printed by `render` stays on a terminal UNTerm
///   no longer controls, so there VTE reorders: `terminal`.
/// - Konsole (`KONSOLE_VERSION`) and mlterm (`TERM=mlterm*`, `MLTERM`) always reorder and have
///   no way to turn it off: `terminal`.
/// - Inside tmux or screen (`TMUX`, `STY`), the outer terminal draws tmux's screen; the mode
///   escape does not reach it, so an outer VTE, Konsole or mlterm (their variables are inherited)
///   means `terminal`.
/// - Anything else (xterm, the Linux console, Alacritty, kitty, WezTerm, Windows Terminal, tmux
///   in such a terminal): no bidi, so `visual`.
package enum TerminalBidi {
  /// What the environment says about the terminal.
  package struct Terminal: Equatable, Sendable {
    /// Whether it reorders right-to-left text by itself.
    package var reorders: Bool
    /// Whether `CSI 8 l` stops it doing so.
    package var honoursExplicitMode: Bool
  }

  /// The terminal described by an environment.
  /// An empty variable counts as unset, as a shell's `TMUX= unterm` means.
  package static func terminal(_ environment: [String: String]) -> Terminal {
    terminal(environment: { environment[$0] })
  }

  /// The terminal described by an environment read a variable at a time
  /// (`ProcessEnvironment.value` for this process's).
  package static func terminal(environment variable: (String) -> String?) -> Terminal {
    func value(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
    let term = value("TERM") ?? ""
    let multiplexed = value("TMUX") != nil || value("STY") != nil
    if value("KONSOLE_VERSION") != nil || term.hasPrefix("mlterm") || value("MLTERM") != nil {
      return Terminal(reorders: true, honoursExplicitMode: false)
    }
    if let vte = value("VTE_VERSION").flatMap({ Int($0) }), vte >= 5703 {
      return Terminal(reorders: true, honoursExplicitMode: !multiplexed)
    }
    return Terminal(reorders: false, honoursExplicitMode: false)
  }

  /// The mode a setting means.
  ///
  /// - Parameters:
  ///   - controlsTerminal: Whether UNTerm owns the terminal while the text is shown (the
  ///     interactive session), so it can switch a terminal's own bidi off; `false` for a screen
  ///     printed and left behind (`render`).
  ///   - isTerminal: Whether the output goes to a terminal at all; text written to a file or a
  ///     pipe keeps its logical order for whoever reads it, unless `visual` is asked for.
  package static func mode(
    _ setting: BidiSetting, environment: [String: String], controlsTerminal: Bool, isTerminal: Bool = true
  ) -> BidiMode {
    mode(setting, environment: { environment[$0] }, controlsTerminal: controlsTerminal, isTerminal: isTerminal)
  }

  /// The mode a setting means, the environment read a variable at a time (only for `auto` on a
  /// terminal).
  package static func mode(
    _ setting: BidiSetting, environment variable: (String) -> String?, controlsTerminal: Bool,
    isTerminal: Bool = true
  ) -> BidiMode {
    switch setting {
    case .visual: return .visual
    case .terminal: return .logical
    case .auto:
      // A file or a pipe: its reader (a browser, an editor) reorders (issue 25.3).
      guard isTerminal else { return .logical }
      let terminal = terminal(environment: variable)
      guard terminal.reorders else { return .visual }
      return controlsTerminal && terminal.honoursExplicitMode ? .visual : .logical
    }
  }
}
