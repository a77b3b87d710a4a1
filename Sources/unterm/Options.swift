import UNTermHeadless
import UNTermInput
import UNTermLint
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

extension OptionDeclaration {
  /// Every option of every command, in the order the help lists them.
  ///
  /// To add an option: add its declaration here (name, value, help, default, section and any
  /// commands beyond the section's), and the field it sets in `ParsedOptions`; the parser, the
  /// help and the suggestions follow, and a test asks for README's row.
  static let all: [OptionDeclaration] = [
    // Session options: every command that loads notifications.
    .option(
      "--categories", .appScopedFile,
      "the categories app ID registers (a categories file: JSON); a bare FILE registers for the app --bundle names, else for every app that registers none of its own; repeatable, an app's files merged in order",
      default: "none", in: .session
    ) {
      $0.session.categoriesFiles.append(AppCategoriesFile(app: $1.app, path: $1.value))
    },
    .option(
      "--bundle", .bundleIdentifier,
      "the session's own app: payloads that name no app (no Simulator Target Bundle, no apns-topic) and local notifications are its, a bare --categories registers for it, and it is the app in the foreground; with push: the app the payloads are for, over their own",
      default: "\(CategoryRegistry.defaultBundle) (with push: the payload's own app)", in: .session, also: [.push]
    ) {
      $0.session.bundle = $1
      $0.session.bundleNamed = true
      $0.pushBundle = $1
    },
    .option(
      "--extension", .file("FILE", extensions: ["json", "plist"]),
      "a content-extension descriptor (JSON, or an extension's Info.plist); repeatable",
      default: "none", in: .session
    ) { $0.session.extensionFiles.append($1) },
    .option(
      "--device", .choice, "device profile (lint --strict then holds designs to this device's budget only)",
      default: DeviceProfile.Kind.iphone.rawValue, in: .session
    ) {
      $0.session.device = $1
      $0.lint.device = $1
      $0.sheet.narrowedBy.insert("--device")
    },
    .option(
      "--theme", .text("NAME|FILE"), "a theme from Themes/ by name, or a theme file", default: "default", in: .session
    ) {
      $0.session.theme = $1
    },
    .flag("--locked", help: "the device starts locked", in: .session) {
      $0.session.locked = true
      $0.sheet.narrowedBy.insert("--locked")
    },
    .option(
      "--passcode", .text("CODE"), "passcode a locked device asks before it opens the app or shows a hidden preview",
      default: "any input unlocks", in: .session
    ) { $0.session.passcode = $1 },
    .option(
      "--log", .text("FILE"), "append every delegate response to FILE (JSON Lines, synced)", in: .session
    ) { $0.session.logFile = $1 },
    .option(
      "--app-name", .appScoped("NAME"),
      "the name headers show for app ID; a bare NAME names the default app; repeatable",
      default: "the bundle identifier's last part, capitalized (com.acme.bank: Bank)",
      in: .session
    ) {
      if let app = $1.app { $0.session.appNames[app] = $1.value } else { $0.session.appName = $1.value }
    },
    .option(
      "--media-dir", .text("DIR"), "attachments may only be read from inside DIR (after resolving .. and links)",
      default: "the payload file's folder", in: .session
    ) { $0.session.mediaDirectory = $1 },
    .option("--service-timeout", .duration, "the service extension's time budget", default: "30s", in: .session) {
      $0.session.serviceTimeout = $1
    },
    .option(
      "--previews", OptionValue<CenterState.Previews>.choice,
      "when notification previews show; when-unlocked hides them on a locked device, as current iPhones do",
      default: "when-unlocked", in: .session
    ) { $0.session.previews = $1 },
    .option(
      "--focus", .focus,
      "Focus: Do Not Disturb (dnd) or a named Focus; passive and active notifications of apps it does not allow arrive silently in the list (no banner, no sound), time-sensitive and critical ones break through",
      default: "off", in: .modes
    ) { $0.session.focus = $1 },
    .option(
      "--focus-allow", .list("APP,…", of: "bundle identifiers or app names") { $0.isEmpty ? nil : $0 },
      "apps a Focus lets through as usual, by bundle identifier or by the name their header shows",
      default: "none", in: .modes
    ) { $0.session.focusAllowList = $1 },
    .flag(
      "--no-time-sensitive",
      help:
        "time-sensitive notifications no longer break through Focus or the summary (the user turned Time Sensitive off); critical ones still do",
      in: .modes
    ) { $0.session.timeSensitiveBreaksThrough = false },
    .option(
      "--summary", .dayTimes,
      "Scheduled Summary times on the session clock: passive and active notifications are held and arrive together at the next time, the highest relevance-score first",
      default: "none", in: .modes
    ) { $0.session.summaryTimes = $1 },
    .option(
      "--text-size", OptionValue<DynamicTypeSize>.choice,
      "Dynamic Type size (xs to xxxl, then the accessibility sizes ax1 to ax5): line heights and letters per line follow Apple's table",
      default: DynamicTypeSize.default.rawValue, in: .modes
    ) { $0.session.textSize = $1 },
    .option(
      "--foreground-options", .presentationOptions,
      "the built-in delegate's answer to willPresent while the app is in the foreground",
      default: "banner,list,sound,badge", in: .modes
    ) { $0.session.foregroundOptions = $1 },
    .flag(
      "--trace",
      help:
        "print the service-extension pipeline's steps to stderr (the interactive session shows them in its activity pane)",
      in: .session
    ) { $0.session.trace = true },
    .option(
      "--bidi", OptionValue<BidiSetting>.choice,
      "who reorders right-to-left text on a terminal: UNTerm (visual: reordered, letters joined), or a terminal that does bidi itself (terminal); auto means terminal in Konsole and mlterm, and in VTE where UNTerm cannot switch its bidi off (tmux, a printed screen), else visual. Every output that is not a terminal (a file or pipe, snapshots, expect screen, JUnit, pictures) holds the text in logical order, unless visual is given",
      default: "auto", in: .session
    ) { $0.bidi = $1 },
    .option(
      "--stack-summary", OptionValue<StackSummary>.choice,
      "what a collapsed stack says under its newest card: current iOS's count of the notifications behind it (current), or the iOS 12 to 14 summary from the category's categorySummaryFormat and the payloads' summary-arg (ios12)",
      default: StackSummary.current.rawValue, in: .session
    ) { $0.session.stackSummary = $1 },
    .option(
      "--strings", .file("PATH", extensions: ["strings", "stringsdict", "xcstrings"], folders: true),
      "the app's strings for loc keys: a Localizable.strings (text or binary plist), a .stringsdict, a Localizable.xcstrings, an LANG.lproj folder, or a folder of them; repeatable",
      default: "none", in: .session
    ) { $0.session.stringsPaths.append($1) },
    .option(
      "--locale", .locale, "the device language (en, bn, ur, pt-BR…); g cycles the strings' languages",
      default: "LC_ALL, LC_MESSAGES, then LANG", in: .session
    ) { $0.locale = $1 },

    // The APNs request's headers.
    .option(
      "--push-type", .apnsHeader(.pushType, "TYPE"),
      "apns-push-type: alert, background, voip, liveactivity… (checked against the payload as APNs checks it)",
      default: "the file's apns-headers, else none", in: .headers
    ) { $0.session.apnsHeaders[.pushType] = $1 },
    .option(
      "--priority", .apnsHeader(.priority, "10|5|1"), "apns-priority; a background push must use 5 or 1",
      default: "the file's, else 10", in: .headers
    ) { $0.session.apnsHeaders[.priority] = $1 },
    .option(
      "--collapse-id", .apnsHeader(.collapseID, "ID"),
      "apns-collapse-id (at most 64 bytes): the request identifier, so a push with the same one replaces the delivered notification",
      default: "the file's, else none", in: .headers
    ) { $0.session.apnsHeaders[.collapseID] = $1 },
    .option(
      "--expiration", .apnsHeader(.expiration, "UNIX-TIME"),
      "apns-expiration in seconds since 1970: a push whose time has passed on the session clock is discarded, not delivered (0: deliver once, now)",
      default: "the file's, else none", in: .headers
    ) { $0.session.apnsHeaders[.expiration] = $1 },
    .option(
      "--topic", .apnsHeader(.topic, "BUNDLE-ID"),
      "apns-topic: the app's bundle identifier (with .voip and the like for those push types)",
      default: "the file's, else none", in: .headers
    ) { $0.session.apnsHeaders[.topic] = $1 },

    // Render options.
    .option(
      "--view", OptionValue<RenderOptions.View>.choice,
      "which screen: the newest notification's banner, its expanded (long-press) view, or the notification list",
      default: "banner", in: .render
    ) { $0.render.view = $1 },
    .option(
      "--size", .screenSize,
      "screen size, at least 24x8 (a smaller one is a usage error, as is a smaller terminal without --size)",
      default: "the terminal's, else 80x24", in: .render
    ) {
      $0.render.size = $1
    },
    .option(
      "--color", OptionValue<RenderOptions.ColorMode>.choice,
      "ANSI colour in the output; auto colours only a terminal, and NO_COLOR set means never, even with always",
      default: "auto",
      in: .render
    ) { $0.render.color = $1 },
    .option(
      "--format", OptionValue<RenderOptions.Format>.choice,
      "the output's form: text (what --color never prints), ansi (what --color always prints), or a picture of the screen for a browser: svg, or html (a self-contained page holding the SVG); decides over --color",
      default: "text or ansi, as --color says", in: .render
    ) { $0.render.format = $1 },
    .option(
      "--now", .iso8601, "the clock used for relative times, for deterministic output", default: "now", in: .render,
      also: [.sheet]
    ) {
      $0.render.now = $1
    },

    // Lint options.
    .option(
      "--format", OptionValue<LintFormat>.choice,
      "how findings are printed: text (FILE:LINE:COL: SEVERITY[CODE]: MESSAGE [JSON.PATH]), json, sarif (SARIF 2.1.0, for code scanning), github (GitHub Actions annotations) or codeclimate (a GitLab code-quality report)",
      default: "text", in: .lint
    ) { $0.lint.format = $1 },
    .flag(
      "--json",
      help: #"--format json: a JSON array of {"file","path","severity","code","message","line","column"}"#, in: .lint
    ) {
      $0.lint.json = true
    },
    .flag(
      "--strict",
      help:
        "a content extension that overflows its height budget (on --device's, else on both), or that no payload of its category sizes, is an error",
      in: .lint
    ) {
      $0.lint.strict = true
    },
    .option(
      "--text-sizes", .list("SIZE,…", of: "text sizes such as l,ax3") { DynamicTypeSize(rawValue: $0) },
      "the Dynamic Type sizes a content extension must fit at: an overflow at one is a finding (an error with --strict); lint --extension also reports l and ax5",
      default: "--text-size", in: .lint
    ) { $0.lint.textSizes = $1 },
    .option(
      "--explain", .text("CODE"), "print what a lint code means and its severity", in: .lint, alone: true,
      complete: .lintCodes
    ) {
      $0.lint.explain = $1
    },

    // Run options.
    .flag("--update-snapshots", help: "re-record every snapshot the scripts take", in: .run) {
      $0.run.updateSnapshots = true
    },
    .option("--cast", .text("FILE"), "write an asciicast v2 recording (markers at deliveries and responses)", in: .run)
    {
      $0.run.castFile = $1
    },
    .option(
      "--svg", .file("FILE", extensions: ["svg"]),
      "write an animated SVG of the scripts as they play (a frame a change of screen, timed by the waits and --speed, looping; self-contained)",
      in: .run
    ) { $0.run.svgFile = $1 },
    .option(
      "--junit", .text("FILE"),
      "write a JUnit XML report: a testcase a script, failure and error elements, the final screen as system-out; written whole or not at all",
      in: .run
    ) { $0.run.junitFile = $1 },
    .flag("--live", help: "play the scripts in this terminal at a person's pace, with captions", in: .run) {
      $0.run.live = true
    },
    .option(
      "--speed", .number("X", example: "2 or 0.5") { $0 > 0 && $0 <= 100 },
      "pace for --live, --cast and --svg (2 = twice as fast)",
      default: "1", in: .run
    ) { $0.run.speed = $1 },

    // Log options.
    .flag(
      "--json", help: "print the records as JSON Lines, each re-encoded with every control character escaped", in: .log
    ) {
      $0.log.json = true
    },

    // Live delivery.
    .option(
      "--socket", .file("PATH", extensions: ["sock"]),
      "the session's socket, where `unterm push` delivers; the session's inbox is then PATH.inbox. A missing folder is made 0700; an existing one is used as it is, and refused if others can write to it and it is not sticky. Only a stale socket of yours is replaced.",
      default: "$XDG_RUNTIME_DIR/unterm/session.sock, else /tmp/unterm-UID/session.sock", in: .delivery,
      also: .export
    ) { $0.socket = $1 },

    // The APNs endpoint.
    .option(
      "--apns-listen", .listenAddress,
      "answer Apple's provider API (POST /3/device/TOKEN, HTTP/2 over TLS with ALPN h2) on PORT, as APNs does, and show what it accepts; loopback unless HOST is named; port 0 picks a free one",
      in: .apns
    ) { $0.apns.listen = $1 },
    .flag(
      "--apns-plaintext", help: "speak cleartext HTTP/2 with prior knowledge instead of TLS (http:// clients)",
      in: .apns
    ) {
      $0.apns.plaintext = true
      $0.apns.given.append("--apns-plaintext")
    },
    .option(
      "--apns-key", .keyFile,
      "verify provider tokens (JWT, ES256) signed with this .p8 key, as APNs does; repeatable. Without a key, tokens are checked for form and age only",
      in: .apns
    ) {
      $0.apns.keys.append($1)
      $0.apns.given.append("--apns-key")
    },
    .option("--apns-team", .text("TEAMID"), "the Team ID a provider token's iss must be", in: .apns) {
      $0.apns.team = $1
      $0.apns.given.append("--apns-team")
    },
    .option(
      "--apns-client-ca", .file("FILE", extensions: ["pem"]),
      "accept client certificates (certificate-based auth) issued by this CA; their topics are the pushes they may send",
      in: .apns
    ) {
      $0.apns.clientCA = $1
      $0.apns.given.append("--apns-client-ca")
    },
    .option("--apns-log", .text("FILE"), "append every APNs request and answer to FILE as a JSON line", in: .apns) {
      $0.apns.log = $1
      $0.apns.given.append("--apns-log")
    },
    .option(
      "--device-token", .appScoped("HEX"),
      "the device's token for app ID (64 hex digits); a bare HEX is --bundle's app's; repeatable",
      default: "made once per app and kept in $XDG_DATA_HOME/unterm/apns/device-tokens.json", in: .apns
    ) {
      $0.apns.deviceTokens.append($1)
      $0.apns.given.append("--device-token")
    },

    // Export options.
    .flag("--simctl", help: "print the xcrun simctl push command line, the payload on its standard input", in: .export)
    {
      $0.export.forms.append(.simctl)
    },
    .flag(
      "--apns", help: "print the payload as an .apns file with its Simulator Target Bundle (one PAYLOAD)", in: .export
    ) {
      $0.export.forms.append(.apns)
    },
    .flag(
      "--curl",
      help:
        "print the HTTP/2 request to APNs as a curl command: the headers, a provider token from $APNS_AUTH_TOKEN and the device token from $DEVICE_TOKEN",
      in: .export
    ) { $0.export.forms.append(.curl) },
    .flag(
      "--local",
      help:
        "with --curl: send to the running session's APNs endpoint (--apns-listen) instead of Apple, with its device's token: Apple's command with --connect-to and --cacert",
      in: .export
    ) { $0.export.local = true },
    .option(
      "--environment", OptionValue<APNsExport.Environment>.choice,
      "the APNs host curl sends to: api.sandbox.push.apple.com (development builds) or api.push.apple.com",
      default: "development", in: .export
    ) { $0.export.environment = $1 },
    .option(
      "--simulator", .text("DEVICE"), "the Simulator simctl pushes to: a device's UDID or name", default: "booted",
      in: .export, complete: .words(["booted"])
    ) { $0.export.simulator = $1 },

    // Center options.
    .flag(
      "--json",
      help:
        #"list prints a JSON object: {"delivered", "held", "pending"}, each an array of {"identifier", "threadIdentifier", "categoryIdentifier", "date", "bundleIdentifier"}"#,
      in: .center
    ) { $0.center.json = true },

    .option(
      "--expire", .bundleIdentifier,
      "tokens --expire APP: the app's device token answers 410 Unregistered from now on, as after an uninstall",
      in: .center
    ) { $0.center.expire = $1 },

    // Sheet options.
    .option(
      "--out", .text("FILE"), "where to write the sheet (- for standard output); written whole or not at all",
      default: "unterm-sheet.html", in: .sheet
    ) { $0.sheet.out = $1 },
    .option(
      "--devices", .list("iphone,ipad", of: "iphone and ipad") { DeviceProfile.Kind(rawValue: $0) },
      "the devices to show", default: "both; --device D alone means D", in: .sheet
    ) { $0.sheet.devices = $1 },
    .option(
      "--states", .list("unlocked,locked", of: "unlocked and locked") { DesignSheet.LockState(rawValue: $0) },
      "the lock states to show; locked hides previews unless --previews always",
      default: "both; --locked alone means locked", in: .sheet
    ) { $0.sheet.states = $1 },
    .option(
      "--views",
      .list("banner,expanded,center", of: "banner, expanded and center (or list)") {
        DesignSheet.View.named($0)
      }, "the views to show; list is another name for center", default: "all three", in: .sheet
    ) { $0.sheet.views = $1 },
    .option(
      "--themes", .list("NAME|FILE,…", of: "theme names or files") { $0.isEmpty ? nil : $0 },
      "the themes to show each screen in", default: "--theme, else default", in: .sheet
    ) { $0.sheet.themes = $1 },

    // Live preview.
    .flag(
      "--watch",
      help:
        "re-load and redraw on every save of a file on the command line (payloads, categories, descriptors and their Info.plists, the theme, the app's --strings), through inotify; a file that does not load keeps the last good screen and its error shows (the activity pane; stderr for render and sheet) until it is fixed. render clears and reprints the screen (a form feed between screens when not on a terminal), sheet rewrites --out; both run until interrupted",
      in: .watch
    ) { $0.watch = true },

    // Every command.
    .flag("--help", "-h", help: "print this help", in: .general) { $0.help = true },
  ]
}
