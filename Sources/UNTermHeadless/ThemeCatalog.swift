import Foundation
import UNTermInput
import UNTermRender

/// The themes a session can use: the files in `Themes/`, by name, or a theme file.
package struct ThemeCatalog {
  /// Theme names in cycling order.
  package private(set) var names: [String]
  private var loaded: [String: Theme] = [:]
  private let directory: URL?

  package init(directory: URL? = Resources.themes) {
    self.directory = directory
    var found: [String] = []
    if let directory,
      let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    {
      found = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
    let preferred = ["default", "dark", "high-contrast", "monochrome"]
    names = preferred.filter { found.contains($0) } + found.filter { !preferred.contains($0) }
    if names.isEmpty { names = ["default"] }
  }

  /// Loads a theme by name (from `Themes/`) or by path (anything with a `/` or ending `.json`).
  package mutating func theme(_ nameOrPath: String) throws(UNTermError) -> Theme {
    if let theme = loaded[nameOrPath] { return theme }
    let theme: Theme
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
      theme = try ThemeLoader.load(path: nameOrPath)
    } else if let directory, names.contains(nameOrPath) {
      theme = try ThemeLoader.load(path: directory.appendingPathComponent(nameOrPath + ".json").path)
    } else if nameOrPath == "default" {
      theme = BuiltInTheme.fallback
    } else {
      throw UNTermError(
        .noInput, file: nameOrPath,
        "no such theme; available: \(names.joined(separator: ", ")), or a path to a theme file")
    }
    loaded[nameOrPath] = theme
    return theme
  }

  /// The file a theme is read from: the path itself, or `Themes/NAME.json`; `nil` for the
  /// built-in default.
  package func file(for nameOrPath: String) -> String? {
    if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") { return nameOrPath }
    guard let directory, names.contains(nameOrPath) else { return nil }
    return directory.appendingPathComponent(nameOrPath + ".json").path
  }

  /// Reads a theme's file again (the live preview); the copy kept so far is replaced only when
  /// the file loads.
  package mutating func reload(_ nameOrPath: String) throws(UNTermError) -> Theme {
    let kept = loaded.removeValue(forKey: nameOrPath)
    do {
      return try theme(nameOrPath)
    } catch {
      loaded[nameOrPath] = kept
      throw error
    }
  }
}

/// The default theme compiled in, used when `Themes/` cannot be found.
package enum BuiltInTheme {
  package static let fallback = Theme(
    name: "default",
    styles: [
      .screen: Style(), .card: Style(), .cardBorder: Style(foreground: .ansi(8)),
      .title: Style(attributes: .bold), .body: Style(), .secondary: Style(foreground: .ansi(8)),
      .appName: Style(foreground: .ansi(8), attributes: .bold), .time: Style(foreground: .ansi(8)),
      .accent: Style(foreground: .ansi(12)), .destructive: Style(foreground: .ansi(9)),
      .actionSelected: Style(attributes: .reverse), .statusBar: Style(attributes: .reverse),
      .statusKey: Style(attributes: [.reverse, .bold]), .badge: Style(foreground: .ansi(15), background: .ansi(1)),
      .overflow: Style(foreground: .ansi(11)), .error: Style(foreground: .ansi(9)),
      .warning: Style(foreground: .ansi(11)),
    ])
}
