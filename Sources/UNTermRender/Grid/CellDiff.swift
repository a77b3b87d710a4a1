/// A cell's column and row.
package struct CellPosition: Hashable, Sendable, CustomStringConvertible {
  package var x: Int
  package var y: Int

  package init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }

  package var description: String { "(\(x),\(y))" }
}

/// Which cells to write to turn the screen showing one grid into another: the one diff every
/// terminal path uses (ncurses in `CursesTerminal`, the ANSI text of `terminalUpdate`, the
/// in-memory terminal of the tests), as ratatui's `Buffer::diff` is for its backends.
package enum CellDiff {
  /// The first column of every cluster in a grid, row by row: a full repaint.
  ///
  /// - Complexity: O(width × height).
  package static func allCells(of grid: CellGrid) -> [CellPosition] {
    var out: [CellPosition] = []
    out.reserveCapacity(grid.width * grid.height)
    for y in 0..<grid.height {
      for x in 0..<grid.width where !grid[x, y].isContinuation {
        out.append(CellPosition(x: x, y: y))
      }
    }
    return out
  }

  /// The clusters of `next` that differ from `previous`, left to right and top to bottom.
  ///
  /// Continuation cells are never written (the terminal fills them when their cluster is
  /// drawn): a changed continuation marks the cluster it belongs to. Without a previous grid, or
  /// when the sizes differ, every cluster is returned.
  ///
  /// - Complexity: O(width × height).
  package static func changes(from previous: CellGrid?, to next: CellGrid) -> [CellPosition] {
    guard let previous, previous.width == next.width, previous.height == next.height else {
      return allCells(of: next)
    }
    var out: [CellPosition] = []
    for y in 0..<next.height {
      var lastMarked = -1
      for x in 0..<next.width where next[x, y] != previous[x, y] {
        var head = x
        while head > 0 && next[head, y].isContinuation { head -= 1 }
        if next[head, y].isContinuation || head <= lastMarked { continue }
        out.append(CellPosition(x: head, y: y))
        lastMarked = head
      }
    }
    return out
  }
}
