import Foundation
import UNTermHeadless
import UNTermInput
import UNTermLint
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// `unterm lint`: check payloads against APNs and iOS rules and the registered categories, and
/// review the categories' design.
enum LintCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.lint)
      return .success
    }
    if let code = parsed.lint.explain {
      guard files.isEmpty else { throw arguments.usage("--explain takes one CODE and no PAYLOAD") }
      Console.line(try explain(code, arguments: arguments))
      return .success
    }
    let options = parsed.session
    let format = try parsed.lint.outputFormat(arguments)
    let strict = parsed.lint.strict
    guard
      !files.isEmpty || !options.categoriesFiles.isEmpty || !options.extensionFiles.isEmpty
        || !options.stringsPaths.isEmpty
    else {
      throw arguments.usage("lint needs a PAYLOAD file, --categories FILE, --extension FILE or --strings PATH")
    }
    let (report, missing, count) = check(
      options, files: files, strict: strict, devices: parsed.lint.device.map { [$0] },
      textSizes: parsed.lint.textSizes)
    let paths = ArtifactPaths(workingDirectory: FileManager.default.currentDirectoryPath)
    switch format {
    case .text:
      for line in report.text { Console.line(line) }
    case .json:
      Console.line(report.json)
    case .sarif:
      Console.line(report.sarif(tool: tool, paths: paths))
    case .github:
      for line in report.github(paths: paths) { Console.line(line) }
    case .codeclimate:
      Console.line(report.codeClimate(paths: paths))
    }
    // The totals go to stderr, so stdout holds only findings; JSON and SARIF are read whole by
    // programs, which need no totals.
    if format == .text || format == .github, !report.diagnostics.isEmpty || count > 1 {
      UNTermMain.warn(report.summary(files: count))
    }
    if missing { return .noInput }
    return report.hasErrors ? .failure : .success
  }

  /// The tool a SARIF report names: unterm and its version.
  static var tool: SARIFTool { SARIFTool(name: "unterm", version: UNTermMain.version) }
}

extension LintCommand {
  /// `unterm lint --explain CODE`: the code, its severity, what it means and what to do.
  static func explain(_ name: String, arguments: Arguments) throws(UNTermError) -> SafeText {
    guard let code = LintCode(rawValue: name) else {
      let hint =
        Suggestion.closest(to: name, in: LintCode.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
      throw arguments.usage("unknown lint code '\(name)'.\(hint)")
    }
    return SafeText(
      sanitizing: "\(code.rawValue): \(code.severity.rawValue)\n\(code.summary)\n\n\(code.help)", multiline: true)
  }
}

/// Lets category values travel through a dictionary map without Sendable friction.
struct UNNotificationCategoryBox {
  let category: UNNotificationCategory
  init(_ category: UNNotificationCategory) { self.category = category }
}

/// The files `lint` was given, sorted by what they are.
struct LintInputs {
  var categoriesFiles: [String] = []
  var extensionFiles: [String] = []
  var payloads: [(String, [UInt8])] = []
  var scripts: [(String, [UInt8])] = []
  /// The app's strings: files, `.lproj` folders, folders of them, String Catalogs.
  var stringsPaths: [String] = []

  /// The categories files `--categories [ID=]FILE` names, each for its app.
  var appCategoriesFiles: [AppCategoriesFile] = []
  /// Files named that could not be read (missing, unreadable): they were checked too, and
  /// their finding is in the report, so the totals count them.
  var unreadable = 0

  /// How many categories files there are, named by options or found among the files (one
  /// registered for several apps counts once).
  var categoriesFileCount: Int { Set(appCategoriesFiles.map(\.path) + categoriesFiles).count }

  init(categoriesFiles: [AppCategoriesFile], extensionFiles: [String], stringsPaths: [String] = []) {
    appCategoriesFiles = categoriesFiles
    self.extensionFiles = extensionFiles
    self.stringsPaths = stringsPaths
  }

  var count: Int {
    categoriesFileCount + extensionFiles.count + payloads.count + scripts.count + stringsPaths.count + unreadable
  }

  /// Whether a file named outright is the app's strings: a strings file or a String Catalog.
  /// (In a folder, its `LANG.lproj` folders and `Localizable.xcstrings` are.)
  static func isStrings(_ path: String) -> Bool {
    path.hasSuffix(".strings") || path.hasSuffix(".stringsdict") || path.hasSuffix(".xcstrings")
  }

  /// How deep `lint FOLDER` descends.
  static let folderDepth = 16

