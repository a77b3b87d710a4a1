import Foundation
import UNTermAPNs
import UNTermHeadless
import UNTermInput
import UNTermShell

/// What `--apns-listen` and the options beside it ask for (`unterm`, `unterm run`).
struct APNsCommandOptions: Sendable {
  var listen: APNsListenAddress?
  var plaintext = false
  /// `--apns-key KEYID=FILE.p8`, in order.
  var keys: [(id: String, file: String)] = []
  var team: String?
  var clientCA: String?
  var log: String?
  /// `--device-token [APP=]HEX`: a bare HEX is the session's own app's.
  var deviceTokens: [AppScoped] = []
  /// The options given, for the message when `--apns-listen` is not.
  var given: [String] = []

  /// The endpoint's delivery, started, when `--apns-listen` was given; `bundle` is the app a
  /// bare `--device-token` belongs to.
  func makeDelivery(bundle: String, _ arguments: Arguments) throws(UNTermError) -> APNsDelivery? {
    guard let listen else {
      if let first = given.first { throw arguments.usage("\(first) goes with --apns-listen [HOST:]PORT") }
      return nil
    }
    let folder = APNsCertificates.defaultDirectory(environment: ProcessInfo.processInfo.environment)
    var configuration = APNsEndpointConfiguration(address: listen, certificateDirectory: folder)
    configuration.plaintext = plaintext
    configuration.clientCAFile = try clientCA.map { path throws(UNTermError) in try Self.readable(path) }
    var verifiers: [String: any SignatureVerifier] = [:]
    for (id, file) in keys {
      do {
        verifiers[id] = try ES256Key(contentsOfFile: try Self.readable(file))
      } catch let error as UNTermError {
        throw error
      } catch {
        throw UNTermError(.dataError, file: file, at: .file, "not an APNs auth key (.p8): \(error)")
      }
    }
    configuration.keys = ProviderKeys(keys: verifiers, teamID: team)
    do {
      let devices = try DeviceRegistry(
        file: try Self.privateFolder(folder).appendingPathComponent("device-tokens.json"))
      for token in deviceTokens {
        do throws(DeviceTokenError) {
          try devices.set(token.value, for: token.app ?? bundle)
        } catch {
          throw arguments.usage("--device-token \(OneLine.flatten(token.value)): \(error.message)")
        }
      }
      _ = devices.token(for: bundle)
      let delivery = try APNsDelivery(configuration: configuration, devices: devices, logFile: log)
      delivery.start()
      return delivery
    } catch let error as UNTermError {
      throw error
    } catch {
      throw UNTermError(.failure, "\(error)")
    }
  }

  /// A file the endpoint reads: it exists, or exit 66 names it.
  private static func readable(_ path: String) throws(UNTermError) -> String {
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw UNTermError(.noInput, file: path, at: .file, "cannot read the file")
    }
    return path
  }

  /// The endpoint's data folder, made 0700 when missing.
  private static func privateFolder(_ folder: URL) throws(APNsSetupError) -> URL {
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw APNsSetupError("\(folder.path): cannot make the folder: \(error.localizedDescription)")
    }
    return folder
  }

  /// The line an APNs client is pointed with, for the activity pane and `export --curl --local`.
  static func startNotes(_ delivery: APNsDelivery) -> [String] {
    let endpoint = delivery.endpoint
    let address = endpoint.configuration.address
    if endpoint.configuration.plaintext {
      return ["APNs endpoint on http://\(address.host):\(endpoint.port)/3/device/… (cleartext HTTP/2, prior knowledge)"]
    }
    return [
      "APNs endpoint on \(address.host):\(endpoint.port) (TLS, HTTP/2): curl --connect-to api.sandbox.push.apple.com:443:\(address.host):\(endpoint.port) --cacert \(endpoint.caCertificate ?? "")"
    ]
  }
}
