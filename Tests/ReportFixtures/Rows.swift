import Foundation
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// Fixtures: rows as the sweep writes them.
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

  package static func report(
    _ cells: [(Cell, CellRunner.Result?)], environment: RunEnvironment = environment,
    metric: Metric = .time
  ) -> String {
    ReportBuilder(environment: environment, metric: metric).report(cells, largestFinished: [:])
      .csv
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