  /// Sorts one argument: a folder gives its `.json`, `.apns` and `.session` files and those of
  /// its sub-folders (not hidden ones, nor links to folders, which could loop); a `.plist` is an
  /// extension's Info.plist; a `.session` a script; a JSON file with `categories` and no `aps` a
  /// categories file, one with `NSExtensionAttributes` or `infoPlist` a descriptor; anything
  /// else a payload.
  mutating func classify(_ file: String, onError: (UNTermError) -> Void, depth: Int = 0) {
    var isDirectory: ObjCBool = false
    if file != "-", FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
      // An LANG.lproj folder is the app's strings in one language.
      if file.hasSuffix(".lproj") {
        stringsPaths.append(file)
        return
      }
      // A link to a folder met inside a folder is skipped; a folder named outright is read.
      if depth > 0, (try? FileManager.default.destinationOfSymbolicLink(atPath: file)) != nil { return }
      guard depth < Self.folderDepth else { return }
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: file)) ?? []).sorted()
      var folders: [String] = []
      for name in names where !name.hasPrefix(".") {
        let path = (file as NSString).appendingPathComponent(name)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
          folders.append(path)
        } else if name.hasSuffix(".json") || name.hasSuffix(".apns") || name.hasSuffix(".session") {
          classify(path, onError: onError, depth: depth + 1)
        } else if name == "Localizable.xcstrings" {
          stringsPaths.append(path)
        }
      }
      // A folder's own files first, then its sub-folders.
      for folder in folders { classify(folder, onError: onError, depth: depth + 1) }
      return
    }
    if Self.isStrings(file) {
      stringsPaths.append(file)
      return
    }
    if file.hasSuffix(".plist") {
      extensionFiles.append(file)
      return
    }
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(file)
    } catch {
      unreadable += 1
      onError(error)
      return
    }
    if file.hasSuffix(".session") {
      scripts.append((file, bytes))
      return
    }
    if let root = (try? JSONParser.parse(bytes))?.object, root["aps"] == nil {
      if root["categories"] != nil {
        categoriesFiles.append(file)
        return
      }
      if root["NSExtensionAttributes"] != nil || root["infoPlist"] != nil {
        extensionFiles.append(file)
        return
      }
    }
    payloads.append((file, bytes))
  }
}

/// Checks a payload's local attachment the way the built-in service extension would at
/// delivery: the file exists, stays inside the media folder, has a supported type and size.
enum AttachmentLint {
  /// `images` decodes an image the checks let through, as the session does before it shows it:
  /// one that is corrupt, truncated or too large to decode is dropped there, so it is reported.
  static func check(_ payload: Payload, mediaDirectory: String?, images: (any ImageProvider)? = nil) -> [Diagnostic] {
    guard let (key, value) = payload.attachmentURL, payload.info.mutableContent, payload.file != "-" else { return [] }
    let path = JSONPath([.key(key)])
    let folder = URL(fileURLWithPath: payload.file).deletingLastPathComponent()
    let fileURL: URL
    switch MediaLocation(value, relativeTo: folder) {
    case .remote:
      return [
        Diagnostic(
          file: payload.file, path: path, in: payload.document, code: .remoteAttachment,
          message: "\(key) is downloaded at delivery by the built-in service extension, within the service budget")
      ]
    case .unsupported:
      return [
        Diagnostic(
          file: payload.file, path: path, in: payload.document, code: .attachmentRejected,
          message:
            "\(OneLine.quote(value)) is neither a path, a file: URL nor an http(s) URL; the notification would show without it"
        )
      ]
    case .file(let url):
      fileURL = url
    }
    let checker = UNAttachmentChecker(
      confinedTo: mediaDirectory.map { URL(fileURLWithPath: $0) } ?? folder, widenedBy: "--media-dir")
    do {
      let result = try checker.check(url: fileURL, typeHint: nil)
      var out: [Diagnostic] = []
      if let mislabel = result.mislabel {
        // iOS attaches the file as the type its name or hint gives: the bytes decide nothing.
        let effect =
          result.format.kind == .image
          ? "the card shows it as an unreadable image (▨ image unavailable)"
          : "the system's player would not play it"
        out.append(
          Diagnostic(
            file: payload.file, path: path, in: payload.document, code: .attachmentMislabelled,
            message: "\(mislabel); iOS attaches it as \(result.format.displayName), so \(effect)"))
        return out
      }
      if let validator = images as? any AttachmentValidating,
        let attachment = try? UNNotificationAttachment(identifier: "media", url: fileURL, options: nil),
        let problem = validator.problem(with: attachment)
      {
        out.append(
          Diagnostic(
            file: payload.file, path: path, in: payload.document, code: .attachmentRejected,
            message:
              "\(fileURL.lastPathComponent) cannot be drawn — \(problem); it stays attached and the card shows \"▨ image unavailable\" where it would be"
          ))
      }
      return out
    } catch {
      return [
        Diagnostic(
          file: payload.file, path: path, in: payload.document, code: .attachmentRejected,
          message: "\(error.description); the notification would show without it")
      ]
    }
  }
}

/// The APNs findings that need a clock: a push whose expiration has passed.
enum APNsLint {
  static func expiry(_ payload: Payload, now: Date, fromOptions: Bool) -> [Diagnostic] {
    guard let date = APNsRules.expired(payload.info.headers, at: now) else { return [] }
    let field = APNsHeaders.Field.expiration
    // Where the expiration was given: the option, or the file's apns-headers.
    let location: DiagnosticLocation =
      fromOptions
      ? .file
      : DiagnosticLocation(
        JSONPath([.key(APNsRules.headersKey), .key(field.rawValue)]), in: payload.document, for: .expiredPush)
    let prefix = fromOptions ? "--expiration \(OneLine.quote(payload.info.headers.expiration ?? "")): " : ""
    return [
      Diagnostic(
        file: payload.file, location: location, code: .expiredPush,
        message:
          "\(prefix)the push expired at \(ISO8601.format(date)); APNs discards it and the device never shows it (UNTerm does not deliver it)"
      )
    ]
  }
}
