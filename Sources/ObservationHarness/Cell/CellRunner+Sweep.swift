import Foundation
import ObservationReports
import ObservationWorkloads

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
  /// - Throws: ``HarnessError`` when instructions cannot be counted here, saying why.
  package static func forSweep(
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
        throw HarnessError(error.description)
      }
    }
    return runner
  }
}
