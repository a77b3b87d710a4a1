import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermCore
@testable import UNTermHeadless
@testable import UNTermRender

/// Every sample payload on both devices in all three views, as `unterm render` draws it at
/// 80×24. The golden files under Tests/Golden are what a person should see;
/// `RECORD_SNAPSHOTS=1 swift test` re-records them after a deliberate change.
@Suite("Golden screens")
struct GoldenScreenTests {
  static let samples: [String] = {
    ((try? FileManager.default.contentsOfDirectory(atPath: Fixtures.samples.path)) ?? [])
      .filter {
        ($0.hasSuffix(".json") || $0.hasSuffix(".apns")) && $0 != "categories.json" && !$0.hasPrefix("extension-")
      }
      .sorted()
  }()

  @Test(arguments: samples)
  func sampleScreens(_ name: String) throws {
    for device in DeviceProfile.Kind.allCases {
      for view in ["banner", "expanded", "center"] {
        let session = try Fixtures.session(device: device)
        let payload = try Payload.load(Fixtures.sample(name), categories: session.state.store.categories)
        try session.push(payload)
        session.finishServiceExtensions(within: 5)
        if view == "expanded" { session.send(.command(.longPress)) }
        if view == "center" { session.send(.command(.openCenter)) }
        let base = (name as NSString).deletingPathExtension
        expectGolden(session.frame().grid.text + "\n", named: "\(base).\(device.rawValue).\(view)")
      }
    }
  }
}

/// The content-extension designs in SamplePayloads, expanded on both devices (80×40 so the
/// whole card shows).
@Suite("Golden screens of content extensions")
struct ExtensionGoldenTests {
  @Test(arguments: [
    ("extension-media-card.json", "media-episode.json"), ("extension-chat-card.json", "chat-thread.json"),
  ])
  func extensionScreens(_ descriptor: String, _ payload: String) throws {
    for device in DeviceProfile.Kind.allCases {
      let session = try Fixtures.session(device: device, size: (80, 40)) {
        $0.extensionFiles = [Fixtures.sample(descriptor)]
      }
      try session.push(try Payload.load(Fixtures.sample(payload), categories: session.state.store.categories))
      session.finishServiceExtensions(within: 5)
      session.send(.command(.longPress))
      let base = (descriptor as NSString).deletingPathExtension
      expectGolden(session.frame().grid.text + "\n", named: "\(base).\(device.rawValue).expanded")
    }
  }
}

/// Image attachments drawn as half-block art, with their colours (256-colour SGR), so a change
/// in decoding or colour reduction shows up as a diff.
@Suite("Golden screens of image attachments")
struct ImageGoldenTests {
  @Test func mediaEpisodeInColour() throws {
    for device in DeviceProfile.Kind.allCases {
      let session = try Fixtures.session(device: device, size: (80, 30)) {
        $0.extensionFiles = [Fixtures.sample("extension-media-card.json")]
      }
      try session.push(
        try Payload.load(Fixtures.sample("media-episode.json"), categories: session.state.store.categories))
      session.finishServiceExtensions(within: 5)
      expectGolden(
        session.frame().grid.ansiText(depth: .palette256) + "\n", named: "media-episode.\(device.rawValue).banner.ansi")
      session.send(.command(.longPress))
      expectGolden(
        session.frame().grid.ansiText(depth: .palette256) + "\n",
        named: "media-episode.\(device.rawValue).expanded.ansi")
    }
  }
}
