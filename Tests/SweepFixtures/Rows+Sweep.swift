import ObservationHarness
import ObservationReports
import ObservationWorkloads
import ReportFixtures

/// Fixtures: rows built as the sweep builds them, from what each cell measured, through the
/// harness's `ReportBuilder` (limit ratios, statuses and memory columns included).
extension Rows {
  /// A time cell's outcome: `samples` nanoseconds per operation, one per repetition, no
  /// allocation; `problem`, its self-check's failure, if any.
  package static func outcome(_ samples: [Double], problem: String? = nil) -> CellOutcome {
    var outcome = CellOutcome()
    outcome.nanosecondsPerOperation = samples
    outcome.problem = problem
    outcome.memoryMeasured = true
    outcome.allocationsPerOperation = 0
    outcome.bytesPerOperation = 0
    return outcome
  }

  /// An outcome as the sweep makes it from callgrind's counts: one count per process.
  package static func counted(_ instructions: [Double]) -> CellOutcome {
    var outcome = Rows.outcome([])
    outcome.instructionsPerOperation = instructions
    return outcome
  }

  /// The CSV report the sweep writes of `cells` (`nil`: a cell not run), measured in
  /// `environment`, of `metric`.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  package static func report(
    _ cells: [(Cell, CellRunner.Result?)], environment: RunEnvironment = environment,
    metric: Metric = .time
  ) -> String {
    ReportBuilder(environment: environment, metric: metric).report(cells, largestFinished: [:])
      .csv
  }
}
