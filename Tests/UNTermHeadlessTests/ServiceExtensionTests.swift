import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermScript
@testable import UserNotificationsModel

/// The mutable-content pipeline, with a loopback server started by the test and the virtual
/// clock of the session. The suites under here run one test at a time.
@Suite("Service extensions", .serialized, .hangGuard)
enum ServiceExtensionTests {}

extension ServiceExtensionTests {
  /// What the built-in extension attaches: local files inside the media folder, typed by their
  /// name, and downloads held to the image limit and the budget.
  @Suite("Attachments and downloads")
  struct Attachments: ServiceExtensionTesting {
    @Test func attachesARelativeFileAndRunsOnlyForMutableContentWithAlertText() throws {
      let dir = try Fixtures.temporaryDirectory()
      try Data(Self.png).write(to: dir.appendingPathComponent("pic.png"))
      let (session, trace) = try session()
      try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"image-url":"pic.png"}"#, in: dir))
      session.settleServiceExtensions()
      #expect(delivered(session)?.request.content.attachments.first?.type == "public.png")
      #expect(trace().contains { $0.contains("attached PNG") })
      // Without mutable-content, or without alert text, nothing runs.
      try session.push(try payload(#"{"aps":{"alert":"hi"},"image-url":"pic.png"}"#, in: dir))
      #expect(session.state.store.delivered("req-2")?.request.content.attachments.isEmpty == true)
      try session.push(try payload(#"{"aps":{"badge":2,"mutable-content":1},"image-url":"pic.png"}"#, in: dir))
      #expect(!session.pipeline.isBusy)
      #expect(session.state.store.badge == 2)
    }

    @Test func downloadsOverHTTP() throws {
      let server = try LoopbackHTTPServer(routes: ["/pic": .init(contentType: "image/png", body: Self.png)])
      defer { server.stop() }
      let dir = try Fixtures.temporaryDirectory()
      let (session, trace) = try session()
      try session.push(
        try payload(#"{"aps":{"alert":"hi","mutable-content":1},"media-url":"\#(server.url("/pic"))"}"#, in: dir))
      settleUntilDelivered(session)
      #expect(delivered(session)?.request.content.attachments.first?.format == .png)
      #expect(trace().contains { $0.contains("downloaded \(Self.png.count) bytes") })
    }

    /// The server never answers while the test runs: only the budget on the session's clock can
    /// end the download, so the original showing proves the clock decided, however slow the
    /// machine.
    @Test func aSlowServerHitsTheBudgetAndTheOriginalIsShownOnTime() throws {
      let server = try LoopbackHTTPServer(routes: [
        "/slow": .init(contentType: "image/png", body: Self.png, stalls: true)
      ]
      )
      defer { server.stop() }
      let dir = try Fixtures.temporaryDirectory()
      let (session, trace) = try session(timeout: 5)
      try session.push(
        try payload(#"{"aps":{"alert":"original","mutable-content":1},"image-url":"\#(server.url("/slow"))"}"#, in: dir)
      )
      session.settleServiceExtensions()
      #expect(delivered(session) == nil)
      session.advance(to: session.state.now.addingTimeInterval(4.9))
      #expect(delivered(session) == nil)
      session.advance(to: session.state.now.addingTimeInterval(0.6))
      let shown = try #require(delivered(session))
      #expect(shown.request.content.body == "original")
      #expect(shown.request.content.attachments.isEmpty)
      #expect(trace().contains { $0.contains("budget ran out; serviceExtensionTimeWillExpire()") })
      #expect(trace().contains { $0.contains("req-1: download stopped — the 5.0 s budget ran out; shown without it") })
    }

    @Test func anEndlessDownloadIsStoppedAtTheImageLimitAndTheNotificationShownWithoutIt() throws {
      let server = try LoopbackHTTPServer(routes: [
        "/endless": .init(contentType: "image/png", body: Self.pngSignature, stream: .endless, declaredLength: .none)
      ])
      let dir = try Fixtures.temporaryDirectory()
      // A budget no busy machine runs out of first: the limit must be what stops it.
      let (session, trace) = try session(timeout: 300)
      let seconds = try pushRemote(session, server.url("/endless"), budget: 300, in: dir)
      print("an endless download stopped at the image limit after \(seconds) s")
      let shown = try #require(delivered(session))
      #expect(shown.request.content.body == "original" && shown.request.content.attachments.isEmpty)
      #expect(
        trace().contains {
          $0.contains("req-1: download refused — stopped after ")
            && $0.contains("bytes: the body passes the 10000000-byte limit for images; shown without it")
        }, "\(trace())")
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeTheBody() throws {
      let server = try LoopbackHTTPServer(routes: [
        "/huge": .init(
          contentType: "image/jpeg", body: [0xFF, 0xD8, 0xFF], stream: .endless, declaredLength: .claim(200_000_000))
      ])
      let dir = try Fixtures.temporaryDirectory()
      let (session, trace) = try session(timeout: 300)
      let seconds = try pushRemote(session, server.url("/huge"), budget: 300, in: dir)
      print("a declared length over the limit was refused after \(seconds) s")
      // Refused on the header: the body was never taken to the limit.
      #expect(server.bytesSent("/huge") < 10_000_000, "\(server.bytesSent("/huge")) bytes sent")
      #expect(delivered(session)?.request.content.attachments.isEmpty == true)
      #expect(
        trace().contains(
          "req-1: download refused — the server says 200000000 bytes; images may be at most 10000000 bytes; shown without it"
        ), "\(trace())")
    }

    @Test func aSlowDripIsCutOffWhenTheBudgetEnds() throws {
      let server = try LoopbackHTTPServer(routes: [
        "/drip": .init(
          contentType: "image/png", body: Self.pngSignature, stream: .drip(interval: 0.1), declaredLength: .none)
      ])
      let dir = try Fixtures.temporaryDirectory()
      let (session, trace) = try session(timeout: 2)
      let seconds = try pushRemote(session, server.url("/drip"), budget: 2, in: dir)
      // The budget is a hard deadline: never before it, and the drip (a minute long) is cut off,
      // however late a busy machine gets there.
      #expect(seconds >= 1.9 && seconds < 30, "\(seconds) s")
      let shown = try #require(delivered(session))
      #expect(shown.request.content.body == "original" && shown.request.content.attachments.isEmpty)
      // The download's own timeout or the expiry stops it, whichever comes first on a busy
      // machine: the same event, said the same way.
      #expect(
        trace().contains { $0.contains("req-1: download stopped — the 2.0 s budget ran out; shown without it") },
        "\(trace())")
    }

    @Test(arguments: ["../outside.png", "/etc/hostname", "link.png"])
    func filesOutsideTheMediaFolderAreRefused(_ path: String) throws {
      let root = try Fixtures.temporaryDirectory()
      let media = root.appendingPathComponent("media")
      try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
      try Data(Self.png).write(to: root.appendingPathComponent("outside.png"))
      try FileManager.default.createSymbolicLink(
        atPath: media.appendingPathComponent("link.png").path,
        withDestinationPath: root.appendingPathComponent("outside.png").path)
      let (session, trace) = try session()
      try session.push(
        try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"\#(path)"}"#, in: media))
      session.settleServiceExtensions()
      #expect(delivered(session)?.request.content.attachments.isEmpty == true)
      #expect(trace().contains { $0.contains("rejected") })
    }

    /// Issue 17.3: a file is typed by its name; one whose name names no type is refused, and one
    /// over its type's limit too. A file whose bytes do not match its name is attached.
    @Test func untypedAndOversizedFilesAreRefused() throws {
      let dir = try Fixtures.temporaryDirectory()
      try Data(Self.png).write(to: dir.appendingPathComponent("picture.data"))
      try Data(Self.png + [UInt8](repeating: 0, count: 10_000_001)).write(to: dir.appendingPathComponent("huge.png"))
      for (name, reason) in [("picture.data", "names no supported type"), ("huge.png", "at most 10000000 bytes")] {
        let (session, trace) = try session()
        try session.push(
          try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"\#(name)"}"#, in: dir))
        session.settleServiceExtensions()
        #expect(delivered(session)?.request.content.attachments.isEmpty == true)
        #expect(trace().contains { $0.contains(reason) }, "\(trace())")
      }
    }

    @Test func aFileWhoseBytesDoNotMatchItsNameIsAttached() throws {
      let dir = try Fixtures.temporaryDirectory()
      try Data("not an image at all".utf8).write(to: dir.appendingPathComponent("fake.png"))
      let (session, trace) = try session()
      try session.push(try payload(#"{"aps":{"alert":"hi","mutable-content":1},"attachment-url":"fake.png"}"#, in: dir))
      session.settleServiceExtensions()
      #expect(delivered(session)?.request.content.attachments.first?.type == "public.png")
      #expect(
        trace().contains {
          $0.contains("attached PNG (19 bytes) from attachment-url — the file name says PNG but the content is not PNG")
        }, "\(trace())")
    }
  }
}
