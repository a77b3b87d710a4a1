import UNTermInput
import UNTermState

/// The `--help` texts. Kept true to what the code does.
enum Help {
  /// Each command's help; a new command does not compile without one.
  static func text(for command: UNTermCommand) -> String {
    switch command {
    case .interactive: return interactive
    case .render: return render
    case .lint: return lint
    case .run: return run
    case .log: return log
    case .push: return push
    case .sheet: return sheet
    case .export: return export
    case .center: return center
    case .apns: return apns
    case .completion: return completion
    }
  }

  /// The session options, as every loading command's help lists them.
  static var sessionOptions: String { options(in: .session, for: .interactive) }

  static var main: String {
    """
    unterm — an interactive emulator of the iOS notification center

    Usage:
    \(commandList)
      unterm --help | unterm COMMAND --help | unterm --version

    With no arguments, unterm opens a demo built from SamplePayloads/.
    A PAYLOAD is a .json or .apns file, or - for standard input.

    In the interactive session `?` shows the keys; `unterm help keys` lists them with the
    session's options.

    \(sessionOptions)

    Exit codes (each command's --help says which it uses):
    \(exitCodes)
    """
  }

  /// Every exit code and its meaning, from `ExitCode`'s one declaration.
  static var exitCodes: String {
    table(ExitCode.allCases.map { (String($0.rawValue), $0.meaning) }, column: 8)
  }

  static var render: String {
    """
    unterm render — deliver payloads in order and print one screen

    Usage: \(usage(.render))

    \(options(for: .render))
    """
  }

  static var lint: String {
    """
    unterm lint — check payloads, categories and content extensions

    Usage: \(usage(.lint))

    Prints one finding a line: FILE:LINE:COL: SEVERITY[CODE]: MESSAGE [JSON.PATH]
    The line and column are those of the key (a missing key or a wrong type) or the value (a
    value that is not allowed) the JSON path names, in payloads, categories files, descriptors,
    Info.plists and scripts; a finding about a whole document is at 1:1, path $. --format json
    prints a JSON array, sarif a SARIF 2.1.0 log for code scanning, github one GitHub Actions
    annotation a finding (::error file=F,line=L,col=C,title=CODE::MESSAGE), codeclimate a
    GitLab code-quality report.
    Files are recognised by what they hold: payloads, categories files (a "categories" array),
    content-extension descriptors and Info.plists, .session scripts, and the app's strings
    (.strings, .stringsdict, .xcstrings files, LANG.lproj folders); a folder means its .json,
    .apns and .session files, LANG.lproj folders and Localizable.xcstrings, and those of its
    sub-folders (not hidden ones). Categories files and strings given this way count as the
    app's: with strings, every payload's loc keys are checked in every language (a key a
    language lacks; specifiers whose count or kind does not match the loc-args). A script is checked for every syntax error and for
    files it names that do not exist; an attachment --media-dir lets lint read is decoded as the
    session would. With --extension, give a payload of its category: --strict fails a design
    measured without one, and holds designs to --device's budget when given, else to both. Each
    design is sized at the default text size (l) and the largest (ax5); an overflow is a finding
    at the sizes held, --text-sizes (else --text-size). APNs request headers (a payload's
    apns-headers, or the options) are checked as APNs checks them, each refusal with APNs' reason.
    `unterm lint --explain CODE` says what a code means; README lists them all.

    Exit codes: 0 no errors (warnings allowed) · 1 an error was found · 2 usage error ·
    66 a file is missing or unreadable

    \(options(for: .lint))
    """
  }
}

extension Help {
  static var run: String {
    """
    unterm run — run session scripts: deterministic, with expectations and snapshots

    Usage: \(usage(.run))

    A script is UTF-8 text, one command a line; `#` starts a comment at the start of a token, and
    an argument with spaces or `#` is written in double quotes (\\" \\\\ \\n escapes). Paths are
    relative to the script, and paths shown on screen are written relative to the script's folder,
    so a folder of scripts and snapshots passes wherever it is copied. The clock is virtual:
    'wait' advances it at once, so runs are deterministic. Snapshots are NAME.txt files beside the
    script; a missing one is recorded (a failure when CI is set). REGION is card (the focused card
    or expanded view), list, responses, activity or screen (the default); a check of a region
    that is not shown fails. With --live, the reports are printed when the terminal is given back.

    Commands:
    \(scriptCommands)

    With --log, a response counts only once its record is written and synced: the first one
    that cannot be (a full disk, an I/O error, a removed folder) stops the run with one line on
    stderr naming the file, the reason and the response lost. Damage found in an existing log is
    reported on stderr before anything is appended; new records go after it.

    With --junit FILE, a JUnit XML report for test-report tools: one testsuite, a testcase a
    script (name, file, seconds of real time), a failure with the expected/actual report for a
    failed expectation, an error for a script that could not run, skipped for one not run, and
    the final screen as system-out. It is written even when scripts fail, whole or not at all.

    Exit codes: 0 every expectation held · 1 one failed (a report follows) ·
    65 a script has a syntax error (nothing runs) or a file it loads is invalid · 66 a file is missing ·
    73 the --junit report or the --cast or --svg recording cannot be written ·
    74 a response could not be written or synced to --log

    \(options(for: .run))
    """
  }
}

