/// The `--help` texts. Kept true to what the code does.
enum Help {
  static let sessionOptions = """
    Session options:
      --categories FILE        registered categories (JSON; see README)
      --extension FILE         a content-extension descriptor (JSON or Info.plist); repeatable
      --device iphone|ipad     device profile (default iphone)
      --theme NAME|FILE        a theme from Themes/ or a theme file (default "default")
      --locked                 the device starts locked
      --passcode CODE          passcode for authentication-required actions (default: any input)
      --log FILE               append every response to FILE (JSON Lines, synced)
      --app-name NAME          app name in headers (default: from Simulator Target Bundle, else App)
      --media-dir DIR          attachments may only be read inside DIR (default: the payload's folder)
      --service-timeout DUR    the service extension's time budget (default 30s)
      --previews always|when-unlocked|never
                               when previews show (default when-unlocked: hidden while locked)
      --trace                  print the service-extension pipeline's steps to stderr
                               (the interactive session shows them in its activity pane)

    """

  static let main = """
    unterm — an interactive emulator of the iOS notification center

    Usage:
      unterm [SESSION OPTIONS] [--socket PATH] [PAYLOAD ...]
                                                   interactive notification center (needs a terminal)
      unterm render [OPTIONS] PAYLOAD ...          print one screen; no terminal needed
      unterm lint [OPTIONS] [--json] [--strict] PAYLOAD ...
                                                   check payloads, categories and extensions
      unterm run [OPTIONS] SCRIPT ...              run session scripts (expectations, snapshots)
      unterm push [--socket PATH] PAYLOAD ...      deliver into a running interactive session
      unterm --help | unterm COMMAND --help | unterm --version

    With no arguments, unterm opens a demo built from SamplePayloads/.
    A PAYLOAD is a .json or .apns file, or - for standard input.

    Keys in the interactive session: ↑↓ move · Space long-press · 1–9,0 action · ⏎ tap ·
    x clear · Esc close · c list · L lock · d device · t theme · ? all keys · q quit.
    `unterm help interactive` shows the interactive session's options in full.

    \(sessionOptions)
    Exit codes: 0 success · 1 lint error, failed expectation, or no session for push ·
    2 usage error · 65 invalid input data · 66 missing or unreadable file · 70 internal error
    """

  static let render = """
    unterm render — deliver payloads in order and print one screen

    Usage: unterm render [SESSION OPTIONS] [RENDER OPTIONS] PAYLOAD ...

    Render options:
      --view banner|expanded|center   the newest notification's banner, its expanded
                                      (long-press) view, or the notification list (default banner)
      --size COLSxROWS                screen size (default: the terminal's, else 80x24)
      --color auto|always|never       ANSI colour (default auto: only on a terminal; NO_COLOR
                                      set means never)
      --now ISO8601                   the clock, for deterministic output (default: now)

    \(sessionOptions)
    """

  static let lint = """
    unterm lint — check payloads, categories and content extensions

    Usage: unterm lint [SESSION OPTIONS] [--json] [--strict] PAYLOAD ...

    Prints one finding a line: FILE:JSON.PATH: SEVERITY[CODE]: MESSAGE
    Files are recognised by what they hold: payloads, categories files (a "categories" array),
    content-extension descriptors and Info.plists, and .session scripts; a folder means its
    .json and .apns files. Categories files given this way count as registered.
      --json      print a JSON array of {"file","path","severity","code","message"}
      --strict    a content extension that overflows its height budget is an error

    Exit codes: 0 no errors (warnings allowed) · 1 an error was found · 2 usage error ·
    66 a file is missing or unreadable

    \(sessionOptions)
    """
}

extension Help {
  static let run = """
    unterm run — run session scripts: deterministic, with expectations and snapshots

    Usage: unterm run [--update-snapshots] [--log F] [--cast F] [--live] [--speed X] SCRIPT ...

      --update-snapshots   re-record every snapshot the scripts take
      --log F              append every response to F (JSON Lines)
      --cast F             write an asciicast v2 recording (markers at deliveries and responses)
      --live               play the scripts in this terminal at a person's pace, with captions
      --speed X            pace for --live and --cast (2 = twice as fast)

    A script is UTF-8 text, one command a line (see README). The clock is virtual: 'wait'
    advances it at once, so runs are deterministic. Snapshots are NAME.txt files beside the
    script; a missing one is recorded (a failure when CI is set).

    Exit codes: 0 every expectation held · 1 one failed (a report follows) ·
    65 a script has a syntax error (nothing runs) or a file it loads is invalid · 66 a file is missing
    """
}

extension Help {
  static let interactive = """
    unterm — the interactive notification center (needs a terminal)

    Usage: unterm [SESSION OPTIONS] [--socket PATH] [PAYLOAD ...]

    With no arguments it opens a demo built from SamplePayloads/. Payloads given are delivered
    at start; more arrive with `unterm push FILE` from another terminal, or by dropping .json or
    .apns files into the inbox folder ($XDG_RUNTIME_DIR/unterm/inbox, else /tmp/unterm-UID/inbox;
    with --socket PATH, PATH.inbox). Only regular files are read: links, FIFOs and folders go to
    rejected/ with the reason in the activity pane. Write a file under a dot name and rename it
    in, or it is read 0.5 s after its last write.

    Keys: ↑↓/k j move · Space/l long-press (actions) · 1–9, 0 choose an action · ⏎ tap ·
    x clear · Esc close · c list · L lock · d iPhone/iPad · t theme · h app to background ·
    ? keys · q quit. In a text field: type, ← → Home End Backspace Delete, ⏎ sends, Esc cancels.
    Mouse: a click taps; a press held 500 ms, then released, is a long-press.

    \(sessionOptions)
      --socket PATH            where to listen for `unterm push` (default under $XDG_RUNTIME_DIR);
                               the inbox is then PATH.inbox. A missing folder is made 0700; an
                               existing one is used as it is, and refused if others can write to
                               it and it is not sticky. Only a stale socket of yours is replaced.
    """

  static let push = """
    unterm push — deliver payloads into the running interactive session

    Usage: unterm push [--socket PATH] PAYLOAD ...

    Connects to the session's socket ($XDG_RUNTIME_DIR/unterm/session.sock, else
    /tmp/unterm-UID/session.sock, or the --socket PATH the session was started with; only your
    own user may connect, and payloads are sent only to a session of your own user). Relative
    attachment paths resolve against each payload's folder. A payload the session refuses is
    reported here and in the session's activity pane.

    Exit codes: 0 delivered · 1 no session is running · 2 usage error ·
    65 the session refused a payload · 66 a file is missing
    """
}
