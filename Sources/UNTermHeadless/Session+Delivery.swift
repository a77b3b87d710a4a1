import ActivityKit
import Foundation
import UNTermBidi
import UNTermInput
import UNTermRender
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

#if canImport(Glibc)
  import Glibc
#endif

// Delivery and time: pushes, the service extensions, presenting, and the clock.
extension Session {
  /// Notes the attachments the media decoder cannot draw (corrupt, truncated, too large to
  /// decode). They stay in the content, as on iOS, where an attachment is checked for its type
  /// and size only; the card shows a one-line placeholder with the reason where the image would be.
  private func noteUnavailableAttachments(of request: UNNotificationRequest) {
    // Without attachments there is nothing to check, and the cast's conformance lookup (a scan
    // of every conformance in the binary, the first time) is not paid.
    guard !request.content.attachments.isEmpty else { return }
    let images = renderer.images as? any AttachmentValidating
    for attachment in request.content.attachments {
      if attachment.format.kind != .image, let mismatch = attachment.contentMismatch {
        // Not drawn anyway; still said, as iOS would attach it as its name's type.
        let text =
          "\(request.identifier): attachment \(OneLine.flatten(attachment.url.lastPathComponent)) — \(mismatch); attached as \(attachment.format.displayName) all the same"
        traceOutput?(TraceLine(text))
        send(.notice(.warning, text))
        continue
      }
      guard let problem = images?.problem(with: attachment) else { continue }
      let text =
        "\(request.identifier): attachment \(OneLine.flatten(attachment.url.lastPathComponent)) cannot be shown — \(problem); the card says so where the image would be"
      traceOutput?(TraceLine(text))
      send(.notice(.warning, text))
    }
  }

  /// The next request identifier, `req-1`, `req-2`, …
  package func nextRequestIdentifier() -> String {
    requestCounter += 1
    return "req-\(requestCounter)"
  }

  /// Delivers a loaded payload now; a mutable-content payload with alert text goes through the
  /// service extension first. An `apns-collapse-id` is the request's identifier, as on iOS, so
  /// it replaces the notification delivered with it; a push whose `apns-expiration` has passed
  /// on the session's clock is discarded, as APNs discards it.
  ///
  /// - Returns: the request's identifier (a refused payload takes none).
  @discardableResult
  package func push(_ payload: Payload, identifier: String? = nil) throws(UNTermError) -> String {
    if payload.isLiveActivity { return pushActivity(payload, name: identifier) }
    let collapsed = payload.info.headers.collapseID.flatMap { $0.isEmpty ? nil : $0 }
    var request = try payload.request(identifier: collapsed ?? identifier ?? "pending")
    if collapsed == nil && identifier == nil { request = request.replacing(identifier: nextRequestIdentifier()) }
    if let expired = APNsRules.expired(payload.info.headers, at: state.now) {
      send(
        .notice(
          .warning,
          "\(request.identifier) is not delivered: its apns-expiration (\(ISO8601.format(expired))) has passed, so APNs discards it",
          revealsContent: false))
      return request.identifier
    }
    warnIfAnotherAppsCategory(payload, request)
    // The loc keys resolve in the device language now: what the app and its service extension
    // see. The keys stay with the content, so the screen follows a later change of language.
    request = request.replacing(
      content: state.localization.localized(request.content, device: state.device.kind.rawValue))
    guard ServicePipeline.applies(to: request) else {
      present(request)
      return request.identifier
    }
    let service: UNNotificationServiceExtension
    let name: String
    if let make = serviceExtension {
      service = make()
      name = "the app's service extension (\(type(of: service)))"
    } else {
      let folder =
        payload.file == "-"
        ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        : URL(fileURLWithPath: payload.file).deletingLastPathComponent()
      service = BuiltInServiceExtension(
        payloadDirectory: folder, mediaDirectory: mediaDirectory.map { URL(fileURLWithPath: $0) },
        mediaDirectoryOption: mediaDirectoryOption, budget: configuration.serviceTimeout,
        trace: { [weak self] line in self?.pipeline.trace?(line) })
      name = "the built-in service extension"
    }
    pipeline.start(request, with: service, name: name, now: state.now, budget: configuration.serviceTimeout)
    return request.identifier
  }

  /// A pushed notification whose category only other apps registered shows no actions, and
  /// nothing else would say why: the activity pane says so with lint's message, once per app and
  /// category (a stream of such pushes is one mistake).
  private func warnIfAnotherAppsCategory(_ payload: Payload, _ request: UNNotificationRequest) {
    let category = request.content.categoryIdentifier
    guard !category.isEmpty else { return }
    let registry = state.store.registry
    let app = state.store.app(of: request)
    guard registry.categories(of: app)[category] == nil,
      registry.byApp.contains(where: { $0.key != app && $0.value[category] != nil }),
      let finding = payload.diagnostics.first(where: { $0.code == .unknownCategory }),
      warnedCategories.insert(app + "\u{0}" + category).inserted
    else { return }
    send(.notice(.warning, "\(request.identifier): \(finding.message.text)", revealsContent: false))
  }

