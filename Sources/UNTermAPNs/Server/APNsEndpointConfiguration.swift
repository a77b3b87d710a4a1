import Foundation
import UNTermInput

/// Where the endpoint listens (`--apns-listen [HOST:]PORT`): loopback unless a host is named.
package struct APNsListenAddress: Equatable, Sendable, CustomStringConvertible {
  package var host: String
  package var port: UInt16

  package init(host: String = "127.0.0.1", port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Reads `PORT`, `HOST:PORT` or `[IPV6]:PORT`; port 0 asks the system for a free one.
  package static func parse(_ text: String) throws(APNsSetupError) -> APNsListenAddress {
    var host = "127.0.0.1"
    var portText = Substring(text)
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      host = String(text[text.index(after: text.startIndex)..<close])
      portText = text[text.index(after: close)...]
      guard portText.hasPrefix(":") else { throw APNsSetupError("\(text): an IPv6 host is written [HOST]:PORT") }
      portText = portText.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
      host = String(text[..<colon])
      portText = text[text.index(after: colon)...]
      guard !host.isEmpty else { throw APNsSetupError("\(text): the host before the colon is empty") }
    }
    guard let port = UInt16(portText) else {
      throw APNsSetupError("\(OneLine.flatten(text)): not [HOST:]PORT (a port is 0 to 65535)")
    }
    return APNsListenAddress(host: host, port: port)
  }

  package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// How the endpoint serves: where, with what credentials, and its limits.
package struct APNsEndpointConfiguration: Sendable {
  package var address: APNsListenAddress
  /// Cleartext HTTP/2 with prior knowledge (`--apns-plaintext`), for clients that take an
  /// `http://` URL.
  package var plaintext = false
  /// The keys and team bearer tokens are checked against (`--apns-key`, `--apns-team`).
  package var keys = ProviderKeys()
  /// The CA whose client certificates are accepted (`--apns-client-ca`).
  package var clientCAFile: String?
  /// Where the private CA and the server certificate are kept.
  package var certificateDirectory: URL
  /// Connections served at once; one more is closed at once (with a GOAWAY in cleartext).
  package var maxConnections = 256
  /// A connection with no request for this long gets a GOAWAY and is closed.
  package var idleTimeout: TimeInterval = 30 * 60
  /// A connection has this long to finish its TLS handshake and send its first frames.
  package var handshakeTimeout: TimeInterval = 10
  /// The streams a connection may open at once once it is authenticated (APNs: 1000).
  package var maxConcurrentStreams = 1000
  /// The development environment answers with `apns-unique-id`.
  package var development = true

  package init(address: APNsListenAddress, certificateDirectory: URL) {
    self.address = address
    self.certificateDirectory = certificateDirectory
  }
}

/// What the endpoint tells its owner, from its own thread: every push it accepted (to deliver),
/// every exchange (for the activity pane and `--apns-log`), and what happens to connections.
package struct APNsEndpointHandlers: Sendable {
  package var push: @Sendable (APNsAcceptedPush) -> Void
  package var exchange: @Sendable (APNsExchange) -> Void
  package var notice: @Sendable (String) -> Void

  package init(
    push: @escaping @Sendable (APNsAcceptedPush) -> Void,
    exchange: @escaping @Sendable (APNsExchange) -> Void = { _ in },
    notice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.push = push
    self.exchange = exchange
    self.notice = notice
  }
}
