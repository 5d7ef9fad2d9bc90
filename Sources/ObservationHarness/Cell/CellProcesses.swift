import Foundation
import ObservationReports

/// One cell's processes so far, merged into its outcome: a cell runs them one after another
/// (``CellRunner/run(_:)``), or a timed sweep runs one of each cell per round
/// (``Sweep/measure(_:progress:)``), so that a busy minute of the machine reaches one process of a
/// cell rather than all of them.
///
/// The budget holds for the whole cell, whenever its processes run: once the processes run so
/// far spent it, no further one starts, and a cell left with fewer than three repetitions (or
/// fewer than it asked for, if that is less) is capped. A process that reports a problem, is
/// capped, times out or fails ends the cell with its own result.
struct CellProcesses {
  let cell: Cell
  /// The processes the cell runs in all, and the repetitions each measures.
  let count: Int
  let repetitionsPerProcess: Int
  private(set) var started = 0
  private(set) var spentSeconds = 0.0
  private var merged = CellOutcome()
  /// Set when a process ended the cell early.
  private var ending: CellRunner.Result?

  /// `cell` before any of its processes ran, laid out as `runner` lays it out.
  init(_ cell: Cell, runner: CellRunner) {
    self.cell = cell
    (count, repetitionsPerProcess) = runner.layout(cell)
  }

  /// Whether no further process runs: all ran, one ended the cell, or the budget is spent.
  var isDone: Bool { ending != nil || started == count }

  /// Runs the cell's next process, unless the cell is done; `false` when it is (then or
  /// before).
  ///
  /// - Complexity: one process of the cell.
  mutating func runNext(with runner: CellRunner) -> Bool {
    guard !isDone else { return false }
    if started > 0 && spentSeconds > runner.budget {
      merged.capped = CellPolicy.isCapped(
        measured: merged.nanosecondsPerOperation.count, requested: count * repetitionsPerProcess)
      ending = .finished(merged)
      return false
    }
    let start = DispatchTime.now()
    let result = runner.runProcess(
      cell, repetitions: repetitionsPerProcess, budget: runner.budget / Double(count),
      scale: runner.instructionCounter == nil ? nil : runner.instructionScale)
    spentSeconds += Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    started += 1
    switch result {
    case .finished(let outcome) where outcome.problem == nil && !outcome.capped:
      merge(outcome)
    default:
      ending = result
    }
    return !isDone
  }

  /// What the cell's processes so far came to.
  var result: CellRunner.Result { ending ?? .finished(merged) }

  /// Whether the cell ended measured and not capped (so far).
  var isMeasured: Bool {
    if case .finished(let outcome) = result { return outcome.problem == nil && !outcome.capped }
    return false
  }

  private mutating func merge(_ outcome: CellOutcome) {
    merged.nanosecondsPerOperation += outcome.nanosecondsPerOperation
    merged.allocatorVersion = merged.allocatorVersion ?? outcome.allocatorVersion
    if let latencies = outcome.latencyNanoseconds {
      merged.latencyNanoseconds = (merged.latencyNanoseconds ?? []) + latencies
    }
    merged.instructionsPerOperation += outcome.instructionsPerOperation
    merged.d1MissesPerOperation += outcome.d1MissesPerOperation
    merged.llMissesPerOperation += outcome.llMissesPerOperation
    merged.allocationsPerOperation = outcome.allocationsPerOperation
    merged.bytesPerOperation = outcome.bytesPerOperation
    merged.retainedBytesPerObserver = outcome.retainedBytesPerObserver
    merged.memoryMeasured = outcome.memoryMeasured
    merged.wallSeconds += outcome.wallSeconds
    merged.secondsPerRepetition = max(merged.secondsPerRepetition, outcome.secondsPerRepetition)
  }
}
