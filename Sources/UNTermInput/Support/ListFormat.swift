/// Lists written as English prose.
package enum ListFormat {
  /// "A", "A and B", "A, B and C".
  package static func and(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    default: return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
    }
  }
}
