import Foundation
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel

/// The live preview (`--watch`): files re-read while the session runs. Each reload is an event
/// (`Event.reload`) that replaces what was loaded in place, so the screen's state survives; a
/// file that does not load throws, and what was loaded before stays.
extension Session {
  /// Registers a scope's categories files' categories again (the default app's unless the
  /// scope says otherwise).
  package func reloadCategories(from files: [String], for scope: CategoryScope = .defaultApp) throws(UNTermError) {
    let loaded = try CategoriesFile.loadMerged(files)
    send(.reload(.categories(loaded, scope: scope)))
  }

  /// What a script's `categories [ID=]FILE` does: the file's categories replace those the app
  /// registered. A bare FILE is the session's own app's when a bundle was named (`--bundle`,
  /// the script's `bundle`), as `setNotificationCategories`; else it serves every app that has
  /// none of its own. `resolve` turns the file into a path.
  package func categoriesEvent(_ argument: String, resolve: (String) -> String) throws(UNTermError) -> Event {
    let scoped = AppScoped.parse(argument) ?? AppScoped(app: nil, value: argument)
    let categories = try CategoriesFile.load(resolve(scoped.value)).categories
    switch SessionConfiguration.scope(ofCategoriesFor: scoped.app, bundleNamed: state.isBundleNamed) {
    case .app(let app) where app == state.store.defaultApp: return .center(.setCategories(categories))
    case .defaultApp: return .center(.setCategories(categories))
    case let scope: return .reload(.categories(categories, scope: scope))
    }
  }

  /// Reads every content-extension descriptor again (and the Info.plists they name); an open
  /// custom view is loaded again. All of them load, or none is taken.
  package func reloadExtensions(from files: [String]) throws(UNTermError) {
    var descriptors: [ContentExtensionDescriptor] = []
    for file in files { descriptors.append(try ContentExtensionDescriptor.load(file).0) }
    try extensions.replaceDescriptors(descriptors)
    send(.reload(.extensions(extensions.attributesByCategory)))
  }

  /// Reads the app's strings (`--strings`) again; what is on screen follows, as it follows a
  /// change of language.
  package func reloadStrings() throws(UNTermError) {
    try useStrings(configuration.stringsPaths)
  }

  /// Reads a theme's file again; the screen takes it when it is the theme drawn now (`t` may
  /// have moved on; the theme is new when `t` comes back to it).
  package func reloadTheme(_ nameOrPath: String) throws(UNTermError) {
    var catalog = themes ?? ThemeCatalog()
    defer { themes = catalog }
    let theme = try catalog.reload(nameOrPath)
    if state.themeName == nameOrPath {
      renderer.theme = theme
      send(.themeApplied(nameOrPath, announce: false))
    }
  }

  /// Delivers a payload again under the identifier it had: the notification of that identifier
  /// takes the new content where it stands (through the service extension first, as a push
  /// would). One no longer shown (answered, cleared) is delivered anew.
  package func redeliver(_ payload: Payload, as identifier: String) throws(UNTermError) {
    _ = try payload.request(identifier: identifier)
    replacing.insert(identifier)
    do {
      try push(payload, identifier: identifier)
    } catch {
      replacing.remove(identifier)
      throw error
    }
  }

  /// Puts a re-delivered request in place of the notification it replaces; false when the
  /// request is not one being re-delivered, or nothing with its identifier is shown.
  func replaceInPlace(_ request: UNNotificationRequest) -> Bool {
    guard replacing.remove(request.identifier) != nil else { return false }
    return send(.reload(.request(request))).failure == nil
  }

  /// Says in the activity pane that a file could not be reloaded, until it is.
  package func reportReloadFailure(of file: String, _ error: UNTermError, revealsContent: Bool) {
    // FILE:LINE:COL, and the JSON path after the message, as the error's one line has them.
    let named = error.file ?? file
    let place = error.location.map { "\(named):\($0.position.line):\($0.position.column)" } ?? named
    let path = error.location.flatMap { $0.path.components.isEmpty ? nil : " [\(OneLine.flatten($0.pathText))]" } ?? ""
    send(
      .reload(
        .failed(
          CenterState.FileProblem(
            file: file, place: place, message: error.message.oneLine.text + path, revealsContent: revealsContent))))
  }
}

extension SessionConfiguration {
  /// Every file the options and `payloads` name, for `--watch`: the categories file, each
  /// descriptor and the Info.plist it names, the file of the theme `--theme` names, the app's
  /// strings (`--strings`: files, and folders whole), and the payloads (standard input is not a file to watch).
  package func watchedFiles(payloads: [String]) -> [String] {
    var files: [String] = []
    func add(_ file: String?) {
      if let file, file != "-", !files.contains(file) { files.append(file) }
    }
    for file in categoriesFiles { add(file.path) }
    for file in extensionFiles {
      add(file)
      add(ContentExtensionDescriptor.infoPlistFile(ofDescriptor: file))
    }
    // The theme's file when one is named (the built-in default is not a file on the command line).
    if theme != SessionConfiguration().theme { add(ThemeCatalog().file(for: theme)) }
    for path in AppStrings.watchedPaths(stringsPaths) { add(path) }
    for file in payloads { add(file) }
    return files
  }
}
