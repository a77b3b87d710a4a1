import COpenSSL
import Glibc

/// Makes X.509 v3 certificates with OpenSSL: a random serial, a validity window, a subject, an
/// issuer, extensions in openssl.cnf's syntax, and a SHA-256 signature.
enum CertificateMaker {
  /// A certificate and the key it certifies, which signs what it issues.
  struct Issuer {
    let certificate: X509Certificate
    let key: EVPKey
  }

  /// What a certificate says.
  struct Request {
    /// Name fields in order ("O", "CN", …), as UTF-8.
    var subject: [(field: String, value: String)]
    /// Valid from `notBefore` (UNIX seconds) for `days` days.
    var notBefore: Int
    var days: Int32
    /// (name, value) in openssl.cnf's syntax: ("basicConstraints", "critical,CA:TRUE").
    var extensions: [(name: String, value: String)]
  }

  /// A certificate for `key` saying what `request` says, signed by `issuer`, or self-signed by
  /// `key` when `issuer` is nil.
  static func make(_ request: Request, for key: EVPKey, issuer: Issuer?) throws(APNsTLSError) -> X509Certificate {
    cossl_ERR_clear_error()
    guard let pointer = cossl_X509_new() else { throw OpenSSL.failure("making a certificate") }
    let certificate = X509Certificate(owning: pointer)
    var start = time_t(request.notBefore)
    guard cossl_X509_set_version(pointer, 2) == 1,  // X.509 v3
      cossl_X509_time_adj_ex(cossl_X509_getm_notBefore(pointer), 0, 0, &start) != nil,
      cossl_X509_time_adj_ex(cossl_X509_getm_notAfter(pointer), request.days, 0, &start) != nil,
      cossl_X509_set_pubkey(pointer, key.pointer) == 1
    else { throw OpenSSL.failure("making a certificate") }
    try setRandomSerial(pointer)
    let name = cossl_X509_get_subject_name(pointer)
    for (field, value) in request.subject {
      guard cossl_X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
        throw OpenSSL.failure("naming a certificate \(field)=\(value)")
      }
    }
    let signer = issuer?.certificate.pointer ?? pointer
    guard cossl_X509_set_issuer_name(pointer, cossl_X509_get_subject_name(signer)) == 1 else {
      throw OpenSSL.failure("naming a certificate's issuer")
    }
    // In order: an authority key identifier reads the issuer's subject key identifier.
    for (extensionName, value) in request.extensions {
      guard cossl_add_extension(pointer, signer, extensionName, value) == 1 else {
        throw OpenSSL.failure("adding \(extensionName) = \(value) to a certificate")
      }
    }
    guard cossl_X509_sign(pointer, (issuer?.key ?? key).pointer, cossl_EVP_sha256()) > 0 else {
      throw OpenSSL.failure("signing a certificate")
    }
    return certificate
  }

  /// 16 random bytes, positive and of full length, as RFC 5280 and the CA/Browser Forum ask.
  private static func setRandomSerial(_ certificate: OpaquePointer) throws(APNsTLSError) {
    var bytes = [UInt8](repeating: 0, count: 16)
    guard cossl_RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw OpenSSL.failure("making a serial number") }
    bytes[0] = (bytes[0] & 0x7F) | 0x40
    guard let serial = cossl_BN_bin2bn(bytes, Int32(bytes.count), nil) else {
      throw OpenSSL.failure("making a serial number")
    }
    defer { cossl_BN_free(serial) }
    guard cossl_BN_to_ASN1_INTEGER(serial, cossl_X509_get_serialNumber(certificate)) != nil else {
      throw OpenSSL.failure("making a serial number")
    }
  }

  /// Whether `certificate` was issued and signed by `issuer` (its name, key identifier and key
  /// usage match, and the signature verifies with its key).
  static func isIssued(_ certificate: X509Certificate, by issuer: X509Certificate) -> Bool {
    defer { cossl_ERR_clear_error() }
    guard cossl_X509_check_issued(issuer.pointer, certificate.pointer) == X509_V_OK,
      let key = cossl_X509_get0_pubkey(issuer.pointer)
    else { return false }
    return cossl_X509_verify(certificate.pointer, key) == 1
  }

  /// Whether `certificate` is valid at `now` and still `margin` seconds after.
  static func isValid(_ certificate: X509Certificate, at now: Int, for margin: Int) -> Bool {
    var start = time_t(now)
    var end = time_t(now + margin)
    return cossl_X509_cmp_time(cossl_X509_getm_notBefore(certificate.pointer), &start) == -1
      && cossl_X509_cmp_time(cossl_X509_getm_notAfter(certificate.pointer), &end) == 1
  }

  /// Whether `certificate` names every host and address (subjectAltName DNS and IP entries).
  static func names(_ certificate: X509Certificate, hosts: [String], addresses: [String]) -> Bool {
    defer { cossl_ERR_clear_error() }
    return hosts.allSatisfy { cossl_X509_check_host(certificate.pointer, $0, $0.utf8.count, 0, nil) == 1 }
      && addresses.allSatisfy { cossl_X509_check_ip_asc(certificate.pointer, $0, 0) == 1 }
  }
}
