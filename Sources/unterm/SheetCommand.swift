import Foundation
import UNTermCore
import UNTermHeadless
import UNTermRender

#if canImport(Glibc)
  import Glibc
#endif

/// `unterm sheet`: a design sheet, one self-contained HTML file showing every payload across
/// devices, lock states, views and themes.
enum SheetCommand {
  static func run(_ input: Arguments) throws(UNTermError) -> ExitCode {
    var arguments = input
    let configuration = SessionConfigurationBox()
    var matrix = DesignSheet.Matrix()
    var out = "unterm-sheet.html"
    var now: Date?
    var wantsHelp = false
    var given: Set<String> = []
    let parser = arguments
    let files = try arguments.parse(
      flags: SessionOptions.flags.union(["--help", "-h"]),
      options: SessionOptions.options.union(["--out", "--devices", "--states", "--views", "--themes", "--now"])
    ) { (name, value) throws(UNTermError) in
      given.insert(name)
      if try SessionOptions.apply(name, value, to: configuration, arguments: parser) { return }
      let value = value ?? ""
      switch name {
      case "--help", "-h": wantsHelp = true
      case "--out":
        guard !value.isEmpty else { throw parser.usage("--out needs a file name (or - for standard output)") }
        out = value
      case "--devices":
        matrix.devices = try list(value, option: name, parser: parser) { DeviceProfile.Kind(rawValue: $0) }
      case "--states":
        matrix.states = try list(value, option: name, parser: parser) { DesignSheet.LockState(rawValue: $0) }
      case "--views":
        matrix.views = try list(value, option: name, parser: parser) { DesignSheet.View.named($0) }
      case "--themes":
        matrix.themes = try list(value, option: name, parser: parser) { $0 }
      case "--now":
        guard let date = ISO8601.parse(value) else {
          throw parser.usage("--now takes an ISO 8601 time such as 2026-11-29T20:00:00Z, not '\(value)'")
        }
        now = date
      default: break
      }
    }
    if wantsHelp {
      print(Help.sheet)
      return .success
    }
    guard !files.isEmpty else { throw parser.usage("sheet needs at least one PAYLOAD file (or - for stdin)") }
    // The single-screen session options narrow the matrix unless its own lists are given.
    if given.contains("--device") && !given.contains("--devices") { matrix.devices = [configuration.value.device] }
    if given.contains("--locked") && !given.contains("--states") { matrix.states = [.locked] }
    if given.contains("--theme") && !given.contains("--themes") { matrix.themes = [configuration.value.theme] }
    let inputs = try sort(files, into: configuration, parser: parser)
    guard !inputs.payloads.isEmpty else {
      throw parser.usage("sheet needs at least one PAYLOAD among its files; none of them is a payload")
    }
    let options = configuration.value
    let lint = LintCommand.check(options, files: inputs.payloads.filter { $0 != "-" } + inputs.scripts, strict: false)
    let trace: ((String) -> Void)? = options.trace ? { UNTermMain.warn("trace: " + $0) } : nil
    let sheet = try DesignSheet.make(
      payloads: inputs.payloads, configuration: options, matrix: matrix, findings: lint.report.diagnostics,
      lintedFiles: lint.count, now: now ?? Date(), trace: trace)
    let html = sheet.html
    if out == "-" {
      print(html, terminator: "")
      return .success
    }
    try write(html, to: out)
    let screens = sheet.sections.reduce(0) { $0 + $1.screens.count }
    print("\(out): \(sheet.sections.count) payload(s), \(screens) screens, \(html.utf8.count) bytes")
    return .success
  }

  /// Sorts the files as `lint` does, so `unterm sheet SamplePayloads/*.json` works: a categories
  /// file among them is registered, descriptors serve their categories (each file once, however
  /// often it is named), scripts are linted, a folder gives its files, and the rest are payloads
  /// in the order given.
  private static func sort(
    _ files: [String], into configuration: SessionConfigurationBox, parser: Arguments
  ) throws(UNTermError) -> (payloads: [String], scripts: [String]) {
    var inputs = LintInputs(categoriesFile: nil, extensionFiles: [])
    var payloads: [String] = []
    for file in files {
      if file == "-" {
        payloads.append(file)
        continue
      }
      var failure: UNTermError?
      let before = inputs.payloads.count
      inputs.classify(file) { failure = failure ?? $0 }
      if let failure { throw failure }
      payloads += inputs.payloads[before...].map(\.0)
    }
    func key(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
    var categories = configuration.value.categoriesFile.map { [$0] } ?? []
    for file in inputs.categoriesFiles where !categories.contains(where: { key($0) == key(file) }) {
      categories.append(file)
    }
    if categories.count > 1 {
      throw parser.usage(
        "a sheet registers one categories file, but \(categories[0]) and \(categories[1]) were both given")
    }
    configuration.value.categoriesFile = categories.first
    var extensions: [String] = []
    for file in configuration.value.extensionFiles + inputs.extensionFiles
    where !extensions.contains(where: { key($0) == key(file) }) {
      extensions.append(file)
    }
    configuration.value.extensionFiles = extensions
    return (payloads, inputs.scripts.map(\.0))
  }

  /// A comma list of names, each checked; repeated names count once.
  private static func list<T: Equatable>(
    _ text: String, option: String, parser: Arguments, _ value: (String) -> T?
  ) throws(UNTermError) -> [T] {
    var items: [T] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = part.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw parser.usage("\(option) takes a comma list with no empty names, not '\(text)'") }
      guard let item = value(name) else {
        let known: [String]
        switch option {
        case "--devices": known = DeviceProfile.Kind.allCases.map(\.rawValue)
        case "--states": known = DesignSheet.LockState.allCases.map(\.rawValue)
        default: known = DesignSheet.View.allCases.map(\.rawValue) + ["list"]
        }
        let hint = Suggestion.closest(to: name, in: known).map { "; did you mean '\($0)'?" } ?? ""
        throw parser.usage("\(option) takes \(known.joined(separator: ", ")), not '\(name)'\(hint)")
      }
      if !items.contains(item) { items.append(item) }
    }
    return items
  }

  /// Writes the file whole or not at all: into a temporary file beside it, then renamed over
  /// it, so a failure never leaves half a sheet (or destroys the last one).
  private static func write(_ text: String, to path: String) throws(UNTermError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
      .path
    func fail(_ code: Int32) -> UNTermError {
      UNTermError(.cannotCreate, file: path, "cannot write the sheet: \(String(cString: strerror(code)))")
    }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw fail(errno) }
    var failure: Int32 = 0
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(fd, base + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += n
      }
    }
    if failure == 0 && fsync(fd) != 0 { failure = errno }
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temporary, path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw fail(failure)
    }
  }
}
