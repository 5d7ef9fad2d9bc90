import ObservationReports
import ObservationWorkloads

/// How long the rest of a sweep will take, cell by cell, from what the sweep measured so far:
/// the progress line's time left.
///
/// A cell costs what its series' cost projection says (``CostProjection``, the same one that
/// skips a cell projected far past its budget), and at least what the series' last cell took
/// (a process start, calibration and warm-up dominate small sizes). A series not started yet
/// costs, per size, what the cells of that size took in the series before it. A cell projected
/// past the budget, and every later size of its series, costs nothing: the sweep will skip
/// them, as it skips the series already capped; a cell projected to spend its whole budget is
/// counted, at most until its last process's hard limit, and ends its series.
struct RemainingTime {
  /// Wall seconds of each series' last cell run.
  private var lastSeconds: [Cell.Series: Double] = [:]
  /// Total wall seconds and count of the cells run at each size.
  private var bySize: [Int: (seconds: Double, cells: Int)] = [:]

  /// Records that `cell` ran for `seconds` (start to finish, its processes' starts included).
  mutating func record(_ cell: Cell, seconds: Double) {
    lastSeconds[cell.series] = seconds
    let known = bySize[cell.n] ?? (0, 0)
    bySize[cell.n] = (known.seconds + seconds, known.cells + 1)
  }

  /// The seconds the cells `remaining` will take, in order; `nil` until a cell has run.
  ///
  /// - Parameters:
  ///   - projections: each series' projection from the sizes it finished.
  ///   - capped: the series the sweep stopped, whose later cells it skips.
  ///   - budget: a cell's time budget, in seconds.
  ///   - repetitions: the repetitions a cell runs in all, warm-ups included.
  /// - Complexity: O(*c*) for *c* cells remaining.
  func seconds(
    remaining: some Sequence<Cell>, projections: [Cell.Series: CostProjection],
    capped: Set<Cell.Series>, budget: Double, repetitions: (Cell) -> Int
  ) -> Double? {
    guard !bySize.isEmpty else { return nil }
    let all = bySize.values.reduce((seconds: 0.0, cells: 0)) {
      ($0.seconds + $1.seconds, $0.cells + $1.cells)
    }
    var stopped = capped
    var total = 0.0
    for cell in remaining where !stopped.contains(cell.series) {
      let projected = projections[cell.series]?.projectedSeconds(
        n: cell.n, repetitions: repetitions(cell),
        minimumOperations: cell.workload.minimumOperations(n: cell.n))
      if let projected, CellPolicy.skips(projectedSeconds: projected, budget: budget) {
        stopped.insert(cell.series)
        continue
      }
      let typical = bySize[cell.n].map { $0.seconds / Double($0.cells) }
      // No process starts once the budget is spent, and the last one ends by its hard limit.
      let seconds = min(
        max(
          lastSeconds[cell.series] ?? typical ?? all.seconds / Double(all.cells), projected ?? 0),
        budget + CellPolicy.hardLimit(budget: budget))
      // Its repetitions alone would spend the budget: the cell ends capped, and the sweep
      // skips the rest of its series.
      if let projected, projected >= budget { stopped.insert(cell.series) }
      total += seconds
    }
    return total
  }
}
