import Testing

@testable import UNTermRender

/// Sizes in reports read as iOS computes them: width × ratio is not rounded to a whole point.
@Suite("Points in reports")
struct PointsTextTests {
  static let cases: [(Double, String)] = [
    (359 * 0.75, "269.25"), (359 * 0.5, "179.5"), (500 * 0.75, "375"), (320, "320"), (0, "0"),
    (359 * 0.333, "119.55"), (100.004, "100"), (-2.5, "-2.5"), (Double.infinity, "\(Int.max)"),
  ]

  @Test(arguments: cases)
  func describesPoints(value: Double, text: String) {
    #expect(Projection.describe(points: value) == text)
  }
}
