import Foundation
import UNTermInput

extension SessionConfiguration {
  /// Loads every file the options and `payloads` name, and drops them: a missing or invalid
  /// file is reported (exit 66 or 65, naming it) before anything else can go wrong — the
  /// interactive command checks its files before it asks for a terminal, and `export`, which
  /// draws nothing, still says when a file its options name cannot be used.
  package func checkFiles(payloads: [String]) throws(UNTermError) {
    for file in categoriesFiles { _ = try CategoriesFile.load(file.path) }
    for file in extensionFiles { _ = try ContentExtensionDescriptor.load(file) }
    if !stringsPaths.isEmpty { _ = try AppStrings.load(stringsPaths) }
    if let mediaDirectory { try Self.checkMediaFolder(mediaDirectory, named: "--media-dir") }
    var themes = ThemeCatalog()
    _ = try themes.theme(theme)
    if let logFile {
      let folder = URL(fileURLWithPath: logFile).deletingLastPathComponent().path
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw UNTermError(.noInput, file: logFile, "no such folder \(folder) for the log")
      }
    }
    // Standard input is read once, by the session itself.
    for path in payloads where path != "-" {
      _ = try Payload.load(path, headers: apnsHeaders).request(identifier: "check")
    }
  }

  /// A media folder (`--media-dir`, the script's `media-dir`) must be a folder that exists:
  /// one that is missing would otherwise refuse every attachment as "outside the media folder",
  /// blaming the payload for a mistyped option. Exit 66, naming the folder and what named it.
  package static func checkMediaFolder(_ path: String, named option: String) throws(UNTermError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw UNTermError(.noInput, file: path, "no such folder (\(option))")
    }
    guard isDirectory.boolValue else { throw UNTermError(.noInput, file: path, "not a folder (\(option))") }
  }
}
