import Foundation
import UNTermCore
import UNTermRuntime
import UserNotifications

/// `unterm lint`: check payloads against APNs and iOS rules and the registered categories, and
/// review the categories' design.
enum LintCommand {
  static func run(_ input: Arguments) throws(UNTermError) -> ExitCode {
    var arguments = input
    let configuration = SessionConfigurationBox()
    var json = false
    var strict = false
    var wantsHelp = false
    let parser = arguments
    let files = try arguments.parse(
      flags: SessionOptions.flags.union(["--json", "--strict", "--help", "-h"]),
      options: SessionOptions.options
    ) { (name, value) throws(UNTermError) in
      if try SessionOptions.apply(name, value, to: configuration, arguments: parser) { return }
      switch name {
      case "--json": json = true
      case "--strict": strict = true
      case "--help", "-h": wantsHelp = true
      default: break
      }
    }
    if wantsHelp {
      print(Help.lint)
      return .success
    }
    let options = configuration.value
    guard !files.isEmpty || options.categoriesFile != nil || !options.extensionFiles.isEmpty else {
      throw parser.usage("lint needs a PAYLOAD file, --categories FILE or --extension FILE")
    }
    var report = LintReport()
    var missing = false
    func note(_ error: UNTermError) {
      if error.exitCode == .noInput { missing = true }
      report.diagnostics.append(
        Diagnostic(file: error.file ?? "-", location: .file, severity: .error, code: error.exitCode == .noInput ? "unreadable-file" : "invalid-file", message: error.message))
    }
    var categories: [String: UNNotificationCategoryBox] = [:]
    if let file = options.categoriesFile {
      do {
        let loaded = CategoriesFile.analyze(try InputFile.read(file), file: file)
        report.diagnostics += loaded.diagnostics
        for (id, category) in loaded.byIdentifier { categories[id] = UNNotificationCategoryBox(category) }
      } catch {
        note(error)
      }
    }
    let registered = options.categoriesFile == nil ? nil : categories.mapValues(\.category)
    var payloads: [Payload] = []
    for file in files {
      do {
        let bytes = try InputFile.read(file)
        let payload = PayloadAnalyzer.analyze(bytes, file: file, categories: registered)
        report.diagnostics += payload.diagnostics
        payloads.append(payload)
      } catch {
        note(error)
      }
    }
    let qa = ExtensionQA.report(
      extensionFiles: options.extensionFiles, payloads: payloads, categories: registered, strict: strict,
      images: MediaSupport.images())
    report.diagnostics += qa.diagnostics
    if qa.missingFile { missing = true }
    if json {
      print(report.json)
    } else {
      for diagnostic in report.diagnostics { print(diagnostic.formatted) }
      if !report.diagnostics.isEmpty || files.count > 1 {
        UNTermMain.warn(report.summary(files: files.count + options.extensionFiles.count + (options.categoriesFile == nil ? 0 : 1)))
      }
    }
    if missing { return .noInput }
    return report.diagnostics.contains { $0.severity == .error } ? .failure : .success
  }
}

/// Lets category values travel through a dictionary map without Sendable friction.
struct UNNotificationCategoryBox {
  let category: UNNotificationCategory
  init(_ category: UNNotificationCategory) { self.category = category }
}

/// Findings gathered for `lint`, printed as text or JSON.
struct LintReport {
  var diagnostics: [Diagnostic] = []

  var json: String {
    let items: [JSONWriter.Value] = diagnostics.map { d in
      var members: [(String, JSONWriter.Value)] = [
        ("file", .string(d.file)),
        ("path", .string(d.location.pathString)),
        ("severity", .string(d.severity.rawValue)),
        ("code", .string(d.code)),
        ("message", .string(d.message)),
      ]
      if case .position(let p) = d.location {
        members += [("line", .int(p.line)), ("column", .int(p.column))]
      }
      for key in d.details.keys.sorted() {
        let value = d.details[key] ?? ""
        members.append((key, Double(value).map { JSONWriter.Value.double($0) } ?? .string(value)))
      }
      return .object(members)
    }
    return JSONWriter.write(.array(items))
  }

  func summary(files: Int) -> String {
    let errors = diagnostics.filter { $0.severity == .error }.count
    let warnings = diagnostics.filter { $0.severity == .warning }.count
    let notes = diagnostics.filter { $0.severity == .note }.count
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return "\(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note")) in \(plural(files, "file"))"
  }
}

extension DiagnosticLocation {
  /// The JSON `path` field: a JSON path, or empty for the whole file and for syntax errors.
  var pathString: String {
    if case .path(let p) = self { return p.description }
    return ""
  }
}
