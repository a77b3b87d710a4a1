/// A device the emulator imitates: how wide a notification is and how tall its expanded
/// content may grow, in points.
///
/// Apple documents no maximum height for a content extension; the budgets are UNTerm's
/// requirement (see the contract's "Sizes"), and like the widths they are assumptions.
package struct DeviceProfile: Hashable, Sendable {
  package enum Kind: String, Hashable, Sendable, CaseIterable {
    case iphone, ipad
  }

  package var kind: Kind
  /// The notification's width in points.
  package var notificationWidth: Double
  /// The largest height of the expanded view's content area, in points.
  package var contentBudget: Double

  package static let iphone = DeviceProfile(kind: .iphone, notificationWidth: 359, contentBudget: 320)
  package static let ipad = DeviceProfile(kind: .ipad, notificationWidth: 500, contentBudget: 352)

  package static func profile(_ kind: Kind) -> DeviceProfile { kind == .iphone ? .iphone : .ipad }

  /// The name people read: `iPhone`, `iPad`.
  package var displayName: String { kind == .iphone ? "iPhone" : "iPad" }
}
