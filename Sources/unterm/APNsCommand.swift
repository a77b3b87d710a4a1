import Foundation
import UNTermAPNs
import UNTermInput

/// `unterm apns ca`: the private CA's path and PEM, made on first use.
enum APNsCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, words) = try arguments.parse()
    if parsed.help {
      UNTermMain.showHelp(Help.apns)
      return .success
    }
    guard words == ["ca"] else {
      throw arguments.usage("apns takes ca, not '\(OneLine.flatten(words.joined(separator: " ")))'")
    }
    let folder = APNsCertificates.defaultDirectory(environment: ProcessInfo.processInfo.environment)
    let certificates: APNsCertificates
    do {
      certificates = try APNsCertificates.ensure(in: folder)
    } catch {
      throw UNTermError(.failure, "cannot make the APNs CA in \(folder.path): \(error)")
    }
    let pem = (try? String(contentsOfFile: certificates.caCertificate, encoding: .utf8)) ?? ""
    Console.line(SafeText(sanitizing: certificates.caCertificate))
    Console.line(SafeText(sanitizing: pem.trimmingCharacters(in: .newlines), multiline: true))
    return .success
  }
}
