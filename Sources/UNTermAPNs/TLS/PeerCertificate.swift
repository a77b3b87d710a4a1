import COpenSSL

/// What a client's certificate says about the provider, as APNs reads it: Apple's push
/// certificates have subject `UID=<bundle id>, CN=Apple Push Services: <bundle id>,
/// OU=<team id>, …` and list their topics in extension 1.2.840.113635.100.6.3.6.
package struct PeerCertificate: Sendable, Equatable {
  /// The subject's commonName.
  package var commonName: String?
  /// The subject's userId (0.9.2342.19200300.100.1.1): the bundle ID, the default topic.
  package var userID: String?
  /// The subject's organizationalUnitName: the team ID in Apple's certificates.
  package var organizationalUnit: String?
  /// The topics in extension 1.2.840.113635.100.6.3.6, in order (the bundle ID, then
  /// `<bundle id>.voip`, `.complication`…); empty when the certificate has no such extension.
  package var topics: [String]

  package static let topicsExtension = "1.2.840.113635.100.6.3.6"

  package init(commonName: String?, userID: String?, organizationalUnit: String?, topics: [String]) {
    self.commonName = commonName
    self.userID = userID
    self.organizationalUnit = organizationalUnit
    self.topics = topics
  }

  /// What the first certificate in PEM text says.
  package init(pem: String) throws(APNsTLSError) {
    let certificate = try X509Certificate.parse(pem: Array(pem.utf8))
    self.init(reading: certificate.pointer)
    withExtendedLifetime(certificate) {}
  }

  /// What the X509 `certificate` says (it stays the caller's).
  init(reading certificate: OpaquePointer) {
    defer { cossl_ERR_clear_error() }
    let subject = cossl_X509_get_subject_name(certificate)
    commonName = subject.flatMap { Self.entry(of: $0, nid: NID_commonName) }
    userID = subject.flatMap { Self.entry(of: $0, nid: NID_userId) }
    organizationalUnit = subject.flatMap { Self.entry(of: $0, nid: NID_organizationalUnitName) }
    topics = Self.extensionValue(of: certificate, oid: Self.topicsExtension).map(Self.topics(inExtension:)) ?? []
  }

  /// The first entry `nid` of a name, as UTF-8.
  private static func entry(of name: OpaquePointer, nid: Int32) -> String? {
    let index = cossl_X509_NAME_get_index_by_NID(name, nid, -1)
    guard index >= 0, let entry = cossl_X509_NAME_get_entry(name, index),
      let data = cossl_X509_NAME_ENTRY_get_data(entry)
    else { return nil }
    var utf8: UnsafeMutablePointer<UInt8>? = nil
    let length = cossl_ASN1_STRING_to_UTF8(&utf8, data)
    guard let utf8 else { return nil }
    defer { cossl_CRYPTO_free(utf8, "UNTermAPNs", 0) }
    guard length >= 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
  }

  /// The DER value (inside the OCTET STRING) of the extension `oid`, or nil when absent.
  private static func extensionValue(of certificate: OpaquePointer, oid: String) -> [UInt8]? {
    guard let object = cossl_OBJ_txt2obj(oid, 1) else { return nil }
    defer { cossl_ASN1_OBJECT_free(object) }
    let index = cossl_X509_get_ext_by_OBJ(certificate, object, -1)
    guard index >= 0, let found = cossl_X509_get_ext(certificate, index),
      let data = cossl_X509_EXTENSION_get_data(found), let bytes = cossl_ASN1_STRING_get0_data(data)
    else { return nil }
    return Array(UnsafeBufferPointer(start: bytes, count: Int(max(0, cossl_ASN1_STRING_length(data)))))
  }

  /// The topics in the extension's value: a SEQUENCE of strings, each followed by a SEQUENCE
  /// naming what the topic is for (`app`, `voip`, `complication`…), as pushy reads it. Only
  /// the top-level strings are topics; anything malformed ends the list.
  static func topics(inExtension value: [UInt8]) -> [String] {
    guard let sequence = DER.element(in: value[...]), sequence.tag == 0x30 else { return [] }
    var topics: [String] = []
    var rest = sequence.contents
    while let element = DER.element(in: rest) {
      if DER.stringTags.contains(element.tag) { topics.append(String(decoding: element.contents, as: UTF8.self)) }
      rest = rest[element.end...]
    }
    return topics
  }
}

/// Just enough DER to walk a SEQUENCE: tag, length, contents, each bounds-checked.
enum DER {
  /// UTF8String, PrintableString, IA5String, VisibleString.
  static let stringTags: Set<UInt8> = [0x0C, 0x13, 0x16, 0x1A]

  /// The element at the start of `bytes`: its tag, its contents and where it ends; nil when
  /// `bytes` is empty or does not hold a whole element.
  static func element(in bytes: ArraySlice<UInt8>) -> (tag: UInt8, contents: ArraySlice<UInt8>, end: Int)? {
    var at = bytes.startIndex
    guard at < bytes.endIndex else { return nil }
    let tag = bytes[at]
    guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags: not in these extensions
    at += 1
    guard at < bytes.endIndex else { return nil }
    var length = Int(bytes[at])
    at += 1
    if length >= 0x80 {
      let count = length & 0x7F
      guard (1...3).contains(count), bytes.endIndex - at >= count else { return nil }
      length = bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
      at += count
    }
    guard bytes.endIndex - at >= length else { return nil }
    return (tag, bytes[at..<at + length], at + length)
  }
}
