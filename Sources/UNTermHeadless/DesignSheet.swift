import Foundation
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel

/// `unterm sheet`: every payload across devices, lock states, views and themes, as pictures of
/// the cells the terminal shows, with the content extension's QA numbers and the actions beside
/// each expanded view and the lint findings at the top.
///
/// Each screen comes from its own session, made and driven exactly as `unterm render` drives
/// one (`screen(…)`); the pictures are `CellGrid.svg`, another presenter of the same grid.
package struct DesignSheet {
  /// Which screen of a payload: the views `render` draws.
  package typealias View = ScreenRequest.View

  /// Whether the device is locked (previews hidden, as iOS hides them by default).
  package enum LockState: String, CaseIterable, Sendable {
    case unlocked, locked
  }

  /// The matrix each payload is shown across.
  package struct Matrix: Sendable {
    package var devices: [DeviceProfile.Kind] = DeviceProfile.Kind.allCases
    package var states: [LockState] = LockState.allCases
    package var views: [View] = View.allCases
    package var themes: [String] = ["default"]

    package init() {}

    /// Screens per payload.
    package var count: Int { devices.count * states.count * views.count * themes.count }
  }

  /// One payload's part of the sheet.
  package struct Section {
    package var file: String
    package var category: String
    package var title: String
    package var screens: [Screen]
    /// Why nothing is shown for the payload (the session's notes), when nothing is.
    package var notShown: [String]?
  }

  /// One picture, and what the sheet says beside it.
  package struct Screen {
    package var device: DeviceProfile
    package var state: LockState
    package var view: View
    package var theme: String
    /// The picture (inline SVG).
    package var picture: String
    /// What clipped content the picture marks.
    package var overflow: [String]
    /// The QA numbers and actions, for an expanded view.
    package var report: ExpandedReport?
  }

  /// What an expanded view offers, beside its picture.
  package struct ExpandedReport {
    /// The content extension's numbers, when one is loaded.
    package var measurement: ExtensionMeasurement?
    /// The extension's initial size ratio (for the initial height's formula).
    package var initialRatio: Double?
    /// Why no numbers: no extension serves the category, or it is not loaded.
    package var extensionNote: String?
    package var actions: [UNNotificationAction]
    /// The view's own buttons and the action identifiers they send.
    package var buttons: [(title: String, action: String)]
    /// Whether the category asks for dismiss responses.
    package var sendsDismiss: Bool
    package var category: String
  }

  package var matrix: Matrix
  package var sections: [Section]
  package var findings: [Diagnostic]
  /// How many files lint read.
  package var lintedFiles: Int
  package var configuration: SessionConfiguration
  package var generated: Date
  /// What the picture of a cell looks like.
  package var style = PictureStyle()

  /// The screen every picture is drawn on: the width of a terminal, tall enough for any card.
  package static let screenSize = (width: 80, height: 60)

  /// Renders every payload across the matrix.
  ///
  /// - Throws: `UNTermError` for a payload, categories file, descriptor or theme that cannot
  ///   be loaded (as `render` would).
  package static func make(
    payloads files: [String], configuration: SessionConfiguration, matrix: Matrix, findings: [Diagnostic],
    lintedFiles: Int, now: Date, timeZone: DisplayTimeZone = .system, trace: ((TraceLine) -> Void)? = nil
  ) throws(UNTermError) -> DesignSheet {
    var sheet = DesignSheet(
      matrix: matrix, sections: [], findings: findings, lintedFiles: lintedFiles, configuration: configuration,
      generated: now)
    // Every theme is loaded once up front, so a bad one is reported before any work.
    var themes = ThemeCatalog()
    for theme in matrix.themes { _ = try themes.theme(theme) }
    let categories = try SessionFactory.make(configuration, now: now, timeZone: timeZone).state.store.registry
    for file in files {
      let content = try Payload.load(file, categories: categories, headers: configuration.apnsHeaders).content
      var section = Section(
        file: file, category: content?.categoryIdentifier ?? "",
        title: TerminalText.sanitize(content?.title ?? "", multiline: false), screens: [], notShown: nil)
      screens: for theme in matrix.themes {
        for device in matrix.devices {
          for state in matrix.states {
            var options = configuration
            options.theme = theme
            options.device = device
            options.locked = state == .locked
            for view in matrix.views {
              var request = ScreenRequest(configuration: options, payloads: [file], now: now)
              request.timeZone = timeZone
              request.view = view
              (request.width, request.height) = screenSize
              let session = try screen(request, trace: trace)
              defer { session.detach() }
              // A notification that is not presented (no alert: a background update, a badge)
              // looks the same everywhere: the sheet says why once instead of showing empty
              // screens.
              if session.state.store.deliveredCount == 0 && session.state.banner == nil {
                section.notShown = session.state.notices.map { TerminalText.sanitize($0.text, multiline: false) }
                break screens
              }
              section.screens.append(sheet.picture(of: session, view: view, state: state, theme: theme))
            }
          }
        }
      }
      sheet.sections.append(section)
    }
    return sheet
  }

  /// One screen, made by the pipeline `unterm render` uses (a session from the options, the
  /// payload delivered through its service extension, the screen sized, the view picked), then
  /// made taller when the card would scroll, so the sheet shows it whole.
  static func screen(_ request: ScreenRequest, trace: ((TraceLine) -> Void)?) throws(UNTermError) -> Session {
    let session = try RenderPipeline.session(for: request, trace: trace)
    if let limit = session.renderer.expandedScrollLimit(session.state), limit > 0 {
      session.resize(width: request.width, height: request.height + limit)
    }
    return session
  }

  /// The picture of a session's screen: the device's column, from the top to the last row
  /// drawn on (the status bar and the empty screen below the cards left out).
  private func picture(of session: Session, view: View, state: LockState, theme: String) -> Screen {
    let frame = session.frame()
    let grid = frame.grid
    let area = session.renderer.deviceArea(session.state)
    let left = max(0, area.x - 1)
    let right = min(grid.width, area.maxX + 1)
    // The rows worth showing end with the last thing that can be tapped (and the card border
    // below it), so hints at the foot of an empty screen stay out; a screen with nothing to
    // tap shows everything drawn above the status bar.
    let limit = frame.hits.map { $0.rect.maxY + 1 }.max().map { min($0, grid.height - 1) } ?? (grid.height - 1)
    let screenBackground = session.renderer.theme[.screen].background
    var first: Int?
    var last = 0
    for y in 0..<max(0, limit) {
      var ink = false
      for x in left..<right {
        let cell = grid[x, y]
        if (!cell.isContinuation && cell.text != " ") || cell.style.background != screenBackground {
          ink = true
          break
        }
      }
      if ink {
        if first == nil { first = y }
        last = y
      }
    }
    let top = first ?? 0
    let region = Rect(x: left, y: top, width: right - left, height: last - top + 1)
    let marks = frame.overflowMarks.map {
      PictureMark(cells: Rect(x: $0.card.x, y: $0.row, width: $0.card.width, height: 1), label: $0.label)
    }
    let device = session.state.device
    let title = "\(device.displayName) · \(state.rawValue) · \(view.title.lowercased()) · theme \(theme)"
    let svg = grid.svg(
      region: region, style: style, marks: marks, bidiSpans: frame.bidiSpans, title: title,
      attributes: [
        ("class", "screen"), ("data-device", device.kind.rawValue), ("data-state", state.rawValue),
        ("data-view", view.rawValue), ("data-theme", theme),
      ], standalone: false)
    return Screen(
      device: device, state: state, view: view, theme: theme, picture: svg, overflow: marks.map(\.label),
      report: view == .expanded ? report(session) : nil)
  }

  /// The QA numbers and actions of the expanded view on screen.
  private func report(_ session: Session) -> ExpandedReport? {
    let state = session.state
    if case .expand(let id)? = state.passcodePrompt?.intent, let notification = state.store.delivered(id) {
      // Locked with previews hidden, iOS asks for the passcode before it shows the expanded
      // view: the picture is the prompt, and the actions are what the view offers after.
      let category = state.category(of: notification)
      return ExpandedReport(
        measurement: nil, initialRatio: nil,
        extensionNote:
          "Locked with previews hidden, iOS asks for the passcode first. The content extension is not loaded while previews are hidden (it would reveal the content).",
        actions: Array((category?.actions ?? []).prefix(10)), buttons: [],
        sendsDismiss: category?.options.contains(.customDismissAction) ?? false,
        category: notification.request.content.categoryIdentifier)
    }
    guard let expanded = state.expandedOrReturning else { return nil }
    let notification = expanded.notification
    let category = state.category(of: notification)
    var report = ExpandedReport(
      measurement: nil, initialRatio: nil, extensionNote: nil, actions: state.actions(for: expanded), buttons: [],
      sendsDismiss: category?.options.contains(.customDismissAction) ?? false,
      category: notification.request.content.categoryIdentifier)
    if let view = expanded.extensionView {
      report.measurement = ExtensionQA.measure(
        view, for: notification, device: state.device, textSize: state.textSize, images: session.renderer.images,
        text: state.text(of: notification))
      report.initialRatio = view.attributes.initialContentSizeRatio
      report.buttons = view.buttons
    } else if state.extensionAttributes(for: notification) != nil {
      report.extensionNote =
        state.arePreviewsHidden
        ? "The content extension is not loaded while previews are hidden (it would reveal the content)."
        : "The content extension did not load."
    } else {
      report.extensionNote =
        report.category.isEmpty
        ? "No category, so no content extension: the system's expanded view."
        : "No content extension serves this category: the system's expanded view."
    }
    return report
  }
}

extension ScreenRequest.View {
  /// A view by name; `list` is another name for `center`.
  package static func named(_ name: String) -> Self? {
    name == "list" ? .center : Self(rawValue: name)
  }

  /// The view's name on the sheet.
  package var title: String {
    switch self {
    case .banner: return "Banner"
    case .expanded: return "Expanded"
    case .center: return "List"
    }
  }
}
