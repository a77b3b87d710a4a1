import Foundation

/// Modifies the content of a remote notification before it is shown.
///
/// Subclass it and override `didReceive(_:withContentHandler:)`. The system runs it only for a
/// payload with `mutable-content: 1` and alert text. If the handler has not been called when
/// the time budget (30 s) runs out, `serviceExtensionTimeWillExpire()` is called as a last
/// chance; if the handler is still not called, the original content is shown. Content handed
/// back without alert text is ignored.
open class UNNotificationServiceExtension: NSObject {
  public override init() { super.init() }

  /// Called with the request; call `contentHandler` with the content to show.
  ///
  /// The default implementation hands back the content unchanged.
  open func didReceive(
    _ request: UNNotificationRequest,
    withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    contentHandler(request.content)
  }

  /// Called when the time budget is about to run out.
  open func serviceExtensionTimeWillExpire() {}
}
