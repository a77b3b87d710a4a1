extension Fixtures {
  /// A payload written to break pictures and pages: markup that would run a script or close
  /// the SVG, entities, quotes, terminal escape sequences, bidi overrides and a bell. Shown
  /// literally (controls as the sanitizer's placeholders), it runs nothing; a script that did
  /// run would set `data-pwned` on the document element.
  package static let hostilePayload = #"""
    {"aps":{"alert":{"title":"<script>document.documentElement.setAttribute('data-pwned','1')</script>",
    "subtitle":"\u001b[31mred\u001b[0m \u202eevil\u202c & &amp; \"q\" 'a'",
    "body":"</svg><img src=x onerror=\"document.documentElement.setAttribute('data-pwned','2')\"><![CDATA[ x ]]> \u0007bell"}}}
    """#
}
