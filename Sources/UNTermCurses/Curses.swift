import CNcursesw

/// Swift names for the ncursesw calls this module makes: each C function is called here and
/// nowhere else, so the rest of the module reads as Swift.
///
/// Every call happens on the thread that owns the `CursesTerminal`; ncurses as Debian builds it
/// is not reentrant, and none of these may run in a signal handler.
enum Curses {
  typealias Window = UnsafeMutablePointer<WINDOW>
  typealias Screen = OpaquePointer
  typealias File = UnsafeMutablePointer<FILE>

  // MARK: - Locale and terminfo

  /// Sets every locale category from the environment; `false` when the environment names a
  /// locale the C library does not have.
  ///
  /// The corresponding C function is `setlocale(LC_ALL, "")`.
  static func setLocaleFromEnvironment() -> Bool {
    setlocale(LC_ALL, "") != nil
  }

  /// Sets the character-type locale to a named one; `false` when it is not installed.
  ///
  /// The corresponding C function is `setlocale(LC_CTYPE, name)`.
  static func setCharacterLocale(_ name: String) -> Bool {
    setlocale(LC_CTYPE, name) != nil
  }

  /// The current character set's name, such as `UTF-8` or `ANSI_X3.4-1968`.
  ///
  /// The corresponding C function is `nl_langinfo(CODESET)`.
  static func codeset() -> String {
    guard let name = cnc_codeset() else { return "" }
    return String(cString: name)
  }

  /// A string capability of the current terminal, or `nil` when it has none.
  ///
  /// The corresponding ncurses function is `tigetstr`.
  static func stringCapability(_ name: String) -> [UInt8]? {
    guard let value = cnc_tigetstr(name) else { return nil }
    return Array(String(cString: value).utf8)
  }

  /// Loads another terminal type's description and makes it the current one, to read its
  /// capabilities; `nil` when terminfo does not know the type. Only while no screen is open.
  ///
  /// The corresponding ncurses function is `setupterm`.
  static func loadDescription(_ type: String, descriptor: Int32) -> UnsafeMutableRawPointer? {
    cnc_load_terminal(type, descriptor)
  }

  /// Frees a description `loadDescription` made, leaving no current terminal.
  ///
  /// The corresponding ncurses function is `del_curterm`.
  static func freeDescription(_ description: UnsafeMutableRawPointer) {
    cnc_free_terminal(description)
  }

  // MARK: - Keys

  /// The key code a sequence is bound to: positive when bound, 0 when free, -1 when it
  /// conflicts with (is a prefix of, or starts with) a bound one, or is not plain ASCII.
  ///
  /// The corresponding ncurses function is `key_defined`.
  static func keyCode(of sequence: [UInt8]) -> Int32 {
    guard isPlainASCII(sequence) else { return -1 }
    return String(decoding: sequence, as: UTF8.self).withCString { key_defined($0) }
  }

  /// Binds a plain-ASCII sequence to a key code, so the keypad decoder returns the code for it.
  ///
  /// The corresponding ncurses function is `define_key`.
  static func bind(_ sequence: [UInt8], to code: Int32) -> Bool {
    guard isPlainASCII(sequence) else { return false }
    return String(decoding: sequence, as: UTF8.self).withCString { define_key($0, code) } == OK
  }

