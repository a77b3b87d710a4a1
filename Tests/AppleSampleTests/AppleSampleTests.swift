import Foundation
import Testing
import UNTermTestSupport
import UserNotifications

@testable import UNTermHeadless
@testable import UNTermInput

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

/// Issue 17.5: app code using the iOS 15 communication API, the `async` forms and a location
/// trigger compiles unchanged (CommunicationService.swift, Swift 5 mode) and behaves as UNTerm
/// can show it.
@Suite("iOS 15 notification code")
struct ModernAppCodeTests {
  /// Runs `body` while a thread of its own drains the session's queue, as the interactive loop
  /// does while app code awaits the center (the shared pool may be busy with other tests).
  private func serving<T: Sendable>(_ session: Session, _ body: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    let stop = ResultBox<Bool>()
    let stopped = DispatchSemaphore(value: 0)
    let unchecked = UncheckedSession(session: session)
    Thread {
      while stop.get() == nil {
        unchecked.session.drain()
        usleep(1000)
      }
      stopped.signal()
    }.start()
    defer {
      stop.set(.success(true))
      stopped.wait()
    }
    return try await body()
  }

  /// Settles the session's service extensions until `identifier` is delivered.
  private func delivered(_ identifier: String, in session: Session) async throws {
    for _ in 0..<5_000 where session.state.store.delivered(identifier) == nil {
      session.settleServiceExtensions()
      try await Task.sleep(nanoseconds: 1_000_000)
    }
  }

  @Test func aCommunicationNotificationNamesItsSenderInTheHeader() async throws {
    let session = try Fixtures.session(size: (80, 24))
    session.serviceExtension = { CommunicationService() }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"New message","body":"Dinner at 8?"},"mutable-content":1,"thread-id":"ana"},"sender-name":"Ana Lima","sender-id":"ana@example.com"}"#,
      into: session)
    try await delivered("req-1", in: session)
    let lines = session.frame().grid.lines
    #expect(lines.contains { $0.contains("│ [AL] Ana Lima · App") }, "\(lines.joined(separator: "\n"))")
    // With previews hidden (locked), the sender is not shown.
    session.send(.command(.lock))
    #expect(!session.frame().grid.text.contains("Ana Lima"))
  }

  @Test func aGroupMessageNamesTheGroupToo() async throws {
    let session = try Fixtures.session(size: (80, 24))
    session.serviceExtension = { CommunicationService() }
    try Fixtures.push(
      #"{"aps":{"alert":{"body":"I'll bring cake"},"mutable-content":1},"sender-name":"প্রজ্ঞা","group":"Family"}"#,
      into: session)
    try await delivered("req-1", in: session)
    #expect(session.frame().grid.text.contains("[প্র] প্রজ্ঞা in Family · App"), "\(session.frame().grid.text)")
  }

  @Test func anAsyncDelegateIsAskedAndAnswered() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    let delegate = AsyncAppDelegate()
    center.delegate = delegate
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    session.resize(width: 80, height: 24)
    session.send(.command(.setAppState(.foreground)))
    try Fixtures.push(#"{"aps":{"alert":{"title":"Hi","body":"there"}}}"#, into: session)
    for _ in 0..<5_000 where session.state.store.delivered("req-1") == nil {
      session.drain()
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(delegate.presented == ["req-1"])
    session.send(.command(.tap))
    for _ in 0..<5_000 where delegate.responses.isEmpty {
      session.drain()
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(delegate.responses == [UNNotificationDefaultActionIdentifier])
  }

  /// A location trigger is accepted and stays pending: there is no location to reach. The
  /// center's `async` calls answer once the session has applied them.
  @Test func aLocationTriggerNeverFires() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    let session = try SessionFactory.make(SessionConfiguration(), now: Fixtures.now, center: center)
    defer { session.detach() }
    let state = try await serving(session) { try await NotificationScheduler.remindAtTheOffice(center) }
    #expect(state.pending == ["plants"])
    #expect(state.delivered == ["now"])
    #expect(state.alerts)
    #expect(
      session.state.notices.contains {
        $0.text
          == "plants: a location trigger (CLCircularRegion \"office\" (38.7223, -9.1393) radius 100.0 m) never fires here: UNTerm has no location, so the request stays pending"
      })
    session.advance(to: Fixtures.now.addingTimeInterval(30 * 86_400))
    #expect(session.state.store.delivered("plants") == nil)
    #expect(session.state.store.pending["plants"] != nil)
  }

  /// Without a session, the center keeps the request pending too.
  @Test func theCenterAloneKeepsItPending() async throws {
    let center = UNUserNotificationCenter.makeForSession()
    #expect(try await NotificationScheduler.remindAtTheOffice(center).pending == ["plants"])
  }

  @Test func anythingButAnIntentIsRefused() throws {
    final class NotAnIntent: NSObject, UNNotificationContentProviding {}
    #expect(throws: UNError.self) { try UNNotificationContent().updating(from: NotAnIntent()) }
  }
}

/// A result handed from a task to the test's thread.
final class ResultBox<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Result<T, any Error>?

  func set(_ result: Result<T, any Error>) {
    lock.lock()
    value = result
    lock.unlock()
  }

  func get() -> Result<T, any Error>? {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}

/// The session handed to the thread that drains it while the test's task waits.
struct UncheckedSession: @unchecked Sendable {
  let session: Session
}
