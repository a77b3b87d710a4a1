import COpenSSL
import Foundation

/// The endpoint's private CA and the server certificate it issues, as files in one folder:
/// a client trusts `caCertificate` (`curl --cacert`, `ssl.create_default_context(cafile:)`) and
/// nothing else, and the endpoint serves `serverCertificate` with `serverKey`.
///
/// The CA is EC P-256, self-signed, "UNTerm local APNs CA", valid ten years. The server
/// certificate names Apple's APNs hosts, `localhost` and the loopback addresses, is valid 397
/// days (clients refuse longer-lived server certificates) and is remade 30 days before it
/// expires, so a trusted CA keeps working across years.
package struct APNsCertificates: Sendable, Equatable {
  /// Paths: the CA's certificate (PEM) and key, the server's certificate (PEM) and key.
  package var caCertificate: String
  package var caKey: String
  package var serverCertificate: String
  package var serverKey: String

  /// The names the server certificate carries (subjectAltName DNS entries).
  package static let serverHosts = [
    "api.sandbox.push.apple.com", "api.push.apple.com", "api.development.push.apple.com", "localhost",
  ]
  /// The addresses it carries (subjectAltName IP entries).
  package static let serverAddresses = ["127.0.0.1", "::1"]

  static let caDays: Int32 = 3650
  static let serverDays: Int32 = 397
  /// A certificate that expires sooner than this is remade.
  static let renewalMargin = 30 * 86_400
  /// Certificates start this much before they are made, for a client whose clock is behind.
  static let backdating = 300

  /// The files' paths in `directory`.
  package init(directory: URL) {
    caCertificate = directory.appendingPathComponent("ca.pem").path
    caKey = directory.appendingPathComponent("ca-key.pem").path
    serverCertificate = directory.appendingPathComponent("server.pem").path
    serverKey = directory.appendingPathComponent("server-key.pem").path
  }

  /// Where the files live: `$XDG_DATA_HOME/unterm/apns` (when set to an absolute path, as the
  /// XDG spec asks), else `~/.local/share/unterm/apns`.
  package static func defaultDirectory(environment: [String: String]) -> URL {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return URL(fileURLWithPath: data).appendingPathComponent("unterm/apns")
    }
    let home =
      environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.path
    return URL(fileURLWithPath: home).appendingPathComponent(".local/share/unterm/apns")
  }

  /// The certificates in `directory`, made on first use: the folder (0700, with its parents),
  /// the CA and the server certificate and keys (each file 0600, written atomically). Valid
  /// files are never overwritten; a CA that does not match its key or expires within 30 days
  /// is remade, and so is a server certificate that does not verify against the CA, does not
  /// match its key, lacks a name, or expires within 30 days. Two processes may call this at
  /// once: a lock in the folder lets one make the files and the other use them.
  package static func ensure(in directory: URL) throws(APNsTLSError) -> APNsCertificates {
    try ensure(in: directory, now: Int(Date().timeIntervalSince1970))
  }

  /// `ensure(in:)` as at `now` (UNIX seconds), so tests can age the certificates.
  static func ensure(in directory: URL, now: Int) throws(APNsTLSError) -> APNsCertificates {
    try OpenSSL.load()
    try PrivateFiles.makeFolder(directory.path)
    let files = APNsCertificates(directory: directory)
    try PrivateFiles.withLock(directory.appendingPathComponent(".lock").path) { () throws(APNsTLSError) in
      var ca = files.validCA(at: now)
      if ca == nil { ca = try files.makeCA(at: now) }
      guard let ca else { return }
      if !files.hasValidServer(issuedBy: ca.certificate, at: now) { try files.makeServer(issuedBy: ca, at: now) }
      try files.keepPrivate()
    }
    return files
  }

  /// The CA in the files, or nil when one is missing, unreadable or no longer fit.
  func validCA(at now: Int) -> CertificateMaker.Issuer? {
    guard let (certificate, key) = Self.read(certificate: caCertificate, key: caKey),
      CertificateMaker.isIssued(certificate, by: certificate),
      CertificateMaker.isValid(certificate, at: now, for: Self.renewalMargin)
    else { return nil }
    return CertificateMaker.Issuer(certificate: certificate, key: key)
  }

  func hasValidServer(issuedBy ca: X509Certificate, at now: Int) -> Bool {
    guard let (certificate, _) = Self.read(certificate: serverCertificate, key: serverKey) else { return false }
    return CertificateMaker.isIssued(certificate, by: ca)
      && CertificateMaker.isValid(certificate, at: now, for: Self.renewalMargin)
      && CertificateMaker.names(certificate, hosts: Self.serverHosts, addresses: Self.serverAddresses)
  }

  func makeCA(at now: Int) throws(APNsTLSError) -> CertificateMaker.Issuer {
    let key = try EVPKey.generateP256()
    let request = CertificateMaker.Request(
      subject: [("O", "UNTerm"), ("CN", "UNTerm local APNs CA")], notBefore: now - Self.backdating,
      days: Self.caDays,
      extensions: [
        ("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
        ("subjectKeyIdentifier", "hash"),
      ])
    let certificate = try CertificateMaker.make(request, for: key, issuer: nil)
    try PrivateFiles.write(try key.privatePEM(), to: caKey)
    try PrivateFiles.write(try certificate.pem(), to: caCertificate)
    return CertificateMaker.Issuer(certificate: certificate, key: key)
  }

  func makeServer(issuedBy ca: CertificateMaker.Issuer, at now: Int) throws(APNsTLSError) {
    let key = try EVPKey.generateP256()
    let names = Self.serverHosts.map { "DNS:\($0)" } + Self.serverAddresses.map { "IP:\($0)" }
    let request = CertificateMaker.Request(
      subject: [("O", "UNTerm"), ("CN", Self.serverHosts[0])], notBefore: now - Self.backdating,
      days: Self.serverDays,
      extensions: [
        ("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
        ("extendedKeyUsage", "serverAuth"), ("subjectAltName", names.joined(separator: ",")),
        // Python 3.13's default context (VERIFY_X509_STRICT) refuses a certificate without them.
        ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
      ])
    let certificate = try CertificateMaker.make(request, for: key, issuer: ca)
    try PrivateFiles.write(try key.privatePEM(), to: serverKey)
    try PrivateFiles.write(try certificate.pem(), to: serverCertificate)
  }

  /// Sets each file to 0600, should someone have widened one.
  func keepPrivate() throws(APNsTLSError) {
    for path in [caCertificate, caKey, serverCertificate, serverKey] where chmod(path, 0o600) != 0 {
      throw .file(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// A certificate and its key from their files, or nil when either is missing, does not
  /// parse, or they do not belong together.
  static func read(certificate: String, key: String) -> (X509Certificate, EVPKey)? {
    guard let certificateBytes = try? PrivateFiles.read(certificate),
      let keyBytes = try? PrivateFiles.read(key),
      let parsedCertificate = try? X509Certificate.parse(pem: certificateBytes),
      let parsedKey = try? EVPKey.parse(pem: keyBytes), parsedKey.isPrivate
    else { return nil }
    defer { cossl_ERR_clear_error() }
    guard cossl_X509_check_private_key(parsedCertificate.pointer, parsedKey.pointer) == 1 else { return nil }
    return (parsedCertificate, parsedKey)
  }
}
