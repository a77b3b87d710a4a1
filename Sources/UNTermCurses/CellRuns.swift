import CNcursesw
import UNTermRender

/// One `cchar_t` worth of a cell: a spacing character and the zero-width ones that follow it.
package struct CellRun: Hashable, Sendable {
  /// Columns from the cell's first column to where this run is written.
  package var offset: Int
  /// Columns the run takes: its spacing character's width.
  package var width: Int
  /// The spacing scalar first, then at most `CellRuns.maxScalars - 1` zero-width ones.
  package var scalars: [Unicode.Scalar]

  package init(offset: Int, width: Int, scalars: [Unicode.Scalar]) {
    self.offset = offset
    self.width = width
    self.scalars = scalars
  }
}

/// Splits a cell's grapheme cluster into what ncurses can store per character cell.
///
/// ncurses keeps one spacing character and up to `CCHARW_MAX - 1` combining characters per
/// cell and measures them with `wcwidth`, as `DisplayWidth` does. A cluster such as ক্ষ (KA,
/// VIRAMA, SSA: width 2) or 👍🏽 (two width-2 scalars: width 4) therefore becomes several runs
/// written at successive columns, which keeps ncurses' idea of the row in step with the grid.
package enum CellRuns {
  /// Scalars per run: `CCHARW_MAX` (5 in ncurses 6.4).
  package static let maxScalars = Int(CCHARW_MAX)

  /// The runs of a cluster as they come: a new run at each scalar with a width, zero-width
  /// scalars appended to the current run while it has room.
  ///
  /// Control characters are dropped (text should be sanitized already; ncurses would draw them
  /// as `^X` and push the row out of line), scalars glibc calls unprintable become U+FFFD, and a
  /// zero-width scalar with no run to join is dropped, as are marks beyond the limit.
  package static func split(_ cluster: String) -> [CellRun] {
    var runs: [CellRun] = []
    var offset = 0
    for original in cluster.unicodeScalars {
      if isControl(original) { continue }
      let scalar = DisplayWidth.isUnprintable(original) ? "\u{FFFD}" : original
      let width = DisplayWidth.of(scalar)
      if width > 0 {
        runs.append(CellRun(offset: offset, width: width, scalars: [scalar]))
        offset += width
      } else if let last = runs.indices.last, runs[last].scalars.count < maxScalars {
        runs[last].scalars.append(scalar)
      }
    }
    return runs
  }

  /// The runs that draw a cell of a given width: those of `split` that fit, and spaces in any
  /// column they leave empty, so exactly `width` columns are written.
  package static func layout(_ cluster: String, width: Int) -> [CellRun] {
    guard width > 0 else { return [] }
    var runs = split(cluster).filter { $0.offset + $0.width <= width }
    var covered = [Bool](repeating: false, count: width)
    for run in runs {
      for column in run.offset..<(run.offset + run.width) { covered[column] = true }
    }
    for column in 0..<width where !covered[column] {
      runs.append(CellRun(offset: column, width: 1, scalars: [" "]))
    }
    return runs.sorted { $0.offset < $1.offset }
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
