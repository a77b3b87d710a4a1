/// The headers of an APNs request that matter to a device: they travel beside the payload, are
/// not part of it and do not count towards its size. Values are kept as given (`priority` "10",
/// `expiration` "1767225600"); `APNsRules` in UNTermInput checks them as APNs does.
package struct APNsHeaders: Hashable, Sendable {
  /// A header: its name as APNs spells it.
  package enum Field: String, CaseIterable, Sendable {
    case pushType = "apns-push-type"
    case priority = "apns-priority"
    case collapseID = "apns-collapse-id"
    case expiration = "apns-expiration"
    case topic = "apns-topic"
  }

  private var values: [Field: String] = [:]

  package init() {}

  package subscript(field: Field) -> String? {
    get { values[field] }
    set { values[field] = newValue }
  }

  package var pushType: String? { self[.pushType] }
  package var priority: String? { self[.priority] }
  package var collapseID: String? { self[.collapseID] }
  package var expiration: String? { self[.expiration] }
  package var topic: String? { self[.topic] }

  package var isEmpty: Bool { values.isEmpty }

  /// The headers given, in APNs' order of `Field.allCases`.
  package var fields: [(field: Field, value: String)] {
    Field.allCases.compactMap { field in values[field].map { (field, $0) } }
  }

  /// These headers with `other`'s given ones in their place (the command line over the file).
  package func overridden(by other: APNsHeaders) -> APNsHeaders {
    var merged = self
    for (field, value) in other.fields { merged[field] = value }
    return merged
  }
}
