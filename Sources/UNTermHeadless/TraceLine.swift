import UNTermInput

/// One step of the service-extension pipeline, for `--trace` and the activity pane: what
/// happened, and apart from it how long it took in real time.
///
/// Written like a string (`trace("\(id): attached PNG")`); the timing is a field of its own,
/// so the deterministic text reaches the screen and the timing only `--trace`.
package struct TraceLine: Hashable, Sendable, ExpressibleByStringInterpolation {
  /// What happened; the same on every run, so the activity pane shows it.
  package var text: String
  /// Real-time timing, such as `after 12 ms`; printed by `--trace`, never drawn.
  package var timing: String?

  package init(_ text: String, timing: String? = nil) {
    self.text = text
    self.timing = timing
  }

  package init(stringLiteral text: String) { self.init(text) }

  /// The line `--trace` prints: the text, then the timing; sanitized, as the text names
  /// payloads, URLs and files.
  package var printed: SafeText { timing.map { "\(text) \($0)" } ?? "\(text)" }
}
