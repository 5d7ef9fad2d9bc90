import ObservationCore
import Synchronization

@testable import ObservationConformance

/// The whole-suite reports of the test fixtures that several tests read (the correct twins
/// above all), run once per test process, each on a thread of its own (``ReportThreads``).
///
/// The stochastic (THR) rules make ``configuration``'s 50 iterations instead of 459, as
/// `emitterLoop` in `BrokenBackendTests` does: the tests that read these reports are about the
/// differential and open-choice rules, and on the thread-safe fixtures among them (the
/// coalescing and turn-queue backends) the THR rules at full strength, directly and through
/// the erased handles, were most of the reports' time. The THR rules are held at full strength
/// on the fixtures made for them (`BrokenBackendTests`) and on every built-in backend.
///
/// For the same reason the volume rules (MEM-05, MEM-07, SCALE-01's largest sizes) make a tenth
/// of their cycles and observers (``ConformanceConfiguration/volumeDivisor``): at full volume
/// they were most of what was left, about 2.5 s of processor time per fixture, directly and
/// erased. A fixture's fault they catch (a handler parked, a registry that keeps tombstones)
/// shows at the first thousand cycles as at the hundred-thousandth; the built-in backends run
/// them at full volume. The open points' twins run isolated too, with their THR rules at full
/// strength and the volume rules divided as here (`Tests/Fixtures/ConformanceFixtures`).
enum FixtureReports {
  /// The configuration the reports run with: the standard one, with
  /// ``ConformanceConfiguration/concurrencyProbeIterations`` of each stochastic rule and a
  /// tenth of the volume rules' cycles and observers.
  static let configuration = ConformanceConfiguration(
    stochasticIterations: ConformanceConfiguration.concurrencyProbeIterations, volumeDivisor: 10)

  private static let runs = Mutex<[String: Task<ConformanceReport, Never>]>([:])

  /// The report of `backend`, keyed by its name, run on first use.
  ///
  /// - Complexity: the whole suite on `backend` the first time (seconds); O(1) afterwards.
  static func report(_ backend: any ObservationBackend) async -> ConformanceReport {
    let run = runs.withLock { runs in
      if let started = runs[backend.name] { return started }
      nonisolated(unsafe) let fixture = backend
      let started = Task {
        await ReportThreads.run {
          ConformanceSuite.run(fixture, configuration: configuration)
        }
      }
      runs[backend.name] = started
      return started
    }
    return await run.value
  }
}
