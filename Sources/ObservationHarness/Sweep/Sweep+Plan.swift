import ObservationReports
import ObservationWorkloads

extension Sweep {
  /// Measures `plan` with cells of the running executable, which knows `rows`, and builds its
  /// report.
  ///
  /// - Parameters:
  ///   - jemalloc: the jemalloc library to preload in the plan's jemalloc cells; checked
  ///     before the first cell when the plan has any.
  ///   - environment: the machine and build the report is labelled with; its `sweep` becomes
  ///     the plan's ``SweepPlan/kind``.
  ///   - progress: where each cell measured is reported.
  /// - Returns: the report, and the sweep's wall-clock seconds.
  /// - Throws: when callgrind cannot count (instructions) or jemalloc cannot be used.
  package static func run(
    _ plan: SweepPlan, among rows: MeasuredRows, jemalloc: String?,
    environment: RunEnvironment, progress: SweepProgressFactory
  ) throws -> (report: Report, wallSeconds: Double) {
    let runner = try CellRunner.forSweep(
      of: rows.all, metric: plan.metric, jemalloc: jemalloc,
      repetitions: plan.repetitions, processes: plan.processes, budget: plan.budget,
      simulatesCaches: plan.simulatesCaches)
    defer { runner.instructionCounter?.removeScratch() }
    if plan.cells.contains(where: { $0.allocator == .jemalloc }) { try runner.checkJemalloc() }
    let sweep = Sweep(runner: runner, metric: plan.metric) { cell in
      rows.row(named: cell.backend)?.reasonNotMeasured(on: cell.workload)
    }
    .measure(plan.cells, progress: progress)
    var environment = environment
    environment.sweep = plan.kind
    let report = ReportBuilder(environment: environment, metric: plan.metric, rows: rows.all)
      .report(sweep.results, largestFinished: sweep.largestFinished)
    return (report, sweep.wallSeconds)
  }
}
