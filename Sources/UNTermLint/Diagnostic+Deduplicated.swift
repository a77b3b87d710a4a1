import UNTermInput

extension Diagnostic {
  /// The findings with each problem reported once: an exact repeat is dropped, and where a
  /// number is out of range, the other checks that met the same value (a badge that "must be a
  /// whole number", say) say nothing more about it.
  package static func deduplicated(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    struct Place: Hashable {
      var file: String
      var location: DiagnosticLocation
    }
    struct Key: Hashable {
      var place: Place
      var code: LintCode
      var message: SafeText
    }
    let outOfRange = Set(
      diagnostics.filter { $0.code == .numberOutOfRange }.map { Place(file: $0.file, location: $0.location) })
    var seen = Set<Key>()
    var rangeReported = Set<Place>()
    return diagnostics.filter { d in
      let place = Place(file: d.file, location: d.location)
      guard seen.insert(Key(place: place, code: d.code, message: d.message)).inserted else { return false }
      guard outOfRange.contains(place) else { return true }
      switch d.code {
      case .numberOutOfRange: return rangeReported.insert(place).inserted
      case .invalidValue, .typeMismatch: return false
      default: return true
      }
    }
  }
}
