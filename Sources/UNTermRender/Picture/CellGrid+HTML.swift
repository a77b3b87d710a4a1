extension CellGrid {
  /// The cells as a self-contained HTML page: the SVG picture inline, nothing fetched.
  ///
  /// The page holds the same picture as `svg(…)`: only SVG can hold a glyph to a cell width
  /// (`textLength`), which is what keeps borders in place whatever fonts the browser has. A
  /// content security policy forbids scripts and every fetch, so even a mistake in escaping
  /// could not run anything.
  package func html(style: PictureStyle = PictureStyle(), bidiSpans: [BidiSpan] = [], title: String) -> String {
    HTMLPage.document(
      title: title,
      css: "body{margin:0;padding:24px;background:#2b2d31}svg{display:block;max-width:100%;height:auto}",
      body: svg(style: style, bidiSpans: bidiSpans, title: title, standalone: false))
  }
}

/// The frame of a self-contained HTML page.
package enum HTMLPage {
  /// Forbids scripts, fetches and frames: the page shows only what it holds.
  package static let contentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

  /// A page with a title, a style sheet and a body (already markup).
  package static func document(title: String, css: String, body: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="unterm">
    <title>\(Markup.escape(title))</title>
    <style>\(css)</style>
    </head>
    <body>
    \(body)
    </body>
    </html>

    """
  }
}
