import Foundation
import ObservationReports
import ObservationWorkloads

/// Fixtures: rows as the sweep writes them, built as results, without the harness that
/// measures them (`SweepFixtures` builds them from measured outcomes, as the sweep does).
package enum Rows {
  package static let environment = RunEnvironment(
    runID: "run1", commit: "abc123", date: "2026-11-20T10:00:00Z", host: "host", cpu: "cpu, model",
    cores: 2, os: "os", swift: "6.3", build: "release", sweep: .partial)

  /// `rows` written as a report of the older schema `version`, its columns only.
  package static func csv(_ rows: [CellResult], asSchema version: String) -> String {
    ReportSchema.csv(
      rows.map {
        var row = $0
        row.schema = version
        return row
      }, version: version)
  }

  package static func plan(
    _ backend: String = "linked-list", workload: Workload = .notify, n: Int = 16
  ) -> Cell {
    Cell(allocator: .jemalloc, backend: backend, workload: workload, n: n)
  }

  /// A finished time cell's result as the sweep writes one: the order statistics of
  /// `samples`, one per repetition, no allocation, and `ratioToLimit` as given.
  ///
  /// - Complexity: O(*s* log *s*) for *s* samples.
  package static func result(
    _ cell: Cell = plan(), _ samples: [Double], environment: RunEnvironment = environment,
    ratioToLimit: Double? = nil
  ) -> CellResult {
    var result = CellResult(cell: cell, environment: environment, metric: .time, status: .ok)
    result.repetitions = samples.count
    result.nanoseconds = CellResult.Quantiles(samples)
    result.ratioToLimit = ratioToLimit
    result.allocationsPerOperation = 0
    result.bytesPerOperation = 0
    return result
  }

  /// A finished instruction cell's result as the sweep writes one: the median of `counts`
  /// (one per process) and, of more than one, their spread.
  ///
  /// - Complexity: O(*c* log *c*) for *c* counts.
  package static func result(_ cell: Cell = plan(), instructions counts: [Double]) -> CellResult {
    var result = CellResult(
      cell: cell, environment: environment, metric: .instructions, status: .ok)
    let summary = CellResult.Quantiles(counts)
    result.repetitions = counts.count
    result.instructionsPerOperation = summary?.median
    if let summary, summary.median > 0, counts.count > 1 {
      result.instructionsSpread = (summary.max - summary.min) / summary.median
    }
    result.allocationsPerOperation = 0
    result.bytesPerOperation = 0
    return result
  }

  /// The result of a cell that was not measured: `status` says why.
  package static func result(_ cell: Cell = plan(), status: CellResult.Status) -> CellResult {
    CellResult(cell: cell, environment: environment, metric: .time, status: status)
  }

  /// The CSV report of `results`, in their order.
  package static func report(_ results: [CellResult]) -> String {
    Report(results).csv
  }

  /// Writes `text` to a new file called `name` in ``directory`` and returns its path.
  package static func write(_ text: String, name: String = UUID().uuidString + ".csv") -> String {
    let path = directory.appendingPathComponent(name).path
    try! text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  /// A directory of this test process's own, removed when the process exits, so that a run of
  /// the tests leaves none of the reports it wrote behind.
  package static let directory: URL = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-test-reports-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: Rows.directory) }
    return directory
  }()
}
