import COpenSSL

/// An EVP_PKEY this object owns and frees. OpenSSL 3 lets threads sign and verify with one key
/// at once (each with its own EVP_MD_CTX) as long as nobody changes it, and nothing here does.
final class EVPKey: @unchecked Sendable {
  let pointer: OpaquePointer
  /// Whether the key has its private half (it was read from a private key PEM or generated).
  let isPrivate: Bool

  init(owning pointer: OpaquePointer, isPrivate: Bool) {
    self.pointer = pointer
    self.isPrivate = isPrivate
  }

  deinit { cossl_EVP_PKEY_free(pointer) }

  /// A new EC P-256 key.
  static func generateP256() throws(APNsTLSError) -> EVPKey {
    try OpenSSL.load()
    cossl_ERR_clear_error()
    guard let key = cossl_generate_p256_key() else { throw OpenSSL.failure("generating an EC P-256 key") }
    return EVPKey(owning: key, isPrivate: true)
  }

  /// The first key in PEM text: a private key ("BEGIN PRIVATE KEY", PKCS#8, or OpenSSL's
  /// "BEGIN EC PRIVATE KEY") if there is one, else a public key ("BEGIN PUBLIC KEY"). An
  /// encrypted key is refused, never prompted for.
  static func parse(pem bytes: [UInt8]) throws(APNsTLSError) -> EVPKey {
    try OpenSSL.load()
    let text = String(decoding: bytes, as: UTF8.self)
    if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") {
      throw .key("the key is encrypted; decrypt it first (openssl pkcs8 -in KEY -out KEY.p8)")
    }
    let isPrivate = text.contains("PRIVATE KEY-----")
    guard isPrivate || text.contains("-----BEGIN PUBLIC KEY-----") else {
      throw .key("not a PEM key (no \"-----BEGIN PRIVATE KEY-----\" or \"-----BEGIN PUBLIC KEY-----\" line)")
    }
    cossl_ERR_clear_error()
    let key = PEM.reading(bytes) { bio in
      isPrivate
        ? cossl_PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        : cossl_PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in -1 }, nil)
    }
    guard let key = key ?? nil else {
      throw .key("the PEM key does not parse: \(OpenSSL.drainErrors() ?? "no reason given")")
    }
    return EVPKey(owning: key, isPrivate: isPrivate)
  }

  /// The private key as PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----", what a `.p8` holds).
  func privatePEM() throws(APNsTLSError) -> String {
    guard isPrivate else { throw .key("a public key has no private key PEM") }
    return try PEM.writing("writing a private key") {
      cossl_PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil)
    }
  }

  /// The public key as PEM ("-----BEGIN PUBLIC KEY-----").
  func publicPEM() throws(APNsTLSError) -> String {
    try PEM.writing("writing a public key") { cossl_PEM_write_bio_PUBKEY($0, pointer) }
  }

  /// OpenSSL's name of the key's type: "EC", "RSA", "ED25519"…
  var typeName: String {
    cossl_EVP_PKEY_get0_type_name(pointer).map { String(cString: $0) } ?? "unknown"
  }

  /// The named curve of an EC key ("prime256v1" for P-256), or nil (not EC, explicit parameters).
  var groupName: String? {
    var name = [CChar](repeating: 0, count: 80)
    var length = 0
    guard cossl_EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
      cossl_ERR_clear_error()
      return nil
    }
    return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// An X509 this object owns and frees.
final class X509Certificate {
  let pointer: OpaquePointer

  init(owning pointer: OpaquePointer) { self.pointer = pointer }

  deinit { cossl_X509_free(pointer) }

  /// The first certificate in PEM text ("-----BEGIN CERTIFICATE-----").
  static func parse(pem bytes: [UInt8]) throws(APNsTLSError) -> X509Certificate {
    try OpenSSL.load()
    cossl_ERR_clear_error()
    let certificate = PEM.reading(bytes) { cossl_PEM_read_bio_X509($0, nil, { _, _, _, _ in -1 }, nil) }
    guard let certificate = certificate ?? nil else {
      throw .certificate("the PEM certificate does not parse: \(OpenSSL.drainErrors() ?? "no reason given")")
    }
    return X509Certificate(owning: certificate)
  }

  /// The certificate as PEM.
  func pem() throws(APNsTLSError) -> String {
    try PEM.writing("writing a certificate") { cossl_PEM_write_bio_X509($0, pointer) }
  }
}

/// PEM text in and out of OpenSSL through memory BIOs.
enum PEM {
  /// `body`'s result over a read-only memory BIO of `bytes`, or nil when no BIO could be made.
  static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T) -> T? {
    OpenSSL.withBytes(bytes) { base, count in
      guard let bio = cossl_BIO_new_mem_buf(base, Int32(clamping: count)) else { return nil }
      defer { _ = cossl_BIO_free(bio) }
      return body(bio)
    }
  }

  /// What `write` puts in a memory BIO (it returns OpenSSL's 1 for success), as text.
  static func writing(_ operation: String, _ write: (OpaquePointer) -> Int32) throws(APNsTLSError) -> String {
    cossl_ERR_clear_error()
    guard let bio = cossl_BIO_new(cossl_BIO_s_mem()) else { throw OpenSSL.failure(operation) }
    defer { _ = cossl_BIO_free(bio) }
    guard write(bio) == 1 else { throw OpenSSL.failure(operation) }
    var data: UnsafeMutablePointer<CChar>? = nil
    let length = cossl_BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
    guard let data, length > 0 else { throw OpenSSL.failure(operation) }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
  }
}
