import Foundation
import Testing

@testable import UNTermAPNs

/// Runs a program and returns its exit status and what it printed (both streams).
func run(_ program: String, _ arguments: [String], input: Data? = nil, errors: Bool = true) throws -> (
  status: Int32, output: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = errors ? pipe : FileHandle.nullDevice
  let stdin = Pipe()
  process.standardInput = stdin
  try process.run()
  if let input { stdin.fileHandleForWriting.write(input) }
  try stdin.fileHandleForWriting.close()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func temporaryFolder(_ name: String) -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-\(name)-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite("ES256 provider keys")
struct ES256Tests {
  @Test("a key signs and verifies, in the raw form and in DER; a flipped bit does not verify")
  func roundTrip() throws {
    let key = try ES256Key.generate()
    let message = Array("header.claims".utf8)
    let raw = try key.sign(message)
    #expect(raw.count == 64)
    #expect(key.verify(message, signature: raw))
    let der = try #require(ES256Key.der(fromRaw: raw))
    #expect(der.first == 0x30)
    #expect(key.verify(message, signature: der))
    var flipped = raw
    flipped[10] ^= 1
    #expect(!key.verify(message, signature: flipped))
    #expect(!key.verify(Array("header.claimz".utf8), signature: raw))
    #expect(!key.verify(message, signature: []))
    #expect(!key.verify(message, signature: [0x30, 0x81, 0xFF]))
  }

  @Test("a .p8 made by openssl loads, and its DER signature from openssl dgst verifies")
  func openSSLInterop() throws {
    let folder = temporaryFolder("es256")
    let p8 = folder.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
    let made = try run(
      "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8])
    #expect(made.status == 0, "\(made.output)")
    let key = try ES256Key(contentsOfFile: p8)
    #expect(key.isPrivate)
    let message = folder.appendingPathComponent("message")
    try Data("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0".utf8).write(to: message)
    let signature = folder.appendingPathComponent("signature")
    let signed = try run("/usr/bin/openssl", ["dgst", "-sha256", "-sign", p8, "-out", signature.path, message.path])
    #expect(signed.status == 0, "\(signed.output)")
    let der = try [UInt8](Data(contentsOf: signature))
    #expect(key.verify(try [UInt8](Data(contentsOf: message)), signature: der))
    // The public half verifies too, and what we sign openssl verifies.
    let publicKey = try ES256Key(pem: key.publicKeyPEM)
    #expect(!publicKey.isPrivate)
    #expect(publicKey.verify(try [UInt8](Data(contentsOf: message)), signature: der))
    let ours = try #require(ES256Key.der(fromRaw: try key.sign(try [UInt8](Data(contentsOf: message)))))
    try Data(ours).write(to: signature)
    let pub = folder.appendingPathComponent("pub.pem")
    try Data(key.publicKeyPEM.utf8).write(to: pub)
    let checked = try run(
      "/usr/bin/openssl", ["dgst", "-sha256", "-verify", pub.path, "-signature", signature.path, message.path])
    #expect(checked.output.contains("Verified OK"), "\(checked.output)")
  }

  @Test("garbage and keys of another curve are refused with a reason")
  func refusals() throws {
    #expect(throws: APNsTLSError.self) {
      try ES256Key(pem: "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n")
    }
    #expect(throws: APNsTLSError.self) { try ES256Key(pem: "") }
    let folder = temporaryFolder("es384")
    let p8 = folder.appendingPathComponent("k.p8").path
    _ = try run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", p8])
    do {
      _ = try ES256Key(contentsOfFile: p8)
      Issue.record("a P-384 key was taken for ES256")
    } catch {
      #expect("\(error)".contains("P-256"), "\(error)")
    }
  }
}

@Suite("The private APNs CA")
struct CertificateAuthorityTests {
  @Test("first use makes a CA and a server certificate for Apple's hosts that openssl verifies; files are private")
  func ensure() throws {
    let folder = temporaryFolder("ca").appendingPathComponent("apns")
    let certificates = try APNsCertificates.ensure(in: folder)
    let verified = try run(
      "/usr/bin/openssl", ["verify", "-CAfile", certificates.caCertificate, certificates.serverCertificate])
    #expect(verified.status == 0, "\(verified.output)")
    let names = try run(
      "/usr/bin/openssl",
      ["x509", "-in", certificates.serverCertificate, "-noout", "-ext", "subjectAltName,extendedKeyUsage"])
    for name in [
      "DNS:api.sandbox.push.apple.com", "DNS:api.push.apple.com", "DNS:localhost", "IP Address:127.0.0.1",
      "IP Address:0:0:0:0:0:0:0:1", "TLS Web Server Authentication",
    ] {
      #expect(names.output.contains(name), "\(name) in \(names.output)")
    }
    let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
    #expect(folderMode == 0o700)
    for file in [
      certificates.caKey, certificates.serverKey, certificates.caCertificate, certificates.serverCertificate,
    ] {
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(file)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: certificates.caCertificate))
    let again = try APNsCertificates.ensure(in: folder)
    #expect(again == certificates)
    #expect(try Data(contentsOf: URL(fileURLWithPath: again.caCertificate)) == before)
  }

  @Test("the default folder is under XDG_DATA_HOME, else ~/.local/share")
  func defaultFolder() {
    #expect(APNsCertificates.defaultDirectory(environment: ["XDG_DATA_HOME": "/x"]).path == "/x/unterm/apns")
    #expect(APNsCertificates.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.local/share/unterm/apns")
  }
}
