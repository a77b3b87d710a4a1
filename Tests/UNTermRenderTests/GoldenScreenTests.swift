import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// A screen as `unterm render` draws it: the same pipeline (`RenderPipeline`), the sample
/// categories, the fixed clock.
func renderedScreen(
  _ payload: String, device: DeviceProfile.Kind, view: ScreenRequest.View, size: (Int, Int) = (80, 24),
  extensions: [String] = [], strings: [String] = []
) throws -> Frame {
  var configuration = SessionConfiguration()
  configuration.device = device
  Fixtures.registerSampleCategories(&configuration)
  configuration.extensionFiles = extensions.map(Fixtures.sample)
  configuration.stringsPaths = strings.map(Fixtures.sample)
  var request = ScreenRequest(configuration: configuration, payloads: [Fixtures.sample(payload)], now: Fixtures.now)
  request.view = view
  (request.width, request.height) = size
  return try RenderPipeline.frame(for: request)
}

/// Every sample payload on both devices in all three views, as `unterm render` draws it at
/// 80×24. The golden files under Tests/Golden are what a person should see;
/// `RECORD_SNAPSHOTS=1 swift test` re-records them after a deliberate change.
@Suite("Golden screens")
struct GoldenScreenTests {
  /// The sample payloads in a folder; a missing or empty folder gives one case that fails.
  static func samples(in folder: URL) -> [String] {
    Fixtures.listing(folder) {
      ($0.hasSuffix(".json") || $0.hasSuffix(".apns")) && $0 != "categories.json" && !$0.hasPrefix("extension-")
    }
  }

  @Test(arguments: samples(in: Fixtures.samples))
  func sampleScreens(_ name: String) throws {
    try Fixtures.requireListed(name)
    for device in DeviceProfile.Kind.allCases {
      for view in ScreenRequest.View.allCases {
        let base = (name as NSString).deletingPathExtension
        // The localized sample with the app's sample strings (English, the tests' language).
        let frame = try renderedScreen(
          name, device: device, view: view, strings: name == "localized.json" ? ["Localization"] : [])
        expectGolden(frame.grid.text + "\n", named: "\(base).\(device.rawValue).\(view.rawValue)")
      }
    }
  }
}

/// A test over a fixture folder fails when the folder is missing or empty, instead of passing
/// with no cases.
@Suite("Fixture listings")
struct FixtureListingTests {
  @Test func aMissingOrEmptyFolderGivesAFailingCase() throws {
    let missing = Fixtures.root.appendingPathComponent("Tests/no-such-folder")
    let cases = GoldenScreenTests.samples(in: missing)
    #expect(cases.count == 1)
    #expect(throws: FixtureListingError.self) { try Fixtures.requireListed(cases[0]) }
    let empty = try Fixtures.temporaryDirectory()
    #expect(throws: FixtureListingError.self) { try Fixtures.files(in: empty) { _ in true } }
    // The real folder lists the samples, and none of them stands for a missing folder.
    let real = GoldenScreenTests.samples(in: Fixtures.samples)
    #expect(real.count >= 10)
    #expect(throws: Never.self) { for name in real { try Fixtures.requireListed(name) } }
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
      let frame = try renderedScreen(payload, device: device, view: .expanded, size: (80, 40), extensions: [descriptor])
      let base = (descriptor as NSString).deletingPathExtension
      expectGolden(frame.grid.text + "\n", named: "\(base).\(device.rawValue).expanded")
    }
  }
}

/// Image attachments drawn as half-block art, with their colours (256-colour SGR), so a change
/// in decoding or colour reduction shows up as a diff.
@Suite("Golden screens of image attachments")
struct ImageGoldenTests {
  @Test func mediaEpisodeInColour() throws {
    for device in DeviceProfile.Kind.allCases {
      for view in [ScreenRequest.View.banner, .expanded, .center] {
        let frame = try renderedScreen(
          "media-episode.json", device: device, view: view, size: (80, 30), extensions: ["extension-media-card.json"])
        expectGolden(
          frame.grid.ansiText(depth: .palette256).text + "\n",
          named: "media-episode.\(device.rawValue).\(view.rawValue).ansi")
      }
    }
  }
}
