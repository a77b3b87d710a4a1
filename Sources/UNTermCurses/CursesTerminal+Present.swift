import UNTermRender

#if canImport(Glibc)
  import Glibc
#endif

extension CursesTerminal {
  /// Draws a frame: only the cells that changed since the last one, then one `doupdate`.
  ///
  /// Colours go through `depth.degrade` (capped at what the terminal offers) and then to
  /// ncurses numbers; colour pairs come from `alloc_pair` and are cached. Clusters are written
  /// as `cchar_t` runs (`CellRuns`); continuation cells are left to ncurses. Cells outside the
  /// window are skipped, so a frame of the wrong size (a resize not yet handled) is clipped,
  /// and the bottom-right cell's `ERR` is ignored. The hardware cursor is shown at
  /// `frame.cursor` when set, hidden otherwise.
  ///
  /// The whole screen is repainted after a resize, a change of size or depth, or
  /// `requestFullRepaint()`.
  package func present(_ frame: Frame, depth: ColorDepth) {
    present(frame, depth: depth, isRetry: false)
  }

  /// Makes the next `present` write every cell, and optionally clear the terminal first (for
  /// Ctrl-L, or after something else wrote to the terminal).
  package func requestFullRepaint(clearingTerminal: Bool = true) {
    needsFullRepaint = true
    if clearingTerminal { clearsTerminalBeforeNextPresent = true }
  }

  private func present(_ frame: Frame, depth: ColorDepth, isRetry: Bool) {
    guard isOpen, !isSuspended else { return }
    let grid = frame.grid
    let windowSize = Curses.size(of: window)
    let effectiveDepth = min(depth, palette.depth)
    let isFull =
      needsFullRepaint || previousGrid?.width != grid.width || previousGrid?.height != grid.height
      || previousWindowSize != windowSize || previousDepth != effectiveDepth
    if isFull {
      Curses.erase(window)
      // After a real change of size the terminal may have reflowed what it showed: start clean.
      // (A SIGWINCH to the same size changes nothing and repaints nothing.)
      if previousGrid != nil && previousWindowSize != windowSize { clearsTerminalBeforeNextPresent = true }
      if clearsTerminalBeforeNextPresent {
        Curses.clearOnNextUpdate(window)
        clearsTerminalBeforeNextPresent = false
      }
    }
    let positions =
      isFull ? CellDiff.allCells(of: grid) : CellDiff.changes(from: previousGrid, to: grid)
    pairTableOverflowed = false
    for position in positions {
      draw(
        grid[position.x, position.y], x: position.x, y: position.y, in: windowSize,
        depth: effectiveDepth)
    }
    if pairTableOverflowed && !isRetry {
      // More pairs than the terminal has: number them again from 1 and repaint everything, so
      // no cell on screen keeps a pair that now means other colours.
      pairs = [:]
      requestFullRepaint()
      present(frame, depth: depth, isRetry: true)
      return
    }
    placeCursor(frame.cursor, in: windowSize)
    Curses.stage(window)
    Curses.update()
    previousGrid = grid
    previousWindowSize = windowSize
    previousDepth = effectiveDepth
    needsFullRepaint = false
  }

  private func draw(
    _ cell: Cell, x: Int, y: Int, in size: (width: Int, height: Int), depth: ColorDepth
  ) {
    guard y < size.height, x < size.width, !cell.isContinuation else { return }
    let colors = palette.colors(of: cell.style, depth: depth, defaultColors: usesDefaultColors)
    let pair = pair(foreground: colors.foreground, background: colors.background)
    let attributes = CursesAttributes.bits(cell.style.attributes)
    let utf8 = cell.text.utf8
    if cell.width == 1, utf8.count == 1, let byte = utf8.first, byte >= 0x20, byte < 0x7F {
      // Plain ASCII, most of the screen: no splitting needed.
      characters[0] = wchar_t(byte)
      characters[1] = 0
      Curses.put(
        window, y: Int32(y), x: Int32(x), characters: characters, attributes: attributes, pair: pair
      )
      return
    }
    for run in CellRuns.layout(cell.text, width: max(1, Int(cell.width))) {
      let column = x + run.offset
      guard column + run.width <= size.width else { break }
      var count = 0
      for scalar in run.scalars.prefix(CellRuns.maxScalars) {
        characters[count] = wchar_t(truncatingIfNeeded: scalar.value)
        count += 1
      }
      characters[count] = 0
      Curses.put(
        window, y: Int32(y), x: Int32(column), characters: characters, attributes: attributes,
        pair: pair)
    }
  }

  /// The colour pair for two ncurses colour numbers, defined once and cached; numbered here, 1
  /// to `maxPairs`, so a pair is never given other colours while cells on screen use it.
  private func pair(foreground: Int32, background: Int32) -> Int32 {
    guard maxPairs > 0 else { return 0 }
    if foreground == -1 && background == -1 { return 0 }
    let key = Int64(foreground) << 32 | Int64(UInt32(bitPattern: background))
    if let cached = pairs[key] { return cached }
    guard pairs.count < maxPairs else {
      pairTableOverflowed = true
      return 0
    }
    let number = Int32(pairs.count + 1)
    guard Curses.definePair(number, foreground: foreground, background: background) else { return 0 }
    pairs[key] = number
    return number
  }

  private func placeCursor(_ cursor: (x: Int, y: Int)?, in size: (width: Int, height: Int)) {
    if let cursor, cursor.x >= 0, cursor.y >= 0, cursor.x < size.width, cursor.y < size.height {
      Curses.leaveCursor(window, false)
      Curses.move(window, y: Int32(cursor.y), x: Int32(cursor.x))
      setCursorVisibility(1)
    } else {
      Curses.leaveCursor(window, true)
      setCursorVisibility(0)
    }
  }

  private func setCursorVisibility(_ visibility: Int32) {
    guard cursorVisibility != visibility else { return }
    if Curses.setCursorVisibility(visibility) { cursorVisibility = visibility }
  }
}
