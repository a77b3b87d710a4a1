import Foundation
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel

extension DesignSheet {
  /// The sheet as one self-contained HTML page: inline styles and pictures, no scripts, nothing
  /// fetched (its content security policy forbids both).
  package var html: String {
    var body = header + lintSection
    for (number, section) in sections.enumerated() { body += html(section, number: number + 1) }
    body += "<footer>Made by <code>unterm sheet</code>. Each picture is the terminal's cells for that screen.</footer>"
    return HTMLPage.document(title: "UNTerm design sheet", css: Self.css, body: body)
  }

  /// Text from a payload, a category or a file name, made safe for the page: no controls, no
  /// markup.
  private func text(_ value: String) -> String {
    Markup.escape(TerminalText.sanitize(value, multiline: false))
  }

  private func list(_ items: [String]) -> String { items.joined(separator: ", ") }

  private var header: String {
    var lines = "<header><h1>Design sheet</h1><p class=\"meta\">"
    lines += "\(sections.count) payload\(sections.count == 1 ? "" : "s") · "
    lines += list(matrix.devices.map { DeviceProfile.profile($0).displayName }) + " · "
    lines += list(matrix.states.map(\.rawValue)) + " · "
    lines += list(matrix.views.map { $0.title.lowercased() }) + " · "
    lines += "theme\(matrix.themes.count == 1 ? "" : "s") " + text(list(matrix.themes))
    lines += " · \(Markup.escape(ISO8601.format(generated)))</p>"
    var inputs: [String] = []
    if let categories = configuration.categoriesFile { inputs.append("categories <code>\(text(categories))</code>") }
    for file in configuration.extensionFiles { inputs.append("extension <code>\(text(file))</code>") }
    if !inputs.isEmpty { lines += "<p class=\"meta\">\(inputs.joined(separator: " · "))</p>" }
    return lines + index + "</header>"
  }

  private var lintSection: String {
    func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    let errors = count(.error)
    let warnings = count(.warning)
    var out = "<section class=\"lint\"><h2>Lint</h2><p class=\"summary\">"
    out +=
      "\(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(count(.note), "note")) in \(plural(lintedFiles, "file"))"
    out += "</p>"
    if !findings.isEmpty {
      out += "<ul>"
      for finding in findings {
        out +=
          "<li class=\"\(finding.severity.rawValue)\"><span class=\"severity\">\(finding.severity.rawValue)</span> "
        out +=
          "<code>\(text(finding.file)):\(text(finding.pathText))</code> <span class=\"code\">[\(text(finding.code.rawValue))]</span> "
        out += "\(text(finding.message.text))</li>"
      }
      out += "</ul>"
    }
    return out + "</section>"
  }

  private var index: String {
    guard sections.count > 1 else { return "" }
    let links = sections.enumerated().map { number, section in
      "<a href=\"#payload-\(number + 1)\">\(text((section.file as NSString).lastPathComponent))</a>"
    }
    return "<nav>" + links.joined(separator: " · ") + "</nav>"
  }

  private func html(_ section: Section, number: Int) -> String {
    let name = (section.file as NSString).lastPathComponent
    var out = "<section class=\"payload\" id=\"payload-\(number)\"><h2>\(text(name))</h2><p class=\"meta\">"
    out += "<code>\(text(section.file))</code> · "
    out += section.category.isEmpty ? "no category" : "category <code>\(text(section.category))</code>"
    if !section.title.isEmpty { out += " · “\(text(section.title))”" }
    out += "</p>"
    if let reasons = section.notShown {
      out += "<p class=\"note\">Nothing is shown for this payload on any device, lock state or view"
      out += reasons.isEmpty ? ".</p>" : ": " + reasons.map { text($0) }.joined(separator: "; ") + "</p>"
      return out + "</section>"
    }
    var screens = section.screens[...]
    for theme in matrix.themes {
      if matrix.themes.count > 1 { out += "<h3 class=\"theme\">Theme \(text(theme))</h3>" }
      for device in matrix.devices {
        for state in matrix.states {
          let shown = screens.prefix(matrix.views.count)
          screens = screens.dropFirst(matrix.views.count)
          let name = DeviceProfile.profile(device).displayName
          let lock =
            state == .locked ? "Locked" + (configuration.previews == .always ? "" : ", previews hidden") : "Unlocked"
          out += "<div class=\"variant\"><h4>\(name) · \(lock)</h4><div class=\"shots\">"
          // The short screens (banner, list) stack in one column; the expanded view and its
          // numbers stand beside them.
          let short = shown.filter { $0.view != .expanded }
          if !short.isEmpty { out += "<div class=\"stack\">" + short.map { html($0) }.joined() + "</div>" }
          for screen in shown where screen.view == .expanded { out += html(screen) }
          out += "</div></div>"
        }
      }
    }
    return out + "</section>"
  }

