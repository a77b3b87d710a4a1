import Foundation
import Testing
import UNTermMedia
import UNTermTestSupport

@testable import UNTermRender

/// The pictures as a browser draws them (headless Chromium): a script in the page measures its
/// own geometry — where each character landed, where each row's right border is, how wide the
/// page is — and the tests compare that with the terminal's screen. Screenshots show the theme's
/// colours as the browser painted them.
///
/// One browser at a time (`.serialized`): each is heavy, and the other suites' timings share the
/// machine.
@Suite("Pictures in a browser", .enabled(if: Chromium.isAvailable, Chromium.missing), .serialized, .hangGuard)
struct BrowserTests {
  private let now = ["--now", "2026-11-29T20:00:00Z"]
  private var categories: [String] { Fixtures.sampleCategoriesArguments }

  private func unterm(_ arguments: [String]) throws -> String {
    let result = try Fixtures.run(Fixtures.unterm, arguments)
    guard result.status == 0 else { throw BrowserError(message: "unterm \(arguments): \(result.stderr)") }
    return result.stdout
  }

  /// What the page's script found.
  struct Measurement: Decodable {
    var scrollWidth: Double
    var innerWidth: Double
    var pwned: String?
    var scripts: Int
    var names: [String]
    var pictures: [Picture]
  }

  struct Picture: Decodable {
    var section: String?
    var device: String?
    var state: String?
    var view: String?
    var theme: String?
    var column: Int
    var row: Int
    var columns: Int
    var left: Double
    var right: Double
    var rows: [String]
    /// The right edge (page pixels) of the rightmost box-drawing character on each row.
    var borders: [Border?]
    var fills: [String]
  }

  struct Border: Decodable {
    var x: Double
    var column: Int
  }

  /// Opens a copy of a page or SVG with the measuring script added and reads its findings.
  private func measure(_ file: URL, window: (Int, Int) = (1400, 900)) throws -> Measurement {
    var text = try String(contentsOf: file, encoding: .utf8)
    let copy = file.deletingPathExtension().appendingPathExtension("measured." + file.pathExtension)
    if file.pathExtension == "svg" {
      guard let end = text.range(of: "</svg>", options: .backwards) else {
        throw BrowserError(message: "no </svg>")
      }
      text.replaceSubrange(end, with: "<script><![CDATA[\(Self.script)]]></script></svg>")
    } else {
      // The page forbids scripts; the copy lets the measuring script (and so would let a
      // payload's, had one got through) run.
      text = text.replacingOccurrences(of: HTMLPage.contentSecurityPolicy, with: "script-src 'unsafe-inline'")
      guard let end = text.range(of: "</body>", options: .backwards) else {
        throw BrowserError(message: "no </body>")
      }
      text.replaceSubrange(end, with: "<script>\(Self.script)</script></body>")
    }
    try Data(text.utf8).write(to: copy)
    let dom = try Chromium.dumpDOM(copy, window: window)
    guard let start = dom.range(of: "id=\"unterm-result\">"),
      let end = dom.range(of: "<", range: start.upperBound..<dom.endIndex),
      let json = Data(base64Encoded: String(dom[start.upperBound..<end.lowerBound]))
    else {
      throw BrowserError(message: "the measuring script left no result in \(copy.path)")
    }
    return try JSONDecoder().decode(Measurement.self, from: json)
  }

