import Foundation
import Testing
import UNTermTestSupport

/// An app imports `UserNotifications`, a facade over UNTerm's own `UserNotificationsModel` that
/// adds FoundationNetworking: the app's code gets Apple's types under Apple's module name and
/// `URLSession` as on iOS, and they are the types UNTerm's libraries take, while the model, which
/// every module of `unterm` imports, brings no networking (`untermStartsWithoutTheNetworkingStack`).
@Suite("What import UserNotifications gives an app", .hangGuard)
struct AppImportTests {
  @Test func anAppGetsTheModelURLSessionAndTheSameTypesAsUNTermsLibraries() throws {
    let app = """
      import UNTermTesting
      import UserNotifications
      import UserNotificationsUI

      final class Card: UNNotificationContentExtension {
        func didReceive(_ notification: UserNotifications.UNNotification) {}
      }

      func service(_ content: UNMutableNotificationContent, _ url: URL) {
        URLSession.shared.downloadTask(with: url) { location, response, error in
          _ = (location, response as? HTTPURLResponse, error)
        }.resume()
        let center: UserNotifications.UNUserNotificationCenter = UNUserNotificationCenter.current()
        center.add(UNNotificationRequest(identifier: "a", content: content, trigger: nil)) { _ in }
      }

      func read(_ harness: UNTermHarness) -> [UserNotifications.UNNotification] {
        Card().didReceive(harness.deliveredNotifications[0])
        let _: UserNotifications.UNUserNotificationCenter = harness.notificationCenter
        return harness.deliveredNotifications
      }

      """
    let result = try Typecheck.run(app)
    #expect(result.status == 0, "\(result.errors.joined(separator: "\n"))")
  }

  @Test func theModelAloneBringsNoNetworking() throws {
    let result = try Typecheck.run(
      """
      import UserNotificationsModel

      func download(_ url: URL) { _ = URLSession.shared.downloadTask(with: url) }

      """)
    #expect(result.status != 0)
    #expect(result.errors.contains { $0.contains("URLSession") }, "\(result.errors)")
  }
}
