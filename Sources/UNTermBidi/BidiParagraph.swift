internal import CFriBidi

/// Who puts right-to-left text in display order: UNTerm (`visual`), or whoever shows the output
/// (`logical`: a terminal that runs the bidirectional algorithm itself, or a reader of a file).
package enum BidiMode: String, Sendable, CaseIterable {
  /// UNTerm reorders each line, joins Arabic letters and mirrors brackets; the terminal is
  /// asked to show cells as written (explicit mode).
  case visual
  /// UNTerm writes text in logical order, unshaped: for a terminal that reorders and shapes
  /// right-to-left text itself (`--bidi terminal`), and for every output that is not a terminal
  /// (files, pipes, snapshots, `expect screen`, JUnit, pictures), whose readers — a browser, an
  /// editor, a code-review page — run the bidi algorithm themselves (issue 25.3).
  case logical
}

/// One paragraph of text with its bidi levels resolved by GNU FriBidi, per grapheme cluster.
///
/// The paragraph is broken into lines in logical order by the caller; each line is then put in
/// display order with `visualOrder(of:)` and shaped with `shaped(_:ligatures:)`. A grapheme
/// cluster is never split: a Bengali conjunct, an Arabic letter with its vowel marks or an emoji
/// with its modifier moves as one unit and keeps its scalars in logical order.
package struct BidiParagraph: Sendable {
  /// How the paragraph's base direction is decided.
  package enum Direction: Sendable, Hashable {
    /// By its first strong letter (rules P2 and P3) that is not in a placeholder, left to right
    /// when there is none.
    case auto
    /// Right to left when the text holds any right-to-left letter or Arabic digit, else as
    /// `auto`: how a right-to-left device language (Urdu, Arabic…) reads mixed text, so an
    /// Urdu sentence that starts with an English name still runs from the right.
    case preferRightToLeft
    case leftToRight, rightToLeft
  }

  /// The base direction a device language prefers: `preferRightToLeft` for languages written
  /// right to left, else `auto`.
  package static func direction(forLanguage locale: String) -> Direction {
    let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
    return rightToLeftLanguages.contains(language) ? .preferRightToLeft : .auto
  }

  /// Why right-to-left text cannot be reordered here — GNU FriBidi (opened on first use) is not
  /// installed — or nil when it can. Without it every paragraph stays in logical order.
  package static var unavailableReason: String? {
    cfb_load_error().map { String(cString: $0) }
  }

  /// Languages written right to left (in their usual script).
  package static let rightToLeftLanguages: Set<String> = [
    "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "syr", "ug", "ur", "yi",
  ]

  /// The grapheme clusters, in logical order.
  package let clusters: [Character]
  /// The resolved embedding level of each cluster (odd: right to left).
  package let levels: [Int8]
  /// Whether the paragraph's base direction is right to left.
  package let isRightToLeft: Bool
  /// The bidi type of each cluster (its first scalar's), as the line reordering needs it.
  private let clusterTypes: [UInt32]
  /// Every scalar with its resolved level, and where each cluster's scalars start.
  private let scalars: [UInt32]
  private let scalarLevels: [Int8]
  private let clusterStarts: [Int]

  /// Resolves a paragraph (text without line breaks; a line break is treated as a neutral).
  package init(_ text: some StringProtocol, direction: Direction = .auto) {
    clusters = Array(text)
    var scalars: [UInt32] = []
    var starts: [Int] = []
    starts.reserveCapacity(clusters.count + 1)
    for cluster in clusters {
      starts.append(scalars.count)
      for scalar in cluster.unicodeScalars { scalars.append(scalar.value) }
    }
    starts.append(scalars.count)
    self.scalars = scalars
    clusterStarts = starts
    let hasRightToLeft = scalars.contains { $0 >= 0x0590 } && Self.hasRightToLeft(scalars)
    let forcedRightToLeft = direction == .rightToLeft || (direction == .preferRightToLeft && hasRightToLeft)
    let code: Int32
    switch direction {
    case .auto, .preferRightToLeft: code = Int32(forcedRightToLeft ? CFB_DIRECTION_RTL : CFB_DIRECTION_AUTO)
    case .leftToRight: code = Int32(CFB_DIRECTION_LTR)
    case .rightToLeft: code = Int32(CFB_DIRECTION_RTL)
    }
    var types = [UInt32](repeating: 0, count: scalars.count)
    var resolved = [Int8](repeating: 0, count: scalars.count)
    var rtl: Int32 = forcedRightToLeft ? 1 : 0
    // Text with nothing right to left in a paragraph that is not forced right to left: every
    // level is 0 and nothing moves, so FriBidi is not asked.
    let needsAlgorithm = forcedRightToLeft || hasRightToLeft
    if needsAlgorithm && !scalars.isEmpty {
      rtl = Self.resolve(scalars, direction: code, &types, &resolved)
      if rtl < 0 {
        // FriBidi could not allocate: the text shows in logical order rather than not at all.
        rtl = 0
        resolved = [Int8](repeating: 0, count: scalars.count)
        types = [UInt32](repeating: 0, count: scalars.count)
      }
    }
    isRightToLeft = rtl == 1
    scalarLevels = resolved
    // A cluster takes the level and type of its first scalar, its base character.
    levels = starts.dropLast().map { $0 < resolved.count ? resolved[$0] : (rtl == 1 ? 1 : 0) }
    clusterTypes = starts.dropLast().map { $0 < types.count ? types[$0] : 0 }
  }

  private static func resolve(_ scalars: [UInt32], direction: Int32, _ types: inout [UInt32], _ levels: inout [Int8])
    -> Int32
  {
    let placeholders = placeholderMask(scalars)
    return scalars.withUnsafeBufferPointer { text in
      placeholders.withUnsafeBufferPointer { mask in
        types.withUnsafeMutableBufferPointer { t in
          levels.withUnsafeMutableBufferPointer { l in
            cfb_paragraph(
              text.baseAddress, Int32(text.count), direction, mask.baseAddress, t.baseAddress, l.baseAddress)
          }
        }
      }
    }
  }

  /// The brackets of the sanitizer's visible placeholders (`‹RLO›`, `‹9B›`, `‹U+200B›`).
  package static let placeholderOpen: Unicode.Scalar = "\u{2039}"
  package static let placeholderClose: Unicode.Scalar = "\u{203A}"

  /// Marks the scalars of every placeholder — `‹`, one to twelve of `A–Z 0–9 +`, `›` — to
  /// resolve as left-to-right letters, so a placeholder stays whole and reads "‹RLO›" in
  /// right-to-left text too, instead of its brackets drifting apart as neutrals do.
  private static func placeholderMask(_ scalars: [UInt32]) -> [UInt8] {
    var mask = [UInt8](repeating: 0, count: scalars.count)
    var i = 0
    while i < scalars.count {
      defer { i += 1 }
      guard scalars[i] == placeholderOpen.value else { continue }
      var j = i + 1
      while j < scalars.count, j - i <= 12, isPlaceholderName(scalars[j]) { j += 1 }
      guard j > i + 1, j < scalars.count, scalars[j] == placeholderClose.value else { continue }
      for k in i...j { mask[k] = 1 }
      i = j
    }
    return mask
  }

  private static func isPlaceholderName(_ value: UInt32) -> Bool {
    (0x41...0x5A).contains(value) || (0x30...0x39).contains(value) || value == 0x2B
  }

  private static func hasRightToLeft(_ scalars: [UInt32]) -> Bool {
    scalars.withUnsafeBufferPointer { cfb_has_rtl($0.baseAddress, Int32($0.count)) == 1 }
  }

  /// Whether any cluster is at a level other than the base left-to-right one: the paragraph
  /// has something to reorder.
  package var needsReordering: Bool { isRightToLeft || levels.contains { $0 != 0 } }

  /// The clusters of one line (a logical range) in display order, left to right.
  package func visualOrder(of range: Range<Int>) -> [Int] {
    let range = range.clamped(to: 0..<clusters.count)
    guard needsReordering, !range.isEmpty else { return Array(range) }
    var map = Array(Int32(0)..<Int32(clusters.count))
    var lineLevels = levels
    let status = clusterTypes.withUnsafeBufferPointer { types in
      lineLevels.withUnsafeMutableBufferPointer { l in
        map.withUnsafeMutableBufferPointer { m in
          cfb_reorder_line(
            types.baseAddress, l.baseAddress, Int32(clusters.count), Int32(range.lowerBound), Int32(range.count),
            isRightToLeft ? 1 : 0, m.baseAddress)
        }
      }
    }
    guard status == 0 else { return Array(range) }
    return map[range].map { Int($0) }
  }

  /// The clusters of one line (a logical range) shaped for display, in logical order: Arabic
  /// letters in their joining forms, brackets mirrored at right-to-left levels. With
  /// `ligatures`, a lam-alef pair becomes one ligature in the lam's cluster and the alef's
  /// cluster is empty.
  package func shaped(_ range: Range<Int>, ligatures: Bool) -> [String] {
    let range = range.clamped(to: 0..<clusters.count)
    guard !range.isEmpty else { return [] }
    guard needsReordering else { return range.map { String(clusters[$0]) } }
    let first = clusterStarts[range.lowerBound]
    let end = clusterStarts[range.upperBound]
    var text = Array(scalars[first..<end])
    let lineLevels = Array(scalarLevels[first..<end])
    text.withUnsafeMutableBufferPointer { t in
      lineLevels.withUnsafeBufferPointer { l in
        cfb_shape(t.baseAddress, l.baseAddress, Int32(t.count), ligatures ? 1 : 0)
      }
    }
    return range.map { index in
      var out = String.UnicodeScalarView()
      for i in clusterStarts[index]..<clusterStarts[index + 1] {
        let value = text[i - first]
        // FriBidi fills the place of a ligature's second letter with U+FEFF.
        if value == 0xFEFF && scalars[i] != 0xFEFF { continue }
        out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      }
      return String(out)
    }
  }

  /// Clusters as one string, appended one by one: `String(_:)` of a slice of characters is not
  /// specialized here, and its first call looked up witness tables at run time at every start.
  package static func string(_ clusters: ArraySlice<Character>) -> String {
    var out = ""
    for cluster in clusters { out.append(cluster) }
    return out
  }

  /// One line (a logical range) as displayed: shaped, in visual order.
  package func visualLine(_ range: Range<Int>, ligatures: Bool = true) -> String {
    let range = range.clamped(to: 0..<clusters.count)
    guard needsReordering else { return Self.string(clusters[range]) }
    let shapes = shaped(range, ligatures: ligatures)
    var out = ""
    for index in visualOrder(of: range) { out += shapes[index - range.lowerBound] }
    return out
  }
}