  private static func isPlainASCII(_ bytes: [UInt8]) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy { $0 > 0 && $0 < 0x80 }
  }

  // MARK: - Screens

  /// Opens a C stream over a descriptor.
  ///
  /// The corresponding C function is `fdopen`.
  static func openStream(_ descriptor: Int32, mode: String) -> File? {
    fdopen(descriptor, mode)
  }

  /// Closes a C stream and its descriptor.
  ///
  /// The corresponding C function is `fclose`.
  static func closeStream(_ stream: File) {
    _ = fclose(stream)
  }

  /// Starts curses on a terminal type and a pair of streams; `nil` when the type is unknown.
  ///
  /// Unlike `initscr`, this never exits the process. The corresponding ncurses function is
  /// `newterm`.
  static func newTerminal(type: String, output: File, input: File) -> Screen? {
    newterm(type, output, input)
  }

  /// The standard screen of the current terminal.
  ///
  /// The corresponding ncurses variable is `stdscr`.
  static func standardWindow() -> Window? {
    cnc_stdscr()
  }

  /// Gives the terminal back: leaves curses mode and restores the shell's terminal modes.
  ///
  /// The corresponding ncurses function is `endwin`.
  static func endWindows() {
    _ = endwin()
  }

  /// Frees a screen after `endWindows`.
  ///
  /// The corresponding ncurses function is `delscreen`.
  static func deleteScreen(_ screen: Screen) {
    delscreen(screen)
  }

  /// Changes the size curses believes the terminal has.
  ///
  /// The corresponding ncurses function is `resizeterm`.
  static func resizeTerminal(rows: Int32, columns: Int32) {
    _ = resizeterm(rows, columns)
  }

  // MARK: - Modes

  /// Raw input: no line buffering and no signal keys, so Ctrl-C arrives as byte 3.
  ///
  /// The corresponding ncurses function is `raw`.
  static func rawMode() {
    _ = raw()
  }

  /// Stops the terminal echoing typed characters.
  ///
  /// The corresponding ncurses function is `noecho`.
  static func noEcho() {
    _ = noecho()
  }

  /// Stops newline translation, so Enter arrives as 13 and output moves only where told.
  ///
  /// The corresponding ncurses function is `nonl`.
  static func noNewlineTranslation() {
    _ = nonl()
  }

  /// Decodes function and arrow keys into `KEY_*` codes.
  ///
  /// The corresponding ncurses function is `keypad`.
  static func keypadMode(_ window: Window, _ enabled: Bool) {
    _ = keypad(window, enabled)
  }

  /// Makes reads return `ERR` at once when no input is waiting.
  ///
  /// The corresponding ncurses function is `nodelay`.
  static func noDelay(_ window: Window, _ enabled: Bool) {
    _ = nodelay(window, enabled)
  }

  /// How long to wait after Esc for the rest of an escape sequence.
  ///
  /// The corresponding ncurses function is `set_escdelay`.
  static func setEscapeDelay(milliseconds: Int32) {
    _ = set_escdelay(milliseconds)
  }

  /// Stops `doupdate` from peeking at input and abandoning a refresh half-way.
  ///
  /// The corresponding ncurses function is `typeahead(-1)`.
  static func disableTypeaheadCheck() {
    _ = typeahead(-1)
  }

  /// Whether curses may leave the hardware cursor wherever the update ends.
  ///
  /// The corresponding ncurses function is `leaveok`.
  static func leaveCursor(_ window: Window, _ enabled: Bool) {
    _ = leaveok(window, enabled)
  }

  /// Shows (1) or hides (0) the hardware cursor; `false` when the terminal cannot.
  ///
  /// The corresponding ncurses function is `curs_set`.
  static func setCursorVisibility(_ visibility: Int32) -> Bool {
    curs_set(visibility) != ERR
  }

  // MARK: - Colour

  /// Whether the terminal has colours at all.
  ///
  /// The corresponding ncurses function is `has_colors`.
  static func hasColors() -> Bool {
    has_colors()
  }

  /// Turns colour on; `false` when the terminal refuses.
  ///
  /// The corresponding ncurses function is `start_color`.
  static func startColor() -> Bool {
    start_color() != ERR
  }

  /// Lets colour -1 mean the terminal's own foreground or background.
  ///
  /// The corresponding ncurses function is `use_default_colors`.
  static func useDefaultColors() -> Bool {
    use_default_colors() != ERR
  }

  /// How many colours the terminal has (after `startColor`).
  ///
  /// The corresponding ncurses variable is `COLORS`.
  static func colorCount() -> Int {
    Int(cnc_colors())
  }

  /// How many colour pairs the terminal has (after `startColor`).
  ///
  /// The corresponding ncurses variable is `COLOR_PAIRS`.
  static func colorPairCount() -> Int {
    Int(cnc_color_pairs())
  }

  /// Gives pair `number` (1 to `colorPairCount() - 1`) a foreground and background; whether
  /// ncurses took it.
  ///
  /// The caller numbers the pairs itself: ncurses's own allocator (`alloc_pair`) recycles pairs
  /// after `reset_color_pairs` before the table is full, which recoloured cells on screen. The
  /// corresponding ncurses function is `init_extended_pair`.
  static func definePair(_ number: Int32, foreground: Int32, background: Int32) -> Bool {
    init_extended_pair(number, foreground, background) == OK
  }

  // MARK: - Drawing

  /// The window's size in cells.
  ///
  /// The corresponding ncurses functions are `getmaxx` and `getmaxy`.
  static func size(of window: Window) -> (width: Int, height: Int) {
    (Int(max(0, getmaxx(window))), Int(max(0, getmaxy(window))))
  }

  /// Blanks the window (in memory; the terminal changes at the next update).
  ///
  /// The corresponding ncurses function is `werase`.
  static func erase(_ window: Window) {
    _ = werase(window)
  }

  /// Makes the next update repaint the whole terminal instead of only the differences.
  ///
  /// The corresponding ncurses function is `clearok`.
  static func clearOnNextUpdate(_ window: Window) {
    _ = clearok(window, true)
  }

  /// Writes one character cell: a spacing character, its combining marks, attributes, a pair.
  ///
  /// `characters` holds at most `CCHARW_MAX` wide characters followed by a 0. The result is
  /// ignored: the bottom-right cell reports `ERR` (the cursor cannot wrap) yet is stored. The
  /// corresponding ncurses functions are `setcchar` and `mvwadd_wch`.
  static func put(
    _ window: Window, y: Int32, x: Int32, characters: UnsafePointer<wchar_t>,
    attributes: attr_t, pair: Int32
  ) {
    var cell = cchar_t()
    var extendedPair = pair
    let status = setcchar(&cell, characters, attributes, Int16(clamping: pair), &extendedPair)
    guard status != ERR else { return }
    _ = mvwadd_wch(window, y, x, &cell)
  }

  /// Moves the window's cursor, which becomes the hardware cursor after the update.
  ///
  /// The corresponding ncurses function is `wmove`.
  static func move(_ window: Window, y: Int32, x: Int32) {
    _ = wmove(window, y, x)
  }

  /// Copies the window into the virtual screen.
  ///
  /// The corresponding ncurses function is `wnoutrefresh`.
  static func stage(_ window: Window) {
    _ = wnoutrefresh(window)
  }

  /// Sends the difference between the virtual and physical screens to the terminal.
  ///
  /// The corresponding ncurses function is `doupdate`.
  static func update() {
    _ = doupdate()
  }

  /// Repaints the window after `endWindows`, returning to curses mode.
  ///
  /// The corresponding ncurses function is `wrefresh`.
  static func refresh(_ window: Window) {
    _ = wrefresh(window)
  }

  // MARK: - Input

  /// Reads one wide character or key code: `OK`, `KEY_CODE_YES` or `ERR` and the value.
  ///
  /// The corresponding ncurses function is `wget_wch`.
  static func read(_ window: Window) -> (status: Int32, code: UInt32) {
    var code: wint_t = 0
    let status = wget_wch(window, &code)
    return (status, UInt32(code))
  }

  /// Chooses which mouse events to report; returns the ones the terminal will report (0 when it
  /// has no mouse support).
  ///
  /// The corresponding ncurses function is `mousemask`.
  static func setMouseMask(_ mask: UInt32) -> UInt32 {
    var previous: mmask_t = 0
    return UInt32(mousemask(mmask_t(mask), &previous))
  }

  /// How long a press and release may be apart to count as a click; 0 reports them apart.
  ///
  /// The corresponding ncurses function is `mouseinterval`.
  static func setMouseInterval(milliseconds: Int32) {
    _ = mouseinterval(milliseconds)
  }

  /// Takes every mouse event queued behind a `KEY_MOUSE` code, oldest first.
  ///
  /// One `KEY_MOUSE` can stand for several reports that arrived together (a press and its
  /// release, a burst of wheel steps), and `getmouse` hands them out newest first, so this asks
  /// until the queue is empty. The corresponding ncurses function is `getmouse`.
  static func takeMouseEvents() -> [(buttonState: UInt32, x: Int32, y: Int32)] {
    var events: [(buttonState: UInt32, x: Int32, y: Int32)] = []
    var event = MEVENT()
    while events.count < 64 && getmouse(&event) == OK {
      events.append((UInt32(event.bstate), event.x, event.y))
    }
    return events.reversed()
  }

  /// Throws away input waiting to be read, including keys curses queued itself.
  ///
  /// The corresponding ncurses function is `flushinp`.
  static func discardInput() {
    _ = flushinp()
  }
}
