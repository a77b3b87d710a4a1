import Foundation
import Testing
import UNTermTestSupport
import UserNotifications

@testable import UNTermCore
@testable import UNTermHeadless

@Suite("Apple's documentation sample", .hangGuard)
struct AppleSampleTests {
  @Test func documentationServiceExtensionRunsUnchanged() throws {
    let png = TestImages.png(width: 2, height: 2) { _, _ in (0, 200, 0) }
    let server = try LoopbackHTTPServer(routes: ["/cover.png": .init(contentType: "image/png", body: png)])
    defer { server.stop() }
    let session = try Fixtures.session()
    session.serviceExtension = { NotificationService() }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"Episode"},"mutable-content":1},"image-url":"\#(server.url("/cover.png"))"}"#,
      into: session)
    // The download takes real time, however long the machine makes it.
    Eventually.wait(between: session.settleServiceExtensions) { session.state.store.delivered("req-1") != nil }
    let shown = try #require(session.state.store.delivered("req-1"))
    #expect(shown.request.content.title == "Episode [modified]")
    #expect(shown.request.content.attachments.first?.type == "public.png")
  }
}
