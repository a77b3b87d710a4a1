import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

/// Downloads against a loopback server: streamed to disk, refused at the limit for their type
/// or when the declared length says they will pass it, cut off at their deadline.
@Suite("Media downloads", .serialized, .hangGuard)
struct MediaDownloadTests {
  typealias F = MediaFixtures
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]

  private func elapsed(_ body: () -> Void) -> TimeInterval {
    let start = Date()
    body()
    return Date().timeIntervalSince(start)
  }

  private func leftovers(_ folder: F.Folder) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
  }

  @Test func aBodyIsStreamedToAFileInTheCache() throws {
    let body = try F.pngSplit(width: 8, height: 8, top: (255, 0, 0), bottom: (0, 0, 255))
    let server = try LoopbackHTTPServer(routes: ["/pic.png": .init(contentType: "image/png; charset=x", body: body)])
    let folder = try F.Folder()
    let download = try MediaDownload()
    guard
      case .downloaded(let file, let bytes, let hint) = download.run(
        try #require(URL(string: server.url("/pic.png"))), into: folder.url, timeout: 120)
    else {
      Issue.record("not downloaded")
      return
    }
    #expect(bytes == body.count && hint == "public.png")
    #expect(file.lastPathComponent.hasSuffix("-pic.png") && file.deletingLastPathComponent() == folder.url)
    #expect(try Data(contentsOf: file) == Data(body))
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func anEndlessBodyStopsAtTheLimitForItsTypeHoldingOneBufferAtATime() throws {
    // No Content-Length and a body without end. Its first bytes are a PNG's, so the image limit
    // (10 MB) applies although the server calls it a movie.
    let server = try LoopbackHTTPServer(routes: [
      "/endless": .init(contentType: "video/mp4", body: Self.pngSignature, stream: .endless, declaredLength: .none)
    ])
    let folder = try F.Folder()
    let download = try MediaDownload()
    var outcome: MediaDownload.Outcome?
    let seconds = elapsed {
      outcome = download.run(try! #require(URL(string: server.url("/endless"))), into: folder.url, timeout: 120)
    }
    guard case .refused(let reason) = outcome else {
      Issue.record("expected a refusal, got \(String(describing: outcome))")
      return
    }
    #expect(reason.contains("passes the 10000000-byte limit for images"), "\(reason)")
    print("an endless body was refused at the limit after \(seconds) s")
    // What reached the disk stayed under the limit, and memory held one network buffer.
    let written = Int(reason.split(separator: " ")[2]) ?? -1
    #expect(written > 9_000_000 && written <= 10_000_000, "\(reason)")
    #expect(download.largestChunk > 0 && download.largestChunk <= 256 * 1024)
    #expect(leftovers(folder).isEmpty)
  }

  @Test(arguments: [
    ("image/jpeg", 200_000_000, "images may be at most 10000000 bytes"),
    ("audio/mpeg", 6_000_000, "audio may be at most 5000000 bytes"),
    ("application/octet-stream", 60_000_000, "any attachment may be at most 50000000 bytes"),
  ])
  func aDeclaredLengthOverTheLimitIsRefusedBeforeTheBody(_ type: String, _ claim: Int, _ reason: String) throws {
    let server = try LoopbackHTTPServer(routes: [
      "/big": .init(contentType: type, body: [0xFF, 0xD8, 0xFF], stream: .endless, declaredLength: .claim(claim))
    ])
    let folder = try F.Folder()
    let download = try MediaDownload()
    let outcome = download.run(try #require(URL(string: server.url("/big"))), into: folder.url, timeout: 120)
    #expect(outcome == .refused(reason: "the server says \(claim) bytes; \(reason)"))
    #expect(leftovers(folder).isEmpty)
  }

  @Test func aDeclaredLengthShorterThanTheBodyEndsIt() throws {
    // The server says 1000 bytes and keeps sending: only 1000 are read.
    let server = try LoopbackHTTPServer(routes: [
      "/short": .init(contentType: "image/png", body: Self.pngSignature, stream: .endless, declaredLength: .claim(1000))
    ])
    let folder = try F.Folder()
    let outcome = try MediaDownload().run(
      try #require(URL(string: server.url("/short"))), into: folder.url, timeout: 120)
    guard case .downloaded(let file, let bytes, _) = outcome else {
      Issue.record("expected a download, got \(outcome)")
      return
    }
    let data = try Data(contentsOf: file)
    #expect(bytes == 1000 && data.count == 1000)
  }

  @Test func aSlowDripIsCutOffAtTheDeadline() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/drip": .init(
        contentType: "image/png", body: Self.pngSignature, stream: .drip(interval: 0.05), declaredLength: .none)
    ])
    let folder = try F.Folder()
    var outcome: MediaDownload.Outcome?
    let seconds = elapsed {
      outcome = try? MediaDownload().run(
        try! #require(URL(string: server.url("/drip"))), into: folder.url, timeout: 1.5)
    }
    guard case .timedOut(let bytes) = outcome else {
      Issue.record("expected a time-out, got \(String(describing: outcome))")
      return
    }
    #expect(bytes >= Self.pngSignature.count)
    // Never before the deadline; the drip (a minute long) is cut off however late a busy
    // machine gets there.
    #expect(seconds >= 1.4 && seconds < 30, "\(seconds) s")
    #expect(leftovers(folder).isEmpty)
  }

  @Test func cancelStopsADownloadFromAnotherThread() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/drip": .init(
        contentType: "image/png", body: Self.pngSignature, stream: .drip(interval: 0.05), declaredLength: .none)
    ])
    let folder = try F.Folder()
    let download = try MediaDownload()
    let url = try #require(URL(string: server.url("/drip")))
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { download.cancel() }
    var outcome: MediaDownload.Outcome?
    let seconds = elapsed { outcome = download.run(url, into: folder.url, timeout: 120) }
    // Cancelled, not timed out (120 s), however late a busy machine gets there.
    #expect(outcome == .cancelled)
    #expect(seconds >= 0.4 && seconds < 110, "\(seconds) s")
    #expect(leftovers(folder).isEmpty)
  }

  @Test func refusalsNameTheirReason() throws {
    let server = try LoopbackHTTPServer(routes: [
      "/page": .init(contentType: "text/html", body: Array(String(repeating: "<p>not a picture</p>", count: 20).utf8)),
      "/tiny": .init(contentType: "text/plain", body: Array("hi".utf8)),
      "/to-file": .init(status: 302, contentType: "text/plain", body: [], headers: ["Location: file:///etc/hostname"]),
      "/moved": .init(status: 301, contentType: "text/plain", body: [], headers: ["Location: /page"]),
    ])
    let folder = try F.Folder()
    func outcome(_ path: String) throws -> MediaDownload.Outcome {
      try MediaDownload().run(try #require(URL(string: server.url(path))), into: folder.url, timeout: 120)
    }
    let notMedia = MediaDownload.Outcome.refused(reason: "the content is not a supported image, audio or movie format")
    #expect(try outcome("/page") == notMedia)
    #expect(try outcome("/tiny") == notMedia)
    #expect(try outcome("/missing") == .refused(reason: "HTTP 404"))
    // Redirects are followed, but only to http and https.
    #expect(try outcome("/moved") == notMedia)
    guard case .refused(let reason) = try outcome("/to-file") else {
      Issue.record("a redirect to file: was followed")
      return
    }
    #expect(reason.lowercased().contains("file"), "\(reason)")
    #expect(leftovers(folder).isEmpty)
  }
}
