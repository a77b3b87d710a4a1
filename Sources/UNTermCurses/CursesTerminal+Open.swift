import UNTermState

#if canImport(Glibc)
  import Glibc
#endif

/// The steps of opening the terminal, in the order `init` takes them (see `CursesTerminal`).
extension CursesTerminal {
  /// The stdio streams curses reads and writes, on copies of the caller's descriptors.
  struct Streams {
    let inputCopy: Int32
    let outputCopy: Int32
    let input: Curses.File
    let output: Curses.File
  }

  /// Sets the locale from the environment, falling back to C.UTF-8 for the character type.
  ///
  /// - Throws: `.noUTF8Locale` when neither gives UTF-8.
  static func useUTF8Locale() throws(CursesTerminalError) {
    _ = Curses.setLocaleFromEnvironment()
    if Curses.codeset() != "UTF-8" {
      _ = Curses.setCharacterLocale("C.UTF-8")
      let codeset = Curses.codeset()
      guard codeset == "UTF-8" else { throw .noUTF8Locale(codeset: codeset) }
    }
  }

  /// Duplicates both descriptors and opens a stream on each copy; on failure nothing stays open.
  static func openStreams(input: Int32, output: Int32) throws(CursesTerminalError) -> Streams {
    let inputCopy = Posix.duplicate(input)
    let outputCopy = Posix.duplicate(output)
    guard inputCopy >= 0, outputCopy >= 0,
      let inputStream = Curses.openStream(inputCopy, mode: "r"),
      let outputStream = Curses.openStream(outputCopy, mode: "w")
    else {
      let error = Posix.lastError
      if inputCopy >= 0 { Posix.close(inputCopy) }
      if outputCopy >= 0 { Posix.close(outputCopy) }
      throw .systemCallFailed("dup/fdopen", errno: error)
    }
    return Streams(inputCopy: inputCopy, outputCopy: outputCopy, input: inputStream, output: outputStream)
  }

  /// The modes to give back on the way out: the terminal's own, or — when an earlier program
  /// left it clearly raw — sane cooked modes, set now (`repaired`).
  static func repairInheritedModes(_ input: Int32) -> (modes: termios?, repaired: Bool) {
    guard var modes = Posix.terminalModes(input) else { return (nil, false) }
    guard TerminalModes.isClearlyRaw(modes) else { return (modes, false) }
    // Set before newterm, so ncurses keeps these as the shell's modes too (endwin, Ctrl-Z).
    TerminalModes.makeSaneCooked(&modes)
    Posix.setTerminalModes(input, &modes)
    return (modes, true)
  }

  /// Installs the termination handlers, with `handled` blocked until `armSignals` knows the
  /// restore bytes.
  ///
  /// Installed before newterm, so ncurses does not add its own SIGINT/SIGTERM handlers (endwin
  /// in a signal handler, then _exit(1)).
  static func prepareSignals(output: Int32, input: Int32, modes: termios?, polite: Bool, blocking handled: [Int32]) {
    TerminalSignals.prepare()
    Posix.setBlocked(handled, true)
    TerminalSignals.setTerminal(output: output, input: input, modes: modes)
    TerminalSignals.setPolite(polite)
    TerminalSignals.clearPendingSignal()
    TerminalSignals.installTermination()
  }

  /// `newterm` on the streams and its standard window.
  ///
  /// - Throws: `.unknownTerminalType` or `.terminalCannotAddressCursor`, after closing the
  ///   screen and the streams and, when it owns them, removing the signal handlers and
  ///   unblocking `blocked`.
  static func openScreen(type: String, streams: Streams, ownsSignals: Bool, blocked handled: [Int32])
    throws(CursesTerminalError) -> (Curses.Screen, Curses.Window)
  {
    let opened =
      ownsSignals
      ? Curses.newTerminal(type: type, output: streams.output, input: streams.input)
      : TerminalSignals.withoutNcursesTerminationHandlers {
        Curses.newTerminal(type: type, output: streams.output, input: streams.input)
      }
    guard let screen = opened, let window = Curses.standardWindow(),
      Curses.stringCapability("cup") != nil
    else {
      if opened != nil { Curses.endWindows() }
      if let opened { Curses.deleteScreen(opened) }
      Curses.closeStream(streams.output)
      Curses.closeStream(streams.input)
      if ownsSignals {
        TerminalSignals.uninstallAll()
        Posix.setBlocked(handled, false)
      }
      throw opened == nil ? .unknownTerminalType(type) : .terminalCannotAddressCursor(type)
    }
    return (screen, window)
  }

