import Foundation
import UNTermInput

/// The table of issue 14, one row a figure: what UNTerm measures, its floor, the ratio between
/// them and the goal, and whether the goal is met on this machine.
struct SummaryRow {
  var what: String
  var measured: String
  var floor: String
  var ratio: String
  var goal: String
  /// The goal met on wall time, as the issue measured it (and memory where it has a goal).
  var met: Bool
  /// Whether CPU time meets it too, where the row has a time goal: printed beside the verdict,
  /// since a figure that meets its goal only with a second core should say so.
  var metOnCPU: Bool? = nil
}

enum Summary {
  static func show(_ rows: [SummaryRow]) {
    guard !rows.isEmpty else { return }
    Console.line("")
    Console.line("summary (\(SafeText(sanitizing: Measure.machine)))")
    let header = SummaryRow(what: "what", measured: "UNTerm", floor: "floor", ratio: "ratio", goal: "goal", met: true)
    let all = [header] + rows
    let columns: [[String]] = all.map { [$0.what, $0.measured, $0.floor, $0.ratio, $0.goal] }
    var widths = [Int](repeating: 0, count: 5)
    for cells in columns {
      for (i, cell) in cells.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    for (index, row) in all.enumerated() {
      let cells = columns[index].enumerated().map { (i: Int, cell: String) in
        cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
      }
      let cpu = row.metOnCPU.map { $0 ? " (CPU time too)" : " (CPU time: MISSES)" } ?? ""
      let verdict = index == 0 ? "" : (row.met ? "meets" : "MISSES") + cpu
      Console.line("  \(cells.joined(separator: "  "))  \(verdict)")
    }
  }

  static func format(_ format: String, _ arguments: any CVarArg...) -> String {
    String(format: format, arguments: arguments)
  }
}
