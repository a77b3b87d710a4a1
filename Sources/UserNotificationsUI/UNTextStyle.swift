/// Apple's Dynamic Type text styles.
///
/// UNTerm lays out every text block as lines × the style's line height (its leading at the
/// user's text size, from Apple's table in `dynamicTypeTable`), so the height of any view is
/// known in points before it is projected onto terminal rows.
public enum UNTextStyle: String, Sendable, Hashable, CaseIterable {
  case title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

  /// The line height at the default (Large) Dynamic Type size: title1 34, title2 28, title3 25,
  /// headline and body 22, callout 21, subheadline 20, footnote 18, caption1 16, caption2 13.
  public var lineHeight: Double { lineHeight(at: .default) }
}
