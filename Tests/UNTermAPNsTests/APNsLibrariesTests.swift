import Testing

@testable import UNTermAPNs

@Suite("The APNs endpoint's libraries")
struct APNsLibrariesTests {
  @Test("OpenSSL 3 and nghttp2 open on this machine")
  func bothOpen() throws {
    #expect(APNsLibraries.loadError == nil)
    let versions = try #require(APNsLibraries.versions)
    #expect(versions.hasPrefix("OpenSSL 3."))
    #expect(versions.contains(", nghttp2 1."))
  }
}
