import UNTermState

/// What a part of the screen is, for the theme to colour.
package enum Role: String, CaseIterable, Sendable, Hashable {
  case screen, card, cardBorder, cardFocused, appName, time, title, subtitle, body, secondary
  case accent, action, actionSelected, destructive, badge, field, fieldPlaceholder, button
  case overflow, statusBar, statusKey, pane, paneTitle, warning, error, lockScreen, clock
  case mediaArt
}

/// A theme: a style for every role.
package struct Theme: Hashable, Sendable {
  package var name: String
  package var styles: [Role: Style]

  package init(name: String, styles: [Role: Style]) {
    self.name = name
    self.styles = styles
  }

  /// The style of a role; roles a theme leaves out fall back to sensible neighbours.
  package subscript(role: Role) -> Style {
    if let style = styles[role] { return style }
    switch role {
    case .card, .cardFocused, .pane, .lockScreen, .statusBar: return self[.screen]
    case .cardBorder: return self[.card]
    case .appName, .time, .secondary, .fieldPlaceholder, .clock: return self[.body].adding(.dim)
    case .title: return self[.body].adding(.bold)
    case .subtitle, .body, .action, .field, .paneTitle, .statusKey, .mediaArt: return self[.card]
    case .accent, .actionSelected, .button, .badge, .destructive, .overflow, .warning, .error:
      return self[.body].adding(.reverse)
    case .screen: return .plain
    }
  }

  /// No style at all, for output that shows none (plain text): an empty table, which costs
  /// nothing to make.
  package static let unstyled = Theme(name: "unstyled", styles: [:])

  /// A theme with no colours, only attributes: what `--color never` and `NO_COLOR` print.
  package static let plain = Theme(
    name: "plain",
    styles: [
      .title: Style(attributes: .bold), .cardFocused: .plain, .actionSelected: Style(attributes: .reverse),
    ])
}