  /// Waits, in real time, for running service extensions to finish: one waiting on a server or
  /// a timer gets up to `limit` (its budget), one still running its own code (copying a local
  /// file) however long it takes; whatever is still running then expires. `render` uses this:
  /// one screen, after everything arrived.
  package func finishServiceExtensions(within limit: TimeInterval) {
    guard pipeline.isBusy else { return }
    pipeline.settle(quiet: limit, service: drain)
    drain()
    if pipeline.isBusy {
      pipeline.expire(at: .distantFuture, patient: true)
      drain()
    }
  }

  /// Presents a request: through the delegate's `willPresent` when the app is in the
  /// foreground, with the background rules otherwise.
  package func present(_ request: UNNotificationRequest) {
    noteUnavailableAttachments(of: request)
    noteBidiUnavailable(for: request.content)
    if replaceInPlace(request) { return }
    let notification = UNNotification(request: request, date: state.now)
    onDelivery?(notification)
    // Only the session's own app is ever in the foreground: another app's notification is
    // presented as for an app in the background, as iOS does.
    let asked =
      state.isAppInForeground(for: notification)
      && center.askDelegateToPresent(notification) { [weak self] options in
        self?.queue.post { [weak self] in
          self?.send(.deliver(notification, presentation: options))
        }
      }
    if asked {
      drain()
    } else {
      send(.deliver(notification, presentation: CenterState.backgroundPresentation(for: request.content)))
    }
  }

  /// Says once, in the activity pane, that right-to-left text stays in logical order when GNU
  /// FriBidi cannot be opened.
  private func noteBidiUnavailable(for content: UNNotificationContent) {
    guard !bidiChecked else { return }
    let text = content.title + content.subtitle + content.body
    guard
      text.unicodeScalars.contains(where: {
        (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFEFF).contains($0.value)
      })
    else { return }
    bidiChecked = true
    if let reason = BidiParagraph.unavailableReason {
      send(.notice(.warning, "Right-to-left text is shown in logical order: \(reason)", revealsContent: false))
    }
  }

  /// Moves the clock to `date`, letting banners retire and triggers fire on the way, in order.
  package func advance(to date: Date) {
    if settlesBeforeTime { settleServiceExtensions() }
    var steps = 0
    while let deadline = nextDeadline, deadline <= date, steps < 10_000 {
      steps += 1
      // Requests whose triggers are due come back as `.present` effects.
      send(.tick(max(deadline, state.now)))
      pipeline.expire(at: state.now, patient: settlesBeforeTime)
      drain()
      if nextDeadline == deadline { break }
    }
    send(.tick(date))
    drain()
  }

  /// The next time something happens by itself: a banner retiring, a trigger firing, a
  /// service extension's budget running out.
  package var nextDeadline: Date? {
    [state.nextDeadline, pipeline.nextDeadline].compactMap { $0 }.min()
  }

  /// How long, in real time, a service extension that has gone quiet (its `didReceive`
  /// returned, its handler not called: it waits on a server or a timer) is waited for before
  /// the virtual clock moves on without it. Its own work is never cut short by real time.
  package static let settleGrace: TimeInterval = 1

  /// Lets service extensions finish before the clock moves or the screen is checked, so a
  /// script runs the same way every time, on a busy machine too: an extension still running its
  /// own code (copying a local file) is always waited for; one waiting on a server gets
  /// `settleGrace` once, then its budget on the virtual clock decides.
  /// A Live Activity push: it starts, updates or ends an activity (a start is named `name`, or
  /// `activity-N`; an update or end goes to `name`'s, or the newest), and shows no notification.
  /// What the device would ignore is said in the activity pane.
  private func pushActivity(_ payload: Payload, name: String?) -> String {
    do throws(ActivityRefusal) {
      var push = try ActivityPush(payload: Data(payload.sentBytes))
      push.contentStateKeys = payload.contentStateKeys
      send(.activity(push, name: name))
    } catch {
      send(.notice(.warning, "\(OneLine.flatten(payload.file)): Live Activity push ignored: \(error.description)"))
    }
    return name ?? state.activities.records.last?.id ?? ""
  }

  package func settleServiceExtensions() {
    guard pipeline.isBusy else { return }
    pipeline.settle(quiet: Self.settleGrace, service: drain)
    drain()
  }
}
