import UserNotifications

// The service extension from Apple's documentation ("Modifying content in newly delivered
// notifications"), with the usual image download, exactly as an iOS project writes it. This
// target compiles in Swift 5 mode, like an app's extension target, and only `import
// UserNotifications` — UNTerm brings URLSession along.

class NotificationService: UNNotificationServiceExtension {

  var contentHandler: ((UNNotificationContent) -> Void)?
  var bestAttemptContent: UNMutableNotificationContent?

  override func didReceive(
    _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
  ) {
    self.contentHandler = contentHandler
    bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

    if let bestAttemptContent = bestAttemptContent {
      // Modify the notification content here...
      bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"

      guard let urlString = request.content.userInfo["image-url"] as? String,
        let url = URL(string: urlString)
      else {
        contentHandler(bestAttemptContent)
        return
      }
      URLSession.shared.downloadTask(with: url) { location, response, error in
        if let location = location {
          let tmp = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent(UUID().uuidString + "-" + url.lastPathComponent)
          try? FileManager.default.moveItem(at: location, to: tmp)
          if let attachment = try? UNNotificationAttachment(identifier: "image", url: tmp, options: nil) {
            bestAttemptContent.attachments = [attachment]
          }
        }
        contentHandler(bestAttemptContent)
      }.resume()
    }
  }

  override func serviceExtensionTimeWillExpire() {
    // Called just before the extension will be terminated by the system.
    // Use this as an opportunity to deliver your "best attempt" at modified content, otherwise the original push payload will be used.
    if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
      contentHandler(bestAttemptContent)
    }
  }

}
