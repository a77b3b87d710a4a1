// swift-tools-version: 6.0
import Foundation
import PackageDescription

// An app's notification code (a delegate, a service extension, a content extension) with tests
// that run it in UNTerm's emulated notification center: `swift test`, on Linux, no terminal.
// An app depends on UNTerm by URL; this example uses the checkout it lives in.
let untermPath = "../.."
let untermIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent(untermPath).standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
  name: "HarnessExample",
  dependencies: [.package(path: untermPath)],
  targets: [
    .target(
      name: "ChatExtensions",
      dependencies: [
        .product(name: "UserNotifications", package: untermIdentity),
        .product(name: "UserNotificationsUI", package: untermIdentity),
      ],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "ChatExtensionsTests",
      dependencies: [
        "ChatExtensions",
        .product(name: "UNTermTesting", package: untermIdentity),
        .product(name: "UserNotifications", package: untermIdentity),
      ],
      resources: [.copy("Fixtures")]),
  ]
)