extension Help {
  static var log: String {
    """
    unterm log — read a response log (--log FILE) back

    Usage: \(usage(.log))

    Prints each response on a line of its own: the date, the request, the action (@default and
    @dismiss for Apple's two), the reply text, then the category, thread, device and lock state.
    Every field is sanitized: control characters show as visible symbols (␛, ␊), never raw.
    --json prints the records as JSON Lines instead, each a valid JSON object. A line that is not
    a response record is reported on stderr with its line number; a cut-off last line (a record
    cut short by a crash or a full disk, never acknowledged) is skipped with a warning.

    Exit codes: 0 every line is a record (a cut-off last line allowed) · 2 usage error ·
    65 a line is damaged · 66 the file is missing or unreadable

    \(options(for: .log))
    """
  }

  static var interactive: String {
    """
    unterm — the interactive notification center (needs a terminal)

    Usage: \(usage(.interactive))

    With no arguments it opens a demo built from SamplePayloads/. Payloads given are delivered
    at start; more arrive with `unterm push FILE` from another terminal, or by dropping .json or
    .apns files into the inbox folder ($XDG_RUNTIME_DIR/unterm/inbox, else /tmp/unterm-UID/inbox;
    with --socket PATH, PATH.inbox). Only regular files are read: links, FIFOs and folders go to
    rejected/ with the reason in the activity pane. Write a file under a dot name and rename it
    in, or it is read 0.5 s after its last write.

    Every notification belongs to an app: push --bundle, else its Simulator Target Bundle, else
    its apns-topic, else --bundle. Headers name it (--app-name), the list stacks it by app and
    thread-id, and it finds only its own app's categories (--categories ID=FILE).

    Keys (the same list as `?` shows):
    \(KeyBindings.helpText())
    Mouse: a click taps; a press held 500 ms, then released, is a long-press. A click on a
    stack's summary row fans it out; on "Show less", collapses it.

    \(options(for: .interactive))
    """
  }

  static var push: String {
    """
    unterm push — deliver payloads into the running interactive session

    Usage: \(usage(.push))

    Connects to the session's socket ($XDG_RUNTIME_DIR/unterm/session.sock, else
    /tmp/unterm-UID/session.sock, or the --socket PATH the session was started with; only your
    own user may connect, and payloads are sent only to a session of your own user). Relative
    attachment paths resolve against each payload's folder. A payload the session refuses is
    reported here and in the session's activity pane. The APNs header options go with every
    payload, over each file's apns-headers; a payload with an apns-collapse-id is delivered under
    that identifier, replacing the notification delivered with it. --bundle ID names the app the
    payloads are for, over their Simulator Target Bundle and apns-topic, as simctl push's bundle
    argument does.

    Exit codes: 0 delivered · 1 no session is running · 2 usage error ·
    65 the session refused a payload · 66 a file is missing

    \(options(for: .push))
    """
  }
}

extension Help {
  static var sheet: String {
    """
    unterm sheet — a design sheet: every payload across devices, lock states, views and themes

    Usage: \(usage(.sheet))

    Writes one self-contained HTML file (no scripts, nothing fetched) with a picture of each
    screen: the same cells, colours and box drawing the terminal shows. Beside each expanded
    view: the content extension's QA numbers (initial and preferred height, budget, overflow,
    elements cut) and the actions with the identifier each sends; content clipped at a budget
    is outlined. At the top: the lint findings for every file. Each screen is drawn by its own
    session, as `unterm render` draws it, on an 80-column screen tall enough for the whole card.
    Files are sorted as lint sorts them: a categories file, descriptors and scripts may be among
    the payloads, and a folder means its .json and .apns files.

    Exit codes: 0 written · 2 usage error · 65 a payload, categories file, descriptor or theme
    is invalid · 66 a file is missing · 73 the sheet cannot be written (nothing is left behind)

    \(options(for: .sheet))
    """
  }
}