  /// The measuring script: for each picture, the character at each cell as the browser placed
  /// it (from `getExtentOfChar` and `getBBox`), each row's rightmost box-drawing character's
  /// right edge on the page, and the colours painted; for the page, its width, the elements it
  /// holds and whether a payload's script ran. The result goes into the DOM, base64 encoded.
  static let script = """
    (function () {
      var NS = 'http://www.w3.org/2000/svg';
      var doc = document.documentElement;
      var out = { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, pwned: doc.getAttribute('data-pwned'),
        scripts: document.getElementsByTagName('script').length, names: [], pictures: [] };
      var all = document.getElementsByTagName('*'), seen = {};
      for (var i = 0; i < all.length; i++) seen[all[i].localName] = true;
      out.names = Object.keys(seen).sort();
      var svgs = document.getElementsByTagNameNS(NS, 'svg');
      for (var i = 0; i < svgs.length; i++) {
        var svg = svgs[i];
        if (!svg.hasAttribute('data-cell-width')) continue;
        var cw = +svg.getAttribute('data-cell-width'), ch = +svg.getAttribute('data-cell-height');
        var pad = +svg.getAttribute('data-padding');
        var nrows = +svg.getAttribute('data-rows'), ncols = +svg.getAttribute('data-columns');
        var box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
        var cells = [], borders = [], fills = {};
        for (var r = 0; r < nrows; r++) {
          var row = [];
          for (var c = 0; c < ncols; c++) row.push(' ');
          cells.push(row);
          borders.push(null);
        }
        var texts = svg.getElementsByTagNameNS(NS, 'text');
        for (var t = 0; t < texts.length; t++) {
          var el = texts[t], s = el.textContent, n = el.getNumberOfChars();
          if (n == 0) continue;
          fills[getComputedStyle(el).fill] = true;
          var first = el.getExtentOfChar(0);
          var r = Math.floor((first.y + first.height / 2 - pad) / ch);
          if (r < 0 || r >= nrows) continue;
          if (el.hasAttribute('lengthAdjust')) {
            // A lone cluster: the cells its characters span (right-to-left ones included).
            var lo = Infinity, hi = -Infinity;
            for (var k = 0; k < n; k++) {
              var e = el.getExtentOfChar(k);
              lo = Math.min(lo, e.x);
              hi = Math.max(hi, e.x + e.width);
            }
            var c = Math.round((lo - pad) / cw), w = Math.max(1, Math.round((hi - lo) / cw));
            if (c >= 0 && c + w <= ncols) {
              cells[r][c] = s;
              for (var k = 1; k < w; k++) cells[r][c + k] = '';
            }
            continue;
          }
          for (var k = 0; k < n; k++) {
            var e = el.getExtentOfChar(k), c = Math.round((e.x - pad) / cw), code = s.charCodeAt(k);
            if (c >= 0 && c < ncols) cells[r][c] = s.charAt(k);
            if (code >= 0x2500 && code <= 0x257F) {
              var right = box.left + (e.x + e.width) * scale;
              if (borders[r] === null || right > borders[r].x) borders[r] = { x: right, column: c };
            }
          }
        }
        var rects = svg.getElementsByTagNameNS(NS, 'rect');
        for (var q = 0; q < rects.length; q++) fills[getComputedStyle(rects[q]).fill] = true;
        var section = svg.closest ? svg.closest('section') : null;
        out.pictures.push({ section: section ? section.id : null, device: svg.getAttribute('data-device'),
          state: svg.getAttribute('data-state'), view: svg.getAttribute('data-view'),
          theme: svg.getAttribute('data-theme'), column: +svg.getAttribute('data-column'),
          row: +svg.getAttribute('data-row'), columns: ncols, left: box.left, right: box.right,
          rows: cells.map(function (row) { return row.join('').replace(/ +$/, ''); }),
          borders: borders, fills: Object.keys(fills).sort() });
      }
      var holder = doc.namespaceURI == NS ? document.createElementNS(NS, 'desc') : document.createElement('pre');
      holder.setAttribute('id', 'unterm-result');
      holder.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
      (document.body || doc).appendChild(holder);
    })();
    """

  /// The cells of a text line from `column`, `width` wide, trailing spaces dropped.
  private func crop(_ line: String, column: Int, width: Int) -> String {
    var out = ""
    var x = 0
    for character in line {
      let w = DisplayWidth.of(character)
      if x >= column && x + w <= column + width { out.append(character) }
      x += max(w, 0)
    }
    while out.hasSuffix(" ") { out.removeLast() }
    return out
  }

