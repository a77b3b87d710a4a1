// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "UNTerm",
  products: [
    .executable(name: "unterm", targets: ["unterm"]),
    .library(name: "UserNotifications", targets: ["UserNotifications"]),
    .library(name: "UserNotificationsUI", targets: ["UserNotificationsUI"]),
    // What notification code needs of CoreLocation (a location trigger's region) and Intents
    // (communication notifications), so an app's code compiles unchanged.
    .library(name: "CoreLocation", targets: ["CoreLocation"]),
    .library(name: "Intents", targets: ["Intents"]),
    // Live Activities as app code starts, updates and ends them (issue 29).
    .library(name: "ActivityKit", targets: ["ActivityKit"]),
    .library(name: "UNTerm", targets: ["UNTerm"]),
    // Drives a headless session from an app's own tests (no terminal, no ncurses).
    .library(name: "UNTermTesting", targets: ["UNTermTesting"]),
  ],
  targets: [
    .target(name: "CoreLocation"),
    .target(name: "ActivityKit"),
    // Apple's model and the notification store: what every UNTerm module imports.
    .target(name: "UserNotificationsModel", dependencies: ["CoreLocation"]),
    // What an app imports: the model plus FoundationNetworking (URLSession, as on iOS). Only
    // app-facing targets depend on it, so unterm neither links nor loads the networking stack.
    .target(name: "UserNotifications", dependencies: ["UserNotificationsModel"]),
    .target(name: "Intents", dependencies: ["UserNotificationsModel"]),
    .target(name: "UserNotificationsUI", dependencies: ["UserNotificationsModel"]),
    // GNU FriBidi through a C shim that opens libfribidi.so.0 on first use (Debian: libfribidi0),
    // so the build needs no FriBidi headers; only UNTermBidi calls it.
    .target(name: "CFriBidi", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "UNTermBidi", dependencies: ["CFriBidi"]),
    // The core, bottom up: the input formats and what their readers report (JSON, property
    // lists, payloads, categories, strings, extension descriptors, diagnostics and lint codes);
    // lint reports and their output formats; the notification center's state machine; the
    // session script language. See Docs/architecture.md for the map.
    .target(name: "UNTermInput", dependencies: ["UserNotificationsModel", "UserNotificationsUI", "UNTermBidi"]),
    .target(name: "UNTermLint", dependencies: ["UNTermInput"]),
    .target(
      name: "UNTermState",
      dependencies: ["UserNotificationsModel", "UserNotificationsUI", "UNTermBidi", "UNTermInput", "ActivityKit"]),
    .target(
      name: "UNTermScript",
      dependencies: ["UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermState"]),
    .target(
      name: "UNTermRender",
      dependencies: [
        "UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermState", "UNTermBidi", "ActivityKit",
      ]),
    .target(
      name: "CMediaDecode",
      // giflib (Debian: libgif7) is opened with dlopen on the first GIF, so the build needs no
      // giflib headers.
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("z"), .linkedLibrary("dl")]),
    // libcurl through dlopen, on the first download (Debian: libcurl4; headers: libcurl4-openssl-dev).
    .target(name: "CMediaFetch"),
    // OpenSSL 3 (TLS, ALPN, certificates, ES256) and nghttp2 (HTTP/2) through dlopen, on the
    // first APNs connection (Debian: libssl3, libnghttp2-14), so the build needs no headers.
    // What the threads that poll share: the wake pipe and the monotonic clock.
    .target(name: "Posix"),
    .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "CNghttp2", linkerSettings: [.linkedLibrary("dl")]),
    // The APNs endpoint: Apple's provider API over HTTP/2 and TLS, its answers and token auth.
    .target(
      name: "UNTermAPNs", dependencies: ["UserNotificationsModel", "UNTermInput", "Posix", "COpenSSL", "CNghttp2"]),
    .target(
      name: "UNTermMedia", dependencies: ["CMediaDecode", "CMediaFetch", "UserNotificationsModel", "UNTermRender"]),
    .target(
      name: "UNTermHeadless",
      dependencies: [
        "UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermLint", "UNTermState", "UNTermScript",
        "UNTermRender", "UNTermMedia", "UNTermBidi", "Posix", "ActivityKit",
      ]),
    // The terminal shell: the interactive loop, live delivery (socket, inbox), the demo.
    .target(
      name: "UNTermShell",
      dependencies: [
        "UserNotificationsModel", "UNTermInput", "UNTermState", "UNTermScript", "UNTermRender", "UNTermHeadless",
        "UNTermCurses", "Posix", "UNTermAPNs",
      ]),
    // The public embedding API and the test harness are app-facing: they take the facade, so an
    // app that lists only them still has `import UserNotifications` (and URLSession) as before.
    .target(
      name: "UNTerm",
      dependencies: [
        "UserNotifications", "UserNotificationsUI", "UNTermInput", "UNTermRender", "UNTermHeadless", "UNTermShell",
      ]),
    .target(
      name: "UNTermTesting",
      dependencies: [
        "UserNotifications", "UserNotificationsUI", "UNTermInput", "UNTermState", "UNTermRender", "UNTermHeadless",
        "ActivityKit",
      ]),
    // The executable reaches the terminal only through UNTermShell's entry point. Like every
    // target of UNTerm's own tools it takes the model, not the facade (no FoundationNetworking).
    .executableTarget(
      name: "unterm",
      dependencies: [
        "UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermLint", "UNTermState", "UNTermScript",
        "UNTermRender", "UNTermHeadless", "UNTermShell", "UNTermAPNs",
      ]),
    .executableTarget(
      name: "unterm-example", dependencies: ["UNTerm", "UserNotifications", "UserNotificationsUI"]),
    // The start-up floor unterm-bench compares unterm with: read and parse one payload, nothing more.
    .executableTarget(name: "unterm-floor"),
    // The image floor it compares thumbnails with: the libraries' own fastest decode of a file.
    .executableTarget(
      name: "unterm-image-floor", cSettings: [.headerSearchPath("../CMediaDecode")],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("z"), .linkedLibrary("dl")]),
    .executableTarget(
      name: "unterm-bench",
      dependencies: [
        "UserNotificationsModel", "UNTermInput", "UNTermState", "UNTermRender", "UNTermHeadless", "UNTermCurses",
        "UNTermShell",
        "CMediaFixtures",
        "unterm",
      ]),
    // ncursesw (Debian: libncurses-dev) through a shim; only UNTermCurses imports it.
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
    .target(name: "UNTermCurses", dependencies: ["CNcursesw", "UNTermRender", "UNTermInput", "UNTermState"]),
    .executableTarget(name: "curses-probe", dependencies: ["UNTermCurses", "UNTermRender", "UNTermInput"]),
    // The fuzz targets: a replay driver in a normal build, libFuzzer's in Scripts/fuzz.sh's.
    .executableTarget(
      name: "unterm-fuzz",
      dependencies: [
        "UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermState", "UNTermScript", "UNTermRender",
        "UNTermHeadless", "UNTermShell",
        "UNTermMedia", "CMediaDecode",
      ]),

    // Tests
    .target(
      name: "UNTermTestSupport",
      dependencies: ["UserNotificationsModel", "UNTermInput", "UNTermState", "UNTermRender", "UNTermHeadless"],
      path: "Tests/UNTermTestSupport"),
    .target(
      name: "CMediaFixtures", path: "Tests/CMediaFixtures",
      // giflib's declarations are CMediaDecode's own (no giflib headers on the build machine).
      cSettings: [.headerSearchPath("../../Sources/CMediaDecode")],
      linkerSettings: [
        .linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("z"), .linkedLibrary("m"), .linkedLibrary("dl"),
      ]),
    .executableTarget(
      name: "unterm-log-stress",
      dependencies: ["UserNotificationsModel", "UNTermInput", "UNTermState", "UNTermScript", "UNTermHeadless"],
      path: "Tests/LogStress"),
    // Runs a command and reports its own peak memory (tests of what downloads and decodes hold).
    .executableTarget(name: "unterm-peak", path: "Tests/PeakMemory"),
    // An app embedding UNTerm with a @MainActor delegate, driven in tmux (Swift 5, like an app).
    .executableTarget(
      name: "unterm-app-probe", dependencies: ["UNTerm", "UserNotifications"], path: "Tests/AppProbe",
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // The model's tests; AppleStyleCodeTests imports the facade, as an app does.
    .testTarget(
      name: "UserNotificationsTests",
      dependencies: ["UserNotificationsModel", "UserNotifications", "UNTermTestSupport"]),
    .testTarget(
      name: "UNTermInputTests",
      dependencies: ["UserNotificationsModel", "UNTermInput", "UNTermTestSupport"]),
    .testTarget(
      name: "UNTermStateTests",
      dependencies: [
        "UserNotificationsModel", "UNTermInput", "UNTermState", "UNTermScript", "UNTermTestSupport", "UNTermBidi",
      ]),
    .testTarget(
      name: "UNTermRenderTests",
      dependencies: [
        "UserNotificationsModel", "UserNotificationsUI", "UNTermInput", "UNTermState", "UNTermRender", "UNTermHeadless",
        "UNTermTestSupport", "UNTermBidi",
      ]),
    .testTarget(
      name: "AppleSampleTests",
      dependencies: [
        "UserNotifications", "Intents", "CoreLocation", "UNTermInput", "UNTermHeadless", "UNTermTestSupport",
      ],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "UNTermTestingTests",
      dependencies: ["UNTermTesting", "UserNotifications", "UserNotificationsUI", "ActivityKit", "Intents"]),
    .testTarget(
      name: "UNTermCursesTests", dependencies: ["UNTermCurses", "UNTermRender", "UNTermInput", "UNTermState"]),
    .testTarget(
      name: "UNTermHeadlessTests",
      dependencies: [
        "UserNotificationsModel", "UserNotifications", "UserNotificationsUI", "UNTermInput", "UNTermLint",
        "UNTermState", "UNTermScript", "UNTermRender",
        "UNTermHeadless", "UNTermTestSupport", "UNTermShell", "UNTermMedia", "UNTermTesting", "CMediaFixtures",
        "UNTermBidi", "ActivityKit",
        // The programs its tests run.
        "unterm", "unterm-log-stress", "unterm-peak", "unterm-app-probe", "unterm-fuzz",
      ]),
    .testTarget(name: "ActivityKitTests", dependencies: ["ActivityKit"]),
    .testTarget(
      name: "UNTermAPNsTests", dependencies: ["UNTermAPNs", "UNTermInput", "UNTermTestSupport"]),
    .testTarget(
      name: "UNTermMediaTests",
      dependencies: [
        "UNTermMedia", "CMediaDecode", "CMediaFixtures", "UNTermRender", "UNTermHeadless", "UserNotificationsModel",
        "UNTermTestSupport",
      ]),
  ]
)
