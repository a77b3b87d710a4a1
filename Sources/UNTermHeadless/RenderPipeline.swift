import Foundation
import UNTermInput
import UNTermRender
import UNTermState

/// One screen after payloads arrive: what `unterm render` prints and what the golden tests
/// compare.
package struct ScreenRequest: Sendable {
  /// Which screen: the newest notification's banner, its expanded (long-press) view, or the
  /// notification list.
  package enum View: String, Sendable, CaseIterable {
    case banner, expanded, center
  }

  package var configuration: SessionConfiguration
  /// Payload files (or `-`), delivered in order.
  package var payloads: [String]
  package var view: View = .banner
  package var width = 80
  package var height = 24
  /// The clock, for relative times.
  package var now: Date
  package var timeZone = DisplayTimeZone.utc

  package init(configuration: SessionConfiguration, payloads: [String], now: Date) {
    self.configuration = configuration
    self.payloads = payloads
    self.now = now
  }
}

/// Draws a `ScreenRequest`: builds the session (`SessionFactory`), pushes each payload and
/// lets its service extension finish (`Session.finishServiceExtensions`: its own work however
/// long it takes, a wait on a server up to the configured budget in real time), sizes the
/// screen, then picks the view.
package enum RenderPipeline {
  /// The session, left on the requested screen.
  package static func session(
    for request: ScreenRequest, trace: ((TraceLine) -> Void)? = nil
  ) throws(UNTermError) -> Session {
    let session = try SessionFactory.make(request.configuration, now: request.now, timeZone: request.timeZone)
    session.traceOutput = trace
    for path in request.payloads {
      try session.push(
        try Payload.load(
          path, categories: session.state.store.registry, headers: request.configuration.apnsHeaders))
      session.finishServiceExtensions(within: request.configuration.serviceTimeout)
    }
    // With a Scheduled Summary, what it holds arrives at its next time: the clock runs on to it,
    // so the screen shows everything that arrived.
    if let due = session.state.nextSummary { session.advance(to: due) }
    session.resize(width: request.width, height: request.height)
    switch request.view {
    case .banner: break
    case .expanded:
      // A long-press acts on the banner on screen; when the newest notification showed none (a
      // passive one, or one a Focus silenced) the banner is an older one's, so the newest is
      // focused in the list first: the view is the newest notification's, as `--view` says.
      let state = session.state
      if let banner = state.banner, !state.isListShown,
        let newest = state.store.newestGroup.flatMap({ state.store.leading(of: $0) })?.request.identifier,
        banner.notification.request.identifier != newest
      {
        session.send(.command(.openCenter))
        session.send(.command(.focus(newest)))
      }
      session.send(.command(.longPress))
    case .center: session.send(.command(.openCenter))
    }
    return session
  }

  /// The requested screen.
  package static func frame(
    for request: ScreenRequest, trace: ((TraceLine) -> Void)? = nil
  ) throws(UNTermError) -> Frame {
    let session = try session(for: request, trace: trace)
    defer { session.detach() }
    return session.frame()
  }
}
