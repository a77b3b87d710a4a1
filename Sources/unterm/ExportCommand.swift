import Foundation
import UNTermHeadless
import UNTermInput
import UNTermShell

/// `unterm export --simctl|--curl|--apns PAYLOAD ...`: what sends each payload to a real
/// Simulator or device. Nothing is sent.
enum ExportCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.export)
      return .success
    }
    let forms = parsed.export.forms
    guard forms.count == 1, let form = forms.first else {
      throw arguments.usage("export needs exactly one of --simctl, --apns and --curl")
    }
    guard !files.isEmpty else { throw arguments.usage("export needs at least one PAYLOAD file (or - for stdin)") }
    if form == .apns && files.count > 1 { throw arguments.usage("--apns prints one .apns file: give one PAYLOAD") }
    // The session options draw nothing here, but a file they name that is missing or broken is
    // said (exit 66 or 65), as every other command that takes them says it.
    try parsed.session.checkFiles(payloads: [])
    // A header option a command line cannot carry is the option's fault (exit 2); past this, a
    // header or bundle word with control characters comes from the payload file (exit 65).
    for (field, value) in parsed.session.apnsHeaders.fields where SafeText(sanitizing: value).text != value {
      throw arguments.usage("\(field.rawValue) '\(value)' holds control characters, which a command line cannot carry")
    }
    // So is the simulator's name: an option's word, said as the option, not as the payload's.
    let simulator = parsed.export.simulator
    if SafeText(sanitizing: simulator).text != simulator {
      throw arguments.usage(
        "--simulator '\(SafeText(sanitizing: simulator).text)' holds control characters, which a command line cannot carry"
      )
    }
    var outputs: [SafeText] = []
    var local: APNsExport.LocalEndpoint?
    for file in files {
      let payload = try Payload.load(file, headers: parsed.session.apnsHeaders)
      // What APNs would refuse is not worth sending: the first error, as lint reports it.
      if let error = payload.diagnostics.first(where: { $0.severity == .error }) { throw UNTermError(error) }
      let shown = OneLine.flatten(file)
      // Made terminal-safe by APNsExport (controls inside strings are \u escapes), so the
      // sanitizer changes nothing in what a shell will run.
      func printed(_ text: String) -> SafeText { SafeText(sanitizing: text, multiline: true) }
      if form == .curl && parsed.export.local && local == nil { local = try localEndpoint(payload, parsed, arguments) }
      do throws(APNsExport.Problem) {
        switch form {
        case .simctl:
          // simctl push takes the app's bundle identifier and the payload, no APNs headers: say
          // what becomes of each (apns-topic may be the bundle identifier it pushes to).
          if let note = simctlHeadersNote(payload, app: parsed.pushBundle) {
            UNTermMain.warn("\(shown): note: \(note)")
          }
          outputs.append(
            printed(try APNsExport.simctl(payload, simulator: parsed.export.simulator, app: parsed.pushBundle)))
        case .apns:
          outputs.append(
            printed(String(decoding: try APNsExport.apnsFile(payload, app: parsed.pushBundle), as: UTF8.self)))
        case .curl:
          outputs.append(
            printed(
              try APNsExport.curl(payload, environment: parsed.export.environment, app: parsed.pushBundle, local: local)
            ))
        }
      } catch {
        throw UNTermError(error.exitCode, file: shown, error.message)
      }
    }
    if form == .apns {
      // The file as it is, its own final newline or none.
      Console.write(outputs.joined())
    } else {
      Console.line(outputs.joined(separator: "\n"))
    }
    return .success
  }
}

extension ExportCommand {
  /// The running session's endpoint and its device's token for the payload's app
  /// (`--curl --local`), asked over the session's socket.
  static func localEndpoint(_ payload: Payload, _ parsed: ParsedOptions, _ arguments: Arguments) throws(UNTermError)
    -> APNsExport.LocalEndpoint
  {
    guard let app = APNsExport.bundle(of: payload, app: parsed.pushBundle) else {
      throw UNTermError(
        .dataError,
        "--local needs the app's bundle identifier: give --topic ID or --bundle ID, an apns-topic header or a \"Simulator Target Bundle\" key"
      )
    }
    let socket = parsed.socket ?? LiveDelivery.defaultSocketPath()
    let reply = try PushClient.center([.endpoint(app: app)], socket: socket).first ?? ""
    guard let object = (try? JSONParser.parse(Array(reply.utf8)))?.object, let host = object["host"]?.string,
      let port = object["port"]?.number?.integer, let token = object["token"]?.string
    else {
      throw UNTermError(
        .failure,
        "the running session has no APNs endpoint (\(OneLine.flatten(reply))); start it with --apns-listen PORT")
    }
    return APNsExport.LocalEndpoint(
      host: host, port: port, plaintext: object["plaintext"]?.bool ?? false,
      caCertificate: object["ca"]?.string ?? "", deviceToken: token)
  }

  /// What simctl push does with a payload's APNs headers, or nil when it has none: it sends
  /// none of them, but `apns-topic` (less its push-type suffix) can be the app it pushes to.
  static func simctlHeadersNote(_ payload: Payload, app: String?) -> SafeText? {
    let headers = payload.info.headers.fields.map(\.field)
    guard !headers.isEmpty else { return nil }
    let topicApp = PayloadAnalyzer.app(fromTopic: payload.info.headers)
    let usesTopic = topicApp != nil && APNsExport.bundle(of: payload, app: app) == topicApp
    let dropped = headers.filter { !(usesTopic && $0 == .topic) }.map(\.rawValue)
    var parts: [String] = []
    if usesTopic, let topicApp { parts.append("apns-topic gives the app it pushes to (\(topicApp))") }
    if !dropped.isEmpty {
      parts.append(
        "\(ListFormat.and(dropped)) \(dropped.count == 1 ? "is" : "are") not sent, as simctl push takes no APNs headers"
      )
    }
    return SafeText(sanitizing: parts.joined(separator: "; "))
  }
}
