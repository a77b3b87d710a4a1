import UNTermCore
import UNTermHeadless

extension OptionDeclaration {
  /// Every option of every command, in the order the help lists them.
  ///
  /// To add an option: add its declaration here (name, value, help, default, section and any
  /// commands beyond the section's), and the field it sets in `ParsedOptions`; the parser, the
  /// help and the suggestions follow, and a test asks for README's row.
  static let all: [OptionDeclaration] = [
    // Session options: every command that loads notifications.
    .option(
      "--categories", .text("FILE"), "the categories to register (a categories file: JSON)", default: "none",
      in: .session
    ) {
      $0.session.categoriesFile = $1
    },
    .option(
      "--extension", .text("FILE"), "a content-extension descriptor (JSON, or an extension's Info.plist); repeatable",
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
      "--log", .text("FILE"), "append every delegate response to FILE (JSON Lines, synced)", in: .session, also: [.run]
    ) { $0.session.logFile = $1 },
    .option(
      "--app-name", .text("NAME"), "app name shown in headers",
      default: "the payload's Simulator Target Bundle, else App",
      in: .session
    ) { $0.session.appName = $1 },
    .option(
      "--media-dir", .text("DIR"), "attachments may only be read from inside DIR (after resolving .. and links)",
      default: "the payload file's folder", in: .session, also: [.run]
    ) { $0.session.mediaDirectory = $1 },
    .option("--service-timeout", .duration, "the service extension's time budget", default: "30s", in: .session) {
      $0.session.serviceTimeout = $1
    },
    .option(
      "--previews", OptionValue<CenterState.Previews>.choice,
      "when notification previews show; when-unlocked hides them on a locked device, as current iPhones do",
      default: "when-unlocked", in: .session
    ) { $0.session.previews = $1 },
    .flag(
      "--trace",
      help:
        "print the service-extension pipeline's steps to stderr (the interactive session shows them in its activity pane)",
      in: .session
    ) { $0.session.trace = true },

    // Render options.
    .option(
      "--view", OptionValue<RenderOptions.View>.choice,
      "which screen: the newest notification's banner, its expanded (long-press) view, or the notification list",
      default: "banner", in: .render
    ) { $0.render.view = $1 },
    .option("--size", .screenSize, "screen size", default: "the terminal's, else 80x24", in: .render) {
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
    .flag("--json", help: #"print a JSON array of {"file","path","severity","code","message"}"#, in: .lint) {
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
    .option("--explain", .text("CODE"), "print what a lint code means and its severity", in: .lint, alone: true) {
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
    .flag("--live", help: "play the scripts in this terminal at a person's pace, with captions", in: .run) {
      $0.run.live = true
    },
    .option(
      "--speed", .number("X", example: "2 or 0.5") { $0 > 0 && $0 <= 100 },
      "pace for --live and --cast (2 = twice as fast)",
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
      "--socket", .text("PATH"),
      "the session's socket, where `unterm push` delivers; the session's inbox is then PATH.inbox. A missing folder is made 0700; an existing one is used as it is, and refused if others can write to it and it is not sticky. Only a stale socket of yours is replaced.",
      default: "$XDG_RUNTIME_DIR/unterm/session.sock, else /tmp/unterm-UID/session.sock", in: .delivery
    ) { $0.socket = $1 },

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

    // Every command.
    .flag("--help", "-h", help: "print this help", in: .general) { $0.help = true },
  ]
}
