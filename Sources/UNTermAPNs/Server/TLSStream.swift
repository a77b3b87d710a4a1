import Foundation

/// A connection's bytes through TLS (OpenSSL), with the client certificate's topics when the
/// endpoint trusts a client CA (`--apns-client-ca`).
final class TLSStream: ByteStream {
  private let connection: TLSConnection

  init(context: TLSServerContext, fd: Int32) throws(APNsConnectionError) {
    do {
      connection = try TLSConnection(context: context, socket: fd)
    } catch {
      throw APNsConnectionError("TLS could not start: \(error)")
    }
  }

  func handshake() -> StreamIO {
    switch connection.handshake() {
    case .done: return .bytes(1)
    case .wantRead: return .wantRead
    case .wantWrite: return .wantWrite
    case .failed(let reason): return .failed(reason)
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamIO { Self.io(connection.read(into: buffer)) }
  func write(_ bytes: UnsafeRawBufferPointer) -> StreamIO { Self.io(connection.write(bytes)) }

  var applicationProtocol: String? { connection.negotiatedProtocol }
  var hasBufferedInput: Bool { connection.hasBufferedBytes }

  /// A certificate APNs would take: its topics, else its bundle identifier (the subject's UID).
  var certificateTopics: [String]? {
    guard let certificate = connection.peerCertificate else { return nil }
    if !certificate.topics.isEmpty { return certificate.topics }
    return [certificate.userID ?? certificate.commonName].compactMap { $0 }
  }

  func shutdown() { connection.shutdown() }

  private static func io(_ io: TLSIO) -> StreamIO {
    switch io {
    case .bytes(let n): return .bytes(n)
    case .wantRead: return .wantRead
    case .wantWrite: return .wantWrite
    case .closed: return .closed
    case .failed(let reason): return .failed(reason)
    }
  }
}

extension APNsEndpoint {
  /// The TLS context: the private CA's server certificate (made on first use), ALPN h2 only,
  /// and the client CA when one is named.
  static func tlsContext(_ configuration: APNsEndpointConfiguration) throws(APNsSetupError) -> (
    context: TLSServerContext, caCertificate: String
  ) {
    do {
      let certificates = try APNsCertificates.ensure(in: configuration.certificateDirectory)
      let context = try TLSServerContext(
        certificateChainFile: certificates.serverCertificate, privateKeyFile: certificates.serverKey,
        clientCAFile: configuration.clientCAFile)
      return (context, certificates.caCertificate)
    } catch {
      throw APNsSetupError("the APNs endpoint cannot start TLS: \(error)")
    }
  }
}
