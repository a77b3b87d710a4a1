import Foundation
import UNTermRender

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads an SVG picture back with an XML parser: its elements, and the text of each row as the
/// picture places it (from each `<text>` element's position and `textLength`), so a test can
/// compare a picture with the terminal's screen line by line.
package struct PictureReader {
  package struct Element {
    package var name: String
    package var attributes: [String: String]
    package var text: String
  }

  /// Every element, in document order (text content collected per element).
  package private(set) var elements: [Element] = []

  /// Parses SVG (or XHTML) text; fails with the parser's error on text that is not well-formed
  /// XML.
  package init(_ markup: String) throws {
    let delegate = Collector()
    let parser = XMLParser(data: Data(markup.utf8))
    parser.delegate = delegate
    guard parser.parse() else {
      throw PictureReaderError(message: parser.parserError.map { "\($0)" } ?? "not well-formed")
    }
    elements = delegate.elements
  }

  /// The elements with a name.
  package func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

  /// The rows of the picture's cells as text: each `<text>` at the column its `x` gives; a
  /// run (no `lengthAdjust`) one cell per character, a lone cluster its `textLength` in cells.
  /// Continuation cells take no character and trailing spaces are dropped, as in
  /// `CellGrid.lines`.
  package var rows: [String] {
    guard let svg = all("svg").first,
      let cw = svg.attributes["data-cell-width"].flatMap(Int.init),
      let ch = svg.attributes["data-cell-height"].flatMap(Int.init),
      let pad = svg.attributes["data-padding"].flatMap(Int.init),
      let count = svg.attributes["data-rows"].flatMap(Int.init),
      let columns = svg.attributes["data-columns"].flatMap(Int.init)
    else { return [] }
    var cells = Array(repeating: Array(repeating: " ", count: columns), count: count)
    for element in all("text") {
      guard let x = element.attributes["x"].flatMap(Int.init), let y = element.attributes["y"].flatMap(Int.init),
        let length = element.attributes["textLength"].flatMap(Int.init)
      else { continue }
      let row = (y - pad) / ch
      var column = (x - pad) / cw
      guard row >= 0, row < count else { continue }
      if element.attributes["direction"] != nil {
        // A line holding right-to-left letters, whole and in logical order over its cells (a
        // right-to-left one anchored at its right edge): one cell a cluster, wide ones two.
        let width = length / cw
        if element.attributes["direction"] == "rtl" { column -= width }
        guard column >= 0, column + width <= columns else { continue }
        for character in element.text {
          let w = max(1, DisplayWidth.of(character))
          cells[row][column] = String(character)
          for i in 1..<w where column + i < columns { cells[row][column + i] = "" }
          column += w
        }
      } else if element.attributes["lengthAdjust"] != nil {
        let width = length / cw
        guard column >= 0, column + width <= columns else { continue }
        cells[row][column] = element.text
        for i in 1..<max(1, width) { cells[row][column + i] = "" }
      } else {
        for character in element.text where column >= 0 && column < columns {
          cells[row][column] = String(character)
          column += 1
        }
      }
    }
    return cells.map { line in
      var text = line.joined()
      while text.hasSuffix(" ") { text.removeLast() }
      return text
    }
  }

  private final class Collector: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    private var open: [Int] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      open.append(elements.count)
      elements.append(Element(name: name, attributes: attributes, text: ""))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      _ = open.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA data: Data) {
      if let index = open.last { elements[index].text += String(decoding: data, as: UTF8.self) }
    }
  }
}

/// An SVG that an XML parser refuses.
package struct PictureReaderError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}