extension Help {
  static var export: String {
    """
    unterm export — print what sends a payload to a real Simulator or device

    Usage: \(usage(.export))

    Nothing is sent from UNTerm: the output is for you to run. Each PAYLOAD is checked as lint
    checks it (an error stops the export, exit 65) and exported as sent: the file's bytes without
    its apns-headers object.
      --simctl  one `xcrun simctl push` line per payload, the payload fed on its standard input;
                simctl carries no APNs headers (a note on stderr names those left behind).
      --apns    the payload as an .apns file with "Simulator Target Bundle" naming the app: drag
                it onto a Simulator, or `xcrun simctl push booted FILE`. One PAYLOAD.
      --curl    the HTTP/2 request to APNs: the headers (apns-push-type said explicitly, as Apple
                asks), a provider token from $APNS_AUTH_TOKEN and the device token from
                $DEVICE_TOKEN, so no secret is written into the command.
    The app is --topic (or the file's apns-topic), else the payload's Simulator Target Bundle,
    else --bundle when given.
    Everything is quoted for a POSIX shell: quotes and line breaks in a payload arrive intact.

    Exit codes: 0 printed · 2 usage error, or no app to send to · 65 a payload, or a file an
    option names, has an error · 66 a file is missing

    \(options(for: .export))
    """
  }

  static var center: String {
    """
    unterm center — the running session's notifications, every app's: the device as a tester
    sees it (an app's own center sees and removes only that app's)

    Usage: \(usage(.center))

      list        every app's delivered notifications (newest first), those held for the
                  Scheduled Summary and the pending requests, with identifier, thread, category,
                  date and app
      remove ID…  remove notifications of any app by request identifier, delivered, held or
                  pending (as removeDeliveredNotifications and removePendingNotificationRequests
                  do for an app's own); an identifier nothing has is ignored, as iOS ignores
                  it, with a warning line on stderr
      clear       remove every app's delivered notifications, and what the summary holds (as
                  removeAllDeliveredNotifications does for an app's own); pending requests stay
      tokens      the device token of each app (--apns-listen); --expire APP makes one answer
                  410 Unregistered from now on, as after the app is deleted
      offline on|off
                  take the device offline: APNs holds each app's newest push until its
                  apns-expiration and delivers it when the device is back
      fail REASON [N]
                  answer the next N APNs requests with REASON (ServiceUnavailable, Shutdown,
                  InternalServerError, TooManyRequests, …), as APNs does on a bad day
    Talks to the session's socket as `unterm push` does: only a session of your own user.

    Exit codes: 0 done (an unknown identifier too) · 1 no session is running · 2 usage error

    \(options(for: .center))
    """
  }

  static var apns: String {
    """
    unterm apns — the APNs endpoint's private CA (`unterm --apns-listen PORT`, `unterm run
    --apns-listen PORT`)

    Usage: \(usage(.apns))

      ca   print the CA certificate's path, then its PEM: a client that trusts it (curl
           --cacert, Python's ssl.create_default_context(cafile=…)) trusts UNTerm's server
           certificate for api.sandbox.push.apple.com, api.push.apple.com, localhost and the
           loopback addresses, and nothing else. Made on first use, 0600, under
           $XDG_DATA_HOME/unterm/apns/ (else ~/.local/share/unterm/apns/).

    Exit codes: 0 done · 1 the CA could not be made · 2 usage error

    \(options(for: .apns))
    """
  }

  static var completion: String {
    """
    unterm completion — print a shell's completion script

    Usage: \(usage(.completion))

    Completes the commands, each command's options, the options' values (themes, devices, text
    sizes, previews modes, lint formats and codes, Focus names) and file arguments by their
    kind (.json and .apns payloads, .session scripts, .plist, .strings, .xcstrings). Made from
    the same declarations as this help. To use one now:

      source <(unterm completion bash)                 bash
      unterm completion zsh > ~/.zfunc/_unterm         zsh (with ~/.zfunc on fpath)
      unterm completion fish | source                  fish

    `make install` puts all three where the shells look.

    Exit codes: 0 printed · 2 usage error (no shell, or another than bash, zsh or fish)

    \(options(for: .completion))
    """
  }
}
