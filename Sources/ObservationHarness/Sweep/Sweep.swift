import Foundation
import ObservationReports
import ObservationWorkloads

/// Measures cells, each in fresh processes, skipping the cells a series cannot afford.
///
/// Counting instructions, a cell's processes run one after another, in the plan's order. Timing,
/// they run in rounds: the first round runs the first process of every cell, size by size (the
/// cells of one size in a shuffled order), and decides which series are capped; each later round
/// runs the next process of every cell still measuring, all in a shuffled order. A busy moment
/// of a shared machine then slows a few processes of many backends' cells, which each cell's
/// median and each backend's median over its cells see through, instead of every process of one
/// backend's cells, which moved whole backends by up to 37% between two runs of one build
/// measured cell after cell. The order is the same in every run, so anything that drifts along
/// a sweep (a machine warming up) falls on the same cells in both runs of a comparison.
package struct Sweep {
  let runner: CellRunner
  let metric: Metric
  /// Why a cell is not run at all, or `nil` to run it.
  let reasonNotMeasured: (Cell) -> String?

  /// Every cell's result (`nil`: not run, capped by its series), the largest size each
  /// series finished, and the sweep's wall time. Each cell measured advances `progress`, with
  /// the time left estimated from what each series measured so far.
  ///
  /// - Complexity: O(*c*²) bookkeeping for *c* cells (each step estimates the time left of
  ///   every cell after it), besides running them.
  package func measure(_ cells: [Cell], progress: SweepProgressFactory) -> SweepResult {
    let start = DispatchTime.now()
    let inRounds = metric == .time
    let rounds = inRounds ? cells.map { runner.layout($0).processes }.max() ?? 1 : 1
    var firstRound = progress(cells.count)
    var cappedSeries: [Cell.Series: Int] = [:]
    var projections: [Cell.Series: CostProjection] = [:]
    var timing = RemainingTime()
    var generator = SplitMix64(seed: runner.seed)
    let order = inRounds ? Self.firstRound(of: cells, using: &generator) : Array(cells.indices)
    /// Each cell's processes; `nil` for a cell skipped (capped by its series).
    var running = [CellProcesses?](repeating: nil, count: cells.count)
    /// Wall seconds of each cell's first process, for the later rounds' time left.
    var firstSeconds = [Double](repeating: 0, count: cells.count)
    func repetitions(_ cell: Cell) -> Int {
      guard inRounds else { return runner.totalRepetitions(cell) }
      return runner.layout(cell).repetitions + (CellPolicy.skipsWarmUp(n: cell.n) ? 0 : 1)
    }
    func remaining(after step: Int) -> Double? {
      let rest = order[(step + 1)...].lazy.map { cells[$0] }
      guard
        let firstRound = timing.seconds(
          remaining: rest, projections: projections, capped: Set(cappedSeries.keys),
          budget: runner.budget, repetitions: repetitions)
      else { return nil }
      // The later rounds run again what the first one measures: the processes of the cells
      // measured so far, as they took, and of those to come, as projected.
      let measured = zip(running, firstSeconds).reduce(0.0) { sum, pair in
        guard let processes = pair.0, !processes.isDone else { return sum }
        return sum + pair.1 * Double(processes.count - processes.started)
      }
      let toCome = firstRound * Double(rounds - 1)
      return firstRound + measured + toCome
    }
    /// Each cell that does not apply to its row, with the reason.
    var inapplicable: [Int: String] = [:]
    for (step, index) in order.enumerated() {
      let cell = cells[index]
      if let reason = reasonNotMeasured(cell) {
        inapplicable[index] = reason
        firstRound.advance(Self.label(cell) + ": n/a", remainingSeconds: remaining(after: step))
        continue
      }
      // Skip a cell once its series ran out of time, or when the sizes measured so far
      // project it far past the budget: a pathological cell must not run for an hour, nor
      // even for its whole hard limit.
      let projected = projections[cell.series]?.projectedSeconds(
        n: cell.n, repetitions: runner.totalRepetitions(cell),
        minimumOperations: cell.workload.minimumOperations(n: cell.n))
      if cappedSeries[cell.series] != nil
        || CellPolicy.skips(projectedSeconds: projected ?? 0, budget: runner.budget)
      {
        cappedSeries[cell.series] = cappedSeries[cell.series] ?? cell.n
        firstRound.advance(
          "\(cell.backend) \(cell.workload.rawValue) n=\(cell.n): capped",
          remainingSeconds: remaining(after: step))
        continue
      }
      let cellStart = DispatchTime.now()
      var processes = CellProcesses(cell, runner: runner)
      if inRounds {
        _ = processes.runNext(with: runner)
      } else {
        while processes.runNext(with: runner) {}
      }
      let seconds = Self.seconds(since: cellStart)
      timing.record(cell, seconds: seconds)
      switch processes.result {
      case .finished(let outcome) where !outcome.capped:
        // Projections are made from times; counting instructions, work is fixed and the
        // budget is only a guard against a hang.
        if metric == .time, let summary = CellResult.Quantiles(outcome.nanosecondsPerOperation) {
          projections[cell.series, default: CostProjection()].record(
            n: cell.n, secondsPerRepetition: outcome.secondsPerRepetition,
            nanosecondsPerOperation: summary.median)
        }
      case .finished, .timedOut: cappedSeries[cell.series] = cell.n
      case .failed, .incompatible, .notApplicable: break
      }
      running[index] = processes
      firstSeconds[index] = seconds
      firstRound.advance(
        Self.label(cell) + (rounds > 1 ? " (round 1 of \(rounds))" : ""),
        remainingSeconds: remaining(after: step))
    }
    for round in (rounds > 1 ? Array(2...rounds) : []) {
      let due = running.indices.filter { running[$0].map { !$0.isDone } ?? false }
        .shuffled(using: &generator)
      guard !due.isEmpty else { break }
      var roundProgress = progress(due.count)
      for index in due {
        _ = running[index]!.runNext(with: runner)
        // What is left: every process still owed, as long as the cell's first one took.
        let left = running.indices.reduce(0.0) { sum, other in
          guard let processes = running[other], !processes.isDone else { return sum }
          return sum + firstSeconds[other] * Double(processes.count - processes.started)
        }
        roundProgress.advance(
          Self.label(cells[index]) + " (round \(round) of \(rounds))", remainingSeconds: left)
      }
    }
    var largestFinished: [Cell.Series: Int] = [:]
    var results: [(Cell, CellRunner.Result?)] = []
    for (index, (cell, processes)) in zip(cells, running).enumerated() {
      results.append((cell, inapplicable[index].map { .notApplicable($0) } ?? processes?.result))
      if let processes, processes.isMeasured {
        largestFinished[cell.series] = max(largestFinished[cell.series] ?? 0, cell.n)
      }
    }
    return SweepResult(
      results: results, largestFinished: largestFinished,
      wallSeconds: Self.seconds(since: start))
  }

  /// The order of a timed sweep's first round: size by size, so that each series still meets
  /// its sizes in increasing order (its projections and caps need that), and the cells of one
  /// size shuffled with `generator`.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  static func firstRound(of cells: [Cell], using generator: inout SplitMix64) -> [Int] {
    Dictionary(grouping: cells.indices, by: { cells[$0].n }).sorted { $0.key < $1.key }
      .flatMap { $0.value.shuffled(using: &generator) }
  }

  /// How the progress line names `cell`.
  private static func label(_ cell: Cell) -> String {
    "\(cell.allocator.rawValue) \(cell.backend) \(cell.workload.rawValue) \(cell.pattern.rawValue)"
      + (cell.depth > 0 ? " depth=\(cell.depth)" : "") + " n=\(cell.n)"
      + (cell.workload.isContended ? " threads=\(cell.threads)" : "")
  }

  private static func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// A sweep that runs its cells with `runner` and measures `metric`, except those for which
  /// `reasonNotMeasured` gives a reason.
  package init(
    runner: CellRunner, metric: Metric,
    reasonNotMeasured: @escaping (Cell) -> String? = { _ in nil }
  ) {
    self.runner = runner
    self.metric = metric
    self.reasonNotMeasured = reasonNotMeasured
  }
}
