import Foundation
import ObservationWorkloads

/// Measures cells one after another, each in fresh processes, skipping the cells a series
/// cannot afford.
public struct Sweep {
  let runner: CellRunner
  let metric: Metric

  /// Every plan's result (`nil`: not run, capped by its series), the largest size each
  /// series finished, and the sweep's wall time. Unless `quiet`, progress goes to standard
  /// error, with the time left estimated from what each series measured so far (see
  /// ``SweepProgress``).
  ///
  /// - Complexity: O(*c*²) bookkeeping for *c* cells (each step estimates the time left of
  ///   every cell after it), besides running them.
  public func measure(_ plans: [Cell], quiet: Bool) -> SweepResult {
    let start = DispatchTime.now()
    var progress = SweepProgress(total: plans.count, quiet: quiet)
    var cappedSeries: [Cell.Series: Int] = [:]
    var largestFinished: [Cell.Series: Int] = [:]
    var projections: [Cell.Series: CostProjection] = [:]
    var timing = RemainingTime()
    var results: [(Cell, CellRunner.Result?)] = []
    func remaining(after index: Int) -> Double? {
      timing.seconds(
        remaining: plans[(index + 1)...], projections: projections,
        capped: Set(cappedSeries.keys), budget: runner.budget,
        repetitions: runner.totalRepetitions)
    }
    for (index, plan) in plans.enumerated() {
      // Skip a cell once its series ran out of time, or when the sizes measured so far
      // project it far past the budget: a pathological cell must not run for an hour, nor
      // even for its whole hard limit.
      let projected = projections[plan.series]?.projectedSeconds(
        n: plan.n, repetitions: runner.totalRepetitions(plan),
        minimumOperations: CellPolicy.minimumOperations(plan.workload, n: plan.n))
      if cappedSeries[plan.series] != nil
        || CellPolicy.skips(projectedSeconds: projected ?? 0, budget: runner.budget)
      {
        cappedSeries[plan.series] = cappedSeries[plan.series] ?? plan.n
        results.append((plan, nil))
        progress.advance(
          "\(plan.backend) \(plan.workload.rawValue) n=\(plan.n): capped",
          remainingSeconds: remaining(after: index))
        continue
      }
      let cellStart = DispatchTime.now()
      let result = runner.run(plan)
      timing.record(plan, seconds: Self.seconds(since: cellStart))
      switch result {
      case .finished(let outcome) where !outcome.capped:
        largestFinished[plan.series] = plan.n
        // Projections are made from times; counting instructions, work is fixed and the
        // budget is only a guard against a hang.
        if metric == .time, let summary = Summary(outcome.nanosecondsPerOperation) {
          projections[plan.series, default: CostProjection()].record(
            n: plan.n, secondsPerRepetition: outcome.secondsPerRepetition,
            nanosecondsPerOperation: summary.median)
        }
      case .finished, .timedOut: cappedSeries[plan.series] = plan.n
      case .failed: break
      }
      results.append((plan, result))
      progress.advance(
        "\(plan.allocator.rawValue) \(plan.backend) \(plan.workload.rawValue) \(plan.pattern.rawValue)"
          + (plan.depth > 0 ? " depth=\(plan.depth)" : "") + " n=\(plan.n)",
        remainingSeconds: remaining(after: index))
    }
    return SweepResult(
      results: results, largestFinished: largestFinished,
      wallSeconds: Self.seconds(since: start))
  }

  private static func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// A sweep that runs its cells with `runner` and measures `metric`.
  public init(runner: CellRunner, metric: Metric) {
    self.runner = runner
    self.metric = metric
  }
}

extension CellRunner {
  /// The runner a sweep of `metric` uses, launching this executable's `cell` subcommand.
  ///
  /// - Parameters:
  ///   - rows: the rows the sweep may measure, for whether each delivers synchronously.
  ///   - metric: time, or instructions (every process then runs under callgrind).
  ///   - jemalloc: the jemalloc to preload into cells of that allocator, if installed.
  ///   - repetitions: measured repetitions per cell (fewer at large sizes, see ``CellPolicy``).
  ///   - simulatesCaches: with instructions, have callgrind simulate the caches too.
  ///   - processes: processes per cell; `nil`: 3 for time, and for instructions 1 (3 for a
  ///     backend that delivers asynchronously, to measure its spread).
  ///   - budget: seconds per cell; `nil`: 1 for time, 120 for instructions (a guard only).
  /// - Throws: ``ToolError`` when instructions cannot be counted here, saying why.
  public static func forSweep(
    of rows: [MeasuredBackend], metric: Metric, jemalloc: String?, repetitions: Int,
    processes: Int?, budget: Double?,
    simulatesCaches: Bool
  ) throws -> CellRunner {
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var runner = CellRunner(
      executable: executable,
      jemallocPath: jemalloc,
      // At large sizes a repetition is mostly set-up and runs alone in its process: two
      // processes still show the noise between processes.
      repetitions: { n in CellPolicy.repetitions(repetitions, n: n) },
      budget: budget ?? (metric == .instructions ? 120 : 1), seed: 0x5EED,
      processes: { backend in
        if let processes { return processes }
        guard metric == .instructions else { return 3 }
        return rows.row(named: backend)?.deliversSynchronously ?? true ? 1 : 3
      })
    if metric == .instructions {
      do {
        runner.instructionCounter = try InstructionCounter.prepare(
          executable: executable, simulatesCaches: simulatesCaches)
      } catch let error as InstructionCounter.SetUpError {
        throw ToolError(error.description)
      }
    }
    return runner
  }
}
