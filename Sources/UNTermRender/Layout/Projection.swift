import UNTermInput
import UNTermState
import UserNotificationsUI

/// The one place points become cells.
///
/// A column is 8 pt and a row 16 pt, the 1:2 shape of a terminal cell, so an image keeps its
/// aspect. Text is the exception: each line of text takes one row whatever its style, since a
/// terminal cannot draw part of a line; its height in points (lines × the style's line height)
/// is still what budgets are checked against.
///
/// | profile | width | columns | budget | rows (non-text) |
/// |---|---|---|---|---|
/// | iPhone | 359 pt | 45 | 320 pt | 20 |
/// | iPad | 500 pt | 63 | 352 pt | 22 |
package enum Projection {
  package static let pointsPerColumn = 8.0
  package static let pointsPerRow = 16.0

  /// Columns for a width in points (rounded; saturating, so no size can trap).
  package static func columns(_ points: Double) -> Int {
    max(0, Int(saturating: (points / pointsPerColumn).rounded()))
  }

  /// Rows for a non-text height in points (rounded; a positive height takes at least a row
  /// only when it is at least half a row). Saturating, so no height can trap.
  package static func rows(_ points: Double) -> Int {
    max(0, Int(saturating: (points / pointsPerRow).rounded()))
  }

  /// A height in points as layout takes it: 0 to `InputNumber.maximumPoints` (NaN is 0). Files
  /// are held to that range when read; a program's sizes are clamped here.
  package static func height(_ points: Double) -> Double {
    points.isNaN ? 0 : min(InputNumber.maximumPoints, max(0, points))
  }

  /// A size in points as reports write it: whole points bare ("269"), fractions to at most two
  /// places ("269.25", "179.5"), so width × ratio reads as iOS computes it.
  package static func describe(points: Double) -> String {
    let hundredths = (points * 100).rounded()
    guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(Int(saturating: points))" }
    let whole = Int(hundredths) / 100
    let fraction = abs(Int(hundredths) % 100)
    if fraction == 0 { return "\(whole)" }
    let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    return "\(whole).\(digits)"
  }

  /// Points covered by whole rows of a non-text block.
  package static func points(rows: Int) -> Double { Double(rows) * pointsPerRow }

  /// Columns a line of text of a style takes at a Dynamic Type size, out of `width` at the
  /// default size: letters grow with the point size (Apple's table), so fewer fit on a line.
  /// Never more than `width`: a terminal cannot draw smaller letters.
  package static func textColumns(_ width: Int, style: UNTextStyle, size: DynamicTypeSize) -> Int {
    guard width > 0 else { return width }
    return max(1, Int(saturating: (Double(width) / style.widthScale(at: size)).rounded(.down)))
  }

  /// The card's width in columns on a screen, including its border.
  package static func cardColumns(_ device: DeviceProfile, screenWidth: Int) -> Int {
    min(columns(device.notificationWidth), max(0, screenWidth - 2))
  }
}
