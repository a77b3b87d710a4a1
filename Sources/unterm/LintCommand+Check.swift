import Foundation
import UNTermHeadless
import UNTermInput
import UNTermLint
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension LintCommand {
  /// Checks files as `unterm lint` does (the design sheet shows the same findings): the report,
  /// whether a file was missing, and how many files were read. `devices` limits the extension
  /// QA to those devices (all when nil).
  ///
  /// `now` is when an `apns-expiration` is compared with: the real time unless a test says.
  static func check(
    _ options: SessionConfiguration, files: [String], strict: Bool, devices: Set<DeviceProfile.Kind>?,
    textSizes: [DynamicTypeSize]? = nil, now: Date = Date()
  ) -> (report: LintReport, missing: Bool, count: Int) {
    var findings = LintFindings()
    // What each file is: payloads, and the categories files, extension descriptors and scripts
    // found among them (so `unterm lint SamplePayloads/` checks a whole folder).
    var inputs = LintInputs(
      categoriesFiles: options.categoriesFiles, extensionFiles: options.extensionFiles,
      stringsPaths: options.stringsPaths
    )
    for file in files { inputs.classify(file, onError: { findings.note($0) }) }
    if let folder = options.mediaDirectory {
      do throws(UNTermError) {
        try SessionConfiguration.checkMediaFolder(folder, named: "--media-dir")
      } catch {
        findings.note(error)
      }
    }
    let strings = loadStrings(inputs.stringsPaths, into: &findings)
    let categories = loadCategories(inputs, options, into: &findings)
    let payloads = checkPayloads(
      inputs.payloads, registry: categories.registry, strings: strings, options: options, now: now, into: &findings)
    checkScripts(inputs.scripts, into: &findings)
    if options.theme != "default" { checkTheme(options.theme, into: &findings) }
    let images = MediaSupport.images()
    for payload in payloads {
      findings.report.diagnostics += AlertTextLint.check(payload)
      findings.report.diagnostics += AttachmentLint.check(
        payload, mediaDirectory: options.mediaDirectory, images: images)
    }
    let qa = ExtensionQA.report(
      extensionFiles: inputs.extensionFiles, payloads: payloads, categories: categories.registered, strict: strict,
      devices: devices, textSize: options.textSize, heldSizes: textSizes, images: images)
    findings.report.diagnostics += qa.diagnostics
    if qa.missingFile { findings.missing = true }
    // One problem is one finding, however many checks met it.
    findings.report.diagnostics = Diagnostic.deduplicated(findings.report.diagnostics)
    return (findings.report, findings.missing, inputs.count)
  }

  /// The app's strings: --strings and any strings files, .lproj folders or String Catalogs
  /// given, with their own findings; every payload's loc keys are then checked in every
  /// language.
  private static func loadStrings(_ paths: [String], into findings: inout LintFindings) -> AppStrings {
    guard !paths.isEmpty else { return AppStrings() }
    do {
      let (loaded, found) = try AppStrings.analyze(paths)
      findings.report.diagnostics += found
      return loaded
    } catch {
      findings.note(error)
      return AppStrings()
    }
  }

  /// The categories the payloads are checked against, with each file's findings: `registered`,
  /// every category by identifier, for the extension QA; `registry`, by app, for the payloads
  /// (nil for both when no categories file was given).
  ///
  /// Categories files among the files serve every app (a folder of samples for several apps);
  /// --categories [ID=]FILE registers for its app, a bare FILE for --bundle's app or, without
  /// --bundle, for every app without categories of its own, as a session does.
  private static func loadCategories(
    _ inputs: LintInputs, _ options: SessionConfiguration, into findings: inout LintFindings
  ) -> (registered: [String: UNNotificationCategory]?, registry: CategoryRegistry?) {
    var categories: [String: UNNotificationCategoryBox] = [:]
    var everyApp: [String: UNNotificationCategory] = [:]
    var byApp: [String: [String: UNNotificationCategory]] = [:]
    for source in inputs.appCategoriesFiles + inputs.categoriesFiles.map({ AppCategoriesFile(app: "", path: $0) }) {
      let file = source.path
      do {
        let loaded = CategoriesFile.analyze(try InputFile.read(file), file: file)
        findings.report.diagnostics += loaded.diagnostics
        for (id, category) in loaded.byIdentifier {
          if categories[id] == nil { categories[id] = UNNotificationCategoryBox(category) }
          if source.app == "" || (source.app == nil && !options.bundleNamed) {
            if everyApp[id] == nil { everyApp[id] = category }
          } else if byApp[source.app ?? options.bundle, default: [:]][id] == nil {
            byApp[source.app ?? options.bundle, default: [:]][id] = category
          }
        }
      } catch {
        findings.note(error)
      }
    }
    guard inputs.categoriesFileCount > 0 else { return (nil, nil) }
    let servesEveryApp =
      !inputs.categoriesFiles.isEmpty
      || (!options.bundleNamed && inputs.appCategoriesFiles.contains { $0.app == nil })
    var registry = servesEveryApp ? CategoryRegistry(everyApp: everyApp) : CategoryRegistry()
    registry.defaultApp = options.bundle
    for (app, table) in byApp { registry.set(table.values, for: app) }
    return (categories.mapValues(\.category), registry)
  }

  /// Analyzes each payload against the categories, its localization (in every language of the
  /// app's strings, when given) and its expiry; returns the payloads for the checks that
  /// follow.
  private static func checkPayloads(
    _ files: [(String, [UInt8])], registry: CategoryRegistry?, strings: AppStrings, options: SessionConfiguration,
    now: Date, into findings: inout LintFindings
  ) -> [Payload] {
    var payloads: [Payload] = []
    for (file, bytes) in files {
      let payload = PayloadAnalyzer.analyze(bytes, file: file, categories: registry, headers: options.apnsHeaders)
      if strings.isEmpty {
        findings.report.diagnostics += payload.diagnostics
      } else {
        // With the app's strings the keys are checked in every language below; the notes
        // about showing keys, and counts against the key as a format, no longer apply.
        findings.report.diagnostics += payload.diagnostics.filter {
          $0.code != .localizationKey && $0.code != .locArgsMismatch
        }
        findings.report.diagnostics += LocalizationLint.check(payload, strings: strings)
      }
      findings.report.diagnostics += APNsLint.expiry(
        payload, now: now, fromOptions: options.apnsHeaders.expiration != nil)
      payloads.append(payload)
    }
    return payloads
  }

  /// Lints each session script, as `run` would read it.
  private static func checkScripts(_ scripts: [(String, [UInt8])], into findings: inout LintFindings) {
    for (file, bytes) in scripts {
      // As run refuses it: at its first invalid sequence, and nothing else is read.
      guard let text = String(validating: bytes, as: UTF8.self) else {
        let problem = UTF8Validation.firstProblem(in: bytes)
        findings.report.diagnostics.append(
          Diagnostic(
            file: file, location: problem.map { .position($0.position) } ?? .file, code: .invalidUTF8,
            message: "\(problem?.message ?? "invalid UTF-8"); a script is UTF-8 text"))
        continue
      }
      findings.report.diagnostics += ScriptLint.check(text, file: file)
    }
  }

  /// Loads the theme --theme names, noting why it cannot be used.
  private static func checkTheme(_ name: String, into findings: inout LintFindings) {
    var themes = ThemeCatalog()
    do {
      _ = try themes.theme(name)
    } catch {
      findings.note(error)
    }
  }
}

/// The findings of one `lint` run as they gather, and whether a file it was given was missing.
private struct LintFindings {
  var report = LintReport()
  var missing = false

  /// A file that could not be read or used: its own diagnostic, else one made from the error.
  mutating func note(_ error: UNTermError) {
    if error.exitCode == .noInput { missing = true }
    if let diagnostic = error.diagnostic { return report.diagnostics.append(diagnostic) }
    report.diagnostics.append(
      Diagnostic(
        file: error.file ?? "-", location: error.location ?? .file,
        code: error.exitCode == .noInput ? .unreadableFile : .invalidFile, message: error.message))
  }
}
