/// Finds control characters and bidi embeddings, overrides and isolates in a payload's alert
/// text (`control-characters`): invisible on a device, and an override can make text read as
/// something else. Line breaks and tabs, and the left-to-right / right-to-left marks that
/// right-to-left text uses every day, are not reported.
package enum AlertTextLint {
  /// The alert's text fields, and the arrays whose values are shown in text.
  private static let textKeys = [
    "title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key", "summary-arg",
  ]
  private static let arrayKeys = ["title-loc-args", "subtitle-loc-args", "loc-args"]

  package static func check(_ payload: Payload) -> [Diagnostic] {
    guard let aps = payload.document?.object?["aps"]?.object, let alert = aps["alert"] else { return [] }
    let alertPath = JSONPath([.key("aps"), .key("alert")])
    var texts: [(JSONPath, String)] = []
    if let text = alert.string {
      texts.append((alertPath, text))
    } else if let object = alert.object {
      for key in textKeys {
        if let text = object[key]?.string { texts.append((alertPath.appending(key), text)) }
      }
      for key in arrayKeys {
        for (i, item) in (object[key]?.array ?? []).enumerated() {
          if let text = item.string { texts.append((alertPath.appending(key).appending(i), text)) }
        }
      }
    }
    return texts.compactMap { path, text in
      let found = findings(in: text)
      guard !found.isEmpty else { return nil }
      let names = found.prefix(4).map { "\($0.name) at character \($0.offset + 1)" }.joined(separator: ", ")
      let more = found.count > 4 ? " and \(found.count - 4) more" : ""
      let bidi =
        found.contains { !$0.name.hasPrefix("control") }
        ? ", and a bidi override or isolate can make the text read differently from what it says" : ""
      return Diagnostic(
        file: payload.file, path: path, in: payload.document, code: .controlCharacters,
        message: "the text holds \(names)\(more); a device shows nothing there\(bidi)")
    }
  }

  /// The reported characters of a text: each one's name and where it is (in scalars).
  package static func findings(in text: String) -> [(name: String, offset: Int)] {
    var out: [(String, Int)] = []
    let scalars = Array(text.unicodeScalars)
    for (i, scalar) in scalars.enumerated() {
      let v = scalar.value
      let hex = "U+" + String(v, radix: 16, uppercase: true).leftPadded(to: 4)
      switch v {
      case 0x0A, 0x09: continue
      case 0x0D where i + 1 < scalars.count && scalars[i + 1] == "\n": continue
      case 0x00..<0x20, 0x7F...0x9F: out.append(("control character \(hex)", i))
      default:
        if let name = bidiNames[v] { out.append(("\(hex) \(name)", i)) }
      }
    }
    return out
  }

  /// The bidi controls reported: embeddings, overrides and isolates (not the marks).
  private static let bidiNames: [UInt32: String] = [
    0x202A: "LRE (left-to-right embedding)", 0x202B: "RLE (right-to-left embedding)",
    0x202C: "PDF (pop directional formatting)", 0x202D: "LRO (left-to-right override)",
    0x202E: "RLO (right-to-left override)", 0x2066: "LRI (left-to-right isolate)",
    0x2067: "RLI (right-to-left isolate)", 0x2068: "FSI (first-strong isolate)",
    0x2069: "PDI (pop directional isolate)",
  ]
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
