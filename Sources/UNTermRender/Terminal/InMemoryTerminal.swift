import Foundation
import UNTermState

/// A terminal in memory, as ratatui's `TestBackend`: the interactive loop runs on it unchanged,
/// and tests read the screen it shows.
///
/// * **Frames out.** `present` writes only the clusters `CellDiff` reports, into a screen of
///   cells that behaves like a terminal's (writing over half of a wide cluster blanks the other
///   half), so a diff that forgets a cell leaves a stale cell a test sees. Each frame is also
///   counted: cells written, full repaints, and the bytes of its ANSI form (`terminalUpdate`).
/// * **Input in.** Input is queued with a delay after the input before it; time is virtual:
///   `nextInput` moves `now` to the input's arrival, or by the whole timeout when nothing
///   arrives in time (queue an empty batch to let time pass). With no input left, the terminal
///   hangs up, so a loop under test always ends.
/// * **Resize** changes `size` when the `.resize` event is read, as the kernel does before
///   SIGWINCH. **Suspend** is counted.
package final class InMemoryTerminal: TerminalBackend {
  /// What one run has cost so far.
  package struct Counters: Hashable, Sendable {
    /// Calls to `present`.
    package var presents = 0
    /// Presents that rewrote every cell (the first frame, a new size, a requested repaint).
    package var fullRepaints = 0
    /// Presents that wrote at least one cell.
    package var framesWithChanges = 0
    /// Clusters written.
    package var cellsWritten = 0
    /// Bytes the frames take as ANSI text.
    package var bytes = 0
    /// `suspendForJobControl()` calls.
    package var suspensions = 0
  }

  /// What the terminal shows: only what `present` wrote.
  package private(set) var screen: CellGrid
  /// Where the text cursor is shown, if it is.
  package private(set) var cursor: (x: Int, y: Int)?
  package private(set) var size: (width: Int, height: Int)
  /// The virtual clock.
  package private(set) var now: Date
  package private(set) var counters = Counters()
  /// The timeouts the loop waited with, in order (negative: no limit).
  package private(set) var waits: [Int32] = []

  private var pending: [(at: Date, events: [InputEvent])] = []
  private var lastArrival: Date
  private var needsFullRepaint = true
  private let depth: ColorDepth

  /// A terminal of a size, its clock at `now`; `depth` is what the byte counts assume.
  package init(width: Int, height: Int, now: Date, depth: ColorDepth = .palette256) {
    size = (width, height)
    screen = CellGrid(width: width, height: height)
    self.now = now
    lastArrival = now
    self.depth = depth
  }

  // MARK: - Scripting input

  /// Queues input arriving `delay` seconds after the input queued before it (or after the
  /// start).
  package func input(_ events: [InputEvent], after delay: TimeInterval = 0) {
    lastArrival = lastArrival.addingTimeInterval(max(0, delay))
    pending.append((lastArrival, events))
  }

  /// Queues key presses, arriving together.
  package func press(_ keys: Key..., after delay: TimeInterval = 0) {
    input(keys.map { .key($0) }, after: delay)
  }

  /// Queues typed text, one key per character, arriving together.
  package func type(_ text: String, after delay: TimeInterval = 0) {
    input(text.map { .key(.character($0)) }, after: delay)
  }

  /// Queues a change of size (the terminal's SIGWINCH).
  package func resize(width: Int, height: Int, after delay: TimeInterval = 0) {
    input([.resize(width: width, height: height)], after: delay)
  }

  /// Whether queued input is still unread.
  package var hasPendingInput: Bool { !pending.isEmpty }

  // MARK: - TerminalBackend

  package func nextInput(timeoutMilliseconds: Int32, extraFD: Int32?) -> [InputEvent] {
    waits.append(timeoutMilliseconds)
    let deadline =
      timeoutMilliseconds < 0 ? Date.distantFuture : now.addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    guard let next = pending.first else { return [.hangup] }
    guard next.at <= deadline else {
      now = deadline
      return []
    }
    pending.removeFirst()
    now = max(now, next.at)
    for case .resize(let width, let height) in next.events { size = (width, height) }
    return next.events
  }

  package func present(_ frame: Frame, depth: ColorDepth) {
    counters.presents += 1
    let grid = frame.grid
    cursor = frame.cursor
    if needsFullRepaint || screen.width != size.width || screen.height != size.height || grid.width != size.width
      || grid.height != size.height
    {
      // A full repaint: the terminal is cleared and every cell of the frame that fits is drawn.
      var fresh = CellGrid(width: size.width, height: size.height)
      for position in CellDiff.allCells(of: grid) where fits(grid, position) {
        fresh.put(cluster: position, from: grid)
      }
      screen = fresh
      needsFullRepaint = false
      counters.fullRepaints += 1
      counters.framesWithChanges += 1
      counters.cellsWritten += CellDiff.allCells(of: grid).count
      counters.bytes += grid.terminalUpdate(from: nil, depth: self.depth).utf8.count
      return
    }
    let positions = CellDiff.changes(from: screen, to: grid)
    guard !positions.isEmpty else { return }
    counters.bytes += grid.terminalUpdate(from: screen, depth: self.depth).utf8.count
    for position in positions { screen.put(cluster: position, from: grid) }
    counters.framesWithChanges += 1
    counters.cellsWritten += positions.count
  }

  package func requestFullRepaint(clearingTerminal: Bool) {
    needsFullRepaint = true
  }

  package func suspendForJobControl() {
    counters.suspensions += 1
  }

  private func fits(_ grid: CellGrid, _ position: CellPosition) -> Bool {
    position.y < size.height && position.x + max(1, Int(grid[position.x, position.y].width)) <= size.width
  }
}

extension CellGrid {
  /// Copies the cluster at `position` of `source` here, as a terminal draws a character: a
  /// wide cluster it partly overwrites is blanked whole.
  fileprivate mutating func put(cluster position: CellPosition, from source: CellGrid) {
    let head = source[position.x, position.y]
    let span = max(1, Int(head.width))
    let end = min(width, position.x + span)
    guard position.y < height, position.x < end else { return }
    // Blank clusters on screen that straddle the edges of the span.
    var x = position.x
    while x > 0 && self[x, position.y].isContinuation { x -= 1 }
    blankCluster(at: x, position.y)
    if end < width && self[end, position.y].isContinuation {
      var tail = end
      while tail > 0 && self[tail, position.y].isContinuation { tail -= 1 }
      blankCluster(at: tail, position.y)
    }
    for column in position.x..<end { store(source[column, position.y], x: column, y: position.y) }
  }

  private mutating func blankCluster(at x: Int, _ y: Int) {
    let span = max(1, Int(self[x, y].width))
    for column in x..<min(width, x + span) { store(Cell(), x: column, y: y) }
  }
}
