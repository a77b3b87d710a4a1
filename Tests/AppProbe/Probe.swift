import Foundation
import UNTerm
import UserNotifications

// An app as iOS apps are written, for the end-to-end test of issue 17.6: a `@MainActor`
// delegate with the `async` forms, and work that hops to `DispatchQueue.main` and prints. It
// embeds UNTerm with `UNTermSession.run()` on the main thread; the test drives it in tmux.
// Swift 5 mode, like an app target.

@MainActor
final class AppDelegate: NSObject, UNUserNotificationCenterDelegate {
  var seen: [String] = []

  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions {
    [.banner, .list]
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
    seen.append(response.notification.request.identifier)
    print("delegate saw \(response.notification.request.identifier) on the main thread: \(Thread.isMainThread)")
    let content = UNMutableNotificationContent()
    content.title = "Main actor"
    content.body = "The delegate answered on the main actor"
    try? await center.add(UNNotificationRequest(identifier: "from-delegate", content: content, trigger: nil))
  }
}

@main
enum Probe {
  @MainActor static func main() {
    let delegate = AppDelegate()
    let center = UNUserNotificationCenter.current()
    center.delegate = delegate

    DispatchQueue.main.asyncAfter(deadline: .now() + 0.5) {
      print("hello from the main queue")
      FileHandle.standardError.write(Data("a warning on stderr\n".utf8))
      let content = UNMutableNotificationContent()
      content.title = "Main queue"
      content.body = "Posted from DispatchQueue.main during run()"
      center.add(UNNotificationRequest(identifier: "from-main-queue", content: content, trigger: nil))
    }

    var configuration = UNTermSession.Configuration()
    configuration.acceptsPushes = false
    // The app's own bundle identifier, named by it: its local notifications show the name.
    configuration.bundleIdentifier = "com.example.probe"
    configuration.appNames = ["com.example.probe": "Probe App", "com.example.other": "Other"]
    let session = UNTermSession(configuration: configuration)
    do {
      try session.run()
      print("after run: \(delegate.seen.joined(separator: ","))")
    } catch {
      FileHandle.standardError.write(Data("unterm-app-probe: \(error)\n".utf8))
      exit(1)
    }
  }
}
