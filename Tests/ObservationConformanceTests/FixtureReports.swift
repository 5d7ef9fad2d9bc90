import ObservationCore
import Synchronization

@testable import ObservationConformance

/// The whole-suite reports of the test fixtures that several tests read (the correct twins
/// above all), run once per test process, each on a thread of its own (``ReportThreads``).
///
/// Every fixture here is single-threaded (none declares `threadSafe`), so the stochastic
/// rules are `n/a` in process and the standard configuration costs no more than a smaller one.
enum FixtureReports {
  private static let runs = Mutex<[String: Task<ConformanceReport, Never>]>([:])

  /// The report of `backend`, keyed by its name, run on first use.
  ///
  /// - Complexity: the whole suite on `backend` the first time (seconds); O(1) afterwards.
  static func report(_ backend: any ObservationBackend) async -> ConformanceReport {
    let run = runs.withLock { runs in
      if let started = runs[backend.name] { return started }
      nonisolated(unsafe) let fixture = backend
      let started = Task { await ReportThreads.run { ConformanceSuite.run(fixture) } }
      runs[backend.name] = started
      return started
    }
    return await run.value
  }
}
