import Foundation
import UserNotificationsModel

/// Quotes words for a POSIX shell (sh, bash, zsh): a word of safe characters as it is, anything
/// else in single quotes, where nothing is special and a `'` is written `'\''`. Every byte but
/// NUL survives, newlines included.
package enum ShellQuote {
  private static let safe = Set(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-".unicodeScalars)

  package static func quote(_ word: String) -> String {
    if !word.isEmpty, word.unicodeScalars.allSatisfy({ safe.contains($0) }) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

/// What sends a payload to a real Simulator or device: the `xcrun simctl push` command line, an
/// `.apns` file, or the HTTP/2 request to APNs as a `curl` command. Nothing is sent from UNTerm.
package enum APNsExport {
  /// APNs' hosts (Apple, "Sending notification requests to APNs").
  package enum Environment: String, CaseIterable, Sendable {
    case development, production

    package var host: String {
      self == .development ? "api.sandbox.push.apple.com" : "api.push.apple.com"
    }
  }

  /// Why a payload cannot be exported.
  package struct Problem: Error, Sendable {
    package var message: SafeText
    /// 2 when an option or a missing one is the cause; 65 when the payload itself cannot be
    /// sent (too large once escaped, not an object), whatever the options say.
    package var exitCode: ExitCode = .usage
  }

  /// The payload with nothing a terminal would act on, meaning the same JSON: inside strings, DEL,
  /// C1 and bidi controls and the line and paragraph separators become `\uXXXX` escapes; between
  /// values, a carriage return is dropped and a tab becomes a space. Printed output passes the
  /// sanitizer (`SafeText`), which then changes nothing, so what a shell runs is the payload.
  package static func terminalSafe(_ bytes: [UInt8]) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    guard SafeText(sanitizing: text, multiline: true).text != text else { return bytes }
    var out = ""
    var inString = false
    var escaped = false
    for scalar in text.unicodeScalars {
      if inString {
        if escaped {
          escaped = false
        } else if scalar == "\\" {
          escaped = true
        } else if scalar == "\"" {
          inString = false
        } else if scalar.value != 0x0A,
          SafeText.placeholder(for: scalar) != nil || [0x2028, 0x2029].contains(scalar.value)
        {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
          continue
        }
        out.unicodeScalars.append(scalar)
      } else {
        switch scalar {
        case "\"": inString = true
        case "\r": continue
        case "\t":
          out += " "
          continue
        default: break
        }
        out.unicodeScalars.append(scalar)
      }
    }
    return Array(out.utf8)
  }

  /// A word that must reach the shell as it is: refused when the sanitizer would change it.
  /// The caller checks the header options first, so a bundle or header word is the payload
  /// file's (exit 65); only `--simulator` is an option's (`exitCode` `.usage`).
  private static func plain(_ word: String, _ what: String, exitCode: ExitCode = .dataError) throws(Problem) -> String {
    guard SafeText(sanitizing: word).text == word else {
      throw Problem(
        message: "\(what) \(OneLine.quote(word)) holds control characters, which a command line cannot carry",
        exitCode: exitCode)
    }
    return word
  }

  /// The payload as it is printed: terminal-safe, and still within APNs' limit.
  private static func printable(_ bytes: [UInt8], limit: Int) throws(Problem) -> [UInt8] {
    let safe = terminalSafe(bytes)
    guard safe.count <= limit else {
      throw Problem(
        message:
          "written with its control characters escaped, the payload is \(safe.count) bytes, over APNs' \(limit); escape them in the file and shorten it",
        exitCode: .dataError)
    }
    return safe
  }

  /// The payload's size limit (VoIP pushes may be larger).
  private static func limit(of payload: Payload) -> Int {
    payload.info.headers.pushType.flatMap(APNsPushType.init(rawValue:))?.payloadLimit
      ?? PayloadAnalyzer.maximumPayloadBytes
  }

  /// The environment variables the curl command reads the secrets from; it stops with a message
  /// when one is not set.
  package static let deviceTokenVariable = "DEVICE_TOKEN"
  package static let authTokenVariable = "APNS_AUTH_TOKEN"

  /// The app a payload goes to: the topic (less its push type's suffix), else its `Simulator
  /// Target Bundle`, else `app` — the session's `--bundle` when the user gave one (never the
  /// built-in default: a made-up bundle would send nowhere).
  package static func bundle(of payload: Payload, app: String? = nil) -> String? {
    PayloadAnalyzer.app(fromTopic: payload.info.headers) ?? payload.info.bundleIdentifier ?? app
  }

  /// The payload's bytes as sent, as text (the parser has checked they are UTF-8).
  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// `xcrun simctl push DEVICE BUNDLE -` fed the payload on its standard input.
  package static func simctl(_ payload: Payload, simulator: String, app: String? = nil) throws(Problem) -> String {
    guard let bundle = bundle(of: payload, app: app) else {
      throw Problem(
        message:
          "simctl push needs the app's bundle identifier: give --topic ID or --bundle ID, an apns-topic header or a \"Simulator Target Bundle\" key"
      )
    }
    let body = try printable(payload.sentBytes, limit: limit(of: payload))
    return
      "printf '%s' \(ShellQuote.quote(text(body))) | xcrun simctl push \(ShellQuote.quote(try plain(simulator, "the simulator", exitCode: .usage))) \(ShellQuote.quote(try plain(bundle, "the bundle identifier"))) -"
  }

  /// The payload as an `.apns` file: the same bytes, with `Simulator Target Bundle` naming the
  /// app (put in, or put right).
  package static func apnsFile(_ payload: Payload, app: String? = nil) throws(Problem) -> [UInt8] {
    guard let bundle = bundle(of: payload, app: app) else {
      throw Problem(
        message:
          "an .apns file names its app: give --topic ID or --bundle ID, an apns-topic header or a \"Simulator Target Bundle\" key"
      )
    }
    let key = PayloadAnalyzer.simulatorTargetBundleKey
    let sent = try printable(payload.sentBytes, limit: limit(of: payload))
    guard let spans = JSONMemberSpans(sent) else {
      throw Problem(message: "the payload is not an object", exitCode: .dataError)
    }
    if spans.members.contains(where: { $0.key == key }) && payload.info.bundleIdentifier == bundle {
      return sent
    }
    let without = spans.removing([key], from: sent)
    guard let cleaned = JSONMemberSpans(without) else {
      throw Problem(message: "the payload is not an object", exitCode: .dataError)
    }
    return terminalSafe(cleaned.inserting(key: key, value: try plain(bundle, "the bundle identifier"), into: without))
  }

  /// The request to APNs: HTTP/2 POST to `/3/device/TOKEN` with the headers, authorized with a
  /// provider token (JWT). Both tokens come from environment variables, so no secret is written
  /// into the command; `Simulator Target Bundle` is the Simulator's and is left out of the body.
  /// A running session's APNs endpoint (`export --curl --local`): the command goes there, with
  /// the session device's token, instead of to Apple.
  package struct LocalEndpoint: Sendable {
    package var host: String
    package var port: Int
    package var plaintext: Bool
    package var caCertificate: String
    package var deviceToken: String

    package init(host: String, port: Int, plaintext: Bool, caCertificate: String, deviceToken: String) {
      self.host = host
      self.port = port
      self.plaintext = plaintext
      self.caCertificate = caCertificate
      self.deviceToken = deviceToken
    }
  }

  package static func curl(
    _ payload: Payload, environment: Environment, app: String? = nil, local: LocalEndpoint? = nil
  ) throws(Problem) -> String {
    var headers = payload.info.headers
    guard let bundle = bundle(of: payload, app: app) else {
      throw Problem(
        message:
          "APNs needs the topic (the app's bundle identifier) with a provider token: give --topic ID or --bundle ID, an apns-topic header or a \"Simulator Target Bundle\" key"
      )
    }
    let pushType = headers.pushType.flatMap(APNsPushType.init(rawValue:))
    if headers.topic == nil { headers[.topic] = bundle + (pushType?.topicSuffix ?? "") }
    if headers.pushType == nil {
      // Apple asks for the header on every push; it must say what the payload holds.
      headers[.pushType] =
        payload.info.contentAvailable && payload.content?.hasAlertText != true
          && payload.content?.badge == nil && payload.content?.sound == nil ? "background" : "alert"
    }
    var body = try printable(payload.sentBytes, limit: limit(of: payload))
    if payload.info.bundleIdentifier != nil, let spans = JSONMemberSpans(body) {
      body = spans.removing([PayloadAnalyzer.simulatorTargetBundleKey], from: body)
    }
    var lines = ["curl --http2 --fail-with-body"]
    if let local, !local.plaintext {
      // Apple's command, unchanged but for where the TCP connection goes and the CA it trusts.
      let target = local.host.contains(":") ? "[\(local.host)]" : local.host
      lines.append("  --connect-to \(environment.host):443:\(try plain(target, "the host")):\(local.port)")
      lines.append("  --cacert \(ShellQuote.quote(try plain(local.caCertificate, "the CA's path")))")
    } else if local != nil {
      lines[0] = "curl --http2-prior-knowledge --fail-with-body"
    }
    for (field, value) in headers.fields {
      lines.append("  --header \(ShellQuote.quote("\(field.rawValue): \(try plain(value, field.rawValue))"))")
    }
    lines.append(
      "  --header \"authorization: bearer ${\(authTokenVariable):?set \(authTokenVariable) to your provider token (a JWT signed with your APNs key)}\""
    )
    lines.append("  --data-binary \(ShellQuote.quote(text(body)))")
    if let local {
      let token = try plain(local.deviceToken, "the device token")
      let host = local.host.contains(":") ? "[\(local.host)]" : local.host
      lines.append(
        local.plaintext
          ? "  http://\(try plain(host, "the host")):\(local.port)/3/device/\(token)"
          : "  https://\(environment.host)/3/device/\(token)")
    } else {
      lines.append(
        "  \"https://\(environment.host)/3/device/${\(deviceTokenVariable):?set \(deviceTokenVariable) to the device token (hex)}\""
      )
    }
    return lines.joined(separator: " \\\n")
  }
}
