/// The user's text size (Settings › Display & Text Size › Larger Text): iOS's seven standard
/// Dynamic Type sizes and its five larger accessibility sizes, as SwiftUI's `DynamicTypeSize`
/// names them. The raw values are what `--text-size` and the script's `text-size` take.
package enum DynamicTypeSize: String, Sendable, Hashable, CaseIterable, Comparable {
  case xSmall = "xs"
  case small = "s"
  case medium = "m"
  /// iOS's default.
  case large = "l"
  case xLarge = "xl"
  case xxLarge = "xxl"
  case xxxLarge = "xxxl"
  case accessibility1 = "ax1"
  case accessibility2 = "ax2"
  case accessibility3 = "ax3"
  case accessibility4 = "ax4"
  case accessibility5 = "ax5"

  /// iOS's default size.
  package static let `default` = DynamicTypeSize.large
  /// The largest size a person can choose.
  package static let largest = DynamicTypeSize.accessibility5

  /// Whether it is one of the larger accessibility sizes (AX1–AX5).
  package var isAccessibilitySize: Bool { self >= .accessibility1 }

  /// As Apple's tables name it: `xSmall`, `Large (default)`, `AX3`.
  package var displayName: String {
    switch self {
    case .xSmall: return "xSmall"
    case .small: return "Small"
    case .medium: return "Medium"
    case .large: return "Large"
    case .xLarge: return "xLarge"
    case .xxLarge: return "xxLarge"
    case .xxxLarge: return "xxxLarge"
    case .accessibility1: return "AX1"
    case .accessibility2: return "AX2"
    case .accessibility3: return "AX3"
    case .accessibility4: return "AX4"
    case .accessibility5: return "AX5"
    }
  }

  package static func < (a: DynamicTypeSize, b: DynamicTypeSize) -> Bool {
    guard let x = allCases.firstIndex(of: a), let y = allCases.firstIndex(of: b) else { return false }
    return x < y
  }
}

/// A text style's font size and leading (the distance from one baseline to the next) at one
/// Dynamic Type size, in points.
package struct TypeMetrics: Hashable, Sendable {
  package var pointSize: Double
  package var leading: Double
}

extension UNTextStyle {
  /// Apple's Dynamic Type table: each style's point size and leading at every size.
  ///
  /// Source: Apple's Human Interface Guidelines, "Typography" › Specifications, the tables "iOS,
  /// iPadOS Dynamic Type sizes" (xSmall to xxxLarge) and "iOS, iPadOS larger accessibility type
  /// sizes" (AX1 to AX5), https://developer.apple.com/design/human-interface-guidelines/typography
  /// (read from a transcription of the page, as the page draws its tables with script). Every
  /// number is Apple's; none is derived. The HIG calls subheadline "Subhead" and lists Large
  /// Title too, which UNTerm's described views do not offer.
  ///
  /// One row per size in `DynamicTypeSize.allCases` order, as Apple gives one table per size;
  /// each row has the styles in `UNTextStyle.allCases` order as (point size, leading). Large is
  /// the default.
  static let dynamicTypeTable: [[(Double, Double)]] = [
    // title1   title2    title3    headline  body      callout   subhead   footnote  caption1  caption2
    [(25, 31), (19, 24), (17, 22), (14, 19), (14, 19), (13, 18), (12, 16), (12, 16), (11, 13), (11, 13)],  // xSmall
    [(26, 32), (20, 25), (18, 23), (15, 20), (15, 20), (14, 19), (13, 18), (12, 16), (11, 13), (11, 13)],  // Small
    [(27, 33), (21, 26), (19, 24), (16, 21), (16, 21), (15, 20), (14, 19), (12, 16), (11, 13), (11, 13)],  // Medium
    [(28, 34), (22, 28), (20, 25), (17, 22), (17, 22), (16, 21), (15, 20), (13, 18), (12, 16), (11, 13)],  // Large
    [(30, 37), (24, 30), (22, 28), (19, 24), (19, 24), (18, 23), (17, 22), (15, 20), (14, 19), (13, 18)],  // xLarge
    [(32, 39), (26, 32), (24, 30), (21, 26), (21, 26), (20, 25), (19, 24), (17, 22), (16, 21), (15, 20)],  // xxLarge
    [(34, 41), (28, 34), (26, 32), (23, 29), (23, 29), (22, 28), (21, 28), (19, 24), (18, 23), (17, 22)],  // xxxLarge
    [(38, 46), (34, 41), (31, 38), (28, 34), (28, 34), (26, 32), (25, 31), (23, 29), (22, 28), (20, 25)],  // AX1
    [(43, 51), (39, 47), (37, 44), (33, 40), (33, 40), (32, 39), (30, 37), (27, 33), (26, 32), (24, 30)],  // AX2
    [(48, 57), (44, 52), (43, 51), (40, 48), (40, 48), (38, 46), (36, 43), (33, 40), (32, 39), (29, 35)],  // AX3
    [(53, 62), (50, 59), (49, 58), (47, 56), (47, 56), (44, 52), (42, 50), (38, 46), (37, 44), (34, 41)],  // AX4
    [(58, 68), (56, 66), (55, 65), (53, 62), (53, 62), (51, 60), (49, 58), (44, 52), (43, 51), (40, 48)],  // AX5
  ]

  /// The style's point size and leading at a Dynamic Type size (Apple's table).
  package func metrics(at size: DynamicTypeSize) -> TypeMetrics {
    let index = DynamicTypeSize.allCases.firstIndex(of: size) ?? 3
    let row = index < Self.dynamicTypeTable.count ? Self.dynamicTypeTable[index] : []
    let column = Self.allCases.firstIndex(of: self) ?? 0
    let (pointSize, leading) = column < row.count ? row[column] : (17, 22)
    return TypeMetrics(pointSize: pointSize, leading: leading)
  }

  /// The height of one line of the style at a Dynamic Type size: its leading.
  package func lineHeight(at size: DynamicTypeSize) -> Double { metrics(at: size).leading }

  /// How many times wider each character of the style is at `size` than at the default size,
  /// never less than 1: a terminal cannot draw smaller letters, so text at the smaller sizes
  /// wraps as at the default (and its height, lines × leading, errs on the tall side).
  package func widthScale(at size: DynamicTypeSize) -> Double {
    max(1, metrics(at: size).pointSize / metrics(at: .default).pointSize)
  }
}
