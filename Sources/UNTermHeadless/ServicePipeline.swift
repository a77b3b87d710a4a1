import Foundation
import UNTermState
import UserNotificationsModel

/// Runs notification service extensions as iOS does: only for `mutable-content: 1` with alert
/// text, within a time budget, calling `serviceExtensionTimeWillExpire()` at expiry and showing
/// the original content when the handler is never called or hands back no alert text.
///
/// The extension runs on its own queue; its content handler may be called from any thread. The
/// budget runs on the session's clock (virtual in scripts and `render`). So that a run shows the
/// same on a loaded machine as on an idle one, real time never cuts an extension's own work:
/// while its `didReceive` (or `serviceExtensionTimeWillExpire()`) is running, `settle` waits for
/// it, however long that takes (up to `hangGuard`). Only an extension that has gone quiet — its
/// code returned, its handler not called yet: waiting on a server or a timer — is waited for a
/// grace of real time, once; after that its budget on the session's clock decides.
///
/// Results are handed to the session in push order for each identifier, so a request pushed
/// again is shown after the first run's result, whichever finished first.
package final class ServicePipeline: @unchecked Sendable {
  /// One extension run.
  private final class Job: @unchecked Sendable {
    let sequence: Int
    let request: UNNotificationRequest
    let service: UNNotificationServiceExtension
    let name: String
    let started: Date
    let deadline: Date
    let startedReal = Date()
    var result: UNNotificationContent?
    var handlerCalled = false
    /// The handler's result is queued for the session (`post`), or the job finished without it.
    var handedOver = false
    var finished = false
    /// What `finish` fixed as the content to show (`nil`: the original).
    var outcome: UNNotificationContent?
    var expiring = false
    /// Whether the extension's own code (`didReceive`) is running, or has yet to start.
    var working = true
    /// When `didReceive` returned (real time): from then on the extension waits on something else.
    var quietSince: Date?

    init(
      sequence: Int, request: UNNotificationRequest, service: UNNotificationServiceExtension, name: String,
      started: Date, deadline: Date
    ) {
      self.sequence = sequence
      self.request = request
      self.service = service
      self.name = name
      self.started = started
      self.deadline = deadline
    }
  }

  private let lock = NSLock()
  private let condition = NSCondition()
  /// Runs not yet shown, in push order.
  private var jobs: [Job] = []
  private var sequence = 0
  private let extensionQueue = DispatchQueue(label: "unterm.service-extension", attributes: .concurrent)

  /// How long a content handler may take after `serviceExtensionTimeWillExpire()` returns; on a
  /// real clock (the interactive session) also how long that call itself may take.
  package static let expiryGrace: TimeInterval = 1

  /// How long an extension's own code is waited for before it is taken to hang; only then does
  /// real time stand in for the budget on a virtual clock.
  package static let hangGuard: TimeInterval = 60

  /// Called on the session's queue with the content to present (`nil`: the original).
  package var deliver: ((UNNotificationRequest, UNNotificationContent?) -> Void)?
  /// A step of the pipeline, for the trace (its timing stays off the screen).
  package var trace: ((TraceLine) -> Void)?
  /// Posts work to the session's thread.
  package var post: ((@escaping @Sendable () -> Void) -> Void)?
  /// The session's center: the extension's code, on its own thread, finds it as `current()`
  /// (bound around `didReceive` and `serviceExtensionTimeWillExpire()`; tasks started there
  /// inherit it).
  package weak var center: UNUserNotificationCenter?

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
    lock.lock()
    sequence += 1
    let job = Job(
      sequence: sequence, request: request, service: service, name: name, started: now,
      deadline: now.addingTimeInterval(budget))
    jobs.append(job)
    lock.unlock()
    trace?("\(request.identifier): mutable-content 1 → \(name) started (budget \(Self.format(budget)))")
    let handler: (UNNotificationContent) -> Void = { [weak self, weak job] content in
      guard let self, let job else { return }
      self.handlerCalled(job, content)
    }
    let box = ServiceBox(service: service, request: request, handler: handler)
    let center = center
    extensionQueue.async { [weak self] in
      UNUserNotificationCenter.$bound.withValue(center) {
        box.service.didReceive(box.request, withContentHandler: box.handler)
      }
      self?.returned(job)
    }
  }

  /// `didReceive` returned: what the extension still does, it does without its own code running.
  private func returned(_ job: Job) {
    lock.lock()
    job.working = false
    job.quietSince = Date()
    lock.unlock()
    wake()
  }

  private func wake() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
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
    // The trace line and the delivery are queued before anyone waiting in `settle` or `expire`
    // learns of the call, so they are there when it drains.
    post? { [weak self] in self?.finish(job) }
    lock.lock()
    job.handedOver = true
    lock.unlock()
    wake()
  }

  /// Fixes a job's content (validated), then shows every finished run whose earlier runs of
  /// the same identifier are shown.
  private func finish(_ job: Job) {
    lock.lock()
    guard !job.finished else {
      lock.unlock()
      return
    }
    job.finished = true
    job.handedOver = true
    job.outcome = job.result
    var ready: [Job] = []
    var kept: [Job] = []
    var waiting: Set<String> = []
    for candidate in jobs {
      let id = candidate.request.identifier
      if candidate.finished && !waiting.contains(id) {
        ready.append(candidate)
      } else {
        waiting.insert(id)
        kept.append(candidate)
      }
    }
    jobs = kept
    lock.unlock()
    wake()
    for done in ready { show(done) }
  }

  private func show(_ job: Job) {
    guard let content = job.outcome else {
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
    return jobs.filter { !$0.finished && !$0.handlerCalled && !$0.expiring }.map(\.deadline).min()
  }

  /// Whether any run is not shown yet.
  package var isBusy: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !jobs.isEmpty
  }

  /// Expires every extension whose deadline is at or before `now`, earliest first: calls
  /// `serviceExtensionTimeWillExpire()`, waits for it to return and a moment for the handler,
  /// then shows what it got, or the original.
  ///
  /// - Parameter patient: on a virtual clock, `serviceExtensionTimeWillExpire()` is waited for
  ///   however long it runs (up to `hangGuard`), so a best attempt it hands over is never lost
  ///   to a busy machine; on a real clock it gets `expiryGrace`.
  package func expire(at now: Date, patient: Bool = true) {
    lock.lock()
    let due = jobs.filter { !$0.finished && !$0.handlerCalled && !$0.expiring && $0.deadline <= now }
      .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    for job in due { job.expiring = true }
    lock.unlock()
    for job in due {
      trace?(
        "\(job.request.identifier): the \(Self.format(job.deadline.timeIntervalSince(job.started))) budget ran out; serviceExtensionTimeWillExpire()"
      )
      let done = DispatchSemaphore(value: 0)
      let box = ServiceBox(service: job.service, request: job.request, handler: { _ in })
      let center = center
      extensionQueue.async {
        UNUserNotificationCenter.$bound.withValue(center) { box.service.serviceExtensionTimeWillExpire() }
        done.signal()
      }
      _ = done.wait(timeout: .now() + (patient ? Self.hangGuard : Self.expiryGrace))
      waitForHandOver(job, until: Date().addingTimeInterval(Self.expiryGrace))
      finish(job)
    }
  }

  private func waitForHandOver(_ job: Job, until limit: Date) {
    condition.lock()
    defer { condition.unlock() }
    while !handedOver(job) && Date() < limit {
      _ = condition.wait(until: min(limit, Date().addingTimeInterval(0.05)))
    }
  }

  private func handedOver(_ job: Job) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return job.handedOver
  }

  /// Waits, in real time, until every running extension has handed over its result or gone
  /// quiet for `quiet` seconds; one still running its own code is waited for up to `hangGuard`.
  /// `service` runs on every wake-up (the session drains its queue there, so an extension that
  /// asks the center something while it works gets its answer).
  package func settle(quiet: TimeInterval, service: () -> Void = {}) {
    while true {
      service()
      let now = Date()
      lock.lock()
      let pending = jobs.contains { job in
        guard !job.finished, !job.handedOver else { return false }
        if job.working { return now < job.startedReal.addingTimeInterval(Self.hangGuard) }
        return now < (job.quietSince ?? now).addingTimeInterval(quiet)
      }
      lock.unlock()
      if !pending { return }
      condition.lock()
      _ = condition.wait(until: now.addingTimeInterval(0.05))
      condition.unlock()
    }
  }

  static func format(_ seconds: TimeInterval) -> String {
    seconds < 1 ? "\(Int(saturating: (seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
  }
}

/// Hands an extension and its arguments to the extension queue.
private struct ServiceBox: @unchecked Sendable {
  let service: UNNotificationServiceExtension
  let request: UNNotificationRequest
  let handler: (UNNotificationContent) -> Void
}
