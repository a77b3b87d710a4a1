import Foundation
import UNTermCore
import UserNotifications

/// Runs notification service extensions as iOS does: only for `mutable-content: 1` with alert
/// text, within a time budget, calling `serviceExtensionTimeWillExpire()` at expiry and showing
/// the original content when the handler is never called or hands back no alert text.
///
/// The extension runs on its own queue; its content handler may be called from any thread. The
/// budget runs on the session's clock (virtual in scripts), so a run is deterministic: before
/// the clock moves, `settle` lets running extensions finish in real time for a short grace.
package final class ServicePipeline: @unchecked Sendable {
  /// One extension run.
  private final class Job: @unchecked Sendable {
    let request: UNNotificationRequest
    let service: UNNotificationServiceExtension
    let name: String
    let started: Date
    let deadline: Date
    let startedReal = Date()
    var result: UNNotificationContent?
    var handlerCalled = false
    var finished = false
    var expiring = false

    init(
      request: UNNotificationRequest, service: UNNotificationServiceExtension, name: String, started: Date,
      deadline: Date
    ) {
      self.request = request
      self.service = service
      self.name = name
      self.started = started
      self.deadline = deadline
    }
  }

  private let lock = NSLock()
  private let condition = NSCondition()
  private var jobs: [String: Job] = [:]
  private let extensionQueue = DispatchQueue(label: "unterm.service-extension", attributes: .concurrent)

  /// How long a content handler may take after `serviceExtensionTimeWillExpire()` returns.
  package static let expiryGrace: TimeInterval = 1

  /// Called on the session's queue with the content to present (`nil`: the original).
  package var deliver: ((UNNotificationRequest, UNNotificationContent?) -> Void)?
  /// A step of the pipeline, for the trace (its timing stays off the screen).
  package var trace: ((TraceLine) -> Void)?
  /// Posts work to the session's thread.
  package var post: ((@escaping @Sendable () -> Void) -> Void)?

  package init() {}

  /// Whether iOS would run a service extension for this request.
  package static func applies(to request: UNNotificationRequest) -> Bool {
    request.remote?.mutableContent == true && request.content.hasAlertText
  }

  /// Starts an extension on a request.
  package func start(
    _ request: UNNotificationRequest, with service: UNNotificationServiceExtension, name: String,
    now: Date, budget: TimeInterval
  ) {
    let job = Job(
      request: request, service: service, name: name, started: now, deadline: now.addingTimeInterval(budget))
    lock.lock()
    jobs[request.identifier] = job
    lock.unlock()
    trace?("\(request.identifier): mutable-content 1 → \(name) started (budget \(Self.format(budget)))")
    let handler: (UNNotificationContent) -> Void = { [weak self, weak job] content in
      guard let self, let job else { return }
      self.handlerCalled(job, content)
    }
    let box = ServiceBox(service: service, request: request, handler: handler)
    extensionQueue.async {
      box.service.didReceive(box.request, withContentHandler: box.handler)
    }
  }

  private func handlerCalled(_ job: Job, _ content: UNNotificationContent) {
    lock.lock()
    if job.handlerCalled {
      lock.unlock()
      trace?("\(job.request.identifier): the content handler was called again; ignored")
      return
    }
    job.handlerCalled = true
    job.result = (content.copy() as? UNNotificationContent) ?? content
    lock.unlock()
    let elapsed = Date().timeIntervalSince(job.startedReal)
    trace?(TraceLine("\(job.request.identifier): content handler called", timing: "after \(Self.format(elapsed))"))
    // Post the delivery before waking anyone waiting in `settle`, so it is queued when they
    // drain.
    post? { [weak self] in self?.finish(job) }
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// Presents a job's content once, validating it first.
  private func finish(_ job: Job) {
    lock.lock()
    guard !job.finished else {
      lock.unlock()
      return
    }
    job.finished = true
    if jobs[job.request.identifier] === job { jobs[job.request.identifier] = nil }
    let result = job.result
    lock.unlock()
    guard let content = result else {
      trace?("\(job.request.identifier): the handler was never called; the original content is shown")
      deliver?(job.request, nil)
      return
    }
    guard content.hasAlertText else {
      trace?(
        "\(job.request.identifier): the extension returned content without alert text; iOS ignores it and shows the original"
      )
      deliver?(job.request, nil)
      return
    }
    deliver?(job.request, content)
  }

  /// The earliest deadline of a running extension.
  package var nextDeadline: Date? {
    lock.lock()
    defer { lock.unlock() }
    return jobs.values.filter { !$0.finished && !$0.expiring }.map(\.deadline).min()
  }

  /// Whether any extension is still running.
  package var isBusy: Bool {
    lock.lock()
    defer { lock.unlock() }
    return jobs.values.contains { !$0.finished }
  }

  /// Expires every extension whose deadline is at or before `now`: calls
  /// `serviceExtensionTimeWillExpire()`, waits a moment for the handler, then shows what it
  /// got, or the original.
  package func expire(at now: Date) {
    lock.lock()
    let due = jobs.values.filter { !$0.finished && !$0.handlerCalled && !$0.expiring && $0.deadline <= now }
    for job in due { job.expiring = true }
    lock.unlock()
    for job in due {
      trace?(
        "\(job.request.identifier): the \(Self.format(job.deadline.timeIntervalSince(job.started))) budget ran out; serviceExtensionTimeWillExpire()"
      )
      let done = DispatchSemaphore(value: 0)
      let box = ServiceBox(service: job.service, request: job.request, handler: { _ in })
      extensionQueue.async {
        box.service.serviceExtensionTimeWillExpire()
        done.signal()
      }
      _ = done.wait(timeout: .now() + Self.expiryGrace)
      waitForHandler(job, until: Date().addingTimeInterval(Self.expiryGrace))
      finish(job)
    }
  }

  private func waitForHandler(_ job: Job, until limit: Date) {
    condition.lock()
    defer { condition.unlock() }
    while !handlerSeen(job) && Date() < limit {
      _ = condition.wait(until: limit)
    }
  }

  private func handlerSeen(_ job: Job) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return job.handlerCalled
  }

  /// Waits in real time, up to `grace`, for running extensions to call their handlers; used
  /// before the clock moves, so quick extensions always finish first.
  package func settle(grace: TimeInterval) {
    let limit = Date().addingTimeInterval(grace)
    condition.lock()
    while Date() < limit {
      lock.lock()
      let pending = jobs.values.contains { !$0.finished && !$0.handlerCalled }
      lock.unlock()
      if !pending { break }
      _ = condition.wait(until: min(limit, Date().addingTimeInterval(0.05)))
    }
    condition.unlock()
  }

  static func format(_ seconds: TimeInterval) -> String {
    seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
  }
}

/// Hands an extension and its arguments to the extension queue.
private struct ServiceBox: @unchecked Sendable {
  let service: UNNotificationServiceExtension
  let request: UNNotificationRequest
  let handler: (UNNotificationContent) -> Void
}
