/// Apple's Dynamic Type text styles with their default line heights in points.
///
/// UNTerm lays out every text block as lines × the style's line height, so the height of any
/// view is known in points before it is projected onto terminal rows.
public enum UNTextStyle: String, Sendable, Hashable, CaseIterable {
  case title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

  /// The default (Large) Dynamic Type line height.
  public var lineHeight: Double {
    switch self {
    case .title1: return 34
    case .title2: return 28
    case .title3: return 25
    case .headline: return 22
    case .body: return 22
    case .callout: return 21
    case .subheadline: return 20
    case .footnote: return 18
    case .caption1: return 16
    case .caption2: return 13
    }
  }
}
