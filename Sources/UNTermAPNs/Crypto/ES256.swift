import COpenSSL

/// An ES256 key (ECDSA on P-256 with SHA-256), as APNs provider tokens are signed with: the
/// developer's `.p8` (a PKCS#8 PEM private key), or its public half to verify with.
///
/// Signatures are accepted in both forms in use: JOSE's raw 64 bytes r‖s (RFC 7518, what JWT
/// libraries such as PyJWT emit) and DER (what Apple's `openssl dgst -sign` recipe emits).
package struct ES256Key: Sendable {
  let key: EVPKey

  /// A key from PEM text: a private key ("-----BEGIN PRIVATE KEY-----", as in a `.p8`, or
  /// "-----BEGIN EC PRIVATE KEY-----") or a public key ("-----BEGIN PUBLIC KEY-----"). Throws
  /// for anything else, an encrypted key, or a key that is not EC P-256.
  package init(pem: String) throws(APNsTLSError) {
    let key = try EVPKey.parse(pem: Array(pem.utf8))
    try Self.requireP256(key)
    self.key = key
  }

  /// The key in the PEM file at `path` (see `init(pem:)`).
  package init(contentsOfFile path: String) throws(APNsTLSError) {
    let bytes = try PrivateFiles.read(path, limit: 64 * 1024)
    do {
      try self.init(pem: String(decoding: bytes, as: UTF8.self))
    } catch .key(let reason) {
      throw .key("\(path): \(reason)")
    } catch {
      throw error
    }
  }

  init(key: EVPKey) { self.key = key }

  /// A new P-256 key (for tests and sample providers; `pkcs8PEM` writes it out as a `.p8`).
  package static func generate() throws(APNsTLSError) -> ES256Key {
    ES256Key(key: try EVPKey.generateP256())
  }

  /// Whether the key can sign (it has its private half).
  package var isPrivate: Bool { key.isPrivate }

  /// The key as a `.p8` holds it (PKCS#8 PEM, "-----BEGIN PRIVATE KEY-----"); nil for a public key.
  package var pkcs8PEM: String? { try? key.privatePEM() }

  /// The public key as PEM ("-----BEGIN PUBLIC KEY-----").
  package var publicKeyPEM: String { (try? key.publicPEM()) ?? "" }

  /// The ES256 signature of `message` in JOSE's raw form: 64 bytes, r then s, each 32 bytes
  /// big-endian. Throws for a public key.
  package func sign(_ message: [UInt8]) throws(APNsTLSError) -> [UInt8] {
    guard key.isPrivate else { throw .key("a public key cannot sign") }
    cossl_ERR_clear_error()
    guard let context = cossl_EVP_MD_CTX_new() else { throw OpenSSL.failure("signing") }
    defer { cossl_EVP_MD_CTX_free(context) }
    guard cossl_EVP_DigestSignInit(context, nil, cossl_EVP_sha256(), nil, key.pointer) == 1 else {
      throw OpenSSL.failure("signing")
    }
    var der = [UInt8](repeating: 0, count: 80)  // an ES256 DER signature is at most 72 bytes
    var length = der.count
    let signed = OpenSSL.withBytes(message) { bytes, count in
      cossl_EVP_DigestSign(context, &der, &length, bytes, count)
    }
    guard signed == 1, let raw = Self.raw(fromDER: Array(der.prefix(length))) else { throw OpenSSL.failure("signing") }
    return raw
  }

  /// Whether `signature` is this key's ES256 signature of `message`, in the raw form (64 bytes
  /// r‖s) or DER. Never throws or traps on malformed input: it is simply not a signature.
  package func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
    if signature.count == 64, let der = Self.der(fromRaw: signature), verify(message, der: der) { return true }
    // A DER signature can also be 64 bytes long, when r and s are short.
    return signature.first == 0x30 && verify(message, der: signature)
  }

  private func verify(_ message: [UInt8], der: [UInt8]) -> Bool {
    defer { cossl_ERR_clear_error() }
    guard let context = cossl_EVP_MD_CTX_new() else { return false }
    defer { cossl_EVP_MD_CTX_free(context) }
    guard cossl_EVP_DigestVerifyInit(context, nil, cossl_EVP_sha256(), nil, key.pointer) == 1 else { return false }
    let verified = OpenSSL.withBytes(message) { bytes, count in
      OpenSSL.withBytes(der) { cossl_EVP_DigestVerify(context, $0, $1, bytes, count) }
    }
    return verified == 1
  }

  /// The DER form (ECDSA-Sig-Value) of a raw r‖s signature.
  static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
    guard raw.count == 64, let signature = cossl_ECDSA_SIG_new() else { return nil }
    defer { cossl_ECDSA_SIG_free(signature) }
    let r = raw.withUnsafeBufferPointer { cossl_BN_bin2bn($0.baseAddress, 32, nil) }
    let s = raw.withUnsafeBufferPointer { cossl_BN_bin2bn($0.baseAddress! + 32, 32, nil) }
    // ECDSA_SIG_set0 takes r and s only when it succeeds.
    guard let r, let s, cossl_ECDSA_SIG_set0(signature, r, s) == 1 else {
      if let r { cossl_BN_free(r) }
      if let s { cossl_BN_free(s) }
      return nil
    }
    let length = cossl_i2d_ECDSA_SIG(signature, nil)
    guard length > 0 else { return nil }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { buffer in
      var cursor = buffer.baseAddress
      return cossl_i2d_ECDSA_SIG(signature, &cursor)
    }
    return written == length ? der : nil
  }

  /// The raw r‖s form of a DER signature, or nil when it is not one.
  static func raw(fromDER der: [UInt8]) -> [UInt8]? {
    let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
      var cursor = buffer.baseAddress
      return cossl_d2i_ECDSA_SIG(nil, &cursor, buffer.count)
    }
    guard let signature = decoded else {
      cossl_ERR_clear_error()
      return nil
    }
    defer { cossl_ECDSA_SIG_free(signature) }
    var r: OpaquePointer? = nil
    var s: OpaquePointer? = nil
    cossl_ECDSA_SIG_get0(signature, &r, &s)
    var raw = [UInt8](repeating: 0, count: 64)
    let written = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let r, let s else { return false }
      return cossl_BN_bn2binpad(r, buffer.baseAddress, 32) == 32
        && cossl_BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
    }
    return written ? raw : nil
  }

  /// Refuses a key ES256 cannot use, saying what it is.
  static func requireP256(_ key: EVPKey) throws(APNsTLSError) {
    let needed = "APNs tokens are signed with ES256, which needs an EC key on P-256 (prime256v1)"
    guard cossl_EVP_PKEY_get_base_id(key.pointer) == EVP_PKEY_EC else {
      throw .key("this is an \(key.typeName) key; \(needed)")
    }
    let group = key.groupName
    guard group == "prime256v1" || group == "P-256" else {
      throw .key("this EC key is on \(group.map { "curve \($0)" } ?? "an unnamed curve"); \(needed)")
    }
  }
}

extension ES256Key: SignatureVerifier {}