  /// Every row with a box-drawing character has its rightmost one ending at the same x.
  private func expectBordersAligned(_ picture: Picture, _ label: String, ignoringLastRow: Bool = false) {
    let rows = ignoringLastRow ? Array(picture.borders.dropLast()) : picture.borders
    let borders = rows.compactMap { $0 }
    #expect(!borders.isEmpty, "\(label): no borders")
    let xs = borders.map(\.x)
    guard let low = xs.min(), let high = xs.max() else { return }
    #expect(high - low <= 1, "\(label): right borders from \(low) to \(high) px")
    #expect(Set(borders.map(\.column)).count == 1, "\(label): border columns \(Set(borders.map(\.column)))")
  }

  private func writePayload(_ text: String, named name: String) throws -> String {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func theSheetKeepsEveryCardsBordersInTheirColumns() throws {
    let hostile = try writePayload(Fixtures.hostilePayload, named: "hostile.json")
    let samples = ["message-bengali.json", "message-urdu.json", "cjk-emoji.json"].map(Fixtures.sample)
    let payloads = samples + [hostile, Fixtures.sample("media-episode.json")]
    let dir = try Fixtures.temporaryDirectory()
    let sheet = dir.appendingPathComponent("sheet.html")
    let session = categories + ["--extension", Fixtures.sample("extension-media-card.json")]
    _ = try unterm(["sheet", "--out", sheet.path, "--themes", "default,dark"] + now + session + payloads)

    let page = try measure(sheet)
    // 5 payloads × 2 themes × 2 devices × 2 states × 3 views.
    #expect(page.pictures.count == 120)
    #expect(page.scrollWidth <= page.innerWidth, "the page is \(page.scrollWidth) px wide in \(page.innerWidth)")
    for picture in page.pictures {
      let label =
        "\(picture.section ?? "?") \(picture.theme ?? "") \(picture.device ?? "") \(picture.state ?? "") \(picture.view ?? "")"
      expectBordersAligned(picture, label)
      #expect(picture.right <= page.innerWidth, "\(label) sticks out")
    }
    // Each picture shows the terminal's cells: the same screen from `render`, cropped to the
    // picture's columns and rows.
    for (number, payload) in payloads.prefix(4).enumerated() {
      for picture in page.pictures where picture.section == "payload-\(number + 1)" {
        guard let device = picture.device, let state = picture.state, let view = picture.view, let theme = picture.theme
        else { continue }
        var args = [
          "render", "--format", "text", "--size", "80x60", "--device", device, "--view", view, "--theme", theme,
        ]
        if state == "locked" { args.append("--locked") }
        let lines = try unterm(args + now + session + [payload]).split(
          separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        let expected = lines[picture.row..<(picture.row + picture.rows.count)].map {
          crop($0, column: picture.column, width: picture.columns)
        }
        #expect(picture.rows == Array(expected), "\(payload) \(device) \(state) \(view) \(theme)")
      }
    }
    // The hostile payload shows as text and runs nothing.
    let hostileRows = page.pictures.filter { $0.section == "payload-4" }.flatMap(\.rows)
    #expect(hostileRows.contains { $0.contains("<script>document.documentElement.setAttr") })
    #expect(hostileRows.contains { $0.contains("␛[31mred␛[0m ‹RLO›evil‹PDF› & &amp;") })
    #expect(hostileRows.contains { $0.contains("</svg><img src=x") })
    #expect(page.pwned == nil)
    #expect(page.scripts == 1)
    #expect(!page.names.contains("img"))
    #expect(Set(page.names).isSubset(of: Self.sheetElements), "\(Set(page.names).subtracting(Self.sheetElements))")
    // Two themes, two pictures: every screen's colours differ between default and dark.
    let byTheme = Dictionary(grouping: page.pictures) {
      "\($0.section ?? "") \($0.device ?? "") \($0.state ?? "") \($0.view ?? "")"
    }
    #expect(byTheme.count == 60)
    for (key, pair) in byTheme {
      #expect(pair.count == 2 && pair[0].fills != pair[1].fills, "\(key)")
    }
    // A narrow window wraps the pictures and scales the widest down: still nothing sticks out.
    let narrow = try measure(sheet, window: (520, 900))
    #expect(narrow.scrollWidth <= narrow.innerWidth)
    for picture in narrow.pictures.prefix(24) { expectBordersAligned(picture, "narrow \(picture.view ?? "")") }

    let png = dir.appendingPathComponent("sheet.png")
    try Chromium.screenshot(sheet, to: png, window: (1500, 2400))
    let image = try decode(png)
    #expect(image.width == 1500 && image.height == 2400)
  }

  /// The elements a sheet is made of (and the measuring script with its result).
  static let sheetElements: Set<String> = [
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "h5", "p", "code", "nav", "a",
    "section", "ul", "li", "span", "div", "figure", "figcaption", "svg", "rect", "text", "aside", "dl", "dt", "dd",
    "footer", "script", "pre",
  ]

  @Test(arguments: [
    ("message-bengali.json", "expanded"), ("message-urdu.json", "expanded"), ("cjk-emoji.json", "banner"),
    ("hostile", "banner"),
  ])
  func anSVGFileKeepsItsCellsInTheirColumns(_ sample: String, _ view: String) throws {
    let payload =
      sample == "hostile" ? try writePayload(Fixtures.hostilePayload, named: "hostile.json") : Fixtures.sample(sample)
    let base = ["render", "--view", view] + now + categories + [payload]
    let svg = try Fixtures.temporaryDirectory().appendingPathComponent("screen.svg")
    try Data(try unterm(base + ["--format", "svg"]).utf8).write(to: svg)
    let page = try measure(svg, window: (700, 420))
    let picture = try #require(page.pictures.first)
    // The status bar's separator is not a card border.
    expectBordersAligned(picture, "\(sample) \(view)", ignoringLastRow: true)
    let text = try unterm(base + ["--format", "text"]).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    #expect(picture.rows == Array(text.dropLast()), "\(sample) \(view)")
    #expect(page.pwned == nil)
    #expect(page.scripts == 1)
    #expect(Set(page.names) == ["svg", "title", "style", "rect", "text", "script"])
  }

  private func decode(_ png: URL) throws -> DecodedImage {
    let bytes = [UInt8](try Data(contentsOf: png))
    let header = try MediaDecoder.probe(bytes)
    return try MediaDecoder.decode(
      bytes, limits: .standard, size: (header.width, header.height), background: (r: 0, g: 0, b: 0))
  }

  @Test func twoThemesGiveDifferentPicturesInTheirOwnColours() throws {
    let dir = try Fixtures.temporaryDirectory()
    var images: [String: DecodedImage] = [:]
    for theme in ["default", "dark"] {
      let svg = dir.appendingPathComponent("\(theme).svg")
      let png = dir.appendingPathComponent("\(theme).png")
      try Data(
        try unterm(
          ["render", "--format", "svg", "--size", "60x12", "--theme", theme] + now + categories + [
            Fixtures.sample("message.json")
          ]
        ).utf8
      ).write(to: svg)
      try Chromium.screenshot(svg, to: png, window: (496, 208))
      images[theme] = try decode(png)
    }
    let light = try #require(images["default"])
    let dark = try #require(images["dark"])
    #expect(light.width == dark.width && light.height == dark.height)
    // A blank cell inside the card (column 20 of the header row), in the middle of its pixels:
    // the terminal's own background under the default theme, the dark theme's card colour.
    let (x, y) = (8 + 20 * 8 + 4, 8 + 1 * 16 + 8)
    #expect(light.pixel(x: x, y: y) == (0x16, 0x18, 0x1D))
    #expect(dark.pixel(x: x, y: y) == (0x1C, 0x1C, 0x1E))
    var differing = 0
    for py in 0..<light.height {
      for px in 0..<light.width where light.pixel(x: px, y: py) != dark.pixel(x: px, y: py) { differing += 1 }
    }
    #expect(differing * 4 > light.width * light.height, "only \(differing) pixels differ")
  }
}