  /// Raw mode, no echo, no newline translation, keypad codes, reads that do not wait, and the
  /// Esc delay; returns the key for each ncurses key code.
  static func configureInput(
    _ window: Curses.Window, escapeDelay: Int32, companions: [(sequence: [UInt8], key: Key)]
  ) -> [UInt32: TerminfoKeys.Binding] {
    Curses.rawMode()
    Curses.noEcho()
    Curses.noNewlineTranslation()
    Curses.keypadMode(window, true)
    let keyTable = TerminfoKeys.bindKeys(companions: companions)
    Curses.noDelay(window, true)
    Curses.setEscapeDelay(milliseconds: escapeDelay)
    Curses.disableTypeaheadCheck()
    Curses.leaveCursor(window, true)
    return keyTable
  }

  /// Starts colour where the terminal has it: the palette, whether colour -1 is the
  /// terminal's own, and how many colour pairs there are to give out.
  static func startColors() -> (palette: CursesPalette, usesDefaultColors: Bool, maxPairs: Int) {
    let hasColors = Curses.hasColors() && Curses.startColor()
    let usesDefaultColors = hasColors && Curses.useDefaultColors()
    let palette = CursesPalette(hasColors: hasColors, colorCount: hasColors ? Curses.colorCount() : 0)
    return (palette, usesDefaultColors, hasColors ? max(0, Curses.colorPairCount() - 1) : 0)
  }

  /// Turns on mouse press and release reports, where terminfo says the terminal has a mouse;
  /// returns whether they are on.
  static func enableMouse() -> Bool {
    guard Curses.stringCapability("kmous") != nil else { return false }
    let enabled = Curses.setMouseMask(CursesMouseDecoder.Mask.requested) != 0
    Curses.setMouseInterval(milliseconds: 0)
    return enabled
  }

  /// The bytes that turn bracketed paste on and off, where terminfo says the terminal has it
  /// (`BE`).
  static func pasteSequences() -> (on: [UInt8], off: [UInt8])? {
    guard let on = Curses.stringCapability("BE") else { return nil }
    let off = Curses.stringCapability("BD") ?? RestoreSequence.pasteOff
    return (RestoreSequence.removingPadding(on), RestoreSequence.removingPadding(off))
  }

  /// Turns on bracketed paste and explicit bidi, as asked.
  func writeOpeningModes() {
    // ncurses has flushed everything it wrote while opening: these bytes go after it.
    if let pasteMode { Posix.writeAll(outputDescriptor, pasteMode.on) }
    if options.explicitBidi { Posix.writeAll(outputDescriptor, RestoreSequence.explicitBidiOn) }
  }

  /// Gives the signal handlers the bytes that restore the terminal, installs the crash,
  /// window-change and stop handlers, and unblocks `handled`.
  func armSignals(unblocking handled: [Int32]) {
    TerminalSignals.setRestoreBytes(
      RestoreSequence.bytes(
        lookup: Curses.stringCapability, mouseEnabled: hasMouse, pasteEnabled: pasteMode != nil,
        explicitBidi: options.explicitBidi))
    TerminalSignals.setPasteBytes(on: pasteMode?.on ?? [], off: pasteMode?.off ?? [])
    TerminalSignals.setActive(true)
    TerminalSignals.installCrash()
    TerminalSignals.installWindowChange()
    TerminalSignals.installStop()
    Posix.setBlocked(handled, false)
  }
}