  private func html(_ screen: Screen) -> String {
    var out = "<figure class=\"shot \(screen.view.rawValue)\"><figcaption>\(screen.view.title)"
    for label in screen.overflow { out += " <span class=\"over\">\(text(label))</span>" }
    out += "</figcaption>\(screen.picture)</figure>"
    guard let report = screen.report else { return out }
    // The numbers stay beside their picture.
    return "<div class=\"pair\">" + out + html(report, device: screen.device) + "</div>"
  }

  /// A number as the QA report writes it: whole, or to a tenth.
  private func number(_ value: Double) -> String { Projection.describe(points: value) }

  private func pt(_ value: Double) -> String { number(value) + " pt" }

  private func html(_ report: ExpandedReport, device: DeviceProfile) -> String {
    var out = "<aside class=\"qa\"><h5>Content extension</h5>"
    if let m = report.measurement {
      out += "<dl>"
      let ratio = report.initialRatio.map { " (\(number(device.notificationWidth)) × \($0))" } ?? ""
      out += "<dt>Initial height</dt><dd>\(pt(m.initialHeight))\(ratio)</dd>"
      out += "<dt>Preferred height</dt><dd>\(pt(m.preferredHeight))</dd>"
      if m.defaultHeight > 0 { out += "<dt>Default content below it</dt><dd>\(pt(m.defaultHeight))</dd>" }
      out += "<dt>Budget</dt><dd>\(pt(m.budget))</dd>"
      out +=
        m.overflow > 0
        ? "<dt>Overflow</dt><dd class=\"bad\">\(pt(m.overflow)) over</dd>"
        : "<dt>Overflow</dt><dd class=\"good\">none (\(pt(m.budget - m.totalHeight)) to spare)</dd>"
      if m.initialOverflow > 0 {
        out += "<dt>While loading</dt><dd class=\"bad\">\(pt(m.initialOverflow)) over</dd>"
      }
      let cut = m.cut.map { text($0) }
      out +=
        "<dt>Elements cut</dt><dd\(cut.isEmpty ? "" : " class=\"bad\"")>\(cut.isEmpty ? "none" : cut.joined(separator: ", "))</dd>"
      out += "</dl>"
    } else if let note = report.extensionNote {
      out += "<p class=\"note\">\(Markup.escape(note))</p>"
    }
    out += "<h5>Actions and what they send</h5><ul class=\"actions\">"
    func item(key: String, title: String, sends: String, options: [String], destructive: Bool = false) -> String {
      var line =
        "<li><span class=\"key\">\(key)</span><span class=\"title\(destructive ? " destructive" : "")\">\(title)</span> "
      line += "→ \(sends)"
      if !options.isEmpty { line += "<div class=\"options\">\(options.joined(separator: " · "))</div>" }
      return line + "</li>"
    }
    for (i, action) in report.actions.enumerated() {
      var options: [String] = []
      if action.options.contains(.authenticationRequired) { options.append("authenticationRequired") }
      if action.options.contains(.destructive) { options.append("destructive") }
      if action.options.contains(.foreground) { options.append("foreground") }
      var sends = "<code>\(text(action.identifier))</code>"
      if let input = action as? UNTextInputNotificationAction {
        sends += " + userText"
        options.append(
          "text input “\(text(input.textInputButtonTitle))”, placeholder “\(text(input.textInputPlaceholder))”")
      }
      out += item(
        key: i < 9 ? "\(i + 1)" : "0", title: text(action.title), sends: sends, options: options,
        destructive: action.options.contains(.destructive))
    }
    if report.actions.isEmpty {
      out +=
        "<li class=\"muted\">The category lists no actions\(report.category.isEmpty ? "" : " (or is not registered)").</li>"
    }
    for button in report.buttons {
      out += item(
        key: "view", title: text(button.title), sends: "<code>\(text(button.action))</code>",
        options: ["the view's button"])
    }
    out += item(
      key: "⏎", title: "Open", sends: "<code>\(UNNotificationDefaultActionIdentifier)</code>", options: ["a tap"])
    out +=
      report.sendsDismiss
      ? item(
        key: "x", title: "Dismiss", sends: "<code>\(UNNotificationDismissActionIdentifier)</code>",
        options: ["customDismissAction"])
      : item(key: "x", title: "Dismiss", sends: "nothing", options: ["the category has no customDismissAction"])
    return out + "</ul></aside>"
  }

  static let css = """
    :root{color-scheme:light;--ink:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--bad:#d70015;--good:#248a3d;--accent:#0a63d6}
    *{box-sizing:border-box}
    body{margin:0;padding:28px 24px;background:#f5f5f7;color:var(--ink);font:14px/1.45 -apple-system,system-ui,'Segoe UI','Noto Sans',sans-serif;overflow-wrap:anywhere}
    a{color:var(--accent);text-decoration:none}
    header h1{margin:0 0 4px;font-size:28px;letter-spacing:-.02em}
    .meta{margin:2px 0;color:var(--muted)}
    nav{margin:12px 0 0;line-height:1.8}
    code{font:12px 'DejaVu Sans Mono',Menlo,Consolas,monospace}
    section{background:#fff;border-radius:14px;padding:20px;margin:24px 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}
    h2{margin:0 0 2px;font-size:19px}
    h3.theme{margin:22px 0 0;font-size:15px;border-bottom:1px solid var(--line);padding-bottom:4px}
    h4{margin:18px 0 8px;font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.06em}
    h5{margin:0 0 6px;font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.06em}
    .lint ul{list-style:none;margin:8px 0 0;padding:0}
    .lint li{padding:4px 0;border-top:1px solid #f0f0f2}
    .severity{display:inline-block;min-width:64px;font-weight:600;text-transform:uppercase;font-size:11px;letter-spacing:.05em}
    .error .severity{color:var(--bad)} .warning .severity{color:#b25000} .note .severity{color:var(--muted)}
    .lint .code{color:var(--muted)}
    .shots{display:flex;flex-wrap:wrap;gap:18px 20px;align-items:flex-start}
    .stack{display:flex;flex-direction:column;gap:14px;max-width:100%}
    .pair{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;max-width:100%}
    figure{margin:0;max-width:100%}
    figcaption{font-size:12px;font-weight:600;color:var(--muted);margin:0 0 6px}
    figure svg{display:block;max-width:100%;height:auto;border-radius:6px;box-shadow:0 2px 8px rgba(0,0,0,.18)}
    .over{display:inline-block;margin-left:6px;padding:0 7px;border-radius:8px;background:var(--bad);color:#fff;font-weight:600}
    aside.qa{width:300px;max-width:100%;font-size:12.5px;background:#fafafc;border:1px solid var(--line);border-radius:10px;padding:12px 14px;margin-top:24px}
    aside.qa dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 14px}
    aside.qa dt{color:var(--muted)} aside.qa dd{margin:0}
    .bad{color:var(--bad);font-weight:600} .good{color:var(--good)} .muted{color:var(--muted)}
    .note{margin:0 0 14px;color:var(--muted)}
    ul.actions{list-style:none;margin:0;padding:0}
    ul.actions li{padding:4px 0;border-top:1px solid #ececf0}
    ul.actions .key{display:inline-block;min-width:34px;color:var(--muted);font-weight:600}
    ul.actions .title{font-weight:600} ul.actions .destructive{color:var(--bad)}
    ul.actions .options{margin-left:34px;color:var(--muted);font-size:11.5px}
    footer{color:var(--muted);font-size:12px;margin-top:24px}
    """
}
