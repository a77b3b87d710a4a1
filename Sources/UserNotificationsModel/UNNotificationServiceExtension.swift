import Foundation

/// Modifies the content of a remote notification before it is shown.
///
/// Subclass it and override `didReceive(_:withContentHandler:)`, or its `async` form
/// `didReceive(_:) async -> UNNotificationContent`. The system runs it only for a payload with
/// `mutable-content: 1` and alert text. If the content has not come back when the time budget
/// (30 s) runs out, `serviceExtensionTimeWillExpire()` is called as a last chance; if it still
/// has not, the original content is shown. Content handed back without alert text is ignored.
open class UNNotificationServiceExtension: NSObject {
  public override init() { super.init() }

  /// Called with the request; call `contentHandler` with the content to show.
  ///
  /// The default implementation calls the `async` form and hands on what it returns.
  open func didReceive(
    _ request: UNNotificationRequest,
    withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    let box = UncheckedServiceCall(extension: self, request: request, handler: contentHandler)
    // On threads of its own, as an extension runs in its own process: the shared pool may be
    // busy with the host's work, and the extension must not wait for it. This call lasts as
    // long as the `async` form works, so the host sees the extension working, as it does one
    // that calls its handler before returning.
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: ServiceExtensionExecutor.shared) {
      box.handler(await box.extension.didReceive(box.request))
      done.signal()
    }
    done.wait()
  }

  /// Called with the request; return the content to show.
  ///
  /// The `async` form Swift offers for `didReceive(_:withContentHandler:)`; override either.
  /// The default implementation returns the content unchanged.
  open func didReceive(_ request: UNNotificationRequest) async -> UNNotificationContent {
    request.content
  }

  /// Called when the time budget is about to run out.
  open func serviceExtensionTimeWillExpire() {}
}

/// Carries the extension, its request and the content handler into the task that runs the
/// `async` form; the system makes one such call per extension instance.
private struct UncheckedServiceCall: @unchecked Sendable {
  let `extension`: UNNotificationServiceExtension
  let request: UNNotificationRequest
  let handler: (UNNotificationContent) -> Void
}

/// Runs the app's `async` work that UNTerm starts for it (service extensions, the delegate's
/// `async` forms) on a queue of its own rather than the shared pool: the pool may be busy with
/// the host's work (on a two-core machine, two blocked threads stop it), and the app's answer
/// must not wait for it.
package final class ServiceExtensionExecutor: TaskExecutor, @unchecked Sendable {
  package static let shared = ServiceExtensionExecutor()
  private let queue = DispatchQueue(label: "unterm.service-extension.async", attributes: .concurrent)

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
