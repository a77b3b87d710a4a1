/// An editable line of text whose cursor moves by grapheme cluster, so a Bengali conjunct,
/// an emoji with modifiers or a CJK character is one step and one deletion.
package struct TextField: Hashable, Sendable {
  /// The text typed so far.
  package private(set) var text: String = ""
  /// The cursor, as a count of characters (grapheme clusters) from the start.
  package private(set) var cursor = 0

  package init(text: String = "") {
    self.text = text
    cursor = text.count
  }

  private var characters: [Character] { Array(text) }

  /// Inserts text at the cursor. Characters that combine with their neighbours (a virama,
  /// a combining accent, a skin tone) merge into one cluster, as they do when typed on iOS.
  package mutating func insert(_ string: String) {
    let chars = characters
    let before = String(chars[..<cursor]) + string
    text = before + String(chars[cursor...])
    cursor = min(before.count, text.count)
  }

  /// Deletes the cluster before the cursor.
  package mutating func deleteBackward() {
    guard cursor > 0 else { return }
    var chars = characters
    chars.remove(at: cursor - 1)
    text = String(chars)
    cursor = min(cursor - 1, text.count)
  }

  /// Deletes the cluster after the cursor.
  package mutating func deleteForward() {
    var chars = characters
    guard cursor < chars.count else { return }
    chars.remove(at: cursor)
    text = String(chars)
    cursor = min(cursor, text.count)
  }

  package mutating func moveLeft() { cursor = max(0, cursor - 1) }
  package mutating func moveRight() { cursor = min(text.count, cursor + 1) }
  package mutating func moveToStart() { cursor = 0 }
  package mutating func moveToEnd() { cursor = text.count }

  /// The text before the cursor.
  package var textBeforeCursor: String { String(characters[..<cursor]) }
}
