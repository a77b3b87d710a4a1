import UNTermBidi

/// An editable line of text whose cursor moves by grapheme cluster, so a Bengali conjunct,
/// an emoji with modifiers or a CJK character is one step and one deletion.
///
/// With right-to-left text the arrows move the caret in display order, as on iOS: → moves it
/// one cluster to the right on screen whichever way the text under it runs, and every place
/// between two clusters on screen can be reached. Where a right-to-left run meets a
/// left-to-right one, one position in the text has two places on screen, so the caret also
/// remembers which neighbour it leans on (UIKit's selection affinity): the cluster before it,
/// as after typing, or the one after it, as after Home or an arrow that arrived from that side.
/// Backspace deletes the cluster before the caret in the text, as on iOS, and Shift with an
/// arrow extends a selection, which typing, Backspace and Delete replace.
package struct TextField: Hashable, Sendable {
  /// The text typed so far.
  package private(set) var text: String = ""
  /// The cursor, as a count of characters (grapheme clusters) from the start.
  package private(set) var cursor = 0
  /// Where a selection started; the selection runs from here to the cursor.
  package private(set) var anchor: Int?
  /// Whether the caret is drawn against the cluster after the cursor rather than the one
  /// before it.
  package private(set) var leansForward = false

  package init(text: String = "") {
    self.text = text
    cursor = text.count
  }

  private var characters: [Character] { Array(text) }

  /// The selected clusters, in logical order; `nil` when nothing is selected.
  package var selection: Range<Int>? {
    guard let anchor, anchor != cursor else { return nil }
    return min(anchor, cursor)..<max(anchor, cursor)
  }

  /// Inserts text at the cursor, replacing the selection. Characters that combine with their
  /// neighbours (a virama, a combining accent, a skin tone) merge into one cluster, as they do
  /// when typed on iOS.
  package mutating func insert(_ string: String) {
    deleteSelection()
    let chars = characters
    let before = String(chars[..<cursor]) + string
    text = before + String(chars[cursor...])
    cursor = min(before.count, text.count)
    leansForward = false
  }

  /// Deletes the selection, or the cluster before the cursor.
  package mutating func deleteBackward() {
    if deleteSelection() { return }
    guard cursor > 0 else { return }
    var chars = characters
    chars.remove(at: cursor - 1)
    text = String(chars)
    cursor = min(cursor - 1, text.count)
    leansForward = cursor == 0
  }

  /// Deletes the selection, or the cluster after the cursor.
  package mutating func deleteForward() {
    if deleteSelection() { return }
    var chars = characters
    guard cursor < chars.count else { return }
    chars.remove(at: cursor)
    text = String(chars)
    cursor = min(cursor, text.count)
  }

  /// Removes the selected clusters; `false` when nothing was selected.
  @discardableResult
  private mutating func deleteSelection() -> Bool {
    defer { anchor = nil }
    guard let range = selection else { return false }
    var chars = characters
    chars.removeSubrange(range)
    text = String(chars)
    cursor = min(range.lowerBound, text.count)
    leansForward = cursor == 0
    return true
  }

  /// Moves the cursor one cluster back in logical order.
  package mutating func moveLeft() { move(to: max(0, cursor - 1), extend: false) }
  /// Moves the cursor one cluster on in logical order.
  package mutating func moveRight() { move(to: min(text.count, cursor + 1), extend: false) }
  package mutating func moveToStart(extend: Bool = false) { move(to: 0, extend: extend) }
  package mutating func moveToEnd(extend: Bool = false) { move(to: text.count, extend: extend) }

  private mutating func move(to position: Int, extend: Bool, leaningForward: Bool? = nil) {
    if extend {
      if anchor == nil { anchor = cursor }
    } else {
      anchor = nil
    }
    cursor = position
    leansForward = leaningForward ?? (position == 0)
  }

  /// Moves the caret one step left or right on screen. In `visual` mode that follows the
  /// display order of right-to-left text; in `terminal` mode the terminal reorders what UNTerm
  /// writes in logical order, so the caret moves in logical order. Without `extend`, an arrow
  /// over a selection puts the caret at the selection's edge on that side.
  package mutating func moveOnScreen(
    right: Bool, extend: Bool, mode: BidiMode, direction: BidiParagraph.Direction = .auto
  ) {
    guard mode == .visual else {
      if !extend, let range = selection {
        move(to: right ? range.upperBound : range.lowerBound, extend: false)
      } else {
        move(to: right ? min(text.count, cursor + 1) : max(0, cursor - 1), extend: extend)
      }
      return
    }
    let caret = Caret(BidiParagraph(text, direction: direction))
    guard caret.count > 0 else { return }
    let target: Int
    if !extend, let range = selection {
      // The selection's edge on this side of the screen.
      let units = range.map { caret.visualPosition[$0] }
      target = right ? (units.max() ?? 0) + 1 : (units.min() ?? 0)
    } else {
      let here = caret.column(cursor, leaningForward: leansForward)
      target = right ? here + 1 : here - 1
      guard (0...caret.count).contains(target) else { return }
    }
    let (position, forward) = caret.position(atColumn: target, approachingFromLeft: right)
    move(to: position, extend: extend, leaningForward: forward)
  }

  /// The caret's place on screen, in display units (one per cluster) from the left.
  package static func caretColumn(of field: TextField, in paragraph: BidiParagraph) -> Int {
    Caret(paragraph).column(field.cursor, leaningForward: field.leansForward)
  }

  /// Where caret positions are on screen for one paragraph.
  private struct Caret {
    let count: Int
    let levels: [Int8]
    /// The display order: the cluster shown at each place, left to right.
    let order: [Int]
    /// Where each cluster is shown.
    let visualPosition: [Int]

    init(_ paragraph: BidiParagraph) {
      count = paragraph.clusters.count
      levels = paragraph.levels
      order = paragraph.visualOrder(of: 0..<count)
      var positions = [Int](repeating: 0, count: count)
      for (v, logical) in order.enumerated() { positions[logical] = v }
      visualPosition = positions
    }

    private func isRightToLeft(_ cluster: Int) -> Bool { levels[cluster] % 2 == 1 }

    /// The column of a cursor position: the trailing edge of the cluster before it, or the
    /// leading edge of the cluster after it when the caret leans forward (or nothing is
    /// before it).
    func column(_ cursor: Int, leaningForward: Bool) -> Int {
      guard count > 0 else { return 0 }
      if (leaningForward || cursor == 0) && cursor < count {
        // The leading edge: the left side of a left-to-right cluster, the right side of a
        // right-to-left one.
        return isRightToLeft(cursor) ? visualPosition[cursor] + 1 : visualPosition[cursor]
      }
      let before = max(0, cursor - 1)
      return isRightToLeft(before) ? visualPosition[before] : visualPosition[before] + 1
    }

    /// The cursor position (and lean) whose caret is at `column`: read from the cluster on
    /// the side the caret came from, so each place on screen has one answer.
    func position(atColumn column: Int, approachingFromLeft: Bool) -> (Int, Bool) {
      // Moving right, the caret lands on the right edge of the cluster it passed; moving
      // left, on the left edge of the cluster it passed.
      if (approachingFromLeft && column > 0) || column == count {
        let cluster = order[column - 1]
        // The right edge: trailing for left-to-right, leading for right-to-left.
        return isRightToLeft(cluster) ? (cluster, true) : (cluster + 1, false)
      }
      let cluster = order[column]
      // The left edge: leading for left-to-right, trailing for right-to-left.
      return isRightToLeft(cluster) ? (cluster + 1, false) : (cluster, true)
    }
  }

  /// The text before the cursor.
  package var textBeforeCursor: String { String(characters[..<cursor]) }
}
